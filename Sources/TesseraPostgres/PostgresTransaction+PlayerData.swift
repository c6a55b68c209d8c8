#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// A player's own data (``PlayerDataStorage``) as PostgreSQL reads and forgets it.
    extension PostgresTransaction {
        func data(of player: UserID) async throws -> PlayerData? {
            guard let stored = try await self.player(player), let key = try await rowID(of: player) else { return nil }
            let games = try await session.all(
                "SELECT \(unescaped: SQLColumns.gameSelection) FROM game WHERE player_id = \(key) ORDER BY language, puzzle",
                table: "game"
            ) { try $0.game(of: player) }
            let memberships = try await all(
                """
                SELECT chat.platform, chat.address, m.joined_puzzle FROM chat_member m JOIN chat ON chat.id = m.chat_id
                WHERE m.player_id = \(key) ORDER BY chat.address
                """
            ) { try $0.decode((String, String, Int).self) }.map { row in
                guard let platform = Platform(rawValue: row.0) else {
                    throw PostgresStoreError.damagedRow(column: "chat.platform")
                }
                return PlayerData.Membership(chat: ChatID(platform, row.1), joinedPuzzle: PuzzleNumber(row.2))
            }
            let results = try await all(
                """
                SELECT chat.platform, chat.address, r.board, r.puzzle, r.language, r.guesses, r.hard_mode,
                    r.finished_at, r.streak_before
                FROM board_result r JOIN chat ON chat.id = r.chat_id
                WHERE r.player_id = \(key) ORDER BY chat.address, r.board, r.puzzle
                """
            ) { try $0.decode((String, String, String, Int, String, Int?, Bool, Double, Int).self) }.map { row in
                guard let platform = Platform(rawValue: row.0), let board = BoardKind(rawValue: row.2),
                    let language = Language(rawValue: row.4)
                else { throw PostgresStoreError.damagedRow(column: "board_result") }
                return BoardResult(
                    chat: ChatID(platform, row.1), board: board, puzzle: PuzzleNumber(row.3), player: player,
                    language: language, guesses: row.5, hardMode: row.6, finishedAt: Date(timeIntervalSince1970: row.7),
                    streakBefore: row.8)
            }
            return PlayerData(
                player: stored, games: games, practiceGames: try await practiceGames(of: player),
                memberships: memberships, results: results)
        }

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
