import Foundation
import GRDB
import Synchronization
import TesseraTestSupport
import Testing

/// `tessera backup` and `tessera restore` as an operator runs them, beside a real `tessera run` (issue 27).
@Suite("Backups of a running bot", .timeLimit(.minutes(3)))
struct BackupDaemonTests {
    func count(_ table: String, in path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
    }

    func journalMode(of path: String) throws -> String? {
        try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    @Test("A backup during a load of guesses holds every answered guess and passes the check; restore waits for a stop")
    func backupUnderLoad() async throws {
        let fake = try await FakeTelegram.start()
        let folder = try TesseraProcess.temporaryDirectory()
        let database = folder.appendingPathComponent("tessera.sqlite").path
        let copy = folder.appendingPathComponent("backups/tessera-copy.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let daemon = try Daemon(fake: fake, database: database)
        try daemon.start()
        defer { if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) } }
        let words = try DaemonTests.wrongWords(2)

        // Fifty players guess and are answered: committed before the backup begins.
        try await fake.push(FakeTelegram.rounds(of: [words[0]], players: 50))
        _ = try await fake.waitForSent { Set($0.map(\.chat)).count >= 50 }
        // More players guess, one after another, for as long as the backup runs.
        let backingUp = Flag()
        let pushing = Task {
            var player: Int64 = 51
            while backingUp.isRaised {
                try await fake.push([FakeTelegram.message(words[0], from: player, messageID: player)])
                player += 1
            }
            return Int(player - 51)
        }
        let backup = try await Task.detached {
            defer { backingUp.lower() }
            return try await TesseraProcess.run(["backup", copy, "--database", database])
        }.value
        let during = try await pushing.value
        #expect(during > 0, "guesses came in while the backup ran")
        #expect(backup.status == 0, "\(backup)")
        #expect(backup.standardOutput.hasPrefix("Backed up \(database) to \(copy) in "), "\(backup)")
        #expect(backup.standardOutput.hasSuffix("games; integrity_check ok.\n"))
        #expect(try count("game", in: copy) >= 50, "every guess answered before the backup began")
        let check = try await DatabaseQueue(path: copy).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        // The bot answered throughout: every player has a board.
        _ = try await fake.waitForSent { Set($0.map(\.chat)).count >= 50 + during }

        let refused = try await TesseraProcess.run(["restore", copy, "--database", database])
        #expect(refused.status == 1)
        #expect(
            refused.standardError.hasPrefix(
                "Error: tessera run (pid \(daemon.process.processIdentifier) on "),
            "\(refused)")
        #expect(refused.standardError.contains("holds the database \(database): stop it first"))
        #expect(daemon.process.isRunning)

        #expect(await daemon.stop(SIGTERM) == 0)
        let restored = try await TesseraProcess.run(["restore", copy, "--database", database])
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.standardOutput.contains("The database it replaced is kept at \(database).before-restore-"))
        #expect(try count("game", in: database) == (try count("game", in: copy)))
        // status only reads: the restored file keeps its journal mode (a backup's is DELETE) and its schema.
        let migrations = try count("grdb_migrations", in: database)
        let status = try await TesseraProcess.run(["status", "--database", database])
        #expect(status.status == 1 && status.standardError.contains("Not running"), "\(status)")
        #expect(try journalMode(of: database) == "delete")
        #expect(!FileManager.default.fileExists(atPath: database + "-wal"))
        #expect(try count("grdb_migrations", in: database) == migrations)

        // The bot runs on what was restored: a player of the first fifty goes on with their game.
        let again = try Daemon(fake: fake, database: database)
        try again.start()
        try await fake.push([FakeTelegram.message(words[1], from: 7, messageID: 7_001)])
        _ = try await fake.waitForSent { sent in sent.contains { $0.chat == 7 && $0.text.contains("· 2/6") } }
        #expect(await again.stop(SIGTERM) == 0)
        await fake.stop()
    }

    @Test("Backup and restore refuse a bad path, or a PostgreSQL database, with one line")
    func badPaths() async throws {
        let folder = try TesseraProcess.temporaryDirectory()
        let database = folder.appendingPathComponent("tessera.sqlite").path
        let none = folder.appendingPathComponent("none.sqlite").path
        try await DatabaseQueue(path: database).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let cases: [([String], String)] = [
            (["backup", folder.path + "/copy.sqlite", "--database", none], "Error: No database at \(none)"),
            (
                ["backup", "/nonexistent/copy.sqlite", "--database", database],
                "Error: Cannot write /nonexistent/copy.sqlite: its folder /nonexistent does not exist."
            ),
            (
                ["restore", none, "--database", database],
                "Error: \(none) is not a Tessera database (it does not exist); nothing was changed."
            ),
            (
                ["backup", folder.path + "/copy.sqlite", "--database", "postgres://tessera@127.0.0.1:5432/tessera"],
                "Error: tessera backup is for SQLite; to back up PostgreSQL use pg_dump"
            ),
        ]
        for (arguments, said) in cases {
            let output = try await TesseraProcess.run(arguments)
            #expect(output.status == 1)
            #expect(output.standardError.hasPrefix(said), "\(arguments): \(output.standardError)")
            #expect(output.standardError.split(separator: "\n").count == 1, "\(output.standardError)")
        }
    }
}

/// A flag raised until one task lowers it, read by another.
private final class Flag: Sendable {
    private let raised = Mutex(true)

    var isRaised: Bool { raised.withLock { $0 } }
    func lower() { raised.withLock { $0 = false } }
}
