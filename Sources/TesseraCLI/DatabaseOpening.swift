import Foundation
import Logging
import TesseraEngine
import TesseraSQLite

#if PostgreSQL
    import TesseraPostgres
#endif

/// Opens the store `TESSERA_DATABASE` names: an SQLite file at a path, or PostgreSQL at a `postgres://` URL.
enum DatabaseOpening {
    static func isPostgresURL(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Runs `body` with the store open, and closes it after. `exclusive`: as the bot, which alone may use an
    /// SQLite file and migrates a PostgreSQL database; `tessera status` only reads beside it.
    static func withStore(
        _ settings: RunSettings, logger: Logger, exclusive: Bool = true,
        _ body: (any GameStore, any Leadership) async throws -> Void
    ) async throws {
        guard isPostgresURL(settings.databasePath) else {
            let store: SQLiteGameStore
            let lock: DatabaseLock?
            do {
                // Held until the body returns: one bot per database.
                lock = exclusive ? try DatabaseLock(databasePath: settings.databasePath) : nil
                store = try SQLiteGameStore(path: settings.databasePath, logger: logger)
            } catch let error as SQLiteStoreError {
                throw CommandError(error.description)
            }
            defer { withExtendedLifetime(lock) {} }
            // The lock makes this process the only one: it leads.
            try await body(store, SoleLeader())
            return
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
            // The pool runs beside everything else, and stops last.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await prepare(store, configuration: configuration, migrating: exclusive)
                // Several processes may share the database: one leads each platform, the others stand by.
                let holder = "\(ProcessInfo.processInfo.hostName) pid \(getpid())"
                try await body(store, PostgresLeadership(store: store, holder: holder, logger: logger))
            }
        #else
            throw CommandError(
                "TESSERA_DATABASE is a PostgreSQL URL, but this tessera was built without PostgreSQL. Build it with "
                    + "`swift build -c release --traits PostgreSQL` (the container recipe in deploy/ does), or set "
                    + "TESSERA_DATABASE to an SQLite file.")
        #endif
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
