public import TesseraCore
public import TesseraEngine

// Play (``PlayStorage``): the statements both dialects share.
extension SQLTransaction {
    public func practiceStarts(_ key: String) async throws -> Int {
        try await session.one("SELECT games FROM practice_start WHERE key = \(key)", table: "practice_start") {
            try $0.int("games")
        } ?? 0
    }

    public func countPracticeStart(_ key: String, until puzzle: PuzzleNumber) async throws {
        try await session.execute(
            """
            INSERT INTO practice_start (key, puzzle, games) VALUES (\(key), \(puzzle.rawValue), 1)
            ON CONFLICT (key) DO UPDATE SET games = practice_start.games + 1
            """)
    }
}
