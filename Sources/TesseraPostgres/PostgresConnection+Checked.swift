#if PostgreSQL
    import Logging
    import PostgresNIO
    import Synchronization

    /// Statements sent to the server, each a round trip: what a batch costs across a network, counted by the
    /// store itself (``PostgresGameStore/statementsSent``).
    public final class StatementCounter: Sendable {
        private let sent = Atomic<Int>(0)

        public init() {}

        func count() { sent.add(1, ordering: .relaxed) }

        public var value: Int { sent.load(ordering: .relaxed) }
    }

    extension PostgresConnection {
        /// Runs a query, or fails at once when the connection has closed.
        ///
        /// postgres-nio 1.33 writes a query to a closed channel and never answers it: a connection the server ended
        /// (a restart, a failover, `pg_terminate_backend`) between two statements of a transaction would stall
        /// the bot in silence. Every query of the store goes through here; the failure is transient, so the work is
        /// tried again on a new connection. (A close in the microseconds between the check and the write is not
        /// caught.)
        @discardableResult
        func checkedQuery(_ query: PostgresQuery, logger: Logger, counting counter: StatementCounter? = nil)
            async throws -> PostgresRowSequence
        {
            guard !isClosed else { throw PostgresStoreError.connectionClosed }
            counter?.count()
            return try await self.query(query, logger: logger)
        }

        /// Runs a write as ``checkedQuery(_:logger:counting:)`` does: how many rows it changed, from the server's
        /// command tag (`INSERT 0 1`).
        func checkedChanges(_ query: PostgresQuery, logger: Logger, counting counter: StatementCounter? = nil)
            async throws -> Int
        {
            guard !isClosed else { throw PostgresStoreError.connectionClosed }
            counter?.count()
            // postgres-nio's future gives the command tag with the rows; its sequence does not.
            let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
            return try await result.get().metadata.rows ?? 0
        }

        /// Runs `body` between `BEGIN` and `COMMIT`, or rolls back what it did when it throws, and rethrows that
        /// error as it was thrown. postgres-nio's own `withTransaction` rolls back with a plain query, which a
        /// connection closed under the body would never answer.
        func inTransaction<Result>(
            logger: Logger, readOnly: Bool = false, counting counter: StatementCounter? = nil,
            _ body: (PostgresConnection) async throws -> Result
        ) async throws -> Result {
            // A read-only one sees one snapshot throughout (repeatable read), as SQLite's reader does.
            try await checkedQuery(
                readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger,
                counting: counter)
            let result: Result
            do {
                result = try await body(self)
            } catch {
                // A closed connection's transaction ended with its session: nothing is left to roll back.
                if !isClosed {
                    do {
                        try await checkedQuery("ROLLBACK", logger: logger, counting: counter)
                    } catch let rollback {
                        // Not back to the pool in the middle of a transaction: closed, it is replaced.
                        logger.warning(
                            "Rolling back failed; closing the connection", metadata: ["error": "\(rollback)"])
                        do { try await close() } catch {
                            logger.debug("Closing failed", metadata: ["error": "\(error)"])
                        }
                    }
                }
                throw error
            }
            try await checkedQuery("COMMIT", logger: logger, counting: counter)
            return result
        }

        /// A query that must answer within `limit`, or throws ``PostgresStoreError/noAnswer(within:)``: a network
        /// cut leaves a query waiting for TCP to give up, which takes minutes. The query cannot be cancelled, so at
        /// the limit the connection is closed, which ends it, and this returns once it has ended.
        func query(_ query: PostgresQuery, within limit: Duration, logger: Logger) async throws {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await self.checkedQuery(query, logger: logger)
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return false
                }
                defer { group.cancelAll() }
                if try await group.next() == true { return }
                do { try await close() } catch { logger.debug("Closing failed", metadata: ["error": "\(error)"]) }
                throw PostgresStoreError.noAnswer(within: limit)
            }
        }
    }
#endif
