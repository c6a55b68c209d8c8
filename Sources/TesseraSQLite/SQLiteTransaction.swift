import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// The SQL of each engine operation (``GameStoreTransaction``) on one connection inside a write transaction.
///
/// Players and chats are keyed by integer row ids in every table, so boards join and merge on integers; the
/// platform's id of each is a column of `player` (`platform`, `account`) and `chat` (`platform`, `address`),
/// looked up through a unique index where the engine names one.
struct SQLiteTransaction {
    let db: Database

    // MARK: - Keys

    /// The row id of a stored player.
    func rowID(of player: UserID) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM player WHERE platform = ? AND account = ?"),
            arguments: [player.platform.rawValue, Self.account(player)])
    }

    /// How `player.account` keeps an id: an integer for one spelled as a number, text otherwise.
    static func account(_ player: UserID) -> any DatabaseValueConvertible {
        player.number.map { $0 as any DatabaseValueConvertible } ?? player.value
    }

    /// The row id of a chat the store knows.
    func rowID(of chat: ChatID) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM chat WHERE platform = ? AND address = ?"),
            arguments: [chat.platform.rawValue, chat.value])
    }

    /// The row id of a chat, stored now if it was not.
    func storedRowID(of chat: ChatID) throws -> Int64 {
        if let key = try rowID(of: chat) { return key }
        try db.executeCached(
            sql: "INSERT INTO chat (platform, address) VALUES (?, ?)", arguments: [chat.platform.rawValue, chat.value])
        return db.lastInsertedRowID
    }

    // MARK: - Players and games

    // MARK: - Practice and archive games

    // MARK: - Analyses

    /// The row of one game an analysis is of: a daily game in `game`, or a practice game in `practice_game`.
    struct AnalysedRow {
        let table: String
        let clause: String
        let arguments: StatementArguments

        static func daily(_ key: Int64, _ language: Language, _ puzzle: PuzzleNumber) -> AnalysedRow {
            AnalysedRow(
                table: "game", clause: "player_id = ? AND language = ? AND puzzle = ?",
                arguments: [key, language.rawValue, puzzle.rawValue])
        }

        static func practice(_ key: Int64, _ number: Int) -> AnalysedRow {
            AnalysedRow(table: "practice_game", clause: "player_id = ? AND number = ?", arguments: [key, number])
        }
    }

    /// Waiting games of a table, in the order ``GameStoreTransaction/pendingAnalyses(on:limit:)`` gives.
    private func pendingAnalyses(in table: String, on platform: Platform?, limit: Int) throws -> [Row] {
        try db.cachedRows(
            sql: """
                SELECT \(table).*, player.platform, player.account FROM \(table)
                JOIN player ON player.id = \(table).player_id
                WHERE \(table).analysis_state IN \(AnalysisState.waitingList) AND (?1 IS NULL OR player.platform = ?1)
                ORDER BY \(table).analysis_state DESC, \(table).finished_at LIMIT ?2
                """,
            arguments: [platform?.rawValue, limit])
    }

    func pendingAnalyses(on platform: Platform?, limit: Int) throws -> [StoredGame] {
        try pendingAnalyses(in: "game", on: platform, limit: limit).map { row in
            try Self.game(row, of: try Self.user(row))
        }
    }

    func pendingPracticeAnalyses(on platform: Platform?, limit: Int) throws -> [PracticeGame] {
        try pendingAnalyses(in: "practice_game", on: platform, limit: limit).map { row in
            try SQLRow.reading("practice_game") { try SQLRow(row).practiceGame(of: try Self.user(row)) }
        }
    }

    func saveAnalysis(_ json: String?, of player: UserID, language: Language, puzzle: PuzzleNumber) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        return try saveAnalysis(json, of: .daily(key, language, puzzle))
    }

    func savePracticeAnalysis(_ json: String?, of player: UserID, number: Int) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        return try saveAnalysis(json, of: .practice(key, number))
    }

    private func saveAnalysis(_ json: String?, of row: AnalysedRow) throws -> Bool {
        let state = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT analysis_state FROM \(row.table) WHERE \(row.clause)"),
            arguments: row.arguments)
        guard let state, state == AnalysisState.pending.rawValue || state == AnalysisState.shown.rawValue else {
            return false
        }
        try db.executeCached(
            sql: "UPDATE \(row.table) SET analysis_state = ?, analysis = ? WHERE \(row.clause)",
            arguments: [AnalysisState.finished(json).rawValue, json] + row.arguments)
        return state == AnalysisState.shown.rawValue
    }

    func analyses(of player: UserID) throws -> [DailyGameKey: String] {
        guard let key = try rowID(of: player) else { return [:] }
        var analyses: [DailyGameKey: String] = [:]
        for row in try db.cachedRows(
            sql:
                "SELECT language, puzzle, analysis FROM game WHERE player_id = ? AND analysis_state = \(AnalysisState.done.rawValue)",
            arguments: [key])
        {
            let code: String = try row.required("language", in: "game")
            guard let language = Language(rawValue: code) else {
                throw SQLiteStoreError.damagedRow(table: "game", column: "language")
            }
            analyses[DailyGameKey(language: language, puzzle: PuzzleNumber(try row.required("puzzle", in: "game")))] =
                try row.required("analysis", in: "game")
        }
        return analyses
    }

    func practiceAnalyses(of player: UserID) throws -> [Int: String] {
        guard let key = try rowID(of: player) else { return [:] }
        var analyses: [Int: String] = [:]
        for row in try db.cachedRows(
            sql:
                "SELECT number, analysis FROM practice_game WHERE player_id = ? AND analysis_state = \(AnalysisState.done.rawValue)",
            arguments: [key])
        {
            analyses[try row.required("number", in: "practice_game")] = try row.required(
                "analysis", in: "practice_game")
        }
        return analyses
    }

    func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) throws -> [UserID: String] {
        var analyses: [UserID: String] = [:]
        for player in players {
            analyses[player] = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT analysis FROM game
                        WHERE player_id = (SELECT id FROM player WHERE platform = ? AND account = ?)
                            AND language = ? AND puzzle = ? AND analysis_state = \(AnalysisState.done.rawValue)
                        """),
                arguments: [player.platform.rawValue, Self.account(player), language.rawValue, puzzle.rawValue])
        }
        return analyses
    }

    // MARK: - Groups

    /// The columns ``group(_:)`` reads: a group's settings and its chat's platform id.
    static let groupColumns = "chat_group.*, chat.platform AS platform, chat.address AS address"

    func group(_ chat: ChatID) throws -> Group? {
        try db.cachedRow(
            sql: """
                SELECT \(Self.groupColumns) FROM chat JOIN chat_group ON chat_group.id = chat.id
                WHERE chat.platform = ? AND chat.address = ?
                """,
            arguments: [chat.platform.rawValue, chat.value]
        ).map(Self.group)
    }

    func save(_ group: Group) throws {
        let row = GroupColumns(group)
        try db.executeCached(
            sql: """
                INSERT INTO chat_group (id, time_zone, rollover_hour, language, hard_mode_required, summary_enabled,
                    summary_hour, topic, last_closed_puzzle, last_revealed_puzzle, pending_time_zone,
                    pending_rollover_hour, pending_language, pending_from, last_closed_language, deletion_explained,
                    practice_shares_explained, team)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone,
                    rollover_hour = excluded.rollover_hour, language = excluded.language,
                    hard_mode_required = excluded.hard_mode_required, summary_enabled = excluded.summary_enabled,
                    summary_hour = excluded.summary_hour, topic = excluded.topic,
                    last_closed_puzzle = excluded.last_closed_puzzle,
                    last_revealed_puzzle = excluded.last_revealed_puzzle,
                    pending_time_zone = excluded.pending_time_zone,
                    pending_rollover_hour = excluded.pending_rollover_hour,
                    pending_language = excluded.pending_language, pending_from = excluded.pending_from,
                    last_closed_language = excluded.last_closed_language,
                    deletion_explained = excluded.deletion_explained,
                    practice_shares_explained = excluded.practice_shares_explained, team = excluded.team
                """,
            arguments: [
                try storedRowID(of: group.chat), row.timeZone, row.rolloverHour, row.language, row.hardModeRequired,
                row.summaryEnabled, row.summaryHour, row.topic, row.lastClosedPuzzle, row.lastRevealedPuzzle,
                row.pendingTimeZone, row.pendingRolloverHour, row.pendingLanguage, row.pendingFrom,
                row.lastClosedLanguage, row.deletionExplained, row.practiceSharesExplained, row.team,
            ]
        )
    }

    func activeGroups(on platform: Platform?) throws -> [Group] {
        try db.cachedRows(
            sql: """
                SELECT \(Self.groupColumns) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.active = 1 AND (?1 IS NULL OR chat.platform = ?1)
                """,
            arguments: [platform?.rawValue]
        ).map(Self.group)
    }

    func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
        throws -> [MemberDay]
    {
        guard let chatKey = try rowID(of: chat) else { return [] }
        return try db.cachedRows(
            sql: """
                SELECT DISTINCT player.time_zone, player.rollover_hour, player.pending_time_zone, player.pending_from
                FROM chat_member
                JOIN player ON player.id = chat_member.player_id WHERE chat_member.chat_id = ?
                AND NOT EXISTS (
                    SELECT 1 FROM board_result r WHERE r.chat_id = chat_member.chat_id
                    AND r.player_id = chat_member.player_id
                    AND ((r.board = ? AND r.puzzle = ?) OR (r.board = ? AND r.puzzle = ?)))
                """,
            arguments: [
                chatKey, BoardKind.tessera.rawValue, puzzle.rawValue, BoardKind.official.rawValue, official.rawValue,
            ]
        ).map {
            MemberDay(
                timeZone: $0[0], rolloverHour: $0[1], pendingTimeZone: $0[2],
                pendingFrom: ($0[3] as Int?).map { PuzzleNumber($0) })
        }
    }

    func groups(of player: UserID) throws -> [Group] {
        guard let key = try rowID(of: player) else { return [] }
        return try db.cachedRows(
            sql: """
                SELECT \(Self.groupColumns) FROM chat_member JOIN chat_group ON chat_group.id = chat_member.chat_id
                JOIN chat ON chat.id = chat_member.chat_id
                WHERE chat_member.player_id = ?
                """,
            arguments: [key]
        ).map(Self.group)
    }

    func groups(crowning player: UserID) throws -> [Group] {
        // The team is JSON: a search for the account as JSON writes it, then the rule read from the decoded team.
        try db.cachedRows(
            sql: """
                SELECT \(Self.groupColumns) FROM chat_group JOIN chat ON chat.id = chat_group.id
                WHERE chat.platform = ? AND instr(chat_group.team, ?) > 0
                """,
            arguments: [player.platform.rawValue, GroupTeam.searchKey(for: player)]
        ).map(Self.group).filter { $0.team.champions.contains(player) }
    }

    func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) throws -> Bool {
        guard let key = try rowID(of: player) else { throw StoreMisuse.unknownPlayer(player) }
        // A group's members are people of its platform: boards read their ids on that alone.
        guard player.platform == chat.platform else { throw StoreMisuse.memberOfAnotherPlatform(player, chat) }
        try db.executeCached(
            sql: "INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [try storedRowID(of: chat), key, joinedPuzzle.rawValue]
        )
        return db.changesCount > 0
    }

    // MARK: - Boards

    func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) throws
        -> [PeriodKey: BoardTotals]
    {
        guard let key = try rowID(of: player), let chatKey = try rowID(of: chat), !periods.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT period, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
                    WHERE chat_id = ? AND board = ? AND player_id = ? AND period IN (SELECT value FROM json_each(?))
                    """),
            arguments: [chatKey, board.rawValue, key, Self.jsonArray(periods.map(\.rawValue))])
        var totals: [PeriodKey: BoardTotals] = [:]
        for row in rows {
            totals[PeriodKey(rawValue: try row.required("period", in: "board_total"))] = try Self.boardTotals(row)
        }
        return totals
    }

    /// A row of `board_total` read back.
    static func boardTotals(_ row: Row) throws -> BoardTotals {
        let lastPuzzle: Int? = row["last_puzzle"]
        return BoardTotals(
            points: try row.required("points", in: "board_total"),
            played: try row.required("played", in: "board_total"),
            wins: try row.required("wins", in: "board_total"),
            winningGuesses: try row.required("winning_guesses", in: "board_total"),
            streak: try row.required("streak", in: "board_total"), lastPuzzle: lastPuzzle.map(PuzzleNumber.init))
    }

    func officialResults(of player: UserID) throws -> [PlayedGame] {
        guard let key = try rowID(of: player) else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT puzzle, guesses FROM board_result WHERE player_id = ? AND board = ?"),
            arguments: [key, BoardKind.official.rawValue]
        ).map { row in
            let guesses: Int? = row["guesses"]
            return PlayedGame(
                puzzle: PuzzleNumber(try row.required("puzzle", in: "board_result")),
                result: guesses.map { .won(guesses: $0) } ?? .lost)
        }
    }

    func outcomes(of player: UserID, in chat: ChatID, board: BoardKind, through puzzle: PuzzleNumber) throws
        -> [(puzzle: PuzzleNumber, won: Bool)]
    {
        guard let key = try rowID(of: player), let chatKey = try rowID(of: chat) else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT puzzle, guesses IS NOT NULL AS won FROM board_result
                    WHERE chat_id = ? AND board = ? AND player_id = ? AND puzzle <= ? ORDER BY puzzle DESC
                    """),
            arguments: [chatKey, board.rawValue, key, puzzle.rawValue]
        ).map { row in
            (PuzzleNumber(try row.required("puzzle", in: "board_result")), try row.required("won", in: "board_result"))
        }
    }

    func record(_ result: BoardResult, totals: [PeriodKey: BoardTotals]) throws -> Bool {
        guard let player = try rowID(of: result.player) else { throw StoreMisuse.unknownPlayer(result.player) }
        let chat = try storedRowID(of: result.chat)
        try db.executeCached(
            sql: """
                INSERT INTO board_result (chat_id, board, puzzle, player_id, language, guesses, hard_mode,
                    finished_at, streak_before)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
            arguments: [
                chat, result.board.rawValue, result.puzzle.rawValue, player, result.language.rawValue,
                result.guesses, result.hardMode, result.finishedAt.timeIntervalSince1970, result.streakBefore,
            ]
        )
        guard db.changesCount > 0 else { return false }
        // The engine computed the totals: they are stored as they are.
        for (period, total) in totals {
            try db.executeCached(
                sql: """
                    INSERT INTO board_total (chat_id, board, period, player_id, points, played, wins,
                        winning_guesses, streak, last_puzzle)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (chat_id, board, period, player_id) DO UPDATE SET points = excluded.points,
                        played = excluded.played, wins = excluded.wins, winning_guesses = excluded.winning_guesses,
                        streak = excluded.streak, last_puzzle = excluded.last_puzzle
                    """,
                arguments: [
                    chat, result.board.rawValue, period.rawValue, player, total.points, total.played, total.wins,
                    total.winningGuesses, total.streak, total.lastPuzzle?.rawValue,
                ]
            )
        }
        return true
    }

    /// A JSON array of texts, for `json_each`: one statement for any number of values.
    func standing(of player: UserID, in chat: ChatID, board: BoardKind) throws -> Standing? {
        guard let key = try rowID(of: player), let chatKey = try rowID(of: chat) else { return nil }
        return try db.cachedRow(
            sql: """
                SELECT p.platform, p.account, p.display_name, t.points, t.played, t.wins, t.winning_guesses, t.streak,
                    t.last_puzzle, coalesce(m.joined_puzzle, 0)
                FROM board_total t JOIN player p ON p.id = t.player_id
                LEFT JOIN chat_member m ON m.chat_id = t.chat_id AND m.player_id = t.player_id
                WHERE t.chat_id = ? AND t.board = ? AND t.period = 'all' AND t.player_id = ?
                """,
            arguments: [chatKey, board.rawValue, key]
        ).map(Self.standing)
    }

    func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) throws -> [Standing] {
        // A large board has thousands of members. Range scans of the period's totals, of the all-time
        // streaks and of the members, all in player order and merged here, read straight from SQLite's C API,
        // cost a fraction of joining each member to its totals by key and decoding every value through GRDB.
        // The columns are NOT NULL integers and text by the schema.
        guard let chatKey = try rowID(of: chat) else { return [] }
        struct Totals: ScannedRow {
            var player: Int64
            var points: Int, played: Int, wins: Int, winningGuesses: Int, streak: Int, lastPuzzle: Int
        }
        func int(_ row: SQLiteStatement, _ index: Int32) -> Int { Int(sqlite3_column_int64(row, index)) }
        var totals: [Totals] = []
        try scan(
            """
            SELECT player_id, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
            WHERE chat_id = ? AND board = ? AND period = ? ORDER BY player_id
            """, [chatKey, board.rawValue, period.rawValue]
        ) { row in
            totals.append(
                Totals(
                    player: sqlite3_column_int64(row, 0), points: int(row, 1), played: int(row, 2),
                    wins: int(row, 3), winningGuesses: int(row, 4), streak: int(row, 5), lastPuzzle: int(row, 6)))
        }
        // The streak is the one of the latest result: the all-time row's (the period's own, all time).
        let streaks =
            period == .all
            ? totals.map { AllTimeStreak(player: $0.player, streak: $0.streak, lastPuzzle: $0.lastPuzzle) }
            : try allTimeStreaks(chatKey: chatKey, board: board)
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
            let total = memberTotals.row(of: player)
            let streak = memberStreaks.row(of: player)
            standings.append(
                Standing(
                    player: Self.member(row, account: 3, of: chat),
                    name: Self.text(row, 1),
                    points: total?.points ?? 0,
                    played: total?.played ?? 0,
                    wins: total?.wins ?? 0,
                    winningGuesses: total?.winningGuesses ?? 0,
                    streak: streak?.streak ?? 0,
                    lastPuzzle: streak.map { PuzzleNumber($0.lastPuzzle) },
                    joinedPuzzle: PuzzleNumber(int(row, 2))
                ))
        }
        // Who left the board keeps the days they played in the period (``Standing/isMember``).
        let left = totals.filter { $0.played > 0 && !members.contains($0.player) }
        guard !left.isEmpty else { return standings }
        let leftStreaks = Dictionary(streaks.map { ($0.player, $0) }, uniquingKeysWith: { first, _ in first })
        let leftTotals = Dictionary(left.map { ($0.player, $0) }, uniquingKeysWith: { first, _ in first })
        try scan(
            "SELECT id, display_name, account FROM player WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            [Self.jsonArray(left.map { String($0.player) })]
        ) { row in
            let key = sqlite3_column_int64(row, 0)
            guard let total = leftTotals[key] else { return }
            let streak = leftStreaks[key]
            standings.append(
                Standing(
                    player: Self.member(row, account: 2, of: chat), name: Self.text(row, 1), points: total.points,
                    played: total.played, wins: total.wins, winningGuesses: total.winningGuesses,
                    streak: streak?.streak ?? 0, lastPuzzle: streak.map { PuzzleNumber($0.lastPuzzle) },
                    joinedPuzzle: PuzzleNumber(0), isMember: false))
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
        let streak: Int
        let lastPuzzle: Int
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
                    player: sqlite3_column_int64(row, 0), streak: Int(sqlite3_column_int64(row, 1)),
                    lastPuzzle: Int(sqlite3_column_int64(row, 2))))
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
            let streak = memberStreaks.row(of: key)
            members.append(
                DayMember(
                    player: player, name: Self.text(row, 1),
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
                    streak: streak?.streak ?? 0, lastPuzzle: streak.map { PuzzleNumber($0.lastPuzzle) }))
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

    func members(in chat: ChatID, playing language: Language, puzzle: PuzzleNumber) throws -> Set<UserID> {
        guard let chatKey = try rowID(of: chat) else { return [] }
        // Driven by the games of the puzzle in that language (game_by_puzzle), not by a large group's members:
        // the other language's games are few there.
        let rows = try db.cachedRows(
            sql: """
                SELECT p.platform, p.account FROM game g
                JOIN chat_member m ON m.chat_id = ? AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = ? AND g.language = ? AND g.guesses != ''
                """,
            arguments: [chatKey, puzzle.rawValue, language.rawValue])
        return Set(try rows.map(Self.user))
    }

    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) throws -> [(name: String, guesses: Int)]
    {
        guard let chatKey = try rowID(of: chat) else { return [] }
        // Driven by the partial index of unfinished games: few, compared with a large group's members.
        return try db.cachedRows(
            sql: """
                SELECT p.display_name, g.guesses FROM game g
                JOIN chat_member m ON m.chat_id = ? AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = ? AND g.language = ? AND g.won_in IS NULL AND g.lost = 0 AND g.guesses != ''
                """,
            arguments: [chatKey, puzzle.rawValue, language.rawValue]
        ).map { row in
            let guesses: String = try row.required("guesses", in: "game")
            return (name: try row.required("display_name", in: "player"), guesses: guesses.split(separator: " ").count)
        }
    }

    func enqueue(_ messages: [OutgoingMessage]) throws {
        for message in messages {
            let stored = try MessageColumns(message)
            try db.executeCached(
                sql: """
                    INSERT INTO outbox (platform, address, chat_kind, html, reply_to, thread, buttons, document_name,
                        document, at_most_once, silent, action, live, reposts_live, effect, rich)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    stored.platform, stored.address, stored.chatKind, stored.html, stored.replyTo, stored.thread,
                    stored.buttons, stored.documentName, stored.document, stored.atMostOnce, stored.silent,
                    stored.action, stored.live, stored.repostsLive, stored.effect, stored.rich,
                ]
            )
        }
    }

    // MARK: - A player's own data

    /// Everything stored about a stored player (the player and their practice games read by the shared
    /// statements).
    func data(of stored: Player, practiceGames: [PracticeGame]) throws -> PlayerData? {
        let player = stored.id
        guard let key = try rowID(of: player) else { return nil }
        let games = try db.cachedRows(
            sql: "SELECT * FROM game WHERE player_id = ? ORDER BY language, puzzle", arguments: [key]
        ).map { try Self.game($0, of: player) }
        let memberships = try db.cachedRows(
            sql: """
                SELECT chat.platform, chat.address, joined_puzzle FROM chat_member JOIN chat ON chat.id = chat_id
                WHERE player_id = ? ORDER BY chat.address
                """,
            arguments: [key]
        ).map { row in
            PlayerData.Membership(
                chat: try Self.chat(row, in: "chat_member"),
                joinedPuzzle: PuzzleNumber(try row.required("joined_puzzle", in: "chat_member")))
        }
        let results = try db.cachedRows(
            sql: """
                SELECT board_result.*, chat.platform, chat.address FROM board_result JOIN chat ON chat.id = chat_id
                WHERE player_id = ? ORDER BY chat.address, board, puzzle
                """,
            arguments: [key]
        ).map { try Self.boardResult($0, of: player) }
        return PlayerData(
            player: stored, games: games, practiceGames: practiceGames, memberships: memberships,
            results: results)
    }

    /// Deletes a player, and their direct chat (read by the shared statements) with its live messages.
    func forget(_ player: UserID, directChat: ChatID?) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        // Games, memberships, board results and totals go with the player (ON DELETE CASCADE).
        try db.executeCached(sql: "DELETE FROM player WHERE id = ?", arguments: [key])
        if let directChat {
            for table in ["chat", "live_message"] {
                try db.executeCached(
                    sql: "DELETE FROM \(table) WHERE platform = ? AND address = ?",
                    arguments: [directChat.platform.rawValue, directChat.value])
            }
        }
        return true
    }

    func playersWithReminders() throws -> [Player] {
        try db.cachedRows(sql: "SELECT * FROM player WHERE reminders = 1", arguments: []).map(SQLRow.player)
    }

    func moveChat(from old: ChatID, to new: ChatID) throws {
        // Queued and live messages name a chat as the platform does; the new chat's own live message wins.
        for table in ["outbox", "live_message"] {
            try db.execute(
                sql: "UPDATE OR IGNORE \(table) SET platform = ?, address = ? WHERE platform = ? AND address = ?",
                arguments: [new.platform.rawValue, new.value, old.platform.rawValue, old.value])
            try db.execute(
                sql: "DELETE FROM \(table) WHERE platform = ? AND address = ?",
                arguments: [old.platform.rawValue, old.value])
        }
        guard let oldKey = try rowID(of: old) else { return }
        guard let newKey = try rowID(of: new) else {
            // Every table names the chat by its row id: giving the row the new id moves everything.
            try db.execute(
                sql: "UPDATE chat SET platform = ?, address = ? WHERE id = ?",
                arguments: [new.platform.rawValue, new.value, oldKey])
            return
        }
        // Both ids have data: the old one's joins the new one's, which wins where both have a row.
        for table in ["chat_member", "chat_group", "board_result", "board_total"] {
            let column = table == "chat_group" ? "id" : "chat_id"
            try db.execute(
                sql: "UPDATE OR IGNORE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [newKey, oldKey])
            try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [oldKey])
        }
        try db.execute(sql: "DELETE FROM chat WHERE id = ?", arguments: [oldKey])
    }

    // MARK: - Rows

    static func group(_ row: Row) throws -> Group {
        try checked("chat_group") {
            try GroupColumns(
                platform: try row.required("platform", in: "chat_group"),
                address: try row.required("address", in: "chat_group"),
                timeZone: try row.required("time_zone", in: "chat_group"),
                rolloverHour: try row.required("rollover_hour", in: "chat_group"),
                language: try row.required("language", in: "chat_group"),
                hardModeRequired: try row.required("hard_mode_required", in: "chat_group"),
                summaryEnabled: try row.required("summary_enabled", in: "chat_group"), summaryHour: row["summary_hour"],
                topic: row["topic"], lastClosedPuzzle: try row.required("last_closed_puzzle", in: "chat_group"),
                lastRevealedPuzzle: try row.required("last_revealed_puzzle", in: "chat_group"),
                pendingTimeZone: row["pending_time_zone"], pendingRolloverHour: row["pending_rollover_hour"],
                pendingLanguage: row["pending_language"], pendingFrom: row["pending_from"],
                lastClosedLanguage: row["last_closed_language"], deletionExplained: row["deletion_explained"] ?? false,
                practiceSharesExplained: row["practice_shares_explained"] ?? false, team: row["team"] ?? ""
            ).group()
        }
    }

    /// A row's value read back, or the column it cannot be read from named with its table.
    static func checked<Value>(_ table: String, _ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch let damaged as DamagedColumn {
            throw SQLiteStoreError.damagedRow(table: table, column: damaged.column)
        }
    }

    /// A chat from the columns `platform` and `address`.
    static func chat(_ row: Row, in table: String) throws -> ChatID {
        ChatID(try platform(row, in: table), try row.required("address", in: table))
    }

    /// A player from the columns `platform` and `account`.
    static func user(_ row: Row) throws -> UserID {
        let platform = try platform(row, in: "player")
        switch (row["account"] as DatabaseValue).storage {
        case .int64(let number): return UserID(platform, number: number)
        case .string(let text): return UserID(platform, text)
        default: throw SQLiteStoreError.damagedRow(table: "player", column: "account")
        }
    }

    /// A platform column.
    static func platform(_ row: Row, in table: String) throws -> Platform {
        guard let platform = Platform(rawValue: try row.required("platform", in: table)) else {
            throw SQLiteStoreError.damagedRow(table: table, column: "platform")
        }
        return platform
    }

    /// A member of a group from the current row of a statement read through SQLite's C API, as boards of
    /// thousands are: on the group's platform (``addMember(_:to:joinedPuzzle:)``), an integer account read
    /// without making a string.
    static func member(_ row: SQLiteStatement, account: Int32, of chat: ChatID) -> UserID {
        if sqlite3_column_type(row, account) == SQLITE_INTEGER {
            return UserID(chat.platform, number: sqlite3_column_int64(row, account))
        }
        return UserID(chat.platform, text(row, account))
    }

    /// A standing from the columns player's platform and account, name, points, played, wins, winning guesses,
    /// streak, last puzzle, joined puzzle, in that order.
    static func standing(_ row: Row) throws -> Standing {
        func column<Value: DatabaseValueConvertible>(_ index: Int) throws -> Value {
            guard let value = Value.fromDatabaseValue(row[index] as DatabaseValue) else {
                throw SQLiteStoreError.damagedRow(table: "board_total", column: Array(row.columnNames)[index])
            }
            return value
        }
        let lastPuzzle: Int? = row[8]
        return Standing(
            player: try user(row),
            name: try column(2),
            points: try column(3),
            played: try column(4),
            wins: try column(5),
            winningGuesses: try column(6),
            streak: try column(7),
            lastPuzzle: lastPuzzle.map(PuzzleNumber.init),
            joinedPuzzle: PuzzleNumber(try column(9))
        )
    }

    static func boardResult(_ row: Row, of player: UserID) throws -> BoardResult {
        let languageCode: String = try row.required("language", in: "board_result")
        let boardName: String = try row.required("board", in: "board_result")
        guard let language = Language(rawValue: languageCode) else {
            throw SQLiteStoreError.damagedRow(table: "board_result", column: "language")
        }
        guard let board = BoardKind(rawValue: boardName) else {
            throw SQLiteStoreError.damagedRow(table: "board_result", column: "board")
        }
        return BoardResult(
            chat: try chat(row, in: "board_result"),
            board: board,
            puzzle: PuzzleNumber(try row.required("puzzle", in: "board_result")),
            player: player,
            language: language,
            guesses: row["guesses"],
            hardMode: try row.required("hard_mode", in: "board_result"),
            finishedAt: Date(timeIntervalSince1970: try row.required("finished_at", in: "board_result")),
            streakBefore: try row.required("streak_before", in: "board_result")
        )
    }

    static func game(_ row: Row, of player: UserID) throws -> StoredGame {
        try checked("game") {
            try GameColumns(
                platform: player.platform.rawValue, account: player.value,
                language: try row.required("language", in: "game"), puzzle: try row.required("puzzle", in: "game"),
                hardMode: try row.required("hard_mode", in: "game"), guesses: try row.required("guesses", in: "game"),
                wonIn: row["won_in"], lost: try row.required("lost", in: "game"), finishedAt: row["finished_at"]
            ).game()
        }
    }
}

extension SQLiteTransaction {
    /// A text column of the current row. (`String(cString:)`: several times faster here than decoding a buffer
    /// of the column's length.)
    static func text(_ row: SQLiteStatement, _ index: Int32) -> String {
        sqlite3_column_text(row, index).map { String(cString: $0) } ?? ""
    }
}

extension Database {
    // Statements on the hot path are compiled once per connection and reused: compiling one (with GRDB's
    // authorizer) costs several times more than running it.

    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    func cachedRow(sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    func cachedRows(sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try Row.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }
}
