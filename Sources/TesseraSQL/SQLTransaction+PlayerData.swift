public import TesseraCore
public import TesseraEngine

// A player's own data and what stays of them once forgotten (``PlayerDataStorage``): the statements both
// dialects share.
extension SQLTransaction {
    public func data(of player: UserID) async throws -> PlayerData? {
        guard let stored = try await self.player(player), let key = try await rowID(of: player) else { return nil }
        let games = try await session.all(
            "SELECT \(unescaped: SQLColumns.gameSelection) FROM game WHERE player_id = \(key) ORDER BY language, puzzle",
            table: "game"
        ) { try $0.game(of: player) }
        let memberships = try await session.all(
            """
            SELECT chat.platform, chat.address, m.joined_puzzle FROM chat_member m JOIN chat ON chat.id = m.chat_id
            WHERE m.player_id = \(key) ORDER BY chat.address
            """, table: "chat_member"
        ) { row in
            guard let platform = Platform(rawValue: try row.string("platform")) else {
                throw DamagedColumn("platform")
            }
            return PlayerData.Membership(
                chat: ChatID(platform, try row.string("address")),
                joinedPuzzle: PuzzleNumber(try row.int("joined_puzzle")))
        }
        let results = try await session.all(
            """
            SELECT chat.platform, chat.address, \(unescaped: SQLColumns.resultSelection(of: "r"))
            FROM board_result r JOIN chat ON chat.id = r.chat_id
            WHERE r.player_id = \(key) ORDER BY chat.address, r.board, r.puzzle
            """, table: "board_result"
        ) { try $0.decode(ResultColumns.self).result(of: player) }
        return PlayerData(
            player: stored, games: games, practiceGames: try await practiceGames(of: player),
            memberships: memberships, results: results)
    }

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
