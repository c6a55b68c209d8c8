import Foundation
import GRDB
import Logging
import Synchronization
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraSQLite

/// `tessera backup` and `tessera restore` underneath: online copies of a database being written, and putting
/// one back (issue 27).
@Suite("SQLite backups")
struct SQLiteBackupTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    static func player(_ number: Int) -> Player {
        Player(
            id: UserID(Int64(number)), displayName: "P\(number)", language: .english, timeZone: "UTC", rolloverHour: 0)
    }

    func players(in path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1 }
    }

    func mode(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("A copy taken while a writer commits holds every commit made before it began, passes the check, is 0600")
    func backupWhileWriting() async throws {
        let database = folder + "/tessera.sqlite"
        let store = try SQLiteGameStore(path: database, logger: Logger(label: "test"))
        for number in 1...200 { try await store.write { try await $0.save(Self.player(number)) } }
        // A writer goes on committing, one player a transaction, while copies are taken.
        let stop = Mutex(false)
        let writing = Task {
            var number = 201
            while !stop.withLock({ $0 }) {
                let next = number
                try await store.write { try await $0.save(Self.player(next)) }
                number += 1
            }
            return number - 1
        }
        var copies: [(committedBefore: Int, copied: SQLiteBackup.Copied, path: String)] = []
        for index in 0..<5 {
            // Read through a connection of its own: every commit so far, and maybe a few more by the copy.
            let committed = try players(in: database)
            let path = folder + "/copy-\(index).sqlite"
            let copied = try await Task.detached { try SQLiteBackup.backup(database: database, to: path) }.value
            copies.append((committed, copied, path))
        }
        stop.withLock { $0 = true }
        let last = try await writing.value
        #expect(last > 200, "the writer committed during the copies")
        for copy in copies {
            #expect(copy.copied.players >= copy.committedBefore, "every commit before the copy began is in it")
            #expect(try players(in: copy.path) == copy.copied.players)
            #expect(try mode(of: copy.path) == 0o600)
            let check = try await DatabaseQueue(path: copy.path).read {
                try String.fetchAll($0, sql: "PRAGMA integrity_check")
            }
            #expect(check == ["ok"])
            #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"), "one file, no log beside it")
            // The copy opens as a store: the bot can run on it.
            _ = try SQLiteGameStore(path: copy.path, logger: Logger(label: "test"))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("Bad paths get one line each and write nothing")
    func badPaths() throws {
        let database = folder + "/tessera.sqlite"
        _ = try SQLiteGameStore(path: database, logger: Logger(label: "test"))
        let cases: [(String, String, SQLiteBackup.Failure)] = [
            (folder + "/none.sqlite", folder + "/copy.sqlite", .noDatabase(folder + "/none.sqlite")),
            (database, folder, .isFolder(folder)),
            (
                database, folder + "/missing/copy.sqlite",
                .noFolder(path: folder + "/missing/copy.sqlite", folder: folder + "/missing")
            ),
            (database, database, .sameFile(database)),
            // The lock beside the database: overwriting it would let a second tessera run on the database.
            (database, database + ".lock", .companionFile(path: database + ".lock", database: database)),
            (database, database + "-wal", .companionFile(path: database + "-wal", database: database)),
            (database, database + "-journal", .companionFile(path: database + "-journal", database: database)),
        ]
        for (source, destination, failure) in cases {
            #expect(throws: failure) { try SQLiteBackup.backup(database: source, to: destination) }
            #expect(!failure.description.contains("\n"))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.allSatisfy { $0.hasPrefix("tessera.sqlite") }, "\(files)")
    }

    @Test("Restore is refused while a bot holds the database; otherwise it puts the copy in place and keeps the old")
    func restore() async throws {
        let database = folder + "/tessera.sqlite"
        var store: SQLiteGameStore? = try SQLiteGameStore(path: database, logger: Logger(label: "test"))
        for number in 1...3 { try await store?.write { try await $0.save(Self.player(number)) } }
        let backup = folder + "/backup.sqlite"
        _ = try SQLiteBackup.backup(database: database, to: backup)
        for number in 4...9 { try await store?.write { try await $0.save(Self.player(number)) } }

        var lock: DatabaseLock? = try DatabaseLock(databasePath: database)
        #expect {
            try SQLiteBackup.restore(from: backup, to: database, at: Date())
        } throws: { error in
            guard case SQLiteBackup.Failure.inUse(database, let holder) = error else { return false }
            return holder.hasPrefix("pid \(getpid()) ")
        }
        #expect(try players(in: database) == 9, "nothing changed")
        lock = nil
        store = nil
        _ = lock

        let now = Date(timeIntervalSince1970: 1_795_680_000)
        let (copied, kept) = try SQLiteBackup.restore(from: backup, to: database, at: now)
        #expect(copied.players == 3)
        #expect(try players(in: database) == 3)
        let keptPath = try #require(kept)
        #expect(keptPath == database + ".before-restore-20261126T080000Z")
        #expect(try players(in: keptPath) == 9, "the replaced database is kept whole, its log's commits included")
        #expect(try mode(of: database) == 0o600)
        let reopened = try SQLiteGameStore(path: database, logger: Logger(label: "test"))
        #expect(try await reopened.write { try await $0.player(UserID(3)) }?.displayName == "P3")

        // A backup an older Tessera made has that version's schema, object for object: it is restored, and
        // migrated when opened.
        let older = folder + "/older.sqlite"
        let migrations = SQLiteSchema.migrator.migrations
        try SQLiteSchema.migrator.migrate(try DatabaseQueue(path: older), upTo: migrations[migrations.count - 2])
        _ = try SQLiteBackup.restore(from: older, to: database, at: now.addingTimeInterval(60))
    }

    @Test(
        "Restore refuses what is not a Tessera backup: missing, not SQLite, another schema, a newer one, damaged, an object Tessera does not create"
    )
    func restoreRefuses() async throws {
        let database = folder + "/tessera.sqlite"
        _ = try SQLiteGameStore(path: database, logger: Logger(label: "test"))
        let text = folder + "/notes.txt"
        try Data(repeating: 65, count: 8_192).write(to: URL(fileURLWithPath: text))
        let foreign = folder + "/foreign.sqlite"
        try await DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let newer = folder + "/newer.sqlite"
        _ = try SQLiteBackup.backup(database: database, to: newer)
        try await DatabaseQueue(path: newer).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        // A backup with an object Tessera never creates: a trigger that would run inside the bot, a view, an
        // index changed.
        var tampered: [(String, String)] = []
        for (name, sql, said) in [
            (
                "trigger",
                "CREATE TRIGGER leak AFTER INSERT ON player BEGIN UPDATE player SET display_name = 'x'; END",
                "its trigger leak is not one Tessera's migrations create"
            ),
            ("view", "CREATE VIEW everyone AS SELECT * FROM player", "its view everyone is not one"),
            ("table", "CREATE TABLE extra (x)", "its table extra is not one"),
            (
                "index", "DROP INDEX replay_guard_puzzle; CREATE INDEX replay_guard_puzzle ON replay_guard (key)",
                "its index replay_guard_puzzle is not one"
            ),
        ] {
            let path = folder + "/with-\(name).sqlite"
            _ = try SQLiteBackup.backup(database: database, to: path)
            try await DatabaseQueue(path: path).write { try $0.execute(sql: sql) }
            tampered.append((path, said))
        }
        let damaged = folder + "/damaged.sqlite"
        _ = try SQLiteBackup.backup(database: database, to: damaged)
        // A page in the middle overwritten: the header still reads, the tables do not.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
        try handle.seek(toOffset: 4_096 * 2)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4_096))
        try handle.close()

        let cases: [(String, String)] =
            [
                (folder + "/none.sqlite", "is not a Tessera database (it does not exist)"),
                (folder, "is not a Tessera database (it is not a file)"),
                (text, "is not a Tessera database (not an SQLite database)"),
                (foreign, "is not a Tessera database (it has none of Tessera's tables)"),
                (newer, "was written by a newer Tessera"),
                (damaged, "fails SQLite's integrity check"),
            ] + tampered
        for (backup, said) in cases {
            #expect {
                try SQLiteBackup.restore(from: backup, to: database, at: Date())
            } throws: { error in
                "\(error)".contains(said) && !"\(error)".contains("\n")
            }
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("before-restore") }
        #expect(kept.isEmpty, "nothing was replaced")
    }
}
