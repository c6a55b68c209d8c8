public import Foundation

/// A value a query binds, or a column reads back: what both dialects store.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A boolean: PostgreSQL's `boolean`; SQLite binds it as 1 or 0 and reads back an integer.
    case boolean(Bool)
    /// Bytes: SQLite's blob, PostgreSQL's `bytea` (a queued document).
    case bytes(Data)
    /// A column of a type neither dialect's rows are written with (a `numeric`): a damaged row, named by the
    /// type, when a getter asks for it.
    case unreadable(type: String)
}

/// A Swift value a query binds: the types the stores' columns hold.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .boolean(self) } }
extension Data: SQLBindable { public var sqlValue: SQLValue { .bytes(self) } }
extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One statement written once for both dialects: its SQL with each interpolated value bound, never spliced.
///
/// As GRDB's `SQL` and postgres-nio's `PostgresQuery` are written:
/// `"SELECT games FROM practice_start WHERE key = \(key)"` binds `key`; `\(unescaped: list)` splices trusted
/// SQL (a column list), and another query splices in with its binds. Each store renders it in its dialect
/// (``rendered(placeholder:)``): `?` for SQLite, `$1` … for PostgreSQL.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    enum Part: Sendable {
        case sql(String)
        case bind(SQLValue)
    }

    var parts: [Part]

    public init(stringLiteral value: String) { parts = [.sql(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) { parts.append(.sql(literal)) }

        /// A bound value.
        public mutating func appendInterpolation(_ value: some SQLBindable) { parts.append(.bind(value.sqlValue)) }

        /// Trusted SQL spliced in as it is: a table or column name, a column list. Never a player's text.
        public mutating func appendInterpolation(unescaped sql: String) { parts.append(.sql(sql)) }

        /// `values` bound one by one and separated by commas: a row's `VALUES (…)`, or a few values for `IN (…)`
        /// (none is NULL, which `IN` never matches).
        public mutating func appendInterpolation(list values: [some SQLBindable]) {
            if values.isEmpty { parts.append(.bind(.null)) }
            for (index, value) in values.enumerated() {
                if index > 0 { parts.append(.sql(", ")) }
                parts.append(.bind(value.sqlValue))
            }
        }

        /// Another query, with its binds.
        public mutating func appendInterpolation(_ query: SQLQuery) { parts += query.parts }
    }

    /// The SQL with each bind's placeholder (`placeholder(1)` for the first), and the binds in order.
    public func rendered(placeholder: (Int) -> String) -> (sql: String, binds: [SQLValue]) {
        // Every statement is rendered each time it runs: one allocation for each of the two.
        var sql = ""
        var binds: [SQLValue] = []
        var length = 0
        for case .sql(let text) in parts { length += text.utf8.count }
        sql.reserveCapacity(length + parts.count * 3)
        binds.reserveCapacity(parts.count / 2 + 1)
        for part in parts {
            switch part {
            case .sql(let text): sql += text
            case .bind(let value):
                binds.append(value)
                sql += placeholder(binds.count)
            }
        }
        return (sql, binds)
    }
}
