#if PostgreSQL
    public import Foundation
    public import Logging
    public import ServiceLifecycle
    import NIOSSL
    import Synchronization
    public import PostgresNIO
    import TesseraCore
    import TesseraSQL
    public import TesseraEngine

    /// The store on PostgreSQL, for deployments that outgrow one machine: a database server the operator already
    /// backs up and monitors, shared by several `tessera` processes.
    ///
    /// The guarantees are SQLite's: a batch's effects, its replies and the transport's position commit in one
    /// transaction, and PostgreSQL's own commit is the durability barrier. Several processes may send: each takes
    /// the messages it sends under a lease, claimed with `FOR UPDATE SKIP LOCKED`, so no message goes out twice,
    /// and a chat's messages are only ever held by one sender, so they keep their order. Connections are pooled
    /// and bounded (``Configuration/maximumConnections``); nothing needs a superuser.
    public final class PostgresGameStore: GameStore {
        /// Where the database is and how to reach it.
        public struct Configuration: Sendable {
            public var host: String
            public var port: Int
            public var user: String
            public var password: String?
            public var database: String
            /// `sslmode`: `disable`, `prefer` (TLS where the server offers it) or `require`.
            public var tls: TLSMode
            public var maximumConnections: Int

            public enum TLSMode: String, Sendable {
                case disable, prefer, require
            }

            public init(
                host: String, port: Int = 5432, user: String, password: String?, database: String,
                tls: TLSMode = .prefer, maximumConnections: Int = 10
            ) {
                self.host = host
                self.port = port
                self.user = user
                self.password = password
                self.database = database
                self.tls = tls
                self.maximumConnections = maximumConnections
            }

            /// Reads `postgres://user@host:port/database?sslmode=…`; the password comes separately
            /// (`PGPASSWORD` or a file), so that it stays out of the URL and the process list.
            public init(url: String, password: String?) throws {
                guard let components = URLComponents(string: url),
                    ["postgres", "postgresql"].contains(components.scheme ?? ""), let host = components.host,
                    !host.isEmpty
                else { throw PostgresStoreError.badURL(url) }
                let database = String(components.path.drop(while: { $0 == "/" }))
                guard !database.isEmpty, let user = components.user, !user.isEmpty else {
                    throw PostgresStoreError.badURL(url)
                }
                if components.password != nil { throw PostgresStoreError.passwordInURL }
                var tls = TLSMode.prefer
                if let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
                    guard let known = TLSMode(rawValue: mode) else { throw PostgresStoreError.badSSLMode(mode) }
                    tls = known
                }
                self.init(
                    host: host, port: components.port ?? 5432, user: user, password: password, database: database,
                    tls: tls)
            }

            /// The database named as in the log: never the password.
            public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
        }

        private let configuration: Configuration
        private let connection: PostgresConnection.Configuration
        /// Why TLS, which `sslmode=require` asks for, cannot be used: then nothing connects.
        private let tlsUnavailable: String?
        /// The connection pool: a `Service` that runs for as long as the store is used (``run()``).
        public let client: PostgresClient
        private let logger: Logger
        /// Every statement this store sent, `BEGIN` and `COMMIT` too: its round trips to the server.
        private let statements = StatementCounter()
        /// This process's name on the messages it holds while sending.
        private let sender = UUID().uuidString
        /// The outbox keys' random start, read once: it is made with the database and never changes.
        private let keyPrefix = Mutex<String?>(nil)
        /// How long a sender holds the messages it read before another may take them, in seconds: each read of the
        /// outbox renews it, so it covers one pass of sending; after a sender dies, its messages wait this long.
        static let lease = 10

        /// Set on every session: the server notices a client gone (a network cut, a machine lost) within seconds,
        /// not TCP's two hours, and ends its session. Then the transaction it had open rolls back and frees the
        /// rows it locked (the transport position a standby must lock to take over), and a leader's advisory lock
        /// is released. Keepalives cover a session waiting for its client; the user timeout, one whose answer goes
        /// unacknowledged.
        static let sessionSettings = [
            ("tcp_keepalives_idle", "2"), ("tcp_keepalives_interval", "1"), ("tcp_keepalives_count", "3"),
            ("tcp_user_timeout", "5000"),
        ]

        public init(configuration: Configuration, logger: Logger) {
            self.configuration = configuration
            self.logger = logger
            let tls: PostgresClient.Configuration.TLS
            switch configuration.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            var connectionTLS = PostgresConnection.Configuration.TLS.disable
            var tlsUnavailable: String?
            if configuration.tls != .disable {
                do {
                    let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                    connectionTLS = configuration.tls == .require ? .require(context) : .prefer(context)
                } catch {
                    // `prefer` goes on in plain text; `require` never does.
                    if configuration.tls == .require {
                        tlsUnavailable = "TLS is required and cannot be set up (\(error))"
                    }
                    logger.warning("Cannot set up TLS for PostgreSQL", metadata: ["error": "\(error)"])
                }
            }
            self.tlsUnavailable = tlsUnavailable
            var connection = PostgresConnection.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.user,
                password: configuration.password, database: configuration.database, tls: connectionTLS)
            connection.options.additionalStartupParameters = Self.sessionSettings
            self.connection = connection
            var client = PostgresClient.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.user,
                password: configuration.password, database: configuration.database, tls: tls)
            client.options.maximumConnections = configuration.maximumConnections
            client.options.additionalStartupParameters = Self.sessionSettings
            self.client = PostgresClient(configuration: client, backgroundLogger: logger)
        }

        /// How many statements this store has sent to the server so far, each a round trip: a batch's cost across a
        /// network is the difference before and after it.
        public var statementsSent: Int { statements.value }

        /// Runs the connection pool until a graceful shutdown (it goes last, after everything that uses it) or
        /// cancellation: the store works only while this runs, as a service of the bot's group.
        public func run() async {
            await client.run()
        }

        /// A connection of its own, outside the pool: for a session that must stay one (``PostgresLeadership``).
        func connect() async throws -> PostgresConnection {
            if let tlsUnavailable {
                throw PostgresStoreError.unreachable(database: configuration.description, reason: tlsUnavailable)
            }
            return try await PostgresConnection.connect(configuration: connection, id: 1, logger: logger)
        }

        /// Brings the schema up to date (``PostgresSchema``), on a connection of its own: a server that cannot be
        /// reached, or refuses the user, says why at once rather than being waited for by the pool.
        public func migrate() async throws {
            try await onConnectionOfItsOwn { connection in
                try await PostgresSchema.migrate(connection, database: configuration.description, logger: logger)
            }
        }

        /// Checks that the server answers and that the schema is one this build knows, changing nothing: for
        /// reading beside a running bot (`tessera status`), which must not migrate its database under it.
        public func checkSchema() async throws {
            try await onConnectionOfItsOwn { connection in
                try await PostgresSchema.check(connection, database: configuration.description, logger: logger)
            }
        }

        private func onConnectionOfItsOwn(_ body: (PostgresConnection) async throws -> Void) async throws {
            if let tlsUnavailable {
                throw PostgresStoreError.unreachable(database: configuration.description, reason: tlsUnavailable)
            }
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(configuration: self.connection, id: 0, logger: logger)
            } catch {
                throw PostgresStoreError.unreachable(database: configuration.description, reason: Self.reason(error))
            }
            do {
                try await body(connection)
                try await connection.close()
            } catch {
                try await connection.close()
                throw error
            }
            logger.info("Opened the database", metadata: ["database": "\(configuration.description)"])
        }

        /// The random start of every outbox message's key, made with the database.
        private func outboxKeyPrefix() async throws -> String {
            if let prefix = keyPrefix.withLock({ $0 }) { return prefix }
            guard let prefix = try await setting("outbox.key") else {
                throw PostgresStoreError.damagedRow(column: "setting outbox.key")
            }
            keyPrefix.withLock { $0 = prefix }
            return prefix
        }

        // MARK: - Transactions

        /// Runs `body` in a transaction on a pooled connection.
        ///
        /// A connection the server ended while it sat in the pool (a restart, a failover, an administrator) can be
        /// handed out before the pool has noticed. It is found closed before anything is sent on it, so nothing
        /// was done: another is taken, up to once more than the pool holds, and only then is it a failure.
        private func transaction<Result: Sendable>(
            readOnly: Bool = false, _ body: @Sendable (PostgresTransaction) async throws -> Result
        ) async throws -> Result {
            let (logger, counter) = (self.logger, statements)
            return try await leasing { connection in
                try await connection.inTransaction(logger: logger, readOnly: readOnly, counting: counter) {
                    try await body(PostgresTransaction(connection: $0, logger: logger, counter: counter))
                }
            }
        }

        /// Runs one statement on a pooled connection, outside `BEGIN` and `COMMIT`: a statement alone is a
        /// transaction of its own, and costs one round trip instead of three.
        private func statement<Result: Sendable>(
            _ body: @Sendable (PostgresTransaction) async throws -> Result
        ) async throws -> Result {
            let (logger, counter) = (self.logger, statements)
            return try await leasing { connection in
                try await body(PostgresTransaction(connection: connection, logger: logger, counter: counter))
            }
        }

        private func leasing<Result: Sendable>(
            _ body: @Sendable (PostgresConnection) async throws -> Result
        ) async throws -> Result {
            for _ in 0...configuration.maximumConnections {
                let leased = try await client.withConnection { connection -> Leased<Result> in
                    guard !connection.isClosed else { return .closed }
                    return .done(try await body(connection))
                }
                if case .done(let result) = leased { return result }
            }
            throw PostgresStoreError.connectionClosed
        }

        /// What the server or the network said, in words: a PostgreSQL error's message, else the error.
        static func reason(_ error: any Error) -> String {
            guard let error = error as? PSQLError else { return "\(error)" }
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }

        public func write<Result: Sendable>(
            _ body: @Sendable (any GameStoreTransaction) async throws -> Result
        ) async throws -> Result {
            try await transaction { try await body($0) }
        }

        public func read<Result: Sendable>(
            _ body: @Sendable (any GameStoreTransaction) async throws -> Result
        ) async throws -> Result {
            try await transaction(readOnly: true) { try await body($0) }
        }

        public func position(of transport: String) async throws -> String? {
            try await statement { transaction in
                try await transaction.one(
                    "SELECT next FROM transport_position WHERE transport = \(transport)"
                ) { try $0.decode(String.self) }
            }
        }

        /// The batch was applied by another process while this one applied it: rolled back, and skipped.
        private struct AppliedElsewhere: Error {}

        /// `BEGIN`, the position locked with the batch's reads, its writes with the position moved, `COMMIT`: four
        /// round trips, and one or two more for each message that needed more than the batch declared.
        public func processBatch<Result: Sendable>(
            transport: String,
            from position: String?,
            to nextPosition: String,
            loading needs: BatchNeeds,
            _ body: @Sendable (any GameStoreTransaction, BatchValues) async throws -> (Result, BatchChanges)
        ) async throws -> Result? {
            do {
                return try await transaction { transaction in
                    let (stored, values) = try await transaction.load(needs, lockingPositionOf: transport)
                    guard stored == position else { return nil }
                    let (result, changes) = try await body(transaction, values)
                    let move = PostgresTransaction.PositionMove(transport: transport, from: position, to: nextPosition)
                    guard try await transaction.apply(changes, moving: move) else { throw AppliedElsewhere() }
                    return result
                }
            } catch is AppliedElsewhere {
                return nil
            }
        }

        /// A commit is durable when PostgreSQL acknowledges it: nothing is left to wait for.
        public func flush() async throws {}

        public func pendingMessages(limit: Int, now: Date, platform: Platform?) async throws -> [OutboxEntry] {
            let (sender, lease) = (self.sender, Self.lease)
            let prefix = try await outboxKeyPrefix()
            let kinds = ChatMessage.ChatKind.allCases.map(\.rawValue)
            // One statement, its own transaction: the rows it takes stay locked until it has leased them.
            return try await statement { transaction in
                // The rule of ``OutboxEntry/Choice`` in one statement, with the leases: a message another sender
                // holds blocks its chat's later ones as a postponed one does, and rows being claimed right now are
                // skipped, not waited for.
                let rows = try await transaction.session.rows(
                    """
                    WITH candidates AS (
                        SELECT c.id, c.platform, c.address, c.chat_kind FROM unnest(\(kinds)::text[]) AS k (kind)
                        CROSS JOIN LATERAL (
                            SELECT id, platform, address, chat_kind FROM outbox o
                            WHERE NOT claimed AND chat_kind = k.kind AND not_before <= \(now.timeIntervalSince1970)
                                AND (\(platform?.rawValue)::text IS NULL OR platform = \(platform?.rawValue))
                                AND (leased_until IS NULL OR leased_until < clock_timestamp() OR leased_by = \(sender))
                                AND NOT EXISTS (
                                    SELECT 1 FROM outbox e WHERE e.platform = o.platform AND e.address = o.address
                                        AND e.id < o.id AND (
                                            (e.leased_until >= clock_timestamp() AND e.leased_by != \(sender))
                                            OR (NOT e.claimed AND e.not_before > \(now.timeIntervalSince1970))))
                            ORDER BY id LIMIT \(limit * 4)
                            FOR UPDATE SKIP LOCKED) c),
                    of_chats AS (
                        SELECT id, chat_kind, row_number() OVER (PARTITION BY platform, address ORDER BY id) AS place
                        FROM candidates),
                    chosen AS (
                        SELECT id FROM (
                            SELECT id, row_number() OVER (PARTITION BY chat_kind ORDER BY id) AS place FROM of_chats
                            WHERE place <= \(OutboxEntry.pendingPerChat)) of_kinds
                        WHERE place <= \(limit))
                    UPDATE outbox SET leased_until = clock_timestamp() + make_interval(secs => \(lease)),
                        leased_by = \(sender)
                    FROM chosen WHERE outbox.id = chosen.id
                    RETURNING \(unescaped: SQLColumns.messageSelection),
                        (SELECT message_id FROM live_message l WHERE l.platform = outbox.platform
                            AND l.address = outbox.address AND l.key = outbox.live) AS live_post
                    """
                )
                let entries = try rows.map { row in
                    do {
                        return try row.outboxEntry(keyPrefix: prefix)
                    } catch let error as DamagedColumn {
                        throw PostgresStoreError.damagedRow(column: "outbox.\(error.column)")
                    }
                }
                return OutboxEntry.inSendingOrder(entries)
            }
        }

        public func markSent(_ ids: [Int64], posted: [PostedLiveMessage]) async throws {
            guard !ids.isEmpty else { return }
            // One live message per chat: a new game's board replaces the last one's, and the last posted wins.
            let live = Array(
                Dictionary(posted.map { ($0.chat, $0) }, uniquingKeysWith: { _, last in last }).values)
            try await statement { transaction in
                try await transaction.execute(
                    """
                    WITH sent AS (DELETE FROM outbox WHERE id = ANY(\(ids)) RETURNING 1)
                    INSERT INTO live_message (platform, address, key, message_id)
                    SELECT * FROM unnest(\(live.map(\.chat.platform.rawValue))::text[], \(live.map(\.chat.value))::text[],
                        \(live.map(\.key))::text[], \(live.map(\.messageID.value))::text[])
                    ON CONFLICT (platform, address) DO UPDATE SET key = excluded.key, message_id = excluded.message_id
                    """)
            }
        }

        public func hold(_ ids: [Int64], for duration: Duration) async throws -> Set<Int64> {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            let sender = self.sender
            return try await statement { transaction in
                // Still this sender's, or nobody's: its lease ran out and no other sender took it. A claimed
                // message is held while its send lasts, by the sender that claimed it.
                Set(
                    try await transaction.all(
                        """
                        UPDATE outbox SET leased_by = \(sender),
                            leased_until = clock_timestamp() + make_interval(secs => \(seconds))
                        WHERE id = ANY(\(ids))
                            AND (leased_by = \(sender) OR leased_until IS NULL OR leased_until < clock_timestamp())
                        RETURNING id
                        """
                    ) { try $0.decode(Int64.self) })
            }
        }

        public func claim(_ id: Int64) async throws {
            try await statement { try await $0.execute("UPDATE outbox SET claimed = true WHERE id = \(id)") }
        }

        public func unclaim(_ id: Int64) async throws {
            try await statement {
                try await $0.execute("UPDATE outbox SET claimed = false, leased_until = NULL WHERE id = \(id)")
            }
        }

        public func dropClaimed(platform: Platform) async throws -> Int {
            try await statement { transaction in
                try await transaction.all(
                    "DELETE FROM outbox WHERE claimed AND platform = \(platform.rawValue) RETURNING id"
                ) { try $0.decode(Int64.self) }.count
            }
        }

        public func outboxSize(platform: Platform) async throws -> Int {
            try await statement { transaction in
                try await transaction.one("SELECT count(*) FROM outbox WHERE platform = \(platform.rawValue)") {
                    try $0.decode(Int.self)
                } ?? 0
            }
        }

        public func recordFailedAttempt(_ id: Int64) async throws -> Int {
            try await statement { transaction in
                try await transaction.one(
                    "UPDATE outbox SET attempts = attempts + 1 WHERE id = \(id) RETURNING attempts"
                ) { try $0.decode(Int.self) } ?? 0
            }
        }

        public func postpone(_ id: Int64, until: Date) async throws {
            try await statement { transaction in
                try await transaction.execute(
                    """
                    UPDATE outbox SET not_before = \(until.timeIntervalSince1970), leased_until = NULL WHERE id = \(id)
                    """)
            }
        }

        public func deactivateChat(_ chat: ChatID) async throws {
            try await transaction { transaction in
                try await transaction.execute(
                    """
                    INSERT INTO chat (platform, address, active) VALUES (\(chat.platform.rawValue), \(chat.value), false)
                    ON CONFLICT (platform, address) DO UPDATE SET active = false
                    """)
                try await transaction.execute(
                    "DELETE FROM outbox WHERE platform = \(chat.platform.rawValue) AND address = \(chat.value)")
            }
        }

        public func setting(_ key: String) async throws -> String? {
            try await statement {
                try await $0.one("SELECT value FROM setting WHERE key = \(key)") { try $0.decode(String.self) }
            }
        }

        public func setting(_ key: String, keepingIfAbsent value: String) async throws -> String {
            try await transaction { transaction in
                // Two processes inserting at once: the second waits for the first's commit, then keeps its value.
                try await transaction.execute(
                    "INSERT INTO setting (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO NOTHING")
                return try await transaction.one("SELECT value FROM setting WHERE key = \(key)") {
                    try $0.decode(String.self)
                } ?? value
            }
        }

        public func setSetting(_ key: String, _ value: String) async throws {
            try await statement { transaction in
                try await transaction.execute(
                    """
                    INSERT INTO setting (key, value) VALUES (\(key), \(value))
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """)
            }
        }

        /// A server that cannot be reached fails the calls themselves, as a transient error; nothing else can be
        /// checked from here.
        public func verifyStorage() async throws {}

        /// The server away or restarting, a connection lost, a serialization failure or deadlock, too many
        /// connections: the same work is tried again. A refused query or bad data stops the bot.
        public func isTransient(_ error: any Error) -> Bool { Self.isTransient(error) }

        static func isTransient(_ error: any Error) -> Bool {
            if let error = error as? PostgresStoreError {
                switch error {
                case .connectionClosed, .noAnswer: return true
                default: return false
                }
            }
            guard let error = error as? PSQLError else { return false }
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
                return true
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                // 08: connection exceptions; 40001/40P01: serialization failure, deadlock; 53: insufficient
                // resources; 57P01-57P03: the server shutting down or starting.
                return state.hasPrefix("08") || ["40001", "40P01"].contains(state) || state.hasPrefix("53")
                    || ["57P01", "57P02", "57P03"].contains(state)
            default:
                return false
            }
        }
    }

    /// What a pooled connection gave: found closed before use, or the work's result.
    private enum Leased<Value: Sendable>: Sendable {
        case closed
        case done(Value)
    }

    /// Why the PostgreSQL database cannot be used, and what to do.
    public enum PostgresStoreError: Error, CustomStringConvertible {
        case badURL(String)
        case passwordInURL
        case badSSLMode(String)
        case unreachable(database: String, reason: String)
        case newerSchema(database: String, unknownMigrations: [String])
        case notMigrated(database: String)
        /// The connection closed under a transaction: the server restarted, failed over or ended the session.
        case connectionClosed
        /// A query on the leader's connection got no answer in time: the network to the server is cut.
        case noAnswer(within: Duration)
        case damagedRow(column: String)

        public var description: String {
            switch self {
            case .badURL(let url):
                "TESSERA_DATABASE \(url) is not a PostgreSQL URL. Use postgres://USER@HOST:PORT/DATABASE, with the "
                    + "password in PGPASSWORD or TESSERA_DATABASE_PASSWORD_FILE."
            case .passwordInURL:
                "TESSERA_DATABASE has a password in it, where logs and the process list show it. Remove it, and put it "
                    + "in PGPASSWORD or a file named by TESSERA_DATABASE_PASSWORD_FILE."
            case .badSSLMode(let mode):
                "sslmode=\(mode) is not one Tessera knows: use disable, prefer (TLS where the server offers it) or "
                    + "require."
            case .unreachable(let database, let reason):
                "Cannot use the PostgreSQL database \(database): \(reason). Check that the server runs and takes "
                    + "connections there, and that the user and its password (PGPASSWORD or "
                    + "TESSERA_DATABASE_PASSWORD_FILE) are right."
            case .newerSchema(let database, let migrations):
                "The database \(database) was written by a newer Tessera (schema changes "
                    + "\(migrations.joined(separator: ", "))). Upgrade tessera; this version will not touch it."
            case .notMigrated(let database):
                "The database \(database) has no Tessera tables yet: tessera run has not used it. Is the URL right?"
            case .connectionClosed:
                "The connection to PostgreSQL closed (the server restarted, failed over or ended the session)."
            case .noAnswer(let limit):
                "PostgreSQL did not answer within \(limit): the network to it may be cut."
            case .damagedRow(let column):
                "The database has a damaged row: \(column) is missing or of the wrong type. Restore it from a backup."
            }
        }
    }

    extension PostgresGameStore: Service, CustomStringConvertible {
        // ServiceGroup logs each service's description: the database, never the password.
        public var description: String { "PostgreSQL \(configuration.description)" }
    }
#endif
