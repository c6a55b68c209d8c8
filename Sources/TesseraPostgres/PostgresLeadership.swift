#if PostgreSQL
    import Foundation
    public import Logging
    import PostgresNIO
    import ServiceLifecycle
    import TesseraEngine
    public import TesseraRuntime

    /// One leader per platform among the processes on one PostgreSQL database, elected with a session-level advisory
    /// lock held on a connection of its own.
    ///
    /// Standbys try the lock every ``checkInterval``. The leader checks its connection as often; when the check
    /// fails (the database or the network gone), it stops receiving at once. PostgreSQL releases the lock when the
    /// leader's session ends: at once when the process dies (its socket closes), and after TCP keepalives of a few
    /// seconds (set on the session) when the network is cut or the machine is gone. Nothing is lost or applied
    /// twice across a takeover: the new leader receives from the position stored with the last batch applied, and
    /// a batch the old leader was applying commits whole or not at all.
    public struct PostgresLeadership: Leadership {
        private let store: PostgresGameStore
        /// Who this process is, for `tessera status`: host and process id.
        private let holder: String
        private let checkInterval: Duration
        private let logger: Logger

        public init(store: PostgresGameStore, holder: String, checkInterval: Duration = .seconds(1), logger: Logger) {
            self.store = store
            self.holder = holder
            self.checkInterval = checkInterval
            self.logger = logger
        }

        /// How long the leader's check may wait for an answer. The server ends a session it has not heard from in
        /// 2 s + 3 × 1 s (the keepalives set on it), and a standby may lead a second later; a leader cut off checks
        /// at most ``checkInterval`` after its last answer and gives up this much later, before that.
        static let checkTimeout = Duration.seconds(2)

        /// The advisory lock of a transport's leader: a stable 64-bit hash (FNV-1a) of its name.
        static func lockKey(_ transport: String) -> Int64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in "tessera.leader.\(transport)".utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return Int64(bitPattern: hash)
        }

        /// The lead was lost while working: the work is cancelled, and the election starts again.
        private struct LostLead: Error {}

        public func whileLeading(_ transport: String, _ work: @escaping @Sendable () async throws -> Void) async throws
        {
            let key = Self.lockKey(transport)
            var waiting = false
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let connection: PostgresConnection
                do {
                    connection = try await store.connect()
                } catch {
                    logger.warning(
                        "Cannot reach the database to lead; trying again",
                        metadata: ["transport": "\(transport)", "error": "\(PostgresGameStore.reason(error))"])
                    try await pause()
                    continue
                }
                do {
                    // A dead peer is noticed within seconds (PostgresGameStore.sessionSettings): the lock goes with it.
                    var leads = false
                    for try await acquired in try await connection.checkedQuery(
                        "SELECT pg_try_advisory_lock(\(key))", logger: logger
                    ).decode(Bool.self) {
                        leads = acquired
                    }
                    guard leads else {
                        if !waiting {
                            logger.info("Standing by: another process leads", metadata: ["transport": "\(transport)"])
                            waiting = true
                        }
                        try await connection.close()
                        try await pause()
                        continue
                    }
                    waiting = false
                    try await store.setSetting(
                        LeaderRecord.settingKey(for: transport), "\(holder) since \(Int(Date().timeIntervalSince1970))")
                    logger.notice("Leading", metadata: ["transport": "\(transport)", "holder": "\(holder)"])
                    try await lead(transport, on: connection, work)
                    try await connection.close()
                    return
                } catch is LostLead {
                    // Said when it was noticed; the election starts again.
                } catch is CancellationError {
                    try await connection.close()
                    return
                } catch let error where store.isTransient(error) {
                    logger.warning(
                        "The election was interrupted; trying again",
                        metadata: ["transport": "\(transport)", "error": "\(PostgresGameStore.reason(error))"])
                }
                // The session, and with it the lock, ends with the connection, which may be broken already.
                do {
                    try await connection.close()
                } catch {
                    logger.debug("Closing the lock's connection failed", metadata: ["error": "\(error)"])
                }
            }
        }

        /// Runs `work` while checking the lock's connection; throws ``LostLead`` when a check fails, once the
        /// cancelled work has ended (a store call the cut left waiting ends only when the network is back or TCP
        /// gives up, but it polls no more).
        private func lead(
            _ transport: String, on connection: PostgresConnection,
            _ work: @escaping @Sendable () async throws -> Void
        ) async throws {
            let (interval, logger) = (checkInterval, self.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await work() }
                group.addTask {
                    while true {
                        try await Task.sleep(for: interval)
                        do {
                            try await connection.query("SELECT 1", within: Self.checkTimeout, logger: logger)
                        } catch {
                            let reason = PostgresGameStore.reason(error)
                            logger.error(
                                "Lost the lead; stopped receiving until it is won again",
                                metadata: ["transport": "\(transport)", "reason": "\(reason)"])
                            throw LostLead()
                        }
                    }
                }
                // Work that ends (a graceful shutdown) ends the checks; a failed check cancels the work.
                _ = try await group.next()
                group.cancelAll()
            }
        }

        private func pause() async throws {
            do {
                try await Task.sleep(for: checkInterval)
            } catch {
                // Cancelled while standing by: stop.
                return
            }
        }
    }
#endif
