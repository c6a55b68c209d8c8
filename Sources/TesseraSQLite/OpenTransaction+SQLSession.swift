import Foundation
import GRDB
import GRDBSQLite
import TesseraEngine
import TesseraSQL

/// The open transaction as the shared statements' session (``SQLSession``): each query runs on its connection,
/// at once when called from the transaction's body, as every store call is.
///
/// Straight on SQLite's C API, as the boards' scans are: a statement is taken from GRDB's cache once a
/// transaction (its result's column names read then), its binds go in without a `StatementArguments` and its
/// rows come out without a GRDB row. The shared statements are plain reads and writes, which need none of what
/// GRDB does around a step (schema caches, transaction observers).
extension OpenTransaction: SQLSession {
    var session: OpenTransaction { self }

    func execute(_ query: SQLQuery) async throws {
        _ = try await changes(query)
    }

    func changes(_ query: SQLQuery) async throws -> Int {
        try await run { [statements] db in
            let prepared = try statements.prepared(query.sql, in: db)
            try prepared.bind(query.binds, in: db)
            while try prepared.step(in: db) {}
            return db.changesCount
        }
    }

    func rows(_ query: SQLQuery) async throws -> [SQLRow] {
        try await run { [statements] db in
            let prepared = try statements.prepared(query.sql, in: db)
            try prepared.bind(query.binds, in: db)
            let handle = prepared.statement.sqliteStatement
            let count = sqlite3_column_count(handle)
            var rows: [SQLRow] = []
            while try prepared.step(in: db) {
                var values: [SQLValue] = []
                values.reserveCapacity(Int(count))
                for index in 0..<count { values.append(SQLValue(column: index, of: handle)) }
                rows.append(SQLRow(columns: prepared.columns, values: values))
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
}

/// The statements a transaction has run, by their SQL, each with its result's column names. Touched only on the
/// writer's queue, in `run`.
final class PreparedStatements: @unchecked Sendable {
    final class Prepared {
        let statement: Statement
        let columns: SQLRow.Columns

        init(_ statement: Statement) {
            self.statement = statement
            columns = SQLRow.Columns(statement.columnNames)
        }

        /// Binds `values` in order, after resetting what the statement last ran with.
        func bind(_ values: [SQLValue], in db: Database) throws {
            let handle = statement.sqliteStatement
            // A reset returns the last step's error, already thrown then.
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "\(values.count) values for the statement's binds",
                    sql: statement.sql)
            }
            for (index, value) in zip(Int32(1)..., values) {
                let code =
                    switch value {
                    case .null, .unreadable: sqlite3_bind_null(handle, index)
                    case .integer(let number): sqlite3_bind_int64(handle, index, number)
                    case .boolean(let flag): sqlite3_bind_int64(handle, index, flag ? 1 : 0)
                    case .real(let number): sqlite3_bind_double(handle, index, number)
                    case .text(var text):
                        // With its length, so a text holding a NUL is stored whole; an empty one is not NULL.
                        text.withUTF8 { bytes in
                            bytes.withMemoryRebound(to: CChar.self) { text in
                                guard let start = text.baseAddress else {
                                    return "".withCString { sqlite3_bind_text(handle, index, $0, 0, transientBytes) }
                                }
                                return sqlite3_bind_text(handle, index, start, Int32(text.count), transientBytes)
                            }
                        }
                    case .bytes(let bytes):
                        bytes.isEmpty
                            ? sqlite3_bind_zeroblob(handle, index, 0)
                            : bytes.withUnsafeBytes {
                                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transientBytes)
                            }
                    }
                guard code == SQLITE_OK else { throw error(code, in: db) }
            }
        }

        /// Steps once: whether a row came.
        func step(in db: Database) throws -> Bool {
            switch sqlite3_step(statement.sqliteStatement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code:
                let error = error(code, in: db)
                sqlite3_reset(statement.sqliteStatement)
                throw error
            }
        }

        private func error(_ code: Int32, in db: Database) -> DatabaseError {
            let connection = db.sqliteConnection
            return DatabaseError(
                resultCode: ResultCode(rawValue: connection.map(sqlite3_extended_errcode) ?? code),
                message: connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }, sql: statement.sql)
        }
    }

    private var known: [String: Prepared] = [:]

    func prepared(_ sql: String, in db: Database) throws -> Prepared {
        if let prepared = known[sql] { return prepared }
        let prepared = Prepared(try db.cachedStatement(sql: sql))
        known[sql] = prepared
        return prepared
    }
}

/// SQLite's `SQLITE_TRANSIENT`: it copies the bytes bound before the call returns.
private let transientBytes = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
