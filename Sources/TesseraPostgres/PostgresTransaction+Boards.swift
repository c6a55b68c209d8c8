#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// Groups' boards (``GroupStorage``) as PostgreSQL runs them: totals, results, standings and a day's members,
    /// each board read as columns of arrays in one statement.
    extension PostgresTransaction {
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
            let members = try Self.members(columns[0..<4], platform: chat.platform)
            try columns[4..<9].requireOneCount()
            let (totalPlayers, points, played, wins, winningGuesses) = (
                try columns[4].ints(), try columns[5].ints(), try columns[6].ints(), try columns[7].ints(),
                try columns[8].ints()
            )
            func totals(_ row: Int) -> ScannedTotals {
                ScannedTotals(
                    points: points[row], played: played[row], wins: wins[row], winningGuesses: winningGuesses[row])
            }
            var memberTotals = [ScannedTotals?](repeating: nil, count: members.players.count)
            Self.merge(totalPlayers, into: members.position) { member, row in memberTotals[member] = totals(row) }
            // Who left the board keeps the days they played in the period (``Standing/isMember``).
            let left = totalPlayers.indices.filter {
                members.position[totalPlayers[$0]] == nil && totals($0).keepsPlayerWhoLeft
            }
            let leftPlayers = Set(left.map { totalPlayers[$0] })
            let streakColumns = allTime ? [columns[4], columns[9], columns[10]] : Array(columns[9..<12])
            try streakColumns.requireOneCount()
            let (streaks, lastPuzzles) = (try streakColumns[1].ints(), try streakColumns[2].ints())
            var memberStreaks = [ScannedStreak?](repeating: nil, count: members.players.count)
            var leftStreaks: [Int: ScannedStreak] = [:]
            for (row, player) in try streakColumns[0].ints().enumerated() {
                let streak = ScannedStreak(streak: streaks[row], lastPuzzle: PuzzleNumber(lastPuzzles[row]))
                if let member = members.position[player] {
                    memberStreaks[member] = streak
                } else if leftPlayers.contains(player) {
                    leftStreaks[player] = streak
                }
            }
            var standings = members.players.indices.map { index in
                Standing(
                    member: members.players[index], name: members.names[index], joinedPuzzle: members.joined[index],
                    totals: memberTotals[index], allTime: memberStreaks[index])
            }
            if !left.isEmpty {
                let names = try await all(
                    """
                    SELECT id, account, display_name FROM player
                    WHERE id = ANY(ARRAY[\(left.map { String(totalPlayers[$0]) }.joined(separator: ","))]::bigint[])
                    """
                ) { try $0.decode((Int, String, String).self) }
                let named = Dictionary(names.map { ($0.0, $0) }, uniquingKeysWith: { first, _ in first })
                for row in left {
                    guard let player = named[totalPlayers[row]],
                        let standing = Standing(
                            leftBoard: UserID(chat.platform, player.1), name: player.2, totals: totals(row),
                            allTime: leftStreaks[totalPlayers[row]])
                    else { continue }
                    standings.append(standing)
                }
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
            var streaks = [ScannedStreak?](repeating: nil, count: members.players.count)
            let (streakColumn, lastColumn) = (try columns[15].ints(), try columns[16].ints())
            Self.merge(try columns[14].ints(), into: members.position) { member, row in
                streaks[member] = ScannedStreak(streak: streakColumn[row], lastPuzzle: PuzzleNumber(lastColumn[row]))
            }
            return members.players.indices.map { index in
                DayMember(
                    member: members.players[index], name: members.names[index],
                    joinedPuzzle: members.joined[index],
                    day: MemberDay(
                        timeZone: timeZones[index], rolloverHour: rolloverHours[index],
                        pendingTimeZone: pendingTimeZones[index],
                        pendingFrom: pendingFroms[index].map { PuzzleNumber($0) }),
                    result: results[index], allTime: streaks[index])
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
    }
#endif
