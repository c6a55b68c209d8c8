import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// A player's own data (``PlayerDataStorage``) as SQLite reads and forgets it.
extension SQLiteTransaction {
    /// Deletes a player, and their direct chat (read by the shared statements) with its live messages.
    func forget(_ player: UserID, directChat: ChatID?) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        // Games, memberships, board results and totals go with the player (ON DELETE CASCADE).
        try db.executeCached(sql: "DELETE FROM player WHERE id = ?", arguments: [key])
        if let directChat {
            for table in ["chat", "live_message"] {
                try db.executeCached(
                    sql: "DELETE FROM \(table) WHERE platform = ? AND address = ?",
                    arguments: [directChat.platform.rawValue, directChat.value])
            }
        }
        return true
    }
}
