public import TesseraCore
public import TesseraEngine

// Play (``PlayStorage``): the statements both dialects share.
extension SQLTransaction {
    public func player(_ id: UserID) async throws -> Player? {
        try await session.one(
            "SELECT * FROM player WHERE platform = \(id.platform.rawValue) AND account = \(session.account(id))",
            table: "player"
        ) { try $0.player() }
    }

    public func save(_ player: Player) async throws {
        let columns = SQLColumns(PlayerColumns(player), replacing: ["account": session.account(player.id)])
        try await session.execute(columns.upsert(into: "player", keys: ["platform", "account"]))
    }

    public func game(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredGame? {
        guard let key = try await rowID(of: player) else { return nil }
        return try await session.one(
            """
            SELECT \(unescaped: SQLColumns.gameSelection) FROM game WHERE player_id = \(key) AND language = \(language.rawValue) AND puzzle = \(puzzle.rawValue)
            """, table: "game"
        ) { try $0.game(of: player) }
    }

    public func save(_ game: StoredGame) async throws {
        guard let key = try await rowID(of: game.player) else { throw StoreMisuse.unknownPlayer(game.player) }
        let columns = SQLColumns(
            GameColumns(game), leading: [("player_id", .integer(key))], omitting: ["platform", "account"])
        try await session.execute(columns.upsert(into: "game", keys: ["player_id", "language", "puzzle"]))
    }

    public func finishedGames(of player: UserID, language: Language) async throws -> [PlayedGame] {
        guard let key = try await rowID(of: player) else { return [] }
        return try await session.all(
            """
            SELECT \(unescaped: SQLColumns.gameSelection) FROM game
            WHERE player_id = \(key) AND language = \(language.rawValue) AND (won_in IS NOT NULL OR lost)
            """, table: "game"
        ) { row in try row.game(of: player) }.compactMap { game in
            game.result.map { PlayedGame(puzzle: game.puzzle, result: $0) }
        }
    }

    // MARK: Practice and archive games

    public func latestPracticeGame(of player: UserID) async throws -> PracticeGame? {
        guard let key = try await rowID(of: player) else { return nil }
        return try await session.one(
            "SELECT \(unescaped: practiceGameColumns) FROM practice_game WHERE player_id = \(key) ORDER BY number DESC LIMIT 1",
            table: "practice_game"
        ) { try $0.practiceGame(of: player) }
    }

    public func save(_ game: PracticeGame) async throws {
        guard let key = try await rowID(of: game.player) else { throw StoreMisuse.unknownPlayer(game.player) }
        let columns = SQLColumns(PracticeGameColumns(game), leading: [("player_id", .integer(key))])
        try await session.execute(columns.upsert(into: "practice_game", keys: ["player_id", "number"]))
    }

    /// Every practice and archive game of a player, by number.
    public func practiceGames(of player: UserID) async throws -> [PracticeGame] {
        guard let key = try await rowID(of: player) else { return [] }
        return try await session.all(
            "SELECT \(unescaped: practiceGameColumns) FROM practice_game WHERE player_id = \(key) ORDER BY number",
            table: "practice_game"
        ) { try $0.practiceGame(of: player) }
    }

    public func practiceGame(of player: UserID, number: Int) async throws -> PracticeGame? {
        guard let key = try await rowID(of: player) else { return nil }
        return try await session.one(
            "SELECT \(unescaped: practiceGameColumns) FROM practice_game WHERE player_id = \(key) AND number = \(number)",
            table: "practice_game"
        ) { try $0.practiceGame(of: player) }
    }

    public func practiceResults(of player: UserID, language: Language) async throws -> PracticeResults {
        guard let key = try await rowID(of: player) else { return PracticeResults() }
        let rows = try await session.all(
            """
            SELECT won_in, abandoned, count(*) AS games FROM practice_game
            WHERE player_id = \(key) AND language = \(language.rawValue) AND (won_in IS NOT NULL OR lost)
                AND NOT (abandoned AND guesses = '')
            GROUP BY won_in, abandoned
            """, table: "practice_game"
        ) { row in
            (wonIn: try row.optionalInt("won_in"), abandoned: try row.bool("abandoned"), games: try row.int("games"))
        }
        var results = PracticeResults()
        for row in rows {
            if row.abandoned {
                results.givenUp += row.games
            } else {
                results.finished[row.wonIn.map { .won(guesses: $0) } ?? .lost, default: 0] += row.games
            }
        }
        return results
    }

    public func archiveResults(of player: UserID, language: Language) async throws -> [PuzzleNumber: GameResult] {
        guard let key = try await rowID(of: player) else { return [:] }
        let rows = try await session.all(
            """
            SELECT archive_puzzle, won_in FROM practice_game
            WHERE player_id = \(key) AND language = \(language.rawValue) AND archive_puzzle IS NOT NULL
                AND (won_in IS NOT NULL OR lost)
            """, table: "practice_game"
        ) { row in
            (
                PuzzleNumber(try row.int("archive_puzzle")),
                try row.optionalInt("won_in").map { GameResult.won(guesses: $0) } ?? .lost
            )
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

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
