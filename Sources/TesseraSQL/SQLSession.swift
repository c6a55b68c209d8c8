public import TesseraEngine

/// One row a query read, its values by column name.
public struct SQLRow: Sendable {
    /// The result's column names, shared by its rows.
    public final class Columns: Sendable {
        let index: [String: Int]

        public init(_ names: [String]) {
            var index: [String: Int] = [:]
            // The first of two columns of one name, as both libraries read a row by name.
            for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
            self.index = index
        }
    }

    let columns: Columns
    let values: [SQLValue]

    public init(columns: Columns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The row with more columns: values known without reading them (a game's player, by its key).
    public func adding(_ known: [String: SQLValue]) -> SQLRow {
        var names = Array(repeating: "", count: values.count)
        for (name, position) in columns.index { names[position] = name }
        let added = known.sorted { $0.key < $1.key }
        return SQLRow(columns: Columns(names + added.map(\.key)), values: values + added.map(\.value))
    }

    /// A column's value; throws ``DamagedColumn`` for a column the row lacks.
    public func value(_ column: String) throws -> SQLValue {
        guard let position = columns.index[column] else { throw DamagedColumn(column) }
        return values[position]
    }

    /// An integer column; nil when null. Throws ``DamagedColumn`` for any other type.
    public func optionalInt(_ column: String) throws -> Int? {
        switch try value(column) {
        case .null: nil
        case .integer(let number): Int(exactly: number)
        default: throw DamagedColumn(column)
        }
    }

    public func int(_ column: String) throws -> Int {
        guard let number = try optionalInt(column) else { throw DamagedColumn(column) }
        return number
    }

    /// A text column; nil when null.
    public func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: nil
        case .text(let text): text
        default: throw DamagedColumn(column)
        }
    }

    public func string(_ column: String) throws -> String {
        guard let text = try optionalString(column) else { throw DamagedColumn(column) }
        return text
    }

    /// A boolean column: PostgreSQL's boolean, SQLite's 0 or 1.
    public func bool(_ column: String) throws -> Bool {
        switch try value(column) {
        case .boolean(let value): value
        case .integer(0): false
        case .integer(1): true
        default: throw DamagedColumn(column)
        }
    }
}

/// One store's connection inside a write transaction, as the statements both dialects share use it
/// (``SQLTransaction``): it renders a query in its dialect and runs it.
public protocol SQLSession: Sendable {
    /// Runs a statement whose rows, if any, are not needed.
    func execute(_ query: SQLQuery) async throws
    /// Runs a write: how many rows it inserted, changed or deleted (none for an insert that `DO NOTHING` skipped).
    func changes(_ query: SQLQuery) async throws -> Int
    /// Every row of a query.
    func rows(_ query: SQLQuery) async throws -> [SQLRow]
    /// The store's own error for a damaged row (a column missing or of the wrong type): what its operator reads.
    func damaged(_ column: String, in table: String) -> any Error
    /// How `player.account` keeps a player's id: as the platform spells it (the default), or as SQLite keeps one
    /// spelled as a number, an integer.
    func account(_ player: UserID) -> SQLValue
}

extension SQLSession {
    public func account(_ player: UserID) -> SQLValue { .text(player.value) }

    /// Every row of a query, each read by `read`; a damaged one throws the store's error naming the column.
    public func all<Value>(_ query: SQLQuery, table: String, _ read: (SQLRow) throws -> Value) async throws -> [Value] {
        let rows = try await rows(query)
        do {
            return try rows.map(read)
        } catch let damage as DamagedColumn {
            throw damaged(damage.column, in: table)
        }
    }

    /// The first row of a query read by `read`; nil without one.
    public func one<Value>(_ query: SQLQuery, table: String, _ read: (SQLRow) throws -> Value) async throws -> Value? {
        try await all(query, table: table, read).first
    }
}
