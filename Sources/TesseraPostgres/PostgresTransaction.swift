#if PostgreSQL
    import Foundation
    import Logging
    import PostgresNIO
    import TesseraCore
    import TesseraEngine
    import TesseraSQL

    /// The engine's view of one PostgreSQL transaction, on one leased connection.
    ///
    /// As in SQLite, players and chats are keyed by integer row ids, which the boards join on; their platform ids
    /// are unique columns. Accounts are text: a platform's id as it spells it.
    struct PostgresTransaction: SQLTransaction {
        let connection: PostgresConnection
        let logger: Logger
        let counter: StatementCounter
        var session: PostgresSession { PostgresSession(connection: connection, logger: logger, counter: counter) }
        /// Row ids looked up so far: each is a round trip, and an update asks for its player's several times.
        let ids = RowIDs()

        // MARK: - Queries

        /// Runs a statement whose rows, if any, are not needed.
        func execute(_ query: PostgresQuery) async throws {
            try await connection.checkedQuery(query, logger: logger, counting: counter)
        }

        /// The first row of a query, read by `read`; nil without one.
        func one<Value>(_ query: PostgresQuery, _ read: (PostgresRow) throws -> Value) async throws -> Value? {
            for try await row in try await connection.checkedQuery(query, logger: logger, counting: counter) {
                return try decoded(row, read)
            }
            return nil
        }

        /// Every row of a query, each read by `read`.
        func all<Value>(_ query: PostgresQuery, _ read: (PostgresRow) throws -> Value) async throws -> [Value] {
            var values: [Value] = []
            for try await row in try await connection.checkedQuery(query, logger: logger, counting: counter) {
                values.append(try decoded(row, read))
            }
            return values
        }

        /// The columns of a bulk read: a query that aggregates its rows into one row of arrays.
        func columns(_ query: PostgresQuery) async throws -> [PostgresColumn] {
            try await one(query) { row in try row.map(PostgresColumn.init) } ?? []
        }

        /// `array_agg(column) AS column` for each column: the select list of a bulk read (``columns(_:)``), each
        /// array named as the column it holds, for errors.
        static func arrays(of columns: [String]) -> String {
            columns.map { "array_agg(\($0)) AS \($0.split(separator: ".").last ?? "")" }.joined(separator: ", ")
        }

        /// A row's columns, or an error naming the column that is missing or of the wrong type (never a crash).
        private func decoded<Value>(_ row: PostgresRow, _ read: (PostgresRow) throws -> Value) throws -> Value {
            do {
                return try read(row)
            } catch let error as PostgresDecodingError {
                throw PostgresStoreError.damagedRow(column: error.columnName)
            }
        }

        // MARK: - Keys

        func rowID(of player: UserID) async throws -> Int64? {
            try await ids.player(player) {
                try await one(
                    "SELECT id FROM player WHERE platform = \(player.platform.rawValue) AND account = \(player.value)"
                ) { try $0.decode(Int64.self) }
            }
        }

        func rowID(of chat: ChatID) async throws -> Int64? {
            try await ids.chat(chat) {
                try await one(
                    "SELECT id FROM chat WHERE platform = \(chat.platform.rawValue) AND address = \(chat.value)"
                ) { try $0.decode(Int64.self) }
            }
        }

        /// The row id of a chat, stored now if it was not.
        func storedRowID(of chat: ChatID) async throws -> Int64 {
            try await ids.storedChat(chat) {
                let id = try await one(
                    """
                    INSERT INTO chat (platform, address) VALUES (\(chat.platform.rawValue), \(chat.value))
                    ON CONFLICT (platform, address) DO UPDATE SET address = excluded.address RETURNING id
                    """
                ) { try $0.decode(Int64.self) }
                guard let id else { throw PostgresStoreError.damagedRow(column: "chat.id") }
                return id
            }
        }

        func requiredRowID(of player: UserID) async throws -> Int64 {
            guard let id = try await rowID(of: player) else { throw StoreMisuse.unknownPlayer(player) }
            return id
        }

        // MARK: - Players and games

        /// A row's value read back, or the column it cannot be read from named with its table.
        static func checked<Value>(_ table: String, _ read: () throws -> Value) throws -> Value {
            do {
                return try read()
            } catch let damaged as DamagedColumn {
                throw PostgresStoreError.damagedRow(column: "\(table).\(damaged.column)")
            }
        }

        /// Through the batch's write, as every message's players are saved.
        func save(_ player: Player) async throws {
            var changes = BatchChanges()
            changes.players[player.id] = player
            _ = try await write(changes)
        }

        func save(_ game: StoredGame) async throws {
            guard try await rowID(of: game.player) != nil else { throw StoreMisuse.unknownPlayer(game.player) }
            var changes = BatchChanges()
            changes.games[game.key] = game
            _ = try await write(changes)
        }

        func playersWithReminders() async throws -> [Player] {
            // Claimed until the transaction ends: another process's reminders pass these by.
            try await session.all("SELECT * FROM player WHERE reminders FOR UPDATE SKIP LOCKED", table: "player") {
                try $0.player()
            }
        }

        // MARK: - Savepoints

        /// A savepoint around `body`: when it throws, only its own changes are undone.
        func isolated(_ body: () async throws -> Void) async throws {
            try await execute("SAVEPOINT isolated")
            do {
                try await body()
            } catch {
                // Rows the body created are gone again, and so must their ids be.
                ids.forgetAll()
                try await execute("ROLLBACK TO SAVEPOINT isolated")
                try await execute("RELEASE SAVEPOINT isolated")
                throw error
            }
            try await execute("RELEASE SAVEPOINT isolated")
        }
    }
#endif
