import Foundation
import Logging
import ServiceLifecycle
import TesseraEngine
import TesseraRuntime
import TesseraSQLite

#if PostgreSQL
    import TesseraPostgres
#endif

/// Opens the store `TESSERA_DATABASE` names: an SQLite file at a path, or PostgreSQL at a `postgres://` URL.
enum DatabaseOpening {
    static func isPostgresURL(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// A store opened, with what it needs running beside its users (SQLite's checkpoints, PostgreSQL's pool) and
    /// what must be done once those run, before it is used (PostgreSQL's migration or schema check).
    struct OpenedStore: Sendable {
        let store: any GameStore
        /// One process leads on SQLite (the lock makes it the only one); on PostgreSQL they elect one.
        let leadership: any Leadership
        let services: [any Service]
        let prepare: @Sendable () async throws -> Void
        /// Held while the store is open: one bot per SQLite database.
        let lock: DatabaseLock?
    }

    /// Opens the store. `exclusive`: as the bot, which alone may use an SQLite file (and runs its checkpoints)
    /// and migrates a PostgreSQL database; `tessera status` only reads beside it.
    static func open(_ settings: RunSettings, logger: Logger, exclusive: Bool = true) throws -> OpenedStore {
        guard isPostgresURL(settings.databasePath) else {
            do {
                let lock = exclusive ? try DatabaseLock(databasePath: settings.databasePath) : nil
                let store = try SQLiteGameStore(path: settings.databasePath, logger: logger)
                return OpenedStore(
                    store: store, leadership: SoleLeader(), services: exclusive ? [store.checkpoints] : [],
                    prepare: {}, lock: lock)
            } catch let error as SQLiteStoreError {
                throw CommandError(error.description)
            }
        }
        #if PostgreSQL
            let configuration: PostgresGameStore.Configuration
            do {
                configuration = try PostgresGameStore.Configuration(
                    url: settings.databasePath, password: settings.databasePassword)
            } catch let error as PostgresStoreError {
                throw CommandError(error.description)
            }
            let store = PostgresGameStore(configuration: configuration, logger: logger)
            // Several processes may share the database: one leads each platform, the others stand by.
            let holder = "\(ProcessInfo.processInfo.hostName) pid \(getpid())"
            return OpenedStore(
                store: store, leadership: PostgresLeadership(store: store, holder: holder, logger: logger),
                services: [store],
                prepare: { try await prepare(store, configuration: configuration, migrating: exclusive) },
                lock: nil)
        #else
            throw CommandError(
                "TESSERA_DATABASE is a PostgreSQL URL, but this tessera was built without PostgreSQL. Build it with "
                    + "`swift build -c release --traits PostgreSQL` (the container recipe in deploy/ does), or set "
                    + "TESSERA_DATABASE to an SQLite file.")
        #endif
    }

    /// Runs `body` with the store open and its services running, and closes it after: for the commands that
    /// use the store once (the bot runs them in its service group instead).
    static func withStore(
        _ settings: RunSettings, logger: Logger, exclusive: Bool = true,
        _ body: (any GameStore, any Leadership) async throws -> Void
    ) async throws {
        let opened = try open(settings, logger: logger, exclusive: exclusive)
        defer { withExtendedLifetime(opened.lock) {} }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in opened.services { group.addTask { try await service.run() } }
            defer { group.cancelAll() }
            try await opened.prepare()
            try await body(opened.store, opened.leadership)
        }
    }

    #if PostgreSQL
        /// How long starting waits for the server (one that takes the connection and never answers) before it
        /// gives up and says so.
        static let connectTimeout = Duration.seconds(30)

        /// Migrates, or only checks the schema, or fails with a message that says what to check: a server away
        /// would otherwise be waited for in silence.
        private static func prepare(
            _ store: PostgresGameStore, configuration: PostgresGameStore.Configuration, migrating: Bool
        ) async throws {
            do {
                try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        try await migrating ? store.migrate() : store.checkSchema()
                        return true
                    }
                    group.addTask {
                        try await Task.sleep(for: connectTimeout)
                        return false
                    }
                    let migrated = try await group.next() ?? false
                    group.cancelAll()
                    guard migrated else { throw CommandError(unreachable(configuration)) }
                }
            } catch let error as CommandError {
                throw error
            } catch let error as PostgresStoreError {
                throw CommandError(error.description)
            } catch {
                throw CommandError(unreachable(configuration) + " (\(error))")
            }
        }

        private static func unreachable(_ configuration: PostgresGameStore.Configuration) -> String {
            "Cannot use the PostgreSQL database \(configuration.description): check that the server runs and takes "
                + "connections there, and that the user and its password (PGPASSWORD or TESSERA_DATABASE_PASSWORD_FILE) "
                + "are right."
        }
    #endif
}
