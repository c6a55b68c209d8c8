import Foundation
public import TesseraCore
public import TesseraEngine

// Groups' boards (``GroupStorage``): the statements both dialects share. The large boards' reads (standings, a
// day's members and results, crowns) stay each dialect's, tuned for it.
extension SQLTransaction {
    public func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) async throws
        -> [PeriodKey: BoardTotals]
    {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return [:] }
        let rows = try await session.all(
            """
            SELECT period, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
            WHERE chat_id = \(chatKey) AND board = \(board.rawValue) AND player_id = \(key)
                AND period IN (\(list: periods.map(\.rawValue)))
            """, table: "board_total"
        ) { (PeriodKey(rawValue: try $0.string("period")), try $0.boardTotals()) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    public func officialResults(of player: UserID) async throws -> [PlayedGame] {
        guard let key = try await rowID(of: player) else { return [] }
        return try await session.all(
            """
            SELECT puzzle, guesses FROM board_result WHERE player_id = \(key) AND board = \(BoardKind.official.rawValue)
            """, table: "board_result"
        ) { row in
            PlayedGame(
                puzzle: PuzzleNumber(try row.int("puzzle")),
                result: try row.optionalInt("guesses").map { .won(guesses: $0) } ?? .lost)
        }
    }

    public func outcomes(of player: UserID, in chat: ChatID, board: BoardKind, through puzzle: PuzzleNumber)
        async throws -> [(puzzle: PuzzleNumber, won: Bool)]
    {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return [] }
        return try await session.all(
            """
            SELECT puzzle, guesses IS NOT NULL AS won FROM board_result
            WHERE chat_id = \(chatKey) AND board = \(board.rawValue) AND player_id = \(key)
                AND puzzle <= \(puzzle.rawValue)
            ORDER BY puzzle DESC
            """, table: "board_result"
        ) { (puzzle: PuzzleNumber(try $0.int("puzzle")), won: try $0.bool("won")) }
    }

    public func result(of player: UserID, in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws
        -> BoardResult?
    {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return nil }
        return try await session.one(
            """
            SELECT chat.platform, chat.address, \(unescaped: SQLColumns.resultSelection(of: "r"))
            FROM board_result r JOIN chat ON chat.id = r.chat_id
            WHERE r.chat_id = \(chatKey) AND r.board = \(board.rawValue) AND r.player_id = \(key)
                AND r.puzzle = \(puzzle.rawValue)
            """, table: "board_result"
        ) { try $0.decode(ResultColumns.self).result(of: player) }
    }

    public func countedGames(of players: [UserID], in chat: ChatID, puzzle: PuzzleNumber) async throws
        -> [UserID: StoredGame]
    {
        guard let chatKey = try await rowID(of: chat) else { return [:] }
        var games: [UserID: StoredGame] = [:]
        for (platform, accounts) in Dictionary(grouping: players, by: \.platform) {
            for game in try await session.all(
                """
                SELECT p.platform, p.account, \(unescaped: SQLColumns.gameSelection(of: "g")) FROM board_result r
                JOIN player p ON p.id = r.player_id
                JOIN game g ON g.player_id = r.player_id AND g.language = r.language AND g.puzzle = r.puzzle
                WHERE r.chat_id = \(chatKey) AND r.board = \(BoardKind.tessera.rawValue) AND r.puzzle = \(puzzle.rawValue)
                    AND p.platform = \(platform.rawValue) AND p.account IN (\(list: accounts.map { session.account($0) }))
                """, table: "game",
                { row in try row.game(of: try row.user()) })
            {
                games[game.player] = game
            }
        }
        return games
    }

    public func record(_ result: BoardResult, totals: [PeriodKey: BoardTotals]) async throws -> Bool {
        guard let player = try await rowID(of: result.player) else { throw StoreMisuse.unknownPlayer(result.player) }
        let chat = try await storedRowID(of: result.chat)
        let inserted = try await session.changes(
            """
            \(SQLColumns(ResultColumns(result), leading: [("chat_id", .integer(chat)), ("player_id", .integer(player))],
                omitting: ["platform", "address"]).insert(into: "board_result"))
            ON CONFLICT DO NOTHING
            """)
        guard inserted > 0 else { return false }
        // The engine computed the totals: they are stored as they are.
        for (period, total) in totals {
            let columns = SQLColumns(
                TotalsColumns(total, through: result.puzzle),
                leading: [
                    ("chat_id", .integer(chat)), ("board", .text(result.board.rawValue)),
                    ("period", .text(period.rawValue)), ("player_id", .integer(player)),
                ])
            try await session.execute(columns.upsert(into: "board_total", keys: SQLColumns.totalsKey))
        }
        return true
    }

    public func standing(of player: UserID, in chat: ChatID, board: BoardKind) async throws -> Standing? {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return nil }
        return try await session.one(
            """
            SELECT p.display_name, t.points, t.played, t.wins, t.winning_guesses, t.streak, t.last_puzzle,
                coalesce(m.joined_puzzle, 0) AS joined_puzzle
            FROM board_total t JOIN player p ON p.id = t.player_id
            LEFT JOIN chat_member m ON m.chat_id = t.chat_id AND m.player_id = t.player_id
            WHERE t.chat_id = \(chatKey) AND t.board = \(board.rawValue) AND t.period = 'all' AND t.player_id = \(key)
            """, table: "board_total"
        ) { row in
            let totals = try row.boardTotals()
            return Standing(
                player: player, name: try row.string("display_name"), points: totals.points, played: totals.played,
                wins: totals.wins, winningGuesses: totals.winningGuesses, streak: totals.streak,
                lastPuzzle: totals.lastPuzzle, joinedPuzzle: PuzzleNumber(try row.int("joined_puzzle")))
        }
    }
}

extension SQLRow {
    /// A row of `board_total`'s counts (``TotalsColumns``).
    public func boardTotals() throws -> BoardTotals { try decode(TotalsColumns.self).totals }
}

extension SQLColumns {
    /// The key of a row of `board_total`: its totals are ``TotalsColumns``.
    public static let totalsKey = ["chat_id", "board", "period", "player_id"]
}
