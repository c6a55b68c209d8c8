import Foundation

/// A throwaway PostgreSQL cluster on loopback (`Tests/Servers/postgres_server.py`), started once for a test
/// process by the first test that asks, and gone when the process ends. Each test gets a database of its own,
/// owned by a role of its own without privileges, as Tessera runs in production.
///
/// PostgreSQL is installed from Debian's packages by `scripts/install-postgresql` (which `scripts/test` runs);
/// its programs' folder is `TESSERA_POSTGRES_BIN`, or the newest `/usr/lib/postgresql/*/bin`.
public actor PostgreSQLServer {
    public static let shared = PostgreSQLServer()

    /// A database for one test: the URL `tessera run` takes, and the role's password.
    public struct Database: Sendable {
        public let url: String
        public let password: String
        public let name: String
        public let port: Int
    }

    private var started: Task<(server: LoopbackServer, bin: String), any Error>?

    /// Whether the tests on PostgreSQL are switched off (`TESSERA_SKIP_POSTGRES=1`).
    public static var isSkipped: Bool { ProcessInfo.processInfo.environment["TESSERA_SKIP_POSTGRES"] == "1" }

    private func server() async throws -> (server: LoopbackServer, bin: String) {
        if let started { return try await started.value }
        let task = Task { () throws -> (server: LoopbackServer, bin: String) in
            let bin = try Self.programs()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tessera-postgres-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            do {
                let server = try await LoopbackServer.start("postgres_server.py", arguments: [bin, directory.path])
                return (server, bin)
            } catch {
                throw LoggedServerDidNotStart(
                    "PostgreSQL", log: directory.appendingPathComponent("postgres.log"), underlying: error)
            }
        }
        started = task
        return try await task.value
    }

    /// A new, empty database owned by a new role: nothing another test did is in it.
    public func makeDatabase() async throws -> Database {
        let (server, bin) = try await server()
        let name = "tessera_\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000_000)"
        let password = "password-\(name)"
        // Two statements in one psql, each its own -c: CREATE DATABASE cannot run in a transaction. One process
        // a database, not two: Foundation's Process.run() on Linux crashes now and then (an over-read of
        // /proc/self/fd, swift-corelibs-foundation#5472), so the suite starts as few as it can.
        try await Self.psql(
            bin: bin, port: server.port, "CREATE ROLE \(name) LOGIN PASSWORD '\(password)'",
            "CREATE DATABASE \(name) OWNER \(name)")
        return Database(
            url: "postgres://\(name)@127.0.0.1:\(server.port)/\(name)?sslmode=disable", password: password, name: name,
            port: server.port)
    }

    /// Runs SQL as the cluster's superuser, for what a test does to a database behind Tessera's back (a schema
    /// from a newer version, a connection terminated).
    public func administer(_ sql: String, in database: String = "postgres") async throws {
        let (server, bin) = try await server()
        try await Self.psql(bin: bin, port: server.port, sql, database: database)
    }

    private static func psql(bin: String, port: Int, _ sql: String..., database: String = "postgres") async throws {
        let output = try await ChildProcess.run(
            bin + "/psql",
            ["-h", "127.0.0.1", "-p", String(port), "-U", "admin", "-d", database, "-v", "ON_ERROR_STOP=1", "-q"]
                + sql.flatMap { ["-c", $0] },
            environment: ["PGPASSWORD": "admin", "PATH": "/usr/bin:/bin"])
        guard output.status == 0 else { throw Failed(sql: sql.joined(separator: "; "), message: output.standardError) }
    }

    /// The folder of PostgreSQL's programs.
    static func programs() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["TESSERA_POSTGRES_BIN"] { return bin }
        let versions: [String]
        do {
            versions = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
        } catch {
            throw NotInstalled()
        }
        for version in versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedDescending }) {
            let bin = "/usr/lib/postgresql/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: bin + "/initdb") { return bin }
        }
        throw NotInstalled()
    }

    public struct NotInstalled: Error, CustomStringConvertible {
        public var description: String {
            "PostgreSQL is not installed: run scripts/install-postgresql (scripts/test does), or set "
                + "TESSERA_SKIP_POSTGRES=1 to switch the tests on PostgreSQL off."
        }
    }

    public struct Failed: Error, CustomStringConvertible {
        let sql: String
        let message: String
        public var description: String { "psql failed on \(sql): \(message)" }
    }

}
