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
/// SQL (a column list), and another query splices in with its binds. The text is written as the query is, with
/// `?` for each bind, as SQLite reads it (``sql``); PostgreSQL numbers them (``numberedSQL``). So the shared
/// statements' text holds no `?` of its own.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    /// The statement, with `?` for each bind.
    public private(set) var sql: String
    /// The values bound, in order.
    public private(set) var binds: [SQLValue]

    /// A statement written whole, with `?` for each of `binds`: a row's write, from its cached column lists.
    init(sql: String, binds: [SQLValue]) {
        self.sql = sql
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        assert(!value.utf8.contains(UInt8(ascii: "?")), "a shared statement's own text holds no ?")
        sql = value
        binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [SQLValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { appendInterpolation(unescaped: literal) }

        /// A bound value.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            sql.append("?")
            binds.append(value.sqlValue)
        }

        /// Trusted SQL spliced in as it is: a table or column name, a column list. Never a player's text.
        public mutating func appendInterpolation(unescaped text: String) {
            assert(!text.utf8.contains(UInt8(ascii: "?")), "a shared statement's own text holds no ?")
            sql.append(text)
        }

        /// `values` bound one by one and separated by commas: a row's `VALUES (…)`, or a few values for `IN (…)`
        /// (none is NULL, which `IN` never matches).
        public mutating func appendInterpolation(list values: [some SQLBindable]) {
            guard !values.isEmpty else { return appendInterpolation(SQLValue.null) }
            sql.append(SQLQuery.placeholders(values.count))
            for value in values { binds.append(value.sqlValue) }
        }

        /// Another query, with its binds.
        public mutating func appendInterpolation(_ query: SQLQuery) {
            sql.append(query.sql)
            binds += query.binds
        }
    }

    /// ``sql`` with `$1`, `$2` … for its binds in order, as PostgreSQL reads them.
    public var numberedSQL: String {
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + binds.count * 2)
        var bind = 0
        for piece in sql.split(separator: "?", omittingEmptySubsequences: false) {
            if bind > 0 { numbered += "$\(bind)" }
            numbered += piece
            bind += 1
        }
        return numbered
    }

    /// `?, ?, …`: `count` binds.
    static func placeholders(_ count: Int) -> String {
        String(repeating: "?, ", count: max(count - 1, 0)) + (count > 0 ? "?" : "")
    }
}
