import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// The outbox (``OutboxStorage``) as SQLite writes it.
extension SQLiteTransaction {
    func enqueue(_ messages: [OutgoingMessage]) throws {
        for message in messages {
            let stored = try MessageColumns(message)
            try db.executeCached(
                sql: """
                    INSERT INTO outbox (platform, address, chat_kind, html, reply_to, thread, buttons, document_name,
                        document, at_most_once, silent, action, live, reposts_live, effect, rich)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    stored.platform, stored.address, stored.chatKind, stored.html, stored.replyTo, stored.thread,
                    stored.buttons, stored.documentName, stored.document, stored.atMostOnce, stored.silent,
                    stored.action, stored.live, stored.repostsLive, stored.effect, stored.rich,
                ]
            )
        }
    }
}
