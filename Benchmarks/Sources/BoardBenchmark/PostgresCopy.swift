import Foundation
import GRDB
import Logging
import PostgresNIO
import TesseraTestSupport

/// The history the engine wrote into the SQLite file, copied table by table into a PostgreSQL database whose schema
/// `PostgresGameStore` has made, with `COPY … FROM STDIN`: both stores are then measured on the same data, and a
/// year of it takes seconds rather than the hours of a round trip a store call.
///
/// The two schemas name their columns alike; each table's columns are PostgreSQL's, read from SQLite by name, so a
/// column one side lacks stops the copy with SQLite's error.
enum PostgresCopy {
    /// What the boards and the summary read, in an order that keeps foreign keys satisfied.
    static let tables = ["player", "chat", "chat_group", "chat_member", "game", "board_result", "board_total"]

    /// Where a table's rows are read from in SQLite, when not from the table of that name: PostgreSQL's members
    /// carry copies of their player's name and day, which SQLite joins for.
    static let sources = [
        "chat_member": """
        (SELECT m.*, p.account, p.display_name, p.time_zone, p.rollover_hour, p.pending_time_zone,
            p.pending_from
        FROM chat_member m JOIN player p ON p.id = m.player_id)
        """
    ]

    /// Copies ``tables`` and brings the row id sequences and the planner's statistics up to date; returns the rows
    /// copied.
    static func copy(fromSQLite path: String, to database: PostgreSQLServer.Database, logger: Logger) async throws
        -> Int
    {
        let source = try DatabaseQueue(path: path, configuration: readOnly())
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: "127.0.0.1", port: database.port, username: database.name, password: database.password,
                database: database.name, tls: .disable),
            id: 1, logger: logger)
        var copied = 0
        do {
            for table in tables {
                var columns: [String] = []
                for try await name in try await connection.query(
                    """
                    SELECT column_name::text FROM information_schema.columns WHERE table_name = \(table)
                    ORDER BY ordinal_position
                    """, logger: logger
                ).decode(String.self) {
                    columns.append(name)
                }
                let names = columns
                let (text, rows) = try await source.read { db in try copyText(db, table: table, columns: names) }
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                    // In pieces of a few megabytes: the server reads each as it comes.
                    let piece = 4 << 20
                    var start = text.startIndex
                    while start < text.endIndex {
                        let end = text.index(start, offsetBy: piece, limitedBy: text.endIndex) ?? text.endIndex
                        try await writer.write(ByteBuffer(bytes: text[start..<end]))
                        start = end
                    }
                }
                copied += rows
            }
            for table in ["player", "chat"] {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT setval(pg_get_serial_sequence('\(table)', 'id'), (SELECT max(id) FROM \(table)))
                            """), logger: logger)
            }
            try await connection.query("ANALYZE", logger: logger)
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
        return copied
    }

    private static func readOnly() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    /// A table's rows in `COPY`'s text format: tab-separated, `\N` for null, backslashes and control characters
    /// escaped; SQLite's 0 and 1 are booleans PostgreSQL reads as they are.
    private static func copyText(_ db: Database, table: String, columns: [String]) throws -> (text: [UInt8], rows: Int)
    {
        var text: [UInt8] = []
        var rows = 0
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(sources[table] ?? table)")
        while let row = try cursor.next() {
            for index in 0..<columns.count {
                if index > 0 { text.append(UInt8(ascii: "\t")) }
                let value: DatabaseValue = row[index]
                switch value.storage {
                case .null: text += Array(#"\N"#.utf8)
                case .int64(let value): text += Array(String(value).utf8)
                case .double(let value): text += Array(String(value).utf8)
                case .string(let value): appendEscaped(value, to: &text)
                case .blob(let data):
                    text += Array(#"\\x"#.utf8) + Array(data.map { String(format: "%02x", $0) }.joined().utf8)
                }
            }
            text.append(UInt8(ascii: "\n"))
            rows += 1
        }
        return (text, rows)
    }

    private static func appendEscaped(_ value: String, to text: inout [UInt8]) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): text += Array(#"\\"#.utf8)
            case UInt8(ascii: "\t"): text += Array(#"\t"#.utf8)
            case UInt8(ascii: "\n"): text += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): text += Array(#"\r"#.utf8)
            default: text.append(byte)
            }
        }
    }
}
