#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraSQL

    /// A PostgreSQL transaction's connection as the shared statements' session (``SQLSession``): `$1` … for each
    /// bind, each statement counted as the transaction's others are.
    struct PostgresSession: SQLSession {
        let connection: PostgresConnection
        let logger: Logger
        let counter: StatementCounter

        func execute(_ query: SQLQuery) async throws {
            try await connection.checkedQuery(Self.statement(query), logger: logger, counting: counter)
        }

        func changes(_ query: SQLQuery) async throws -> Int {
            try await connection.checkedChanges(Self.statement(query), logger: logger, counting: counter)
        }

        func rows(_ query: SQLQuery) async throws -> [SQLRow] { try await rows(Self.statement(query)) }

        /// The rows of a statement in PostgreSQL's own dialect (array binds, `FOR UPDATE SKIP LOCKED`), read by
        /// column name as the shared statements' are.
        func rows(_ query: PostgresQuery) async throws -> [SQLRow] {
            var rows: [SQLRow] = []
            var columns: SQLRow.Columns?
            for try await row in try await connection.checkedQuery(query, logger: logger, counting: counter) {
                let names = columns ?? SQLRow.Columns(row.map(\.columnName))
                columns = names
                rows.append(SQLRow(columns: names, values: try row.map(Self.value)))
            }
            return rows
        }

        func damaged(_ column: String, in table: String) -> any Error {
            PostgresStoreError.damagedRow(column: "\(table).\(column)")
        }

        /// A query in PostgreSQL's dialect.
        private static func statement(_ query: SQLQuery) -> PostgresQuery {
            var binds = PostgresBindings(capacity: query.binds.count)
            for value in query.binds {
                switch value {
                case .null, .unreadable: binds.appendNull()
                case .integer(let number): binds.append(number)
                case .real(let number): binds.append(number)
                case .text(let text): binds.append(text)
                case .boolean(let flag): binds.append(flag)
                case .bytes(let bytes): binds.append(ByteBuffer(bytes: bytes))
                }
            }
            return PostgresQuery(unsafeSQL: query.numberedSQL, binds: binds)
        }

        /// A cell as the value it holds, by its type: a type the store never writes reads as unreadable.
        private static func value(_ cell: PostgresCell) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            do {
                switch cell.dataType {
                case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
                case .bool: return .boolean(try cell.decode(Bool.self))
                case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
                case .float4, .float8: return .real(try cell.decode(Double.self))
                case .bytea: return .bytes(Data(try cell.decode(ByteBuffer.self).readableBytesView))
                default: return .unreadable(type: "\(cell.dataType)")
                }
            } catch {
                throw PostgresStoreError.damagedRow(column: cell.columnName)
            }
        }
    }
#endif
