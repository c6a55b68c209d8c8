#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// Analyses (``AnalysisStorage``) as PostgreSQL runs them: waiting games leased with `SKIP LOCKED`, saving one;
    /// the rest are shared (`SQLTransaction+Analyses.swift`).
    extension PostgresTransaction {
        func pendingAnalyses(on platform: Platform?, limit: Int) async throws -> [StoredGame] {
            let name = platform?.rawValue
            return try await session.all(
                """
                SELECT p.platform, p.account, \(unescaped: SQLColumns.gameSelection(of: "g")) FROM game g
                JOIN player p ON p.id = g.player_id
                WHERE g.analysis_state IN \(unescaped: AnalysisState.waitingList) AND (\(name)::text IS NULL OR p.platform = \(name))
                ORDER BY g.analysis_state DESC, g.finished_at LIMIT \(limit)
                """, table: "game"
            ) { try $0.decode(GameColumns.self).game() }
        }

        func saveAnalysis(_ json: String?, of player: UserID, language: Language, puzzle: PuzzleNumber) async throws
            -> Bool
        {
            guard let key = try await rowID(of: player) else { return false }
            // The state before the update, from the row the update locked.
            let shown = try await one(
                """
                UPDATE game g SET analysis_state = \(AnalysisState.finished(json).rawValue), analysis = \(json)
                FROM (SELECT player_id, language, puzzle, analysis_state FROM game
                    WHERE player_id = \(key) AND language = \(language.rawValue) AND puzzle = \(puzzle.rawValue)
                    FOR UPDATE) old
                WHERE g.player_id = old.player_id AND g.language = old.language AND g.puzzle = old.puzzle
                    AND old.analysis_state IN \(unescaped: AnalysisState.waitingList)
                RETURNING old.analysis_state = \(AnalysisState.shown.rawValue)
                """
            ) { try $0.decode(Bool.self) }
            return shown ?? false
        }

        func pendingPracticeAnalyses(on platform: Platform?, limit: Int) async throws -> [PracticeGame] {
            let name = platform?.rawValue
            return try await session.all(
                """
                SELECT p.platform, p.account, g.* FROM practice_game g JOIN player p ON p.id = g.player_id
                WHERE g.analysis_state IN \(unescaped: AnalysisState.waitingList) AND (\(name)::text IS NULL OR p.platform = \(name))
                ORDER BY g.analysis_state DESC, g.finished_at LIMIT \(limit)
                """, table: "practice_game"
            ) { row in try row.practiceGame(of: row.user()) }
        }

        func savePracticeAnalysis(_ json: String?, of player: UserID, number: Int) async throws -> Bool {
            guard let key = try await rowID(of: player) else { return false }
            // The state before the update, from the row the update locked.
            let shown = try await one(
                """
                UPDATE practice_game g SET analysis_state = \(AnalysisState.finished(json).rawValue), analysis = \(json)
                FROM (SELECT player_id, number, analysis_state FROM practice_game
                    WHERE player_id = \(key) AND number = \(number) FOR UPDATE) old
                WHERE g.player_id = old.player_id AND g.number = old.number AND old.analysis_state IN \(unescaped: AnalysisState.waitingList)
                RETURNING old.analysis_state = \(AnalysisState.shown.rawValue)
                """
            ) { try $0.decode(Bool.self) }
            return shown ?? false
        }

        func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) async throws -> [UserID: String] {
            var analyses: [UserID: String] = [:]
            // One query a platform, as for the grids.
            for (platform, members) in Dictionary(grouping: players, by: \.platform) {
                let rows = try await all(
                    """
                    SELECT p.account, g.analysis FROM game g JOIN player p ON p.id = g.player_id
                    WHERE p.platform = \(platform.rawValue) AND p.account = ANY(\(members.map(\.value)))
                        AND g.language = \(language.rawValue) AND g.puzzle = \(puzzle.rawValue)
                        AND g.analysis_state = \(AnalysisState.done.rawValue)
                    """
                ) { try $0.decode((String, String).self) }
                for (account, json) in rows { analyses[UserID(platform, account)] = json }
            }
            return analyses
        }
    }
#endif
