import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// A player's own data (``PlayerDataStorage``) as SQLite reads and forgets it.
extension SQLiteTransaction {
    /// Everything stored about a stored player (the player and their practice games read by the shared
    /// statements).
    func data(of stored: Player, practiceGames: [PracticeGame]) throws -> PlayerData? {
        let player = stored.id
        guard let key = try rowID(of: player) else { return nil }
        let games = try db.cachedRows(
            sql: "SELECT \(SQLColumns.gameSelection) FROM game WHERE player_id = ? ORDER BY language, puzzle",
            arguments: [key]
        ).map { try Self.game($0, of: player) }
        let memberships = try db.cachedRows(
            sql: """
                SELECT chat.platform, chat.address, joined_puzzle FROM chat_member JOIN chat ON chat.id = chat_id
                WHERE player_id = ? ORDER BY chat.address
                """,
            arguments: [key]
        ).map { row in
            PlayerData.Membership(
                chat: try Self.chat(row, in: "chat_member"),
                joinedPuzzle: PuzzleNumber(try row.required("joined_puzzle", in: "chat_member")))
        }
        let results = try db.cachedRows(
            sql: """
                SELECT board_result.*, chat.platform, chat.address FROM board_result JOIN chat ON chat.id = chat_id
                WHERE player_id = ? ORDER BY chat.address, board, puzzle
                """,
            arguments: [key]
        ).map { try Self.boardResult($0, of: player) }
        return PlayerData(
            player: stored, games: games, practiceGames: practiceGames, memberships: memberships,
            results: results)
    }

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
