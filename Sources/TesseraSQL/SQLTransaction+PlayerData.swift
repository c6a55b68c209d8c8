public import TesseraCore
public import TesseraEngine

// A player's own data and what stays of them once forgotten (``PlayerDataStorage``): the statements both
// dialects share.
extension SQLTransaction {
    public func practiceAnalyses(of player: UserID) async throws -> [Int: String] {
        guard let key = try await rowID(of: player) else { return [:] }
        let rows = try await session.all(
            """
            SELECT number, analysis FROM practice_game
            WHERE player_id = \(key) AND analysis_state = \(AnalysisState.done.rawValue)
            """, table: "practice_game"
        ) { (try $0.int("number"), try $0.string("analysis")) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func guardReplay(_ key: String, until puzzle: PuzzleNumber) async throws {
        try await session.execute(
            "INSERT INTO replay_guard (key, puzzle) VALUES (\(key), \(puzzle.rawValue)) ON CONFLICT DO NOTHING")
    }

    public func isReplayGuarded(_ key: String) async throws -> Bool {
        try await !session.rows("SELECT 1 FROM replay_guard WHERE key = \(key)").isEmpty
    }

    public func removeReplayGuards(before puzzle: PuzzleNumber) async throws {
        try await session.execute("DELETE FROM replay_guard WHERE puzzle < \(puzzle.rawValue)")
        try await session.execute("DELETE FROM practice_start WHERE puzzle < \(puzzle.rawValue)")
    }
}
