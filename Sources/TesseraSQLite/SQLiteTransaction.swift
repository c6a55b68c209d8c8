import Foundation
import GRDB
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
                    pending_from, prefers_hard_mode)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name, language = excluded.language,
                    time_zone = excluded.time_zone, rollover_hour = excluded.rollover_hour,
                    pending_time_zone = excluded.pending_time_zone, pending_from = excluded.pending_from,
                    prefers_hard_mode = excluded.prefers_hard_mode
                """,
            arguments: [
                player.id.rawValue, player.displayName, player.language.rawValue, player.timeZone,
                player.rolloverHour, player.pendingTimeZone, player.pendingFrom?.rawValue, player.prefersHardMode,
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

    func addMember(_ player: UserID, to chat: ChatID) throws {
        try db.executeCached(
            sql: "INSERT INTO chat_member (chat_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            arguments: [chat.rawValue, player.rawValue]
        )
    }

    func members(of chat: ChatID, language: Language, puzzle: PuzzleNumber) throws -> [(Player, StoredGame?)] {
        let players = try db.cachedRows(
            sql: "SELECT player.* FROM chat_member JOIN player ON player.id = chat_member.player_id WHERE chat_id = ?",
            arguments: [chat.rawValue]
        ).map(Self.player)
        return try players.map { player in (player, try game(of: player.id, language: language, puzzle: puzzle)) }
    }

    func enqueue(_ messages: [OutgoingMessage]) throws {
        for message in messages {
            try db.executeCached(
                sql: "INSERT INTO outbox (chat_id, html, reply_to) VALUES (?, ?, ?)",
                arguments: [message.chat.rawValue, message.html, message.replyTo]
            )
        }
    }

    func noteActivity(in chat: ChatID) throws {
        try db.executeCached(sql: "UPDATE chat SET active = 1 WHERE id = ? AND active = 0", arguments: [chat.rawValue])
    }

    func moveChat(from old: ChatID, to new: ChatID) throws {
        for table in ["chat_member", "chat"] {
            let column = table == "chat" ? "id" : "chat_id"
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
            prefersHardMode: try row.required("prefers_hard_mode", in: "player")
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
