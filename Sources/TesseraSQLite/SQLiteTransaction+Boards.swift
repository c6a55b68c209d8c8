import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// Groups' boards (``GroupStorage``) as SQLite runs them: totals, results, standings and a day's members,
/// the large ones scanned through SQLite's C API.
extension SQLiteTransaction {
    /// A row of `board_total` read back.
    static func boardTotals(_ row: Row) throws -> BoardTotals {
        try checked("board_total") { try SQLRow(row).boardTotals() }
    }

    func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) throws -> [Standing] {
        // A large board has thousands of members. Range scans of the period's totals, of the all-time
        // streaks and of the members, all in player order and merged here, read straight from SQLite's C API,
        // cost a fraction of joining each member to its totals by key and decoding every value through GRDB.
        // The columns are NOT NULL integers and text by the schema.
        guard let chatKey = try rowID(of: chat) else { return [] }
        struct Totals: ScannedRow {
            var player: Int64
            var totals: ScannedTotals
            var streak: AllTimeStreak
        }
        func int(_ row: SQLiteStatement, _ index: Int32) -> Int { Int(sqlite3_column_int64(row, index)) }
        var totals: [Totals] = []
        try scan(
            """
            SELECT player_id, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
            WHERE chat_id = ? AND board = ? AND period = ? ORDER BY player_id
            """, [chatKey, board.rawValue, period.rawValue]
        ) { row in
            let player = sqlite3_column_int64(row, 0)
            totals.append(
                Totals(
                    player: player,
                    totals: ScannedTotals(
                        points: int(row, 1), played: int(row, 2), wins: int(row, 3), winningGuesses: int(row, 4)),
                    streak: AllTimeStreak(
                        player: player,
                        streak: ScannedStreak(streak: int(row, 5), lastPuzzle: PuzzleNumber(int(row, 6))))))
        }
        // The streak is the one of the latest result: the all-time row's (the period's own, all time).
        let streaks = period == .all ? totals.map(\.streak) : try allTimeStreaks(chatKey: chatKey, board: board)
        var standings: [Standing] = []
        // Most members have a total: one allocation, no copies as the array grows.
        standings.reserveCapacity(max(totals.count, streaks.count))
        var memberTotals = InPlayerOrder(totals)
        var memberStreaks = InPlayerOrder(streaks)
        var members = Set<Int64>()
        members.reserveCapacity(totals.count)
        try scan(Self.memberScan, [chatKey]) { row in
            let player = sqlite3_column_int64(row, 0)
            members.insert(player)
            standings.append(
                Standing(
                    member: Self.member(row, account: 3, of: chat), name: Self.text(row, 1),
                    joinedPuzzle: PuzzleNumber(int(row, 2)), totals: memberTotals.row(of: player)?.totals,
                    allTime: memberStreaks.row(of: player)?.streak))
        }
        // Who left the board keeps the days they played in the period (``Standing/isMember``).
        let left = totals.filter { $0.totals.keepsPlayerWhoLeft && !members.contains($0.player) }
        guard !left.isEmpty else { return standings }
        let leftStreaks = Dictionary(streaks.map { ($0.player, $0) }, uniquingKeysWith: { first, _ in first })
        let leftTotals = Dictionary(left.map { ($0.player, $0) }, uniquingKeysWith: { first, _ in first })
        try scan(
            "SELECT id, display_name, account FROM player WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            [Self.jsonArray(left.map { String($0.player) })]
        ) { row in
            let key = sqlite3_column_int64(row, 0)
            guard let total = leftTotals[key],
                let standing = Standing(
                    leftBoard: Self.member(row, account: 2, of: chat), name: Self.text(row, 1), totals: total.totals,
                    allTime: leftStreaks[key]?.streak)
            else { return }
            standings.append(standing)
        }
        return standings
    }

    /// A board's members in player order: row id, name, joined puzzle, account, zone, rollover hour, and a
    /// pending zone with the puzzle it takes effect on.
    private static let memberScan = """
        SELECT m.player_id, p.display_name, m.joined_puzzle, p.account, p.time_zone, p.rollover_hour,
            p.pending_time_zone, p.pending_from
        FROM chat_member m JOIN player p ON p.id = m.player_id WHERE m.chat_id = ? ORDER BY m.player_id
        """

    /// Runs a statement, with `read` reading each row straight from SQLite's C API.
    private func scan(_ sql: String, _ arguments: StatementArguments, _ read: (SQLiteStatement) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while try cursor.next() != nil { try read(statement.sqliteStatement) }
    }

    private struct AllTimeStreak: ScannedRow {
        let player: Int64
        let streak: ScannedStreak
    }

    /// The all-time streaks of a board's members, in player order.
    private func allTimeStreaks(chatKey: Int64, board: BoardKind) throws -> [AllTimeStreak] {
        var streaks: [AllTimeStreak] = []
        try scan(
            """
            SELECT player_id, streak, last_puzzle FROM board_total
            WHERE chat_id = ? AND board = ? AND period = 'all' ORDER BY player_id
            """, [chatKey, board.rawValue]
        ) { row in
            streaks.append(
                AllTimeStreak(
                    player: sqlite3_column_int64(row, 0),
                    streak: ScannedStreak(
                        streak: Int(sqlite3_column_int64(row, 1)),
                        lastPuzzle: PuzzleNumber(Int(sqlite3_column_int64(row, 2))))))
        }
        return streaks
    }

    /// A row of a board's scan: whose it is, by the player's row id.
    private protocol ScannedRow { var player: Int64 { get } }

    /// Rows of a scan in player order, matched to members read in the same order: each member's row, if any.
    /// Rows of players who left the board are passed over.
    private struct InPlayerOrder<Element: ScannedRow> {
        private let rows: [Element]
        private var next = 0

        init(_ rows: [Element]) { self.rows = rows }

        mutating func row(of member: Int64) -> Element? {
            while next < rows.count && rows[next].player < member { next += 1 }
            return next < rows.count && rows[next].player == member ? rows[next] : nil
        }
    }

    func dayMembers(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) throws -> [DayMember] {
        // Read like the standings: the day's results, the all-time streaks and the members, each a range scan
        // in player order, merged here.
        guard let chatKey = try rowID(of: chat) else { return [] }
        struct DayResult: ScannedRow {
            let player: Int64
            let language: Language, guesses: Int?, hardMode: Bool, finishedAt: Date, streakBefore: Int
        }
        var results: [DayResult] = []
        try scan(
            """
            SELECT player_id, language, guesses, hard_mode, finished_at, streak_before FROM board_result
            WHERE chat_id = ? AND board = ? AND puzzle = ? ORDER BY player_id
            """, [chatKey, board.rawValue, puzzle.rawValue]
        ) { row in
            guard let language = Language(rawValue: Self.text(row, 1)) else {
                throw SQLiteStoreError.damagedRow(table: "board_result", column: "language")
            }
            results.append(
                DayResult(
                    player: sqlite3_column_int64(row, 0), language: language,
                    guesses: sqlite3_column_type(row, 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 2)),
                    hardMode: sqlite3_column_int64(row, 3) != 0,
                    finishedAt: Date(timeIntervalSince1970: sqlite3_column_double(row, 4)),
                    streakBefore: Int(sqlite3_column_int64(row, 5))))
        }
        let streaks = try allTimeStreaks(chatKey: chatKey, board: board)
        var members: [DayMember] = []
        members.reserveCapacity(streaks.count)
        var memberResults = InPlayerOrder(results)
        var memberStreaks = InPlayerOrder(streaks)
        try scan(Self.memberScan, [chatKey]) { row in
            let key = sqlite3_column_int64(row, 0)
            let player = Self.member(row, account: 3, of: chat)
            members.append(
                DayMember(
                    member: player, name: Self.text(row, 1),
                    joinedPuzzle: PuzzleNumber(Int(sqlite3_column_int64(row, 2))),
                    day: MemberDay(
                        timeZone: Self.text(row, 4), rolloverHour: Int(sqlite3_column_int64(row, 5)),
                        pendingTimeZone: sqlite3_column_type(row, 6) == SQLITE_NULL ? nil : Self.text(row, 6),
                        pendingFrom: sqlite3_column_type(row, 7) == SQLITE_NULL
                            ? nil : PuzzleNumber(Int(sqlite3_column_int64(row, 7)))),
                    result: memberResults.row(of: key).map {
                        BoardResult(
                            chat: chat, board: board, puzzle: puzzle, player: player, language: $0.language,
                            guesses: $0.guesses, hardMode: $0.hardMode, finishedAt: $0.finishedAt,
                            streakBefore: $0.streakBefore)
                    },
                    allTime: memberStreaks.row(of: key)?.streak))
        }
        return members
    }

    func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) throws -> [(
        name: String, result: BoardResult
    )] {
        // Read like the standings: a large group has thousands of results a day.
        guard let chatKey = try rowID(of: chat) else { return [] }
        let statement = try db.cachedStatement(
            sql: """
                SELECT p.display_name, p.account, r.language, r.guesses, r.hard_mode, r.finished_at, r.streak_before
                FROM board_result r
                JOIN player p ON p.id = r.player_id
                WHERE r.chat_id = ?1 AND r.board = ?2 AND r.puzzle = ?3 AND \(Self.onBoard)
                """)
        let cursor = try Row.fetchCursor(
            statement, arguments: [chatKey, board.rawValue, puzzle.rawValue, board.isMembersOnly])
        let row = statement.sqliteStatement
        var results: [(name: String, result: BoardResult)] = []
        while try cursor.next() != nil {
            results.append(try Self.boardResult(row, chat: chat, day: BoardDay(board, puzzle)))
        }
        return results
    }

    /// Whether a result `r` is on its board (``BoardKind/isMembersOnly``, as the argument `?4`): Tessera's and
    /// Wordle's boards list their members' results; the other puzzles', anyone's who pasted one here.
    private static let onBoard =
        "(?4 = 0 OR EXISTS (SELECT 1 FROM chat_member m WHERE m.chat_id = r.chat_id AND m.player_id = r.player_id))"

    /// A result read with its member's name, in the columns `display_name, account, language, guesses,
    /// hard_mode, finished_at, streak_before`.
    private static func boardResult(_ row: SQLiteStatement, chat: ChatID, day: BoardDay) throws -> (
        name: String, result: BoardResult
    ) {
        guard let language = Language(rawValue: text(row, 2)) else {
            throw SQLiteStoreError.damagedRow(table: "board_result", column: "language")
        }
        let result = BoardResult(
            chat: chat, board: day.board, puzzle: day.puzzle, player: member(row, account: 1, of: chat),
            language: language,
            guesses: sqlite3_column_type(row, 3) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 3)),
            hardMode: sqlite3_column_int64(row, 4) != 0,
            finishedAt: Date(timeIntervalSince1970: sqlite3_column_double(row, 5)),
            streakBefore: Int(sqlite3_column_int64(row, 6)))
        return (name: text(row, 0), result: result)
    }

    func crowns(
        of players: [UserID], in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber
    ) throws -> [UserID: Int] {
        guard !players.isEmpty, first <= last, let chatKey = try rowID(of: chat) else { return [:] }
        // A day's best is one seek in board_result_best; then each player's result of each day, by key.
        let statement = try db.cachedStatement(
            sql: """
                WITH RECURSIVE day(puzzle) AS (SELECT ?3 UNION ALL SELECT puzzle + 1 FROM day WHERE puzzle < ?4),
                best AS (
                    SELECT puzzle, (
                        SELECT MIN(guesses) FROM board_result
                        WHERE chat_id = ?1 AND board = ?2 AND puzzle = day.puzzle AND guesses IS NOT NULL
                    ) AS guesses
                    FROM day)
                SELECT p.account, COUNT(*) FROM best
                JOIN player p ON p.platform = ?5 AND p.account IN (\(Array(repeating: "?", count: players.count)
                    .joined(separator: ", ")))
                JOIN board_result r ON r.chat_id = ?1 AND r.board = ?2 AND r.puzzle = best.puzzle
                    AND r.player_id = p.id AND r.guesses = best.guesses
                GROUP BY p.id
                """)
        let arguments =
            [chatKey, board.rawValue, first.rawValue, last.rawValue, chat.platform.rawValue]
            as [any DatabaseValueConvertible] + players.map(Self.account)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
        let row = statement.sqliteStatement
        var crowns: [UserID: Int] = [:]
        while try cursor.next() != nil {
            crowns[Self.member(row, account: 0, of: chat)] = Int(sqlite3_column_int64(row, 1))
        }
        return crowns
    }

    func firstResults(in chat: ChatID, of days: [BoardDay], limit: Int) throws -> [BoardKind: FirstResults] {
        guard let chatKey = try rowID(of: chat) else { return [:] }
        // Sorted on the result's own columns and cut before any name is read: only the rows shown are joined.
        let statement = try db.cachedStatement(
            sql: """
                SELECT p.display_name, p.account, r.language, r.guesses, r.hard_mode, r.finished_at, r.streak_before
                FROM (
                    SELECT player_id, language, guesses, hard_mode, finished_at, streak_before FROM board_result r
                    WHERE chat_id = ?1 AND board = ?2 AND puzzle = ?3 AND \(Self.onBoard)
                    ORDER BY guesses IS NULL, guesses, finished_at LIMIT ?5
                ) r
                JOIN player p ON p.id = r.player_id
                """)
        let counting = try db.cachedStatement(
            sql: """
                SELECT COUNT(*) FROM board_result r WHERE chat_id = ?1 AND board = ?2 AND puzzle = ?3 AND \(Self.onBoard)
                """)
        let row = statement.sqliteStatement
        var first: [BoardKind: FirstResults] = [:]
        for day in days {
            let arguments: StatementArguments = [
                chatKey, day.board.rawValue, day.puzzle.rawValue, day.board.isMembersOnly,
            ]
            let count = try Int.fetchOne(counting, arguments: arguments) ?? 0
            guard count > 0 else { continue }
            var results: [(name: String, result: BoardResult)] = []
            let cursor = try Row.fetchCursor(statement, arguments: arguments + [limit])
            while try cursor.next() != nil { results.append(try Self.boardResult(row, chat: chat, day: day)) }
            first[day.board] = FirstResults(results: results, count: count)
        }
        return first
    }

    func records(in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber) throws
        -> [UserID: BoardRecord]
    {
        guard let chatKey = try rowID(of: chat) else { return [:] }
        // Each day's best win, then each player's results against it (who left the board too): one pass over
        // the days' results.
        let statement = try db.cachedStatement(
            sql: """
                WITH best AS (
                    SELECT puzzle, MIN(guesses) AS guesses FROM board_result
                    WHERE chat_id = ?1 AND board = ?2 AND puzzle BETWEEN ?3 AND ?4 AND guesses IS NOT NULL
                    GROUP BY puzzle)
                SELECT p.account, COUNT(best.puzzle),
                    COALESCE(MAX(CASE WHEN r.guesses IS NOT NULL THEN r.streak_before + 1 END), 0)
                FROM board_result r
                LEFT JOIN best ON best.puzzle = r.puzzle AND best.guesses = r.guesses
                JOIN player p ON p.id = r.player_id
                WHERE r.chat_id = ?1 AND r.board = ?2 AND r.puzzle BETWEEN ?3 AND ?4
                GROUP BY r.player_id
                """)
        let cursor = try Row.fetchCursor(
            statement, arguments: [chatKey, board.rawValue, first.rawValue, last.rawValue])
        let row = statement.sqliteStatement
        var records: [UserID: BoardRecord] = [:]
        while try cursor.next() != nil {
            records[Self.member(row, account: 0, of: chat)] = BoardRecord(
                crowns: Int(sqlite3_column_int64(row, 1)), bestStreak: Int(sqlite3_column_int64(row, 2)))
        }
        return records
    }
}
