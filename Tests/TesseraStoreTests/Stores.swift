import Foundation
import Logging
import TesseraEngine
import TesseraSQLite
import TesseraTestSupport
import Testing

#if PostgreSQL
    import TesseraPostgres
#endif

/// Every store the conformance suite runs against: SQLite in memory and in a file, and a real PostgreSQL when
/// built with the PostgreSQL trait (`scripts/test` does), unless `TESSERA_SKIP_POSTGRES=1`.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqliteInMemory = "SQLite in memory"
    case sqliteFile = "SQLite file"
    case postgres = "PostgreSQL"

    var testDescription: String { rawValue }

    static var all: [StoreKind] {
        #if PostgreSQL
            PostgreSQLServer.isSkipped ? [.sqliteInMemory, .sqliteFile] : allCases
        #else
            [.sqliteInMemory, .sqliteFile]
        #endif
    }

    /// Runs `body` with a new, empty store of this kind, open for as long as it runs.
    func withStore<T: Sendable>(_ body: @Sendable (any GameStore) async throws -> T) async throws -> T {
        try await withDatabase { database in try await database.open(body) }
    }

    /// Runs `body` with a new, empty database of this kind, which it may open as often as it likes.
    func withDatabase<T: Sendable>(_ body: @Sendable (StoreDatabase) async throws -> T) async throws -> T {
        switch self {
        case .sqliteInMemory:
            return try await body(.sqliteInMemory(try SQLiteGameStore.inMemory()))
        case .sqliteFile:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("tessera-\(UUID().uuidString)/tessera.sqlite").path
            return try await body(.sqliteFile(path))
        case .postgres:
            #if PostgreSQL
                return try await body(.postgres(try await PostgreSQLServer.shared.makeDatabase()))
            #else
                throw StoreUnavailable()
            #endif
        }
    }

    struct StoreUnavailable: Error {}
}

/// A database of one of the store kinds, opened as a store on demand.
enum StoreDatabase: Sendable {
    /// In memory there is only the one store.
    case sqliteInMemory(SQLiteGameStore)
    case sqliteFile(String)
    case postgres(PostgreSQLServer.Database)

    static let logger = Logger(label: "test")

    /// Opens a store on the database (migrating it first), runs `body`, and closes it.
    func open<T: Sendable>(_ body: @Sendable (any GameStore) async throws -> T) async throws -> T {
        switch self {
        case .sqliteInMemory(let store):
            return try await body(store)
        case .sqliteFile(let path):
            return try await body(try SQLiteGameStore(path: path, logger: Self.logger))
        case .postgres(let database):
            #if PostgreSQL
                let store = PostgresGameStore(
                    configuration: try .init(url: database.url, password: database.password), logger: Self.logger)
                return try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await store.run() }
                    defer { group.cancelAll() }
                    try await store.migrate()
                    return try await body(store)
                }
            #else
                throw StoreKind.StoreUnavailable()
            #endif
        }
    }
}
