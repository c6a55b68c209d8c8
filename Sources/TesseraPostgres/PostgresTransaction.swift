#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import Synchronization
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// The engine's view of one PostgreSQL transaction, on one leased connection.
    ///
    /// As in SQLite, players and chats are keyed by integer row ids, which the boards join on; their platform ids
    /// are unique columns. Accounts are text: a platform's id as it spells it.
    struct PostgresTransaction: SQLTransaction {
        let connection: PostgresConnection
        let logger: Logger
        let counter: StatementCounter
        var session: PostgresSession { PostgresSession(connection: connection, logger: logger, counter: counter) }
        /// Row ids looked up so far: each is a round trip, and an update asks for its player's several times.
        let ids = RowIDs()

        // MARK: - Queries

        /// Runs a statement whose rows, if any, are not needed.
        func execute(_ query: PostgresQuery) async throws {
            try await connection.checkedQuery(query, logger: logger, counting: counter)
        }

        /// The first row of a query, read by `read`; nil without one.
        func one<Value>(_ query: PostgresQuery, _ read: (PostgresRow) throws -> Value) async throws -> Value? {
            for try await row in try await connection.checkedQuery(query, logger: logger, counting: counter) {
                return try decoded(row, read)
            }
            return nil
        }

        /// Every row of a query, each read by `read`.
        func all<Value>(_ query: PostgresQuery, _ read: (PostgresRow) throws -> Value) async throws -> [Value] {
            var values: [Value] = []
            for try await row in try await connection.checkedQuery(query, logger: logger, counting: counter) {
                values.append(try decoded(row, read))
            }
            return values
        }

        /// The columns of a bulk read: a query that aggregates its rows into one row of arrays.
        func columns(_ query: PostgresQuery) async throws -> [PostgresColumn] {
            try await one(query) { row in try row.map(PostgresColumn.init) } ?? []
        }

        /// `array_agg(column) AS column` for each column: the select list of a bulk read (``columns(_:)``), each
        /// array named as the column it holds, for errors.
        static func arrays(of columns: [String]) -> String {
            columns.map { "array_agg(\($0)) AS \($0.split(separator: ".").last ?? "")" }.joined(separator: ", ")
        }

        /// A row's columns, or an error naming the column that is missing or of the wrong type (never a crash).
        private func decoded<Value>(_ row: PostgresRow, _ read: (PostgresRow) throws -> Value) throws -> Value {
            do {
                return try read(row)
            } catch let error as PostgresDecodingError {
                throw PostgresStoreError.damagedRow(column: error.columnName)
            }
        }

        // MARK: - Keys

        func rowID(of player: UserID) async throws -> Int64? {
            if let id = ids.player(player) { return id }
            let id = try await one(
                "SELECT id FROM player WHERE platform = \(player.platform.rawValue) AND account = \(player.value)"
            ) { try $0.decode(Int64.self) }
            if let id { ids.remember(id, for: player) }
            return id
        }

        func rowID(of chat: ChatID) async throws -> Int64? {
            if let id = ids.chat(chat) { return id }
            let id = try await one(
                "SELECT id FROM chat WHERE platform = \(chat.platform.rawValue) AND address = \(chat.value)"
            ) { try $0.decode(Int64.self) }
            if let id { ids.remember(id, for: chat) }
            return id
        }

        /// The row id of a chat, stored now if it was not.
        func storedRowID(of chat: ChatID) async throws -> Int64 {
            if let id = ids.chat(chat) { return id }
            let id = try await one(
                """
                INSERT INTO chat (platform, address) VALUES (\(chat.platform.rawValue), \(chat.value))
                ON CONFLICT (platform, address) DO UPDATE SET address = excluded.address RETURNING id
                """
            ) { try $0.decode(Int64.self) }
            guard let id else { throw PostgresStoreError.damagedRow(column: "chat.id") }
            ids.remember(id, for: chat)
            return id
        }

        func requiredRowID(of player: UserID) async throws -> Int64 {
            guard let id = try await rowID(of: player) else { throw StoreMisuse.unknownPlayer(player) }
            return id
        }

        // MARK: - Players and games

        static let playerColumns = """
            platform, account, display_name, language, time_zone, rollover_hour, pending_time_zone, pending_from,
            prefers_hard_mode, reminders, reminded_puzzle, direct_chat, playing_language, practice_in_play,
            follows_group, named_in_nudges, message_effects
            """
        /// A row's value read back, or the column it cannot be read from named with its table.
        static func checked<Value>(_ table: String, _ read: () throws -> Value) throws -> Value {
            do {
                return try read()
            } catch let damaged as DamagedColumn {
                throw PostgresStoreError.damagedRow(column: "\(table).\(damaged.column)")
            }
        }

        /// Through the batch's write, as every message's players are saved.
        func save(_ player: Player) async throws {
            var changes = BatchChanges()
            changes.players[player.id] = player
            _ = try await write(changes)
        }

        static let gameColumns = "language, puzzle, hard_mode, guesses, won_in, lost, finished_at"
        /// ``gameColumns`` of a table named in a join with others that have such columns (`player.language`).
        static func gameColumns(of table: String) -> String {
            gameColumns.split(separator: ", ").map { "\(table).\($0)" }.joined(separator: ", ")
        }
        typealias GameRow = (String, Int, Bool, String, Int?, Bool, Double?)

        static func game(_ row: GameRow, of player: UserID) throws -> StoredGame {
            try checked("game") {
                try GameColumns(
                    platform: player.platform.rawValue, account: player.value, language: row.0, puzzle: row.1,
                    hardMode: row.2, guesses: row.3, wonIn: row.4, lost: row.5, finishedAt: row.6
                ).game()
            }
        }

        func save(_ game: StoredGame) async throws {
            guard try await rowID(of: game.player) != nil else { throw StoreMisuse.unknownPlayer(game.player) }
            var changes = BatchChanges()
            changes.games[game.key] = game
            _ = try await write(changes)
        }

        // MARK: - Analyses (the states of `analysis_state` are ``AnalysisState``'s)

        func pendingAnalyses(on platform: Platform?, limit: Int) async throws -> [StoredGame] {
            let name = platform?.rawValue
            return try await all(
                """
                SELECT p.platform, p.account, \(unescaped: Self.gameColumns(of: "g")) FROM game g
                JOIN player p ON p.id = g.player_id
                WHERE g.analysis_state IN \(unescaped: AnalysisState.waitingList) AND (\(name)::text IS NULL OR p.platform = \(name))
                ORDER BY g.analysis_state DESC, g.finished_at LIMIT \(limit)
                """
            ) { row in
                let (platform, account, language, puzzle, hard, guesses, wonIn, lost, finishedAt) = try row.decode(
                    (String, String, String, Int, Bool, String, Int?, Bool, Double?).self)
                guard let platform = Platform(rawValue: platform) else {
                    throw PostgresStoreError.damagedRow(column: "platform")
                }
                return try Self.game(
                    (language, puzzle, hard, guesses, wonIn, lost, finishedAt), of: UserID(platform, account))
            }
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

        // MARK: - Groups

        static let groupColumns = """
            chat.platform, chat.address, g.time_zone, g.rollover_hour, g.language, g.hard_mode_required,
            g.summary_enabled, g.summary_hour, g.topic, g.last_closed_puzzle, g.last_revealed_puzzle,
            g.pending_time_zone, g.pending_rollover_hour, g.pending_language, g.pending_from, g.last_closed_language,
            g.deletion_explained, g.practice_shares_explained, g.team
            """
        typealias GroupRow = (
            String, String, String, Int, String, Bool, Bool, Int?, String?, Int, Int, String?, Int?, String?, Int?,
            String?, Bool, Bool, String
        )

        static func group(_ row: GroupRow) throws -> Group {
            try checked("chat_group") {
                try GroupColumns(
                    platform: row.0, address: row.1, timeZone: row.2, rolloverHour: row.3, language: row.4,
                    hardModeRequired: row.5, summaryEnabled: row.6, summaryHour: row.7, topic: row.8,
                    lastClosedPuzzle: row.9, lastRevealedPuzzle: row.10, pendingTimeZone: row.11,
                    pendingRolloverHour: row.12, pendingLanguage: row.13, pendingFrom: row.14,
                    lastClosedLanguage: row.15, deletionExplained: row.16, practiceSharesExplained: row.17,
                    team: row.18
                ).group()
            }
        }

        func group(_ chat: ChatID) async throws -> Group? {
            try await one(
                """
                SELECT \(unescaped: Self.groupColumns) FROM chat JOIN chat_group g ON g.id = chat.id
                WHERE chat.platform = \(chat.platform.rawValue) AND chat.address = \(chat.value)
                """
            ) { try $0.decode(GroupRow.self) }.map(Self.group)
        }

        func save(_ group: Group) async throws {
            var changes = BatchChanges()
            changes.groups[group.chat] = group
            _ = try await write(changes)
        }

        func activeGroups(on platform: Platform?) async throws -> [Group] {
            let name = platform?.rawValue
            return try await all(
                """
                SELECT \(unescaped: Self.groupColumns) FROM chat_group g JOIN chat ON chat.id = g.id
                WHERE chat.active AND (\(name)::text IS NULL OR chat.platform = \(name))
                FOR UPDATE OF g SKIP LOCKED
                """
            ) { try $0.decode(GroupRow.self) }.map(Self.group)
        }

        func groups(of player: UserID) async throws -> [Group] {
            guard let key = try await rowID(of: player) else { return [] }
            return try await all(
                """
                SELECT \(unescaped: Self.groupColumns) FROM chat_member m JOIN chat_group g ON g.id = m.chat_id
                JOIN chat ON chat.id = m.chat_id WHERE m.player_id = \(key)
                """
            ) { try $0.decode(GroupRow.self) }.map(Self.group)
        }

        func groups(crowning player: UserID) async throws -> [Group] {
            // The team is JSON: a search for the account as JSON writes it, then the rule read from the decoded team.
            try await all(
                """
                SELECT \(unescaped: Self.groupColumns) FROM chat_group g JOIN chat ON chat.id = g.id
                WHERE chat.platform = \(player.platform.rawValue) AND strpos(g.team, \(GroupTeam.searchKey(for: player))) > 0
                """
            ) { try $0.decode(GroupRow.self) }.map(Self.group).filter { $0.team.champions.contains(player) }
        }

        func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) async throws -> Bool {
            let key = try await requiredRowID(of: player)
            // A group's members are people of its platform: boards read their ids on that alone.
            guard player.platform == chat.platform else {
                throw StoreMisuse.memberOfAnotherPlatform(player, chat)
            }
            let chatKey = try await storedRowID(of: chat)
            return try await one(
                """
                INSERT INTO chat_member (chat_id, player_id, joined_puzzle, account, display_name, time_zone,
                    rollover_hour, pending_time_zone, pending_from)
                SELECT \(chatKey), id, \(joinedPuzzle.rawValue), account, display_name, time_zone, rollover_hour,
                    pending_time_zone, pending_from
                FROM player WHERE id = \(key)
                ON CONFLICT DO NOTHING RETURNING 1
                """
            ) { try $0.decode(Int.self) } != nil
        }

        func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
            async throws -> [MemberDay]
        {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            return try await all(
                """
                SELECT DISTINCT m.time_zone, m.rollover_hour, m.pending_time_zone, m.pending_from FROM chat_member m
                WHERE m.chat_id = \(chatKey) AND NOT EXISTS (
                    SELECT 1 FROM board_result r WHERE r.chat_id = m.chat_id AND r.player_id = m.player_id
                    AND ((r.board = \(BoardKind.tessera.rawValue) AND r.puzzle = \(puzzle.rawValue))
                        OR (r.board = \(BoardKind.official.rawValue) AND r.puzzle = \(official.rawValue))))
                """
            ) { try $0.decode((String, Int, String?, Int?).self) }.map {
                MemberDay(
                    timeZone: $0.0, rolloverHour: $0.1, pendingTimeZone: $0.2,
                    pendingFrom: $0.3.map { PuzzleNumber($0) })
            }
        }

        // MARK: - Boards

        func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) async throws
            -> [PeriodKey: BoardTotals]
        {
            guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return [:] }
            var totals: [PeriodKey: BoardTotals] = [:]
            let periods = periods.map(\.rawValue)
            let rows = try await all(
                """
                SELECT period, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
                WHERE chat_id = \(chatKey) AND board = \(board.rawValue) AND player_id = \(key)
                    AND period = ANY(\(periods))
                """
            ) { try $0.decode((String, Int, Int, Int, Int, Int, Int).self) }
            for row in rows {
                totals[PeriodKey(rawValue: row.0)] = BoardTotals(
                    points: row.1, played: row.2, wins: row.3, winningGuesses: row.4, streak: row.5,
                    lastPuzzle: PuzzleNumber(row.6))
            }
            return totals
        }

        func officialResults(of player: UserID) async throws -> [PlayedGame] {
            guard let key = try await rowID(of: player) else { return [] }
            return try await all(
                """
                SELECT puzzle, guesses FROM board_result
                WHERE player_id = \(key) AND board = \(BoardKind.official.rawValue)
                """
            ) { try $0.decode((Int, Int?).self) }.map {
                PlayedGame(puzzle: PuzzleNumber($0.0), result: $0.1.map { .won(guesses: $0) } ?? .lost)
            }
        }

        func outcomes(of player: UserID, in chat: ChatID, board: BoardKind, through puzzle: PuzzleNumber) async throws
            -> [(puzzle: PuzzleNumber, won: Bool)]
        {
            guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return [] }
            return try await all(
                """
                SELECT puzzle, guesses IS NOT NULL FROM board_result
                WHERE chat_id = \(chatKey) AND board = \(board.rawValue) AND player_id = \(key)
                    AND puzzle <= \(puzzle.rawValue)
                ORDER BY puzzle DESC
                """
            ) { try $0.decode((Int, Bool).self) }.map { (puzzle: PuzzleNumber($0.0), won: $0.1) }
        }

        func record(_ result: BoardResult, totals: [PeriodKey: BoardTotals]) async throws -> Bool {
            let player = try await requiredRowID(of: result.player)
            let chat = try await storedRowID(of: result.chat)
            let inserted = try await one(
                """
                INSERT INTO board_result (chat_id, board, puzzle, player_id, language, guesses, hard_mode, finished_at,
                    streak_before)
                VALUES (\(chat), \(result.board.rawValue), \(result.puzzle.rawValue), \(player),
                    \(result.language.rawValue), \(result.guesses), \(result.hardMode),
                    \(result.finishedAt.timeIntervalSince1970), \(result.streakBefore))
                ON CONFLICT DO NOTHING RETURNING 1
                """
            ) { try $0.decode(Int.self) }
            guard inserted != nil else { return false }
            // The engine computed the totals: they are stored as they are.
            for (period, total) in totals {
                try await execute(
                    """
                    INSERT INTO board_total (chat_id, board, period, player_id, points, played, wins, winning_guesses,
                        streak, last_puzzle)
                    VALUES (\(chat), \(result.board.rawValue), \(period.rawValue), \(player), \(total.points), \(total.played),
                        \(total.wins), \(total.winningGuesses), \(total.streak),
                        \(total.lastPuzzle?.rawValue ?? result.puzzle.rawValue))
                    ON CONFLICT (chat_id, board, period, player_id) DO UPDATE SET points = excluded.points,
                        played = excluded.played, wins = excluded.wins, winning_guesses = excluded.winning_guesses,
                        streak = excluded.streak, last_puzzle = excluded.last_puzzle
                    """)
            }
            return true
        }

        func standing(of player: UserID, in chat: ChatID, board: BoardKind) async throws -> Standing? {
            guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return nil }
            return try await one(
                """
                SELECT p.display_name, t.points, t.played, t.wins, t.winning_guesses, t.streak, t.last_puzzle,
                    coalesce(m.joined_puzzle, 0)
                FROM board_total t JOIN player p ON p.id = t.player_id
                LEFT JOIN chat_member m ON m.chat_id = t.chat_id AND m.player_id = t.player_id
                WHERE t.chat_id = \(chatKey) AND t.board = \(board.rawValue) AND t.period = 'all'
                    AND t.player_id = \(key)
                """
            ) { try $0.decode((String, Int, Int, Int, Int, Int, Int, Int).self) }.map { row in
                Standing(
                    player: player, name: row.0, points: row.1, played: row.2, wins: row.3, winningGuesses: row.4,
                    streak: row.5, lastPuzzle: PuzzleNumber(row.6), joinedPuzzle: PuzzleNumber(row.7))
            }
        }

        /// A board's members, as the first scan of a board read: every member's row id, account, name and joined
        /// puzzle, then the `extra` columns, from one range of chat_member. $3 is the chat.
        /// A member's day, as ``memberScan(_:)``'s extra columns.
        static let memberDayColumns = ["time_zone", "rollover_hour", "pending_time_zone", "pending_from"]
        static func memberScan(_ extra: [String] = []) -> String {
            """
            SELECT \(arrays(of: ["player_id", "account", "display_name", "joined_puzzle"] + extra))
            FROM chat_member WHERE chat_id = $3
            """
        }
        /// The all-time streaks of a board's members: their row ids, streaks and last puzzles. $1 is the board,
        /// $3 the chat.
        static let streakScan = """
            SELECT \(arrays(of: ["player_id", "streak", "last_puzzle"]))
            FROM board_total WHERE chat_id = $3 AND board = $1 AND period = 'all'
            """

        /// The members of ``memberScan(_:)``'s first four columns, and where each member's row id is among them.
        private static func members(_ columns: ArraySlice<PostgresColumn>, platform: Platform) throws -> (
            players: [UserID], names: [String], joined: [PuzzleNumber], position: [Int: Int]
        ) {
            try columns.requireOneCount()
            let start = columns.startIndex
            let ids = try columns[start].ints()
            var position = [Int: Int](minimumCapacity: ids.count)
            for (index, id) in ids.enumerated() { position[id] = index }
            return (
                try columns[start + 1].strings().map { UserID(platform, $0) }, try columns[start + 2].strings(),
                try columns[start + 3].ints().map(PuzzleNumber.init), position
            )
        }

        /// For each row of another scan whose player is a member, `apply` with the member's index and the row's.
        /// Results and totals stay stored for members who left the board: their rows have no member.
        private static func merge(
            _ players: [Int], into position: [Int: Int], _ apply: (Int, Int) throws -> Void
        ) rethrows {
            for (row, player) in players.enumerated() {
                if let member = position[player] { try apply(member, row) }
            }
        }

        func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) async throws -> [Standing] {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            // Every member, with the period's totals (zero without) and the all-time row's streak: that of the
            // latest result (the period's own row, when the period is all time). A large board has thousands of
            // members. Scans of the members, of the period's totals and of the all-time streaks, each aggregated
            // into arrays and merged here, cost half of joining them on the server. $1 is the board, $2 the
            // period, $3 the chat.
            var binds = PostgresBindings()
            binds.append(board.rawValue)
            binds.append(period.rawValue)
            binds.append(chatKey)
            let allTime = period == .all
            // All time: the period's own rows carry the streaks, and no other scan is needed.
            let totalScan = """
                SELECT \(Self.arrays(of: ["player_id", "points", "played", "wins", "winning_guesses"]
                    + (allTime ? ["streak", "last_puzzle"] : [])))
                FROM board_total WHERE chat_id = $3 AND board = $1 AND period = $2
                """
            let columns = try await self.columns(
                PostgresQuery(
                    unsafeSQL: "SELECT * FROM (\(Self.memberScan())) members, (\(totalScan)) totals"
                        + (allTime ? "" : ", (\(Self.streakScan)) streaks"),
                    binds: binds))
            guard columns.count == 12 || (allTime && columns.count == 11) else {
                throw PostgresStoreError.damagedRow(column: "standings")
            }
            var members = try Self.members(columns[0..<4], platform: chat.platform)
            var standings = members.players.indices.map { index in
                Standing(
                    player: members.players[index], name: members.names[index], points: 0, played: 0, wins: 0,
                    winningGuesses: 0, streak: 0, lastPuzzle: nil, joinedPuzzle: members.joined[index])
            }
            try columns[4..<9].requireOneCount()
            let (totalPlayers, points, played, wins, winningGuesses) = (
                try columns[4].ints(), try columns[5].ints(), try columns[6].ints(), try columns[7].ints(),
                try columns[8].ints()
            )
            Self.merge(totalPlayers, into: members.position) { member, row in
                standings[member].points = points[row]
                standings[member].played = played[row]
                standings[member].wins = wins[row]
                standings[member].winningGuesses = winningGuesses[row]
            }
            // Who left the board keeps the days they played in the period (``Standing/isMember``).
            let left = totalPlayers.indices.filter { played[$0] > 0 && members.position[totalPlayers[$0]] == nil }
            if !left.isEmpty {
                let names = try await all(
                    """
                    SELECT id, account, display_name FROM player
                    WHERE id = ANY(ARRAY[\(left.map { String(totalPlayers[$0]) }.joined(separator: ","))]::bigint[])
                    """
                ) { try $0.decode((Int, String, String).self) }
                let named = Dictionary(names.map { ($0.0, $0) }, uniquingKeysWith: { first, _ in first })
                var position = members.position
                for row in left {
                    guard let player = named[totalPlayers[row]] else { continue }
                    position[player.0] = standings.count
                    standings.append(
                        Standing(
                            player: UserID(chat.platform, player.1), name: player.2, points: points[row],
                            played: played[row], wins: wins[row], winningGuesses: winningGuesses[row], streak: 0,
                            lastPuzzle: nil, joinedPuzzle: PuzzleNumber(0), isMember: false))
                }
                members.position = position
            }
            let streakColumns = allTime ? [columns[4], columns[9], columns[10]] : Array(columns[9..<12])
            try streakColumns.requireOneCount()
            let (streaks, lastPuzzles) = (try streakColumns[1].ints(), try streakColumns[2].ints())
            Self.merge(try streakColumns[0].ints(), into: members.position) { member, row in
                standings[member].streak = streaks[row]
                standings[member].lastPuzzle = PuzzleNumber(lastPuzzles[row])
            }
            return standings
        }

        func dayMembers(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [DayMember] {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            // The members, the day's results and the all-time streaks, in three scans merged here: a summary of
            // a large group reads each member once, not once for the results and again for the streaks. $1 is
            // the board, $2 the puzzle, $3 the chat.
            var binds = PostgresBindings()
            binds.append(board.rawValue)
            binds.append(puzzle.rawValue)
            binds.append(chatKey)
            let resultScan = """
                SELECT \(Self.arrays(of: [
                    "player_id", "language", "guesses", "hard_mode", "finished_at", "streak_before",
                ]))
                FROM board_result WHERE chat_id = $3 AND board = $1 AND puzzle = $2
                """
            let columns = try await self.columns(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT * FROM (\(Self.memberScan(Self.memberDayColumns))) members,
                            (\(resultScan)) results, (\(Self.streakScan)) streaks
                        """,
                    binds: binds))
            guard columns.count == 17 else { throw PostgresStoreError.damagedRow(column: "board_result") }
            let members = try Self.members(columns[0..<4], platform: chat.platform)
            try columns[0..<8].requireOneCount()
            let (timeZones, rolloverHours, pendingTimeZones, pendingFroms) = (
                try columns[4].strings(), try columns[5].ints(), try columns[6].optionalStrings(),
                try columns[7].optionalInts()
            )
            try columns[8..<14].requireOneCount()
            let (languages, guesses, hardModes, finishedAt, streaksBefore) = (
                try columns[9].strings(), try columns[10].optionalInts(), try columns[11].bools(),
                try columns[12].doubles(), try columns[13].ints()
            )
            var results = [BoardResult?](repeating: nil, count: members.players.count)
            try Self.merge(try columns[8].ints(), into: members.position) { member, row in
                guard let language = Language(rawValue: languages[row]) else {
                    throw PostgresStoreError.damagedRow(column: "board_result.language")
                }
                results[member] = BoardResult(
                    chat: chat, board: board, puzzle: puzzle, player: members.players[member], language: language,
                    guesses: guesses[row], hardMode: hardModes[row],
                    finishedAt: Date(timeIntervalSince1970: finishedAt[row]), streakBefore: streaksBefore[row])
            }
            try columns[14..<17].requireOneCount()
            var streaks = [Int](repeating: 0, count: members.players.count)
            var lastPuzzles = [PuzzleNumber?](repeating: nil, count: members.players.count)
            let (streakColumn, lastColumn) = (try columns[15].ints(), try columns[16].ints())
            Self.merge(try columns[14].ints(), into: members.position) { member, row in
                streaks[member] = streakColumn[row]
                lastPuzzles[member] = PuzzleNumber(lastColumn[row])
            }
            return members.players.indices.map { index in
                DayMember(
                    player: members.players[index], name: members.names[index],
                    joinedPuzzle: members.joined[index],
                    day: MemberDay(
                        timeZone: timeZones[index], rolloverHour: rolloverHours[index],
                        pendingTimeZone: pendingTimeZones[index],
                        pendingFrom: pendingFroms[index].map { PuzzleNumber($0) }),
                    result: results[index], streak: streaks[index],
                    lastPuzzle: lastPuzzles[index])
            }
        }

        func records(in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber)
            async throws -> [UserID: BoardRecord]
        {
            guard let chatKey = try await rowID(of: chat) else { return [:] }
            // Each day's best win, then each player's results against it (who left the board too): one pass over
            // the days' results.
            let rows = try await all(
                """
                WITH best AS (
                    SELECT puzzle, MIN(guesses) AS guesses FROM board_result
                    WHERE chat_id = \(chatKey) AND board = \(board.rawValue)
                        AND puzzle BETWEEN \(first.rawValue) AND \(last.rawValue) AND guesses IS NOT NULL
                    GROUP BY puzzle)
                SELECT p.account, COUNT(best.puzzle)::bigint,
                    COALESCE(MAX(CASE WHEN r.guesses IS NOT NULL THEN r.streak_before + 1 END), 0)::bigint
                FROM board_result r
                LEFT JOIN best ON best.puzzle = r.puzzle AND best.guesses = r.guesses
                JOIN player p ON p.id = r.player_id
                WHERE r.chat_id = \(chatKey) AND r.board = \(board.rawValue)
                    AND r.puzzle BETWEEN \(first.rawValue) AND \(last.rawValue)
                GROUP BY p.account
                """
            ) { try $0.decode((String, Int, Int).self) }
            return Dictionary(
                uniqueKeysWithValues: rows.map {
                    (UserID(chat.platform, $0.0), BoardRecord(crowns: $0.1, bestStreak: $0.2))
                })
        }

        func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [(
            name: String, result: BoardResult
        )] {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            // Thousands in a large group: one row of arrays (``PostgresColumn``).
            let columns = try await self.columns(
                """
                SELECT \(unescaped: Self.arrays(of: [
                    "m.display_name", "m.account", "r.language", "r.guesses", "r.hard_mode", "r.finished_at",
                    "r.streak_before",
                ]))
                FROM board_result r \(unescaped: Self.names(on: board))
                WHERE r.chat_id = \(chatKey) AND r.board = \(board.rawValue) AND r.puzzle = \(puzzle.rawValue)
                """)
            guard columns.count == 7 else { throw PostgresStoreError.damagedRow(column: "board_result") }
            try columns.requireOneCount()
            let (names, accounts, languages, guesses, hardModes, finishedAt, streaksBefore) = (
                try columns[0].strings(), try columns[1].strings(), try columns[2].strings(),
                try columns[3].optionalInts(), try columns[4].bools(), try columns[5].doubles(), try columns[6].ints()
            )
            return try names.indices.map { index in
                guard let language = Language(rawValue: languages[index]) else {
                    throw PostgresStoreError.damagedRow(column: "board_result.language")
                }
                return (
                    name: names[index],
                    result: BoardResult(
                        chat: chat, board: board, puzzle: puzzle, player: UserID(chat.platform, accounts[index]),
                        language: language, guesses: guesses[index], hardMode: hardModes[index],
                        finishedAt: Date(timeIntervalSince1970: finishedAt[index]),
                        streakBefore: streaksBefore[index])
                )
            }
        }

        func crowns(
            of players: [UserID], in chat: ChatID, board: BoardKind, from first: PuzzleNumber,
            through last: PuzzleNumber
        ) async throws -> [UserID: Int] {
            guard !players.isEmpty, first <= last, let chatKey = try await rowID(of: chat) else { return [:] }
            // A day's best is one seek in board_result_best; then each player's result of each day, by key.
            let rows = try await all(
                """
                SELECT m.account, COUNT(*)::bigint
                FROM generate_series(\(first.rawValue)::int, \(last.rawValue)::int) AS day(puzzle)
                CROSS JOIN LATERAL (
                    SELECT MIN(guesses) AS guesses FROM board_result
                    WHERE chat_id = \(chatKey) AND board = \(board.rawValue) AND puzzle = day.puzzle
                        AND guesses IS NOT NULL) best
                JOIN chat_member m ON m.chat_id = \(chatKey) AND m.account = ANY(\(players.map(\.value)))
                JOIN board_result r ON r.chat_id = m.chat_id AND r.board = \(board.rawValue)
                    AND r.puzzle = day.puzzle AND r.player_id = m.player_id AND r.guesses = best.guesses
                GROUP BY m.account
                """
            ) { try $0.decode((String, Int).self) }
            return Dictionary(uniqueKeysWithValues: rows.map { (UserID(chat.platform, $0.0), $0.1) })
        }

        /// Whether a result `r` of the day `d` is on its board: a member's, or any on a board of pastes.
        private static let onBoard = """
            (NOT d.members_only OR EXISTS (
                SELECT 1 FROM chat_member m WHERE m.chat_id = r.chat_id AND m.player_id = r.player_id))
            """

        /// The join that names a board's results `m` (`m.display_name`, `m.account`): its members' own copies
        /// on a board of members (``BoardKind/isMembersOnly``), else the players who pasted them.
        private static func names(on board: BoardKind) -> String {
            board.isMembersOnly
                ? "JOIN chat_member m ON m.chat_id = r.chat_id AND m.player_id = r.player_id"
                : "JOIN player m ON m.id = r.player_id"
        }

        func firstResults(in chat: ChatID, of days: [BoardDay], limit: Int) async throws -> [BoardKind: FirstResults] {
            guard !days.isEmpty, let chatKey = try await rowID(of: chat) else { return [:] }
            // Each day sorted and cut on the server, by its own results' order: only the rows shown come back, as
            // one row of arrays.
            let columns = try await self.columns(
                """
                SELECT \(unescaped: Self.arrays(of: [
                    "t.board", "t.display_name", "t.account", "t.language", "t.guesses", "t.hard_mode", "t.finished_at",
                    "t.streak_before", "t.total",
                ]))
                FROM unnest(
                    \(days.map(\.board.rawValue))::text[], \(days.map(\.puzzle.rawValue))::int[],
                    \(days.map(\.board.isMembersOnly))::bool[]
                ) AS d(board, puzzle, members_only)
                CROSS JOIN LATERAL (
                    SELECT count(*) AS total FROM board_result r
                    WHERE r.chat_id = \(chatKey) AND r.board = d.board AND r.puzzle = d.puzzle AND \(unescaped: Self.onBoard)
                ) c
                CROSS JOIN LATERAL (
                    SELECT d.board, p.display_name, p.account, r.language, r.guesses, r.hard_mode, r.finished_at,
                        r.streak_before, c.total
                    FROM (
                        SELECT * FROM board_result r
                        WHERE r.chat_id = \(chatKey) AND r.board = d.board AND r.puzzle = d.puzzle
                            AND \(unescaped: Self.onBoard)
                        ORDER BY r.guesses IS NULL, r.guesses, r.finished_at
                        LIMIT \(limit)
                    ) r
                    JOIN player p ON p.id = r.player_id
                    ORDER BY r.guesses IS NULL, r.guesses, r.finished_at
                ) t
                """)
            guard columns.count == 9 else { throw PostgresStoreError.damagedRow(column: "board_result") }
            try columns.requireOneCount()
            let (boards, names, accounts, languages, guesses, hardModes, finishedAt, streaksBefore, totals) = (
                try columns[0].strings(), try columns[1].strings(), try columns[2].strings(), try columns[3].strings(),
                try columns[4].optionalInts(), try columns[5].bools(), try columns[6].doubles(), try columns[7].ints(),
                try columns[8].ints()
            )
            let puzzles = Dictionary(days.map { ($0.board, $0.puzzle) }) { first, _ in first }
            var first: [BoardKind: FirstResults] = [:]
            for index in boards.indices {
                guard let board = BoardKind(rawValue: boards[index]), let puzzle = puzzles[board] else {
                    throw PostgresStoreError.damagedRow(column: "board_result.board")
                }
                guard let language = Language(rawValue: languages[index]) else {
                    throw PostgresStoreError.damagedRow(column: "board_result.language")
                }
                let result = BoardResult(
                    chat: chat, board: board, puzzle: puzzle, player: UserID(chat.platform, accounts[index]),
                    language: language, guesses: guesses[index], hardMode: hardModes[index],
                    finishedAt: Date(timeIntervalSince1970: finishedAt[index]), streakBefore: streaksBefore[index])
                first[board, default: FirstResults(results: [], count: totals[index])]
                    .results.append((name: names[index], result: result))
            }
            return first
        }

        func members(in chat: ChatID, playing language: Language, puzzle: PuzzleNumber) async throws -> Set<UserID> {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            // Driven by the games of the puzzle in that language (game_by_puzzle), as on SQLite.
            let rows = try await all(
                """
                SELECT p.platform, p.account FROM game g
                JOIN chat_member m ON m.chat_id = \(chatKey) AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = \(puzzle.rawValue) AND g.language = \(language.rawValue) AND g.guesses <> ''
                """
            ) { try $0.decode((String, String).self) }
            return Set(
                try rows.map { platform, account in
                    guard let platform = Platform(rawValue: platform) else {
                        throw PostgresStoreError.damagedRow(column: "platform")
                    }
                    return UserID(platform, account)
                })
        }

        func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) async throws -> [(
            name: String, guesses: Int
        )] {
            guard let chatKey = try await rowID(of: chat) else { return [] }
            let columns = try await self.columns(
                """
                SELECT \(unescaped: Self.arrays(of: ["m.display_name", "g.guesses"])) FROM game g
                JOIN chat_member m ON m.chat_id = \(chatKey) AND m.player_id = g.player_id
                WHERE g.puzzle = \(puzzle.rawValue) AND g.language = \(language.rawValue) AND g.won_in IS NULL
                    AND NOT g.lost AND g.guesses != ''
                """)
            guard columns.count == 2 else { throw PostgresStoreError.damagedRow(column: "game") }
            try columns.requireOneCount()
            let (names, guesses) = (try columns[0].strings(), try columns[1].strings())
            return zip(names, guesses).map { (name: $0, guesses: $1.split(separator: " ").count) }
        }

        // MARK: - A player's own data

        func data(of player: UserID) async throws -> PlayerData? {
            guard let stored = try await self.player(player), let key = try await rowID(of: player) else { return nil }
            let games = try await all(
                "SELECT \(unescaped: Self.gameColumns) FROM game WHERE player_id = \(key) ORDER BY language, puzzle"
            ) { try $0.decode(GameRow.self) }.map { try Self.game($0, of: player) }
            let memberships = try await all(
                """
                SELECT chat.platform, chat.address, m.joined_puzzle FROM chat_member m JOIN chat ON chat.id = m.chat_id
                WHERE m.player_id = \(key) ORDER BY chat.address
                """
            ) { try $0.decode((String, String, Int).self) }.map { row in
                guard let platform = Platform(rawValue: row.0) else {
                    throw PostgresStoreError.damagedRow(column: "chat.platform")
                }
                return PlayerData.Membership(chat: ChatID(platform, row.1), joinedPuzzle: PuzzleNumber(row.2))
            }
            let results = try await all(
                """
                SELECT chat.platform, chat.address, r.board, r.puzzle, r.language, r.guesses, r.hard_mode,
                    r.finished_at, r.streak_before
                FROM board_result r JOIN chat ON chat.id = r.chat_id
                WHERE r.player_id = \(key) ORDER BY chat.address, r.board, r.puzzle
                """
            ) { try $0.decode((String, String, String, Int, String, Int?, Bool, Double, Int).self) }.map { row in
                guard let platform = Platform(rawValue: row.0), let board = BoardKind(rawValue: row.2),
                    let language = Language(rawValue: row.4)
                else { throw PostgresStoreError.damagedRow(column: "board_result") }
                return BoardResult(
                    chat: ChatID(platform, row.1), board: board, puzzle: PuzzleNumber(row.3), player: player,
                    language: language, guesses: row.5, hardMode: row.6, finishedAt: Date(timeIntervalSince1970: row.7),
                    streakBefore: row.8)
            }
            return PlayerData(
                player: stored, games: games, practiceGames: try await practiceGames(of: player),
                memberships: memberships, results: results)
        }

        func analyses(of player: UserID) async throws -> [DailyGameKey: String] {
            guard let key = try await rowID(of: player) else { return [:] }
            var analyses: [DailyGameKey: String] = [:]
            let rows = try await all(
                "SELECT language, puzzle, analysis FROM game WHERE player_id = \(key) AND analysis_state = \(AnalysisState.done.rawValue)"
            ) { try $0.decode((String, Int, String).self) }
            for row in rows {
                guard let language = Language(rawValue: row.0) else {
                    throw PostgresStoreError.damagedRow(column: "game.language")
                }
                analyses[DailyGameKey(language: language, puzzle: PuzzleNumber(row.1))] = row.2
            }
            return analyses
        }

        func practiceAnalyses(of player: UserID) async throws -> [Int: String] {
            guard let key = try await rowID(of: player) else { return [:] }
            let rows = try await all(
                "SELECT number, analysis FROM practice_game WHERE player_id = \(key) AND analysis_state = \(AnalysisState.done.rawValue)"
            ) { try $0.decode((Int, String).self) }
            return Dictionary(rows.map { ($0.0, $0.1) }) { first, _ in first }
        }

        func forget(_ player: UserID) async throws -> Bool {
            defer { ids.forgetAll() }
            guard let stored = try await self.player(player), let key = try await rowID(of: player) else {
                return false
            }
            // Games, memberships, board results and totals go with the player (ON DELETE CASCADE).
            try await execute("DELETE FROM player WHERE id = \(key)")
            if let directChat = stored.directChat {
                try await execute(
                    "DELETE FROM chat WHERE platform = \(directChat.platform.rawValue) AND address = \(directChat.value)"
                )
                try await execute(
                    """
                    DELETE FROM live_message WHERE platform = \(directChat.platform.rawValue)
                        AND address = \(directChat.value)
                    """)
            }
            return true
        }

        func playersWithReminders() async throws -> [Player] {
            // Claimed until the transaction ends: another process's reminders pass these by.
            try await session.all("SELECT * FROM player WHERE reminders FOR UPDATE SKIP LOCKED", table: "player") {
                try $0.player()
            }
        }

        // MARK: - Outbox and chats

        func enqueue(_ messages: [OutgoingMessage]) async throws {
            var changes = BatchChanges()
            changes.messages = messages
            _ = try await write(changes)
        }

        func moveChat(from old: ChatID, to new: ChatID) async throws {
            defer { ids.forgetAll() }
            // Queued and live messages name a chat as the platform does; the new chat's own live message wins.
            try await execute(
                """
                DELETE FROM live_message WHERE platform = \(old.platform.rawValue) AND address = \(old.value)
                    AND EXISTS (SELECT 1 FROM live_message n WHERE n.platform = \(new.platform.rawValue)
                        AND n.address = \(new.value))
                """)
            for table in ["outbox", "live_message"] {
                try await execute(
                    """
                    UPDATE \(unescaped: table) SET platform = \(new.platform.rawValue), address = \(new.value)
                    WHERE platform = \(old.platform.rawValue) AND address = \(old.value)
                    """)
            }
            guard let oldKey = try await rowID(of: old) else { return }
            guard let newKey = try await rowID(of: new) else {
                // Every table names the chat by its row id: giving the row the new id moves everything.
                try await execute(
                    "UPDATE chat SET platform = \(new.platform.rawValue), address = \(new.value) WHERE id = \(oldKey)")
                return
            }
            // Both ids have data: the old one's joins the new one's, which wins where both have a row.
            let keys: [(table: String, column: String, key: String)] = [
                ("chat_member", "chat_id", "player_id"), ("chat_group", "id", ""),
                ("board_result", "chat_id", "board, puzzle, player_id"),
                ("board_total", "chat_id", "board, period, player_id"),
            ]
            for (table, column, key) in keys {
                // Row ids are integers: written into the statement, which names its table.
                let clash =
                    key.isEmpty
                    ? "EXISTS (SELECT 1 FROM chat_group n WHERE n.id = \(newKey))"
                    : "(\(key)) IN (SELECT \(key) FROM \(table) n WHERE n.\(column) = \(newKey))"
                try await execute(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \(column) = \(oldKey) AND \(clash)"))
                try await execute(
                    PostgresQuery(unsafeSQL: "UPDATE \(table) SET \(column) = \(newKey) WHERE \(column) = \(oldKey)"))
            }
            try await execute("DELETE FROM chat WHERE id = \(oldKey)")
        }

        /// A savepoint around `body`: when it throws, only its own changes are undone.
        func isolated(_ body: () async throws -> Void) async throws {
            try await execute("SAVEPOINT isolated")
            do {
                try await body()
            } catch {
                // Rows the body created are gone again, and so must their ids be.
                ids.forgetAll()
                try await execute("ROLLBACK TO SAVEPOINT isolated")
                try await execute("RELEASE SAVEPOINT isolated")
                throw error
            }
            try await execute("RELEASE SAVEPOINT isolated")
        }
    }

    /// The row ids of players and chats a transaction has looked up. Forgotten whenever rows may have gone or
    /// moved (a savepoint rolled back, a player forgotten, a chat moved), so no id outlives its row.
    final class RowIDs: Sendable {
        private struct Known {
            var players: [UserID: Int64] = [:]
            var chats: [ChatID: Int64] = [:]
        }
        private let known = Mutex(Known())

        func player(_ player: UserID) -> Int64? { known.withLock { $0.players[player] } }
        func chat(_ chat: ChatID) -> Int64? { known.withLock { $0.chats[chat] } }
        func remember(_ id: Int64, for player: UserID) { known.withLock { $0.players[player] = id } }
        func remember(_ id: Int64, for chat: ChatID) { known.withLock { $0.chats[chat] = id } }
        func forgetAll() { known.withLock { $0 = Known() } }
    }
#endif
