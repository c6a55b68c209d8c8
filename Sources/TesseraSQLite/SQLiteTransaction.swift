import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine

/// The engine's view of one SQLite write transaction.
struct SQLiteTransaction: GameStoreTransaction {
    let db: Database

    func player(_ id: UserID) throws -> Player? {
        try db.cachedRow(sql: "SELECT * FROM player WHERE id = ?", arguments: [id.rawValue]).map(Self.player)
    }

    func save(_ player: Player) throws {
        try db.executeCached(
            sql: """
                INSERT INTO player (id, display_name, language, time_zone, rollover_hour, pending_time_zone,
                    pending_from, prefers_hard_mode, reminders, reminded_puzzle, direct_chat_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name, language = excluded.language,
                    time_zone = excluded.time_zone, rollover_hour = excluded.rollover_hour,
                    pending_time_zone = excluded.pending_time_zone, pending_from = excluded.pending_from,
                    prefers_hard_mode = excluded.prefers_hard_mode, reminders = excluded.reminders,
                    reminded_puzzle = excluded.reminded_puzzle, direct_chat_id = excluded.direct_chat_id
                """,
            arguments: [
                player.id.rawValue, player.displayName, player.language.rawValue, player.timeZone,
                player.rolloverHour, player.pendingTimeZone, player.pendingFrom?.rawValue, player.prefersHardMode,
                player.reminders, player.remindedPuzzle?.rawValue, player.directChat?.rawValue,
            ]
        )
    }

    func game(of player: UserID, language: Language, puzzle: PuzzleNumber) throws -> StoredGame? {
        try db.cachedRow(
            sql: "SELECT * FROM game WHERE player_id = ? AND language = ? AND puzzle = ?",
            arguments: [player.rawValue, language.rawValue, puzzle.rawValue]
        ).map(Self.game)
    }

    func save(_ game: StoredGame) throws {
        try db.executeCached(
            sql: """
                INSERT INTO game (player_id, language, puzzle, hard_mode, guesses, won_in, lost, finished_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (player_id, language, puzzle) DO UPDATE SET hard_mode = excluded.hard_mode,
                    guesses = excluded.guesses, won_in = excluded.won_in, lost = excluded.lost,
                    finished_at = excluded.finished_at
                """,
            arguments: [
                game.player.rawValue, game.language.rawValue, game.puzzle.rawValue, game.hardMode,
                game.guesses.joined(separator: " "), game.result?.guesses, game.result == .lost,
                game.finishedAt?.timeIntervalSince1970,
            ]
        )
    }

    func finishedGames(of player: UserID, language: Language) throws -> [PlayedGame] {
        try db.cachedRows(
            sql: "SELECT * FROM game WHERE player_id = ? AND language = ? AND (won_in IS NOT NULL OR lost = 1)",
            arguments: [player.rawValue, language.rawValue]
        ).compactMap { row in
            let game = try Self.game(row)
            return game.result.map { PlayedGame(puzzle: game.puzzle, result: $0) }
        }
    }

    // MARK: - Groups

    func group(_ chat: ChatID) throws -> Group? {
        try db.cachedRow(sql: "SELECT * FROM chat_group WHERE id = ?", arguments: [chat.rawValue]).map(Self.group)
    }

    func save(_ group: Group) throws {
        try db.executeCached(
            sql: """
                INSERT INTO chat_group (id, time_zone, rollover_hour, language, hard_mode_required, summary_enabled,
                    summary_hour, topic, last_closed_puzzle, last_revealed_puzzle, pending_time_zone,
                    pending_rollover_hour, pending_language, pending_from, last_closed_language, deletion_explained)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                    deletion_explained = excluded.deletion_explained
                """,
            arguments: [
                group.chat.rawValue, group.timeZone, group.rolloverHour, group.language.rawValue,
                group.hardModeRequired, group.summaryEnabled, group.summaryHour, group.topic,
                group.lastClosedPuzzle.rawValue, group.lastRevealedPuzzle.rawValue, group.pending?.timeZone,
                group.pending?.rolloverHour, group.pending?.language.rawValue, group.pendingFrom?.rawValue,
                group.lastClosedLanguage?.rawValue, group.deletionExplained,
            ]
        )
    }

    func activeGroups() throws -> [Group] {
        try db.cachedRows(
            sql: """
                SELECT chat_group.* FROM chat_group LEFT JOIN chat ON chat.id = chat_group.id
                WHERE coalesce(chat.active, 1) = 1
                """
        ).map(Self.group)
    }

    func memberDays(in chat: ChatID) throws -> [(timeZone: String, rolloverHour: Int)] {
        try db.cachedRows(
            sql: """
                SELECT DISTINCT player.time_zone, player.rollover_hour FROM chat_member
                JOIN player ON player.id = chat_member.player_id WHERE chat_member.chat_id = ?
                """,
            arguments: [chat.rawValue]
        ).map { (timeZone: $0[0], rolloverHour: $0[1]) }
    }

    func members(in chat: ChatID, timeZone: String, rolloverHour: Int) throws -> [UserID] {
        try Int64.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT player.id FROM chat_member JOIN player ON player.id = chat_member.player_id
                    WHERE chat_member.chat_id = ? AND player.time_zone = ? AND player.rollover_hour = ?
                    """),
            arguments: [chat.rawValue, timeZone, rolloverHour]
        ).map(UserID.init)
    }

    func groups(of player: UserID) throws -> [Group] {
        try db.cachedRows(
            sql: """
                SELECT chat_group.* FROM chat_member JOIN chat_group ON chat_group.id = chat_member.chat_id
                WHERE chat_member.player_id = ?
                """,
            arguments: [player.rawValue]
        ).map(Self.group)
    }

    func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) throws -> Bool {
        try db.executeCached(
            sql: "INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [chat.rawValue, player.rawValue, joinedPuzzle.rawValue]
        )
        return db.changesCount > 0
    }

    func removeMember(_ player: UserID, from chat: ChatID) throws -> Bool {
        try db.executeCached(
            sql: "DELETE FROM chat_member WHERE chat_id = ? AND player_id = ?",
            arguments: [chat.rawValue, player.rawValue]
        )
        return db.changesCount > 0
    }

    // MARK: - Boards

    func record(_ result: BoardResult, periods: [String]) throws -> Bool {
        try db.executeCached(
            sql: """
                INSERT INTO board_result (chat_id, board, puzzle, player_id, language, guesses, hard_mode,
                    finished_at, streak_before)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
            arguments: [
                result.chat.rawValue, result.board.rawValue, result.puzzle.rawValue, result.player.rawValue,
                result.language.rawValue,
                result.guesses, result.hardMode, result.finishedAt.timeIntervalSince1970, result.streakBefore,
            ]
        )
        guard db.changesCount > 0 else { return false }
        for period in periods {
            try db.executeCached(
                sql: """
                    INSERT INTO board_total (chat_id, board, period, player_id, points, played, wins,
                        winning_guesses, streak, last_puzzle)
                    VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
                    ON CONFLICT (chat_id, board, period, player_id) DO UPDATE SET points = points + excluded.points,
                        played = played + 1, wins = wins + excluded.wins,
                        winning_guesses = winning_guesses + excluded.winning_guesses, streak = excluded.streak,
                        last_puzzle = max(last_puzzle, excluded.last_puzzle)
                    """,
                arguments: [
                    result.chat.rawValue, result.board.rawValue, period, result.player.rawValue, result.points,
                    result.guesses == nil ? 0 : 1, result.guesses ?? 0, result.streakAfter, result.puzzle.rawValue,
                ]
            )
        }
        return true
    }

    func standing(of player: UserID, in chat: ChatID, board: BoardKind) throws -> Standing? {
        try db.cachedRow(
            sql: """
                SELECT t.player_id, p.display_name, t.points, t.played, t.wins, t.winning_guesses, t.streak,
                    t.last_puzzle, coalesce(m.joined_puzzle, 0)
                FROM board_total t JOIN player p ON p.id = t.player_id
                LEFT JOIN chat_member m ON m.chat_id = t.chat_id AND m.player_id = t.player_id
                WHERE t.chat_id = ? AND t.board = ? AND t.period = 'all' AND t.player_id = ?
                """,
            arguments: [chat.rawValue, board.rawValue, player.rawValue]
        ).map(Self.standing)
    }

    func standings(in chat: ChatID, board: BoardKind, period: String) throws -> [Standing] {
        // A large board has thousands of members. Range scans of the period's totals, of the all-time
        // streaks and of the members, all in player order and merged here, read straight from SQLite's C API,
        // cost a fraction of joining each member to its totals by key and decoding every value through GRDB.
        // The columns are NOT NULL integers and text by the schema.
        struct Totals {
            var player: Int64
            var points: Int, played: Int, wins: Int, winningGuesses: Int, streak: Int, lastPuzzle: Int
        }
        func scan(_ sql: String, _ arguments: StatementArguments, _ read: (SQLiteStatement) -> Void) throws {
            let statement = try db.cachedStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while try cursor.next() != nil { read(statement.sqliteStatement) }
        }
        func int(_ row: SQLiteStatement, _ index: Int32) -> Int { Int(sqlite3_column_int64(row, index)) }
        func scanTotals(_ period: String) throws -> [Totals] {
            var totals: [Totals] = []
            try scan(
                """
                SELECT player_id, points, played, wins, winning_guesses, streak, last_puzzle FROM board_total
                WHERE chat_id = ? AND board = ? AND period = ? ORDER BY player_id
                """, [chat.rawValue, board.rawValue, period]
            ) { row in
                totals.append(
                    Totals(
                        player: sqlite3_column_int64(row, 0), points: int(row, 1), played: int(row, 2),
                        wins: int(row, 3), winningGuesses: int(row, 4), streak: int(row, 5), lastPuzzle: int(row, 6)))
            }
            return totals
        }
        let totals = try scanTotals(period)
        // The streak is the one of the latest result: the all-time row's. Reading only its columns saves
        // a few milliseconds on a board of thousands.
        var streaks = totals
        if period != "all" {
            streaks = []
            try scan(
                """
                SELECT player_id, streak, last_puzzle FROM board_total
                WHERE chat_id = ? AND board = ? AND period = 'all' ORDER BY player_id
                """, [chat.rawValue, board.rawValue]
            ) { row in
                streaks.append(
                    Totals(
                        player: sqlite3_column_int64(row, 0), points: 0, played: 0, wins: 0, winningGuesses: 0,
                        streak: int(row, 1), lastPuzzle: int(row, 2)))
            }
        }
        var standings: [Standing] = []
        var nextTotal = 0
        var nextStreak = 0
        try scan(
            """
            SELECT m.player_id, p.display_name, m.joined_puzzle
            FROM chat_member m JOIN player p ON p.id = m.player_id WHERE m.chat_id = ? ORDER BY m.player_id
            """, [chat.rawValue]
        ) { row in
            let player = sqlite3_column_int64(row, 0)
            while nextTotal < totals.count && totals[nextTotal].player < player { nextTotal += 1 }
            while nextStreak < streaks.count && streaks[nextStreak].player < player { nextStreak += 1 }
            let total = nextTotal < totals.count && totals[nextTotal].player == player ? totals[nextTotal] : nil
            let streak = nextStreak < streaks.count && streaks[nextStreak].player == player ? streaks[nextStreak] : nil
            standings.append(
                Standing(
                    player: UserID(player),
                    name: sqlite3_column_text(row, 1).map { String(cString: $0) } ?? "",
                    points: total?.points ?? 0,
                    played: total?.played ?? 0,
                    wins: total?.wins ?? 0,
                    winningGuesses: total?.winningGuesses ?? 0,
                    streak: streak?.streak ?? 0,
                    lastPuzzle: streak.map { PuzzleNumber($0.lastPuzzle) },
                    joinedPuzzle: PuzzleNumber(int(row, 2))
                ))
        }
        return standings
    }

    func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) throws -> [(
        name: String, result: BoardResult
    )] {
        // Read like the standings: a large group has thousands of results a day.
        let statement = try db.cachedStatement(
            sql: """
                SELECT p.display_name, r.player_id, r.language, r.guesses, r.hard_mode, r.finished_at, r.streak_before
                FROM board_result r
                JOIN chat_member m ON m.chat_id = r.chat_id AND m.player_id = r.player_id
                JOIN player p ON p.id = r.player_id
                WHERE r.chat_id = ? AND r.board = ? AND r.puzzle = ?
                """)
        let cursor = try Row.fetchCursor(statement, arguments: [chat.rawValue, board.rawValue, puzzle.rawValue])
        let row = statement.sqliteStatement
        func text(_ index: Int32) -> String { sqlite3_column_text(row, index).map { String(cString: $0) } ?? "" }
        var results: [(name: String, result: BoardResult)] = []
        while try cursor.next() != nil {
            guard let language = Language(rawValue: text(2)) else {
                throw SQLiteStoreError.damagedRow(table: "board_result", column: "language")
            }
            let result = BoardResult(
                chat: chat, board: board, puzzle: puzzle,
                player: UserID(sqlite3_column_int64(row, 1)),
                language: language,
                guesses: sqlite3_column_type(row, 3) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(row, 3)),
                hardMode: sqlite3_column_int64(row, 4) != 0,
                finishedAt: Date(timeIntervalSince1970: sqlite3_column_double(row, 5)),
                streakBefore: Int(sqlite3_column_int64(row, 6)))
            results.append((name: text(0), result: result))
        }
        return results
    }

    func guesses(of players: [UserID], language: Language, puzzle: PuzzleNumber) throws -> [UserID: [String]] {
        var guesses: [UserID: [String]] = [:]
        for player in players {
            let words = try String.fetchOne(
                db.cachedStatement(sql: "SELECT guesses FROM game WHERE player_id = ? AND language = ? AND puzzle = ?"),
                arguments: [player.rawValue, language.rawValue, puzzle.rawValue])
            guesses[player] = words.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        return guesses
    }

    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) throws -> [(name: String, guesses: Int)]
    {
        // Driven by the partial index of unfinished games: few, compared with a large group's members.
        try db.cachedRows(
            sql: """
                SELECT p.display_name, g.guesses FROM game g
                JOIN chat_member m ON m.chat_id = ? AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = ? AND g.language = ? AND g.won_in IS NULL AND g.lost = 0 AND g.guesses != ''
                """,
            arguments: [chat.rawValue, puzzle.rawValue, language.rawValue]
        ).map { row in
            let guesses: String = try row.required("guesses", in: "game")
            return (name: try row.required("display_name", in: "player"), guesses: guesses.split(separator: " ").count)
        }
    }

    func enqueue(_ messages: [OutgoingMessage]) throws {
        for message in messages {
            let buttons =
                message.buttons.isEmpty
                ? nil : String(decoding: try JSONEncoder().encode(message.buttons), as: UTF8.self)
            let action =
                message.action == .post
                ? nil : String(decoding: try JSONEncoder().encode(message.action), as: UTF8.self)
            try db.executeCached(
                sql: """
                    INSERT INTO outbox (chat_id, chat_kind, html, reply_to, thread, buttons, document_name, document,
                        at_most_once, silent, action, live, reposts_live)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    message.chat.rawValue, message.chatKind.rawValue, message.html, message.replyTo, message.thread,
                    buttons,
                    message.document?.fileName, message.document.map { Data($0.contents) }, message.atMostOnce,
                    message.silent, action, message.live, message.repostsLive,
                ]
            )
        }
    }

    // MARK: - A player's own data

    func data(of player: UserID) throws -> PlayerData? {
        guard let stored = try self.player(player) else { return nil }
        let games = try db.cachedRows(
            sql: "SELECT * FROM game WHERE player_id = ? ORDER BY language, puzzle", arguments: [player.rawValue]
        ).map(Self.game)
        let memberships = try db.cachedRows(
            sql: "SELECT chat_id, joined_puzzle FROM chat_member WHERE player_id = ? ORDER BY chat_id",
            arguments: [player.rawValue]
        ).map { row in
            PlayerData.Membership(
                chat: ChatID(try row.required("chat_id", in: "chat_member")),
                joinedPuzzle: PuzzleNumber(try row.required("joined_puzzle", in: "chat_member")))
        }
        let results = try db.cachedRows(
            sql: "SELECT * FROM board_result WHERE player_id = ? ORDER BY chat_id, board, puzzle",
            arguments: [player.rawValue]
        ).map(Self.boardResult)
        return PlayerData(player: stored, games: games, memberships: memberships, results: results)
    }

    func forget(_ player: UserID) throws -> Bool {
        let directChat = try self.player(player)?.directChat
        // Games, memberships, board results and totals go with the player (ON DELETE CASCADE).
        try db.executeCached(sql: "DELETE FROM player WHERE id = ?", arguments: [player.rawValue])
        let deleted = db.changesCount > 0
        if let directChat {
            try db.executeCached(sql: "DELETE FROM chat WHERE id = ?", arguments: [directChat.rawValue])
            try db.executeCached(sql: "DELETE FROM live_message WHERE chat_id = ?", arguments: [directChat.rawValue])
        }
        return deleted
    }

    func playersWithReminders() throws -> [Player] {
        try db.cachedRows(sql: "SELECT * FROM player WHERE reminders = 1", arguments: []).map(Self.player)
    }

    func pendingCount(in chat: ChatID) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox WHERE chat_id = ?"), arguments: [chat.rawValue]) ?? 0
    }

    func guardReplay(_ key: String, until puzzle: PuzzleNumber) throws {
        try db.executeCached(
            sql: "INSERT OR IGNORE INTO replay_guard (key, puzzle) VALUES (?, ?)", arguments: [key, puzzle.rawValue])
    }

    func isReplayGuarded(_ key: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM replay_guard WHERE key = ?)"), arguments: [key])
            ?? false
    }

    func removeReplayGuards(before puzzle: PuzzleNumber) throws {
        try db.executeCached(sql: "DELETE FROM replay_guard WHERE puzzle < ?", arguments: [puzzle.rawValue])
    }

    func noteActivity(in chat: ChatID) throws {
        try db.executeCached(sql: "UPDATE chat SET active = 1 WHERE id = ? AND active = 0", arguments: [chat.rawValue])
    }

    func position(of transport: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT next FROM transport_position WHERE transport = ?"), arguments: [transport])
    }

    func moveChat(from old: ChatID, to new: ChatID) throws {
        for table in ["chat_member", "chat", "chat_group", "board_result", "board_total"] {
            let column = table == "chat" || table == "chat_group" ? "id" : "chat_id"
            try db.execute(
                sql: "UPDATE OR IGNORE \(table) SET \(column) = ? WHERE \(column) = ?",
                arguments: [new.rawValue, old.rawValue])
            try db.execute(sql: "DELETE FROM \(table) WHERE \(column) = ?", arguments: [old.rawValue])
        }
        try db.execute(sql: "UPDATE outbox SET chat_id = ? WHERE chat_id = ?", arguments: [new.rawValue, old.rawValue])
    }

    func isolated(_ body: () throws -> Void) throws {
        try db.inSavepoint {
            try body()
            return .commit
        }
    }

    // MARK: - Rows

    static func group(_ row: Row) throws -> Group {
        let languageCode: String = try row.required("language", in: "chat_group")
        guard let language = Language(rawValue: languageCode) else {
            throw SQLiteStoreError.damagedRow(table: "chat_group", column: "language")
        }
        return Group(
            chat: ChatID(try row.required("id", in: "chat_group")),
            timeZone: try row.required("time_zone", in: "chat_group"),
            rolloverHour: try row.required("rollover_hour", in: "chat_group"),
            language: language,
            hardModeRequired: try row.required("hard_mode_required", in: "chat_group"),
            summaryEnabled: try row.required("summary_enabled", in: "chat_group"),
            summaryHour: row["summary_hour"],
            topic: row["topic"],
            lastClosedPuzzle: PuzzleNumber(try row.required("last_closed_puzzle", in: "chat_group")),
            lastRevealedPuzzle: PuzzleNumber(try row.required("last_revealed_puzzle", in: "chat_group")),
            pending: try pendingDaySettings(row),
            pendingFrom: (row["pending_from"] as Int?).map(PuzzleNumber.init),
            lastClosedLanguage: (row["last_closed_language"] as String?).flatMap(Language.init(rawValue:)),
            deletionExplained: row["deletion_explained"] ?? false
        )
    }

    /// A group's pending day settings: all three columns or none.
    private static func pendingDaySettings(_ row: Row) throws -> Group.DaySettings? {
        guard let zone: String = row["pending_time_zone"] else { return nil }
        let code: String? = row["pending_language"]
        guard let hour: Int = row["pending_rollover_hour"], let language = code.flatMap(Language.init(rawValue:))
        else { throw SQLiteStoreError.damagedRow(table: "chat_group", column: "pending_language") }
        return Group.DaySettings(timeZone: zone, rolloverHour: hour, language: language)
    }

    /// A standing from the columns player, name, points, played, wins, winning guesses, streak, last puzzle,
    /// joined puzzle, in that order.
    static func standing(_ row: Row) throws -> Standing {
        func column<Value: DatabaseValueConvertible>(_ index: Int) throws -> Value {
            guard let value = Value.fromDatabaseValue(row[index] as DatabaseValue) else {
                throw SQLiteStoreError.damagedRow(table: "board_total", column: Array(row.columnNames)[index])
            }
            return value
        }
        let lastPuzzle: Int? = row[7]
        return Standing(
            player: UserID(try column(0)),
            name: try column(1),
            points: try column(2),
            played: try column(3),
            wins: try column(4),
            winningGuesses: try column(5),
            streak: try column(6),
            lastPuzzle: lastPuzzle.map(PuzzleNumber.init),
            joinedPuzzle: PuzzleNumber(try column(8))
        )
    }

    static func player(_ row: Row) throws -> Player {
        let languageCode: String = try row.required("language", in: "player")
        guard let language = Language(rawValue: languageCode) else {
            throw SQLiteStoreError.damagedRow(table: "player", column: "language")
        }
        let pendingFrom: Int? = row["pending_from"]
        return Player(
            id: UserID(try row.required("id", in: "player")),
            displayName: try row.required("display_name", in: "player"),
            language: language,
            timeZone: try row.required("time_zone", in: "player"),
            rolloverHour: try row.required("rollover_hour", in: "player"),
            pendingTimeZone: row["pending_time_zone"],
            pendingFrom: pendingFrom.map(PuzzleNumber.init),
            prefersHardMode: try row.required("prefers_hard_mode", in: "player"),
            reminders: row["reminders"] ?? false,
            remindedPuzzle: (row["reminded_puzzle"] as Int?).map(PuzzleNumber.init),
            directChat: (row["direct_chat_id"] as Int64?).map(ChatID.init)
        )
    }

    static func boardResult(_ row: Row) throws -> BoardResult {
        let languageCode: String = try row.required("language", in: "board_result")
        let boardName: String = try row.required("board", in: "board_result")
        guard let language = Language(rawValue: languageCode) else {
            throw SQLiteStoreError.damagedRow(table: "board_result", column: "language")
        }
        guard let board = BoardKind(rawValue: boardName) else {
            throw SQLiteStoreError.damagedRow(table: "board_result", column: "board")
        }
        return BoardResult(
            chat: ChatID(try row.required("chat_id", in: "board_result")),
            board: board,
            puzzle: PuzzleNumber(try row.required("puzzle", in: "board_result")),
            player: UserID(try row.required("player_id", in: "board_result")),
            language: language,
            guesses: row["guesses"],
            hardMode: try row.required("hard_mode", in: "board_result"),
            finishedAt: Date(timeIntervalSince1970: try row.required("finished_at", in: "board_result")),
            streakBefore: try row.required("streak_before", in: "board_result")
        )
    }

    static func game(_ row: Row) throws -> StoredGame {
        let languageCode: String = try row.required("language", in: "game")
        guard let language = Language(rawValue: languageCode) else {
            throw SQLiteStoreError.damagedRow(table: "game", column: "language")
        }
        let guesses: String = try row.required("guesses", in: "game")
        let wonIn: Int? = row["won_in"]
        let lost: Bool = try row.required("lost", in: "game")
        let finishedAt: Double? = row["finished_at"]
        return StoredGame(
            player: UserID(try row.required("player_id", in: "game")),
            language: language,
            puzzle: PuzzleNumber(try row.required("puzzle", in: "game")),
            hardMode: try row.required("hard_mode", in: "game"),
            guesses: guesses.split(separator: " ").map(String.init),
            result: wonIn.map { .won(guesses: $0) } ?? (lost ? .lost : nil),
            finishedAt: finishedAt.map { Date(timeIntervalSince1970: $0) }
        )
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
