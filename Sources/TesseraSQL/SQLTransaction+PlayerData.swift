public import TesseraCore
public import TesseraEngine

// A player's own data and what stays of them once forgotten (``PlayerDataStorage``): the statements both
// dialects share.
extension SQLTransaction {
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
