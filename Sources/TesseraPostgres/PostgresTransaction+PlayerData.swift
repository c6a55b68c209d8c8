#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// A player's own data (``PlayerDataStorage``) as PostgreSQL reads and forgets it.
    extension PostgresTransaction {
        func analyses(of player: UserID) async throws -> [DailyGameKey: String] {
            guard let key = try await rowID(of: player) else { return [:] }
            var analyses: [DailyGameKey: String] = [:]
            let rows = try await all(
                "SELECT language, puzzle, analysis FROM game WHERE player_id = \(key) AND analysis_state = \(AnalysisState.done.rawValue)"
            ) { try $0.decode((String, Int, String).self) }
            for row in rows {
                guard let language = Language(rawValue: row.0) else {
                    throw PostgresStoreError.damagedRow(column: "game.language")
                }
                analyses[DailyGameKey(language: language, puzzle: PuzzleNumber(row.1))] = row.2
            }
            return analyses
        }

        func forget(_ player: UserID) async throws -> Bool {
            defer { ids.forgetAll() }
            guard let stored = try await self.player(player), let key = try await rowID(of: player) else {
                return false
            }
            // Games, memberships, board results and totals go with the player (ON DELETE CASCADE).
            try await execute("DELETE FROM player WHERE id = \(key)")
            if let directChat = stored.directChat {
                try await execute(
                    "DELETE FROM chat WHERE platform = \(directChat.platform.rawValue) AND address = \(directChat.value)"
                )
                try await execute(
                    """
                    DELETE FROM live_message WHERE platform = \(directChat.platform.rawValue)
                        AND address = \(directChat.value)
                    """)
            }
            return true
        }
    }
#endif
