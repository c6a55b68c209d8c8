import Foundation
import GRDB
import GRDBSQLite
import TesseraEngine
import TesseraSQL

extension SQLRow {
    /// A GRDB row as the shared statements read rows.
    init(_ row: Row, columns: Columns) {
        self.init(columns: columns, values: row.databaseValues.map(SQLValue.init))
    }

    /// A GRDB row read alone (its columns not shared with others).
    init(_ row: Row) { self.init(row, columns: Columns(Array(row.columnNames))) }

    /// A `player` row as the player it stores; a damaged one throws the store's error naming the column.
    static func player(_ row: Row) throws -> Player {
        try SQLiteTransaction.checked("player") { try SQLRow(row).player() }
    }
}

extension SQLValue {
    /// The value of a column of the statement's current row, as SQLite stores it.
    init(column index: Int32, of statement: SQLiteStatement) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, index))
        // The pointer before its length, as SQLite asks: reading the length first may convert the value.
        case SQLITE_TEXT:
            let text = sqlite3_column_text(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            self = .text(
                text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            self = .bytes(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        default: self = .null
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let bytes): self = .bytes(bytes)
        }
    }
}
