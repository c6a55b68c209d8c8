import Foundation
import GRDB
import GRDBSQLite
import TesseraEngine
import TesseraSQL

/// The open transaction as the shared statements' session (``SQLSession``): each query runs on its connection,
/// at once when called from the transaction's body, as every store call is.
extension OpenTransaction: SQLSession {
    var session: OpenTransaction { self }

    func execute(_ query: SQLQuery) async throws {
        let (sql, arguments) = Self.statement(query)
        try await run { db in try db.cachedStatement(sql: sql).execute(arguments: arguments) }
    }

    func rows(_ query: SQLQuery) async throws -> [SQLRow] {
        let (sql, arguments) = Self.statement(query)
        return try await run { db in
            // Read straight from SQLite's C API, as the boards' scans are: a shared read of thousands of rows (a
            // summary's members) costs no GRDB row and no `DatabaseValue` a value.
            let statement = try db.cachedStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            let columns = SQLRow.Columns(statement.columnNames)
            let count = Int32(statement.columnCount)
            let handle = statement.sqliteStatement
            var rows: [SQLRow] = []
            while try cursor.next() != nil {
                var values: [SQLValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<count { values.append(SQLValue(column: index, of: handle)) }
                rows.append(SQLRow(columns: columns, values: values))
            }
            return rows
        }
    }

    func damaged(_ column: String, in table: String) -> any Error {
        SQLiteStoreError.damagedRow(table: table, column: column)
    }

    func account(_ player: UserID) -> SQLValue {
        player.number.map(SQLValue.integer) ?? .text(player.value)
    }

    func rowID(of player: UserID) async throws -> Int64? {
        try await ids.player(player) { try await run { try SQLiteTransaction(db: $0).rowID(of: player) } }
    }
    func rowID(of chat: ChatID) async throws -> Int64? {
        try await ids.chat(chat) { try await run { try SQLiteTransaction(db: $0).rowID(of: chat) } }
    }
    func storedRowID(of chat: ChatID) async throws -> Int64 {
        try await ids.storedChat(chat) { try await run { try SQLiteTransaction(db: $0).storedRowID(of: chat) } }
    }

    /// A query in SQLite's dialect: `?` for each bind.
    private static func statement(_ query: SQLQuery) -> (String, StatementArguments) {
        let (sql, binds) = query.rendered { _ in "?" }
        // Through GRDB's initialiser of optional existentials: its generic one maps with a key path, which is
        // instantiated at every call (an eighth of a write's time).
        return (sql, StatementArguments(binds.map { $0.databaseValue as (any DatabaseValueConvertible)? }))
    }
}
