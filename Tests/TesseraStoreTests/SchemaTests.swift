#if PostgreSQL
    import Foundation
    import GRDB
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    @testable import TesseraPostgres
    import TesseraSQL
    @testable import TesseraSQLite
    import TesseraTestSupport
    import TesseraTesting
    import Testing

    /// The two schemas are one: created from scratch by each store's migrations, they have the same tables,
    /// columns (types mapped between the dialects, and whether they may be NULL) and indexes, but for the
    /// differences listed here with their reasons.
    @Suite("One schema in two dialects")
    struct SchemaTests {
        /// A column's type as both dialects can say it.
        enum Kind: String, Sendable {
            case integer, real, text, bytes, time
        }

        struct Column: Hashable, CustomStringConvertible {
            let table: String
            let name: String
            let kind: Kind
            let notNull: Bool

            var description: String { "\(table).\(name) \(kind.rawValue)\(notNull ? " NOT NULL" : "")" }
        }

        /// An index by what it indexes: names differ where a constraint made it (`chat_platform_address_key`).
        struct Index: Hashable, CustomStringConvertible {
            let table: String
            let columns: [String]
            let unique: Bool
            let partial: Bool

            var description: String {
                "\(table) (\(columns.joined(separator: ", ")))\(unique ? " UNIQUE" : "")\(partial ? " WHERE …" : "")"
            }
        }

        struct Schema {
            var tables: Set<String> = []
            var columns: Set<Column> = []
            var indexes: Set<Index> = []
        }

        /// Differences that are meant, each with its reason: what only one dialect has, as it prints.
        static let onlySQLite: [String: String] = [
            "grdb_migrations": "GRDB's own record of migrations (PostgreSQL's is tessera_migration)",
            "sqlite_sequence": "SQLite's own record of AUTOINCREMENT ids",
        ]
        static let onlyPostgres: [String: String] = [
            "tessera_migration": "the record of migrations (SQLite's is GRDB's grdb_migrations)"
        ]

        static func sqliteSchema() throws -> Schema {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("tessera-schema-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            _ = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
            let queue = try DatabaseQueue(path: path)
            return try queue.read { db in
                var schema = Schema()
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                for table in tables {
                    schema.tables.insert(table)
                    for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))") {
                        let type = (row["type"] as String).uppercased()
                        let primaryKey = (row["pk"] as Int) > 0
                        schema.columns.insert(
                            Column(
                                table: table, name: row["name"], kind: sqliteKind(type),
                                notNull: (row["notnull"] as Int) == 1 || (primaryKey && type == "INTEGER")))
                    }
                    for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(table.quotedDatabaseIdentifier))") {
                        let name: String = index["name"]
                        // A primary key's is the table's key, compared with its columns' NOT NULL.
                        guard (index["origin"] as String) != "pk" else { continue }
                        let columns = try String.fetchAll(
                            db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                        schema.indexes.insert(
                            Index(
                                table: table, columns: columns, unique: (index["unique"] as Int) == 1,
                                partial: (index["partial"] as Int) == 1))
                    }
                }
                return schema
            }
        }

        static func sqliteKind(_ type: String) -> Kind {
            switch type {
            case "INTEGER", "BOOLEAN": .integer
            case "REAL", "DOUBLE": .real
            case "BLOB": .bytes
            default: .text
            }
        }

        static func postgresKind(_ type: String) -> Kind {
            switch type {
            case "integer", "bigint", "smallint", "boolean": .integer
            case "double precision", "real": .real
            case "bytea": .bytes
            case "timestamp with time zone": .time
            default: .text
            }
        }

        static func postgresSchema() async throws -> Schema {
            let database = try await PostgreSQLServer.shared.makeDatabase()
            let configuration = try PostgresGameStore.Configuration(url: database.url, password: database.password)
            let store = PostgresGameStore(configuration: configuration, logger: Logger(label: "test"))
            try await store.migrate()
            let connection = try await configuration.connection()
            defer { Task { try await connection.close() } }
            var schema = Schema()
            let columns = try await connection.query(
                """
                SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
                WHERE table_schema = current_schema()
                """, logger: Logger(label: "test"))
            for try await (table, name, type, nullable) in columns.decode((String, String, String, String).self) {
                schema.tables.insert(table)
                schema.columns.insert(
                    Column(table: table, name: name, kind: postgresKind(type), notNull: nullable == "NO"))
            }
            // Every index but the primary keys'.
            let indexes = try await connection.query(
                """
                SELECT t.relname, x.indisunique, x.indpred IS NOT NULL,
                    array_agg(a.attname ORDER BY k.place)
                FROM pg_index x
                JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
                JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
                CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k (attnum, place)
                JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                WHERE NOT x.indisprimary
                GROUP BY t.relname, i.relname, x.indisunique, x.indpred
                """, logger: Logger(label: "test"))
            for try await (table, unique, partial, columns) in indexes.decode((String, Bool, Bool, [String]).self) {
                schema.indexes.insert(Index(table: table, columns: columns, unique: unique, partial: partial))
            }
            return schema
        }

        @Test(
            "Each row type's properties are its table's columns, in both dialects: a new field without its migration fails here",
            .enabled(if: !PostgreSQLServer.isSkipped))
        func rowTypesAreTheTablesColumns() async throws {
            let practice = PracticeGame(
                player: UserID(1), number: 1, kind: .practice, language: .english, answer: "cigar", hardMode: false,
                guesses: [], result: nil, startedAt: Date(timeIntervalSince1970: 0), finishedAt: nil, abandoned: false,
                hasFocus: true)
            // The lists the statements are written from (SQLColumns), each with the keys its table adds.
            let rows: [(table: String, names: [String])] = [
                ("player", SQLColumns.playerColumns),
                ("game", ["player_id"] + SQLColumns.gameColumns),
                ("practice_game", SQLColumns(PracticeGameColumns(practice)).names),
                ("chat_group", ["id"] + SQLColumns.groupColumns),
                ("board_result", ["chat_id", "player_id"] + SQLColumns.resultColumns),
                ("board_total", SQLColumns.totalsKey + SQLColumns.totalsColumns),
                ("outbox", ["id"] + SQLColumns.messageColumns),
            ]
            for schema in [try Self.sqliteSchema(), try await Self.postgresSchema()] {
                for (table, names) in rows {
                    let stored = Set(schema.columns.filter { $0.table == table }.map(\.name))
                    try #require(!stored.isEmpty, "no table \(table)")
                    #expect(Set(names).subtracting(stored).isEmpty, "\(table) lacks \(Set(names).subtracting(stored))")
                    #expect(Set(names).count == names.count)
                }
            }
        }

        @Test("Both dialects run the schema's steps in one order, under the names their databases recorded")
        func pairedMigrations() {
            let sqlite = SQLiteSchema.migrator.migrations
            let postgres = PostgresSchema.migrations.map(\.name)
            // Each dialect's own numbering, without a gap: a new step takes the next number of each.
            for names in [sqlite, postgres] {
                #expect(names.enumerated().allSatisfy { $1.hasPrefix("v\($0 + 1): ") }, "\(names)")
            }
            // The names deployed databases recorded: changing one would run its step again. A new step comes after.
            #expect(sqlite.first == "v1: players, games, chats, outbox")
            #expect(postgres.first == "v1: players, chats, games, boards, outbox")
            #expect(sqlite.dropFirst(25).first == "v26: board totals found by their player")
            #expect(postgres.dropFirst(15).first == "v16: members carry the puzzle their pending zone takes effect on")
            // A step both dialects take has one title in both.
            for step in SchemaStep.allCases {
                let names = [SQLiteSchema.migration(step)?.name, PostgresSchema.migration(step)?.name]
                let titles = Set(names.compactMap { $0?.drop { $0 != ":" } })
                #expect(!titles.isEmpty, "\(step) is a step of neither dialect")
                if step != .firstTables { #expect(titles.count == 1, "\(step): \(names)") }
            }
        }

        @Test(
            "Both schemas, created from scratch, have the same tables, columns and indexes but the listed ones",
            .enabled(if: !PostgreSQLServer.isSkipped))
        func sameSchema() async throws {
            let sqlite = try Self.sqliteSchema()
            let postgres = try await Self.postgresSchema()
            #expect(sqlite.tables.subtracting(postgres.tables) == Set(Self.onlySQLite.keys))
            #expect(postgres.tables.subtracting(sqlite.tables) == Set(Self.onlyPostgres.keys))
            let shared = sqlite.tables.intersection(postgres.tables)
            func differences<Item: Hashable & CustomStringConvertible>(
                _ one: Set<Item>, _ other: Set<Item>, table: KeyPath<Item, String>
            ) -> [String] {
                one.subtracting(other).filter { shared.contains($0[keyPath: table]) }.map(\.description).sorted()
            }
            #expect(
                differences(sqlite.columns, postgres.columns, table: \.table) == Self.columnsOnlySQLite.keys.sorted())
            #expect(
                differences(postgres.columns, sqlite.columns, table: \.table) == Self.columnsOnlyPostgres.keys.sorted())
            #expect(
                differences(sqlite.indexes, postgres.indexes, table: \.table) == Self.indexesOnlySQLite.keys.sorted())
            #expect(
                differences(postgres.indexes, sqlite.indexes, table: \.table) == Self.indexesOnlyPostgres.keys.sorted())
        }

        static let revealedPuzzle =
            "SQLite v8 added it with ALTER TABLE ADD COLUMN, which cannot make it NOT NULL without a default; "
            + "every write sets it"
        static let memberCopies =
            "PostgreSQL v2 and v3: members carry copies of their player's name and day, kept by a trigger, so that a "
            + "board of thousands reads one range of chat_member instead of joining player across the network "
            + "(10 ms for 10,000 members); SQLite's join costs nothing"
        static let leases =
            "several processes send from one PostgreSQL database, each holding what it sends under a lease; one "
            + "process sends from SQLite"
        static let columnsOnlySQLite = ["chat_group.last_revealed_puzzle integer": revealedPuzzle]
        static let columnsOnlyPostgres = [
            "chat_group.last_revealed_puzzle integer NOT NULL": revealedPuzzle,
            "chat_member.account text NOT NULL": memberCopies, "chat_member.display_name text NOT NULL": memberCopies,
            "chat_member.pending_from integer": memberCopies, "chat_member.pending_time_zone text": memberCopies,
            "chat_member.rollover_hour integer NOT NULL": memberCopies,
            "chat_member.time_zone text NOT NULL": memberCopies, "outbox.leased_by text": leases,
            "outbox.leased_until time": leases,
        ]
        static let indexesOnlySQLite = [
            "outbox (platform, address, id, not_before, claimed)":
                "SQLite's sender reads a chat's due messages from this index alone; PostgreSQL's reads "
                + "outbox_by_chat and checks the rest in the rows it locks, whose leases it changes anyway"
        ]
        static let indexesOnlyPostgres = [
            "outbox (platform, address, id)": "see SQLite's outbox (platform, address, id, not_before, claimed)"
        ]
    }
#endif
