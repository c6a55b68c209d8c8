public import TesseraCore
public import TesseraEngine

// Analyses (``AnalysisStorage``, the states of `analysis_state` are ``AnalysisState``'s): the statements both
// dialects share. Waiting games and saving an analysis stay each dialect's: PostgreSQL locks the rows it reads.
extension SQLTransaction {
    public func requestAnalysis(of player: UserID, language: Language, puzzle: PuzzleNumber, show: Bool)
        async throws
    {
        guard let key = try await rowID(of: player) else { return }
        try await requestAnalysis(
            in: AnalysedRow.daily(key, language, puzzle), state: AnalysisState.requested(show: show).rawValue)
    }

    public func requestPracticeAnalysis(of player: UserID, number: Int, show: Bool) async throws {
        guard let key = try await rowID(of: player) else { return }
        try await requestAnalysis(
            in: AnalysedRow.practice(key, number), state: AnalysisState.requested(show: show).rawValue)
    }

    public func analysis(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredAnalysis? {
        guard let key = try await rowID(of: player) else { return nil }
        return try await analysis(in: AnalysedRow.daily(key, language, puzzle))
    }

    public func practiceAnalysis(of player: UserID, number: Int) async throws -> StoredAnalysis? {
        guard let key = try await rowID(of: player) else { return nil }
        return try await analysis(in: AnalysedRow.practice(key, number))
    }

    public func recentAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String] {
        try await recentAnalyses(in: "game", newestFirst: "puzzle", of: player, language: language, limit: limit)
    }

    public func recentPracticeAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String] {
        try await recentAnalyses(
            in: "practice_game", newestFirst: "number", of: player, language: language, limit: limit)
    }

    /// Raises a game's state to `state` (a request to show it outranks one not to), unless it is analysed.
    private func requestAnalysis(in row: AnalysedRow, state: Int) async throws {
        try await session.execute(
            """
            UPDATE \(unescaped: row.table)
            SET analysis_state = CASE WHEN coalesce(analysis_state, 0) > \(state) THEN analysis_state ELSE \(state) END
            WHERE \(row.clause) AND (analysis_state IS NULL OR analysis_state < \(AnalysisState.done.rawValue))
            """)
    }

    private func analysis(in row: AnalysedRow) async throws -> StoredAnalysis? {
        try await session.one(
            "SELECT analysis_state, analysis FROM \(unescaped: row.table) WHERE \(row.clause)", table: row.table
        ) {
            try AnalysisState.analysis(
                state: try $0.optionalInt("analysis_state"), json: try $0.optionalString("analysis"))
        }
            ?? nil
    }

    /// The analyses of a table's games (`game`, `practice_game`), newest by `order` first.
    private func recentAnalyses(
        in table: String, newestFirst order: String, of player: UserID, language: Language, limit: Int
    ) async throws -> [String] {
        guard let key = try await rowID(of: player) else { return [] }
        return try await session.all(
            """
            SELECT analysis FROM \(unescaped: table)
            WHERE player_id = \(key) AND language = \(language.rawValue) AND analysis_state = \(AnalysisState.done.rawValue)
            ORDER BY \(unescaped: order) DESC LIMIT \(limit)
            """, table: table
        ) { try $0.string("analysis") }
    }
}

/// The row of one game an analysis is of: a daily game in `game`, or a practice game in `practice_game`.
struct AnalysedRow {
    let table: String
    let clause: SQLQuery

    static func daily(_ key: Int64, _ language: Language, _ puzzle: PuzzleNumber) -> AnalysedRow {
        AnalysedRow(
            table: "game",
            clause: "player_id = \(key) AND language = \(language.rawValue) AND puzzle = \(puzzle.rawValue)")
    }

    static func practice(_ key: Int64, _ number: Int) -> AnalysedRow {
        AnalysedRow(table: "practice_game", clause: "player_id = \(key) AND number = \(number)")
    }
}
