import GRDB
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
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            var rows: [SQLRow] = []
            var columns: SQLRow.Columns?
            while let row = try cursor.next() {
                let names = columns ?? SQLRow.Columns(Array(row.columnNames))
                columns = names
                rows.append(SQLRow(row, columns: names))
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
        try await run { try SQLiteTransaction(db: $0).rowID(of: player) }
    }
    func rowID(of chat: ChatID) async throws -> Int64? {
        try await run { try SQLiteTransaction(db: $0).rowID(of: chat) }
    }
    func storedRowID(of chat: ChatID) async throws -> Int64 {
        try await run { try SQLiteTransaction(db: $0).storedRowID(of: chat) }
    }

    /// A query in SQLite's dialect: `?` for each bind.
    private static func statement(_ query: SQLQuery) -> (String, StatementArguments) {
        let (sql, binds) = query.rendered { _ in "?" }
        return (sql, StatementArguments(binds.map(\.databaseValue)))
    }
}
