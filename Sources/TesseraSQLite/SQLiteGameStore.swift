public import Foundation
import GRDB
public import Logging
import TesseraCore
public import TesseraEngine

/// The embedded default store: SQLite through GRDB, in WAL mode with `synchronous = FULL`, so a committed
/// transaction survives a crash or power loss.
public final class SQLiteGameStore: GameStore {
    private let writer: any DatabaseWriter
    private let location: String

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// Throws ``SQLiteStoreError`` with advice when the file is not a database, is damaged, or was written
    /// by a newer Tessera.
    public convenience init(path: String, logger: Logger) throws {
        let pool: DatabasePool
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            pool = try DatabasePool(path: path, configuration: configuration)
            // DatabasePool sets synchronous = NORMAL on its writer when it enables WAL; durability needs FULL,
            // and it only sticks when set after opening.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw SQLiteStoreError.cannotOpen(path: path, underlying: error)
        }
        try self.init(writer: pool, location: path)
        logger.info("Opened the database", metadata: ["database.path": "\(path)"])
    }

    /// A private in-memory database, for tests and trying things out.
    public static func inMemory() throws -> SQLiteGameStore {
        try SQLiteGameStore(writer: DatabaseQueue(), location: ":memory:")
    }

    private init(writer: any DatabaseWriter, location: String) throws {
        self.writer = writer
        self.location = location
        try Self.migrate(writer, location: location)
    }

    /// The `PRAGMA synchronous` level of the connection that writes: 2 is FULL.
    public func synchronousLevel() async throws -> Int {
        try await writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    // MARK: - GameStore

    public func write<Result: Sendable>(
        _ body: @Sendable (any GameStoreTransaction) throws -> Result
    ) async throws -> Result {
        try await writer.write { db in try body(SQLiteTransaction(db: db)) }
    }

    public func position(of transport: String) async throws -> Int64? {
        try await writer.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT next FROM transport_position WHERE transport = ?", arguments: [transport])
        }
    }

    public func processBatch<Result: Sendable>(
        transport: String,
        nextPosition: Int64,
        _ body: @Sendable (any GameStoreTransaction) throws -> Result
    ) async throws -> Result {
        try await writer.write { db in
            let result = try body(SQLiteTransaction(db: db))
            try db.execute(
                sql: """
                    INSERT INTO transport_position (transport, next) VALUES (?, ?)
                    ON CONFLICT (transport) DO UPDATE SET next = excluded.next
                    """,
                arguments: [transport, nextPosition]
            )
            return result
        }
    }

    public func pendingMessages(limit: Int, now: Date) async throws -> [OutboxEntry] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, chat_id, html, reply_to FROM outbox WHERE not_before <= ? ORDER BY id LIMIT ?",
                arguments: [now.timeIntervalSince1970, limit]
            ).map { row in
                OutboxEntry(
                    id: try row.required("id", in: "outbox"),
                    message: OutgoingMessage(
                        chat: ChatID(try row.required("chat_id", in: "outbox")),
                        html: try row.required("html", in: "outbox"),
                        replyTo: row["reply_to"]
                    )
                )
            }
        }
    }

    /// Removing a sent message commits without waiting for the disk (`synchronous = NORMAL`, still safe
    /// against a crash of the process in WAL mode): should a power cut undo it, the message is sent once more,
    /// and nothing is lost. Everything else commits with FULL.
    public func markSent(_ id: Int64) async throws {
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let deleted = Result {
                try db.inTransaction {
                    try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id])
                    return .commit
                }
            }
            // Back to FULL before anything else commits on this connection, whatever the delete did.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try deleted.get()
        }
    }

    public func postpone(_ id: Int64, until: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET not_before = ? WHERE id = ?",
                arguments: [until.timeIntervalSince1970, id]
            )
        }
    }

    public func deactivateChat(_ chat: ChatID) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO chat (id, active) VALUES (?, 0) ON CONFLICT (id) DO UPDATE SET active = 0",
                arguments: [chat.rawValue]
            )
            try db.execute(sql: "DELETE FROM outbox WHERE chat_id = ?", arguments: [chat.rawValue])
        }
    }

    /// Whether the bot may post in a chat (chats never marked inactive are active).
    public func isChatActive(_ chat: ChatID) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT active FROM chat WHERE id = ?", arguments: [chat.rawValue]) ?? true
        }
    }

    public func setting(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        }
    }

    public func setSetting(_ key: String, _ value: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [key, value]
            )
        }
    }

    // MARK: - Schema

    static func migrate(_ writer: any DatabaseWriter, location: String) throws {
        let migrator = Self.migrator
        do {
            let superseded = try writer.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                let known = Set(migrator.migrations)
                let applied = try writer.read { db in try migrator.appliedIdentifiers(db) }
                throw SQLiteStoreError.newerSchema(
                    path: location, unknownMigrations: applied.subtracting(known).sorted())
            }
            try migrator.migrate(writer)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError.cannotOpen(path: location, underlying: error)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: players, games, chats, outbox") { db in
            try db.execute(
                sql: """
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE transport_position (transport TEXT PRIMARY KEY NOT NULL, next INTEGER NOT NULL);
                    CREATE TABLE player (
                        id INTEGER PRIMARY KEY NOT NULL,
                        display_name TEXT NOT NULL,
                        language TEXT NOT NULL,
                        time_zone TEXT NOT NULL,
                        rollover_hour INTEGER NOT NULL,
                        pending_time_zone TEXT,
                        pending_from INTEGER,
                        prefers_hard_mode INTEGER NOT NULL
                    );
                    CREATE TABLE game (
                        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                        language TEXT NOT NULL,
                        puzzle INTEGER NOT NULL,
                        hard_mode INTEGER NOT NULL,
                        guesses TEXT NOT NULL,
                        won_in INTEGER,
                        lost INTEGER NOT NULL DEFAULT 0,
                        finished_at REAL,
                        PRIMARY KEY (player_id, language, puzzle)
                    );
                    CREATE TABLE chat_member (
                        chat_id INTEGER NOT NULL,
                        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                        PRIMARY KEY (chat_id, player_id)
                    );
                    CREATE TABLE outbox (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        chat_id INTEGER NOT NULL,
                        html TEXT NOT NULL,
                        reply_to INTEGER,
                        not_before REAL NOT NULL DEFAULT 0
                    );
                    """
            )
        }
        migrator.registerMigration("v2: chat activity") { db in
            try db.execute(
                sql: "CREATE TABLE chat (id INTEGER PRIMARY KEY NOT NULL, active INTEGER NOT NULL DEFAULT 1)")
        }
        return migrator
    }
}

/// Why the database cannot be used, and what to do.
public enum SQLiteStoreError: Error, CustomStringConvertible {
    case cannotOpen(path: String, underlying: any Error)
    case newerSchema(path: String, unknownMigrations: [String])
    case damagedRow(table: String, column: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let underlying):
            "Cannot use the database at \(path): \(underlying). If the file is damaged or not a Tessera database, "
                + "restore it from a backup or set TESSERA_DATABASE to another path."
        case .newerSchema(let path, let migrations):
            "The database at \(path) was written by a newer Tessera (schema changes "
                + "\(migrations.joined(separator: ", "))). Upgrade tessera; this version will not touch it."
        case .damagedRow(let table, let column):
            "The database has a damaged row in \(table): \(column) is missing or of the wrong type. "
                + "Restore the database from a backup."
        }
    }
}

extension Row {
    /// A column's value, or an error naming it when it is NULL or not convertible (never a crash).
    func required<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        guard let value = Value.fromDatabaseValue(self[column] as DatabaseValue) else {
            throw SQLiteStoreError.damagedRow(table: table, column: column)
        }
        return value
    }
}
