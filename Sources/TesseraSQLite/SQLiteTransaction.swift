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

    // MARK: - Players (the rest of play is shared: `SQLTransaction+Play.swift`)

    func playersWithReminders() throws -> [Player] {
        try db.cachedRows(sql: "SELECT * FROM player WHERE reminders = 1", arguments: []).map(SQLRow.player)
    }

    // MARK: - Rows

    static func group(_ row: Row) throws -> Group { try checked("chat_group") { try SQLRow(row).group() } }

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

    /// A `game` row of `player`'s, through ``GameColumns``.
    static func game(_ row: Row, of player: UserID) throws -> StoredGame {
        try checked("game") { try SQLRow(row).game(of: player) }
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
