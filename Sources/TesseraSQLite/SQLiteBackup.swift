public import Foundation
import GRDB

/// Consistent copies of a live database and putting one back (`tessera backup`, `tessera restore`).
///
/// A copy is made with SQLite's online backup API in one read transaction: a snapshot of everything committed
/// when it began, taken while the bot goes on writing (in WAL mode a reader holds up no writer). It is written
/// to a temporary file beside its destination, checked with `PRAGMA integrity_check`, made a single file
/// (rollback journal, no `-wal`), flushed, made owner-only, and only then renamed into place: a destination
/// is never left half-written.
public enum SQLiteBackup {
    /// What was copied.
    public struct Copied: Sendable, Hashable {
        public let bytes: Int64
        public let players: Int
        public let games: Int
    }

    /// What went wrong, and what to do: one line for the person at the terminal.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case noDatabase(String)
        case noFolder(path: String, folder: String)
        case isFolder(String)
        case sameFile(String)
        /// One of the files SQLite and tessera keep beside the database: its write-ahead log, its index of it,
        /// its rollback journal, or the lock that keeps a second bot off it.
        case companionFile(path: String, database: String)
        case cannotWrite(path: String, reason: String)
        case notABackup(path: String, reason: String)
        case damaged(path: String, check: String)
        case newerSchema(path: String)
        case inUse(database: String, holder: String)

        public var description: String {
            switch self {
            case .noDatabase(let path):
                "No database at \(path): nothing to back up. Is --database (or TESSERA_DATABASE) right?"
            case .noFolder(let path, let folder):
                "Cannot write \(path): its folder \(folder) does not exist. Create it, or give another path."
            case .isFolder(let path):
                "\(path) is a folder: give the copy's file name, such as \(path)/tessera-backup.sqlite."
            case .sameFile(let path):
                "\(path) is the database itself: give the copy another file."
            case .companionFile(let path, let database):
                "\(path) belongs to the database \(database) (SQLite's log or journal, or the lock that keeps a second "
                    + "tessera off it): writing there would damage or unlock it. Give the copy another file."
            case .cannotWrite(let path, let reason):
                "Cannot write \(path): \(reason). Give a path in a folder you may write to."
            case .notABackup(let path, let reason):
                "\(path) is not a Tessera database (\(reason)); nothing was changed. Give a file tessera backup "
                    + "made."
            case .damaged(let path, let check):
                "A copy of \(path) fails SQLite's integrity check (\(check)); nothing was changed. Try again; if it "
                    + "fails again, \(path) is damaged: restore the latest good backup."
            case .newerSchema(let path):
                "\(path) was written by a newer Tessera; nothing was changed. Upgrade tessera first."
            case .inUse(let database, let holder):
                "tessera run (\(holder)) holds the database \(database): stop it first (systemctl stop tessera), "
                    + "then restore, then start it again."
            }
        }
    }

    /// Copies the database at `database`, live or not, to `destination` (replacing a file there).
    public static func backup(database: String, to destination: String) throws -> Copied {
        guard FileManager.default.fileExists(atPath: database) else { throw Failure.noDatabase(database) }
        try checkDestination(destination, notTheSameAs: database)
        return try copy(from: database, to: destination)
    }

    /// Puts the copy at `backup` in place of the database at `database`, once the copy has passed the same
    /// checks as a backup and is a Tessera database no newer than this one; refused while a bot holds the
    /// database. The database it replaces is kept beside it, as `<database>.before-restore-<time>`, whose path
    /// this returns (nil when there was none).
    public static func restore(from backup: String, to database: String, at now: Date) throws -> (
        copied: Copied, replacedKeptAt: String?
    ) {
        let lock: DatabaseLock
        do {
            lock = try DatabaseLock(databasePath: database)
        } catch SQLiteStoreError.inUse(_, let holder) {
            throw Failure.inUse(database: database, holder: holder)
        }
        return try withExtendedLifetime(lock) {
            var status = stat()
            guard stat(backup, &status) == 0 else {
                throw Failure.notABackup(path: backup, reason: "it does not exist")
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw Failure.notABackup(path: backup, reason: "it is not a file")
            }
            try checkSchema(of: backup)
            try checkDestination(database, notTheSameAs: backup)
            var kept: String?
            if FileManager.default.fileExists(atPath: database) {
                // The database being replaced is kept, whole: its write-ahead log's commits included.
                let stamp = Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted).format(now)
                let keep = "\(database).before-restore-\(stamp)"
                _ = try copy(from: database, to: keep)
                kept = keep
            }
            var owner = stat()
            let replacing = stat(database, &owner) == 0
            let copied = try copy(from: backup, to: database) { temporary in
                // The database's owner keeps it (a service's user), when root restores it.
                if replacing, chown(temporary, owner.st_uid, owner.st_gid) != 0,
                    owner.st_uid != geteuid() || owner.st_gid != getegid()
                {
                    throw Failure.cannotWrite(
                        path: database,
                        reason: "the restored file cannot be given to the database's owner (uid \(owner.st_uid)); run "
                            + "tessera restore as root or as that user")
                }
                // What the old database's log holds is in the kept copy; left, SQLite would replay it on the new.
                for suffix in ["-wal", "-shm"] where unlink(database + suffix) != 0 && errno != ENOENT {
                    throw Failure.cannotWrite(path: database + suffix, reason: String(cString: strerror(errno)))
                }
            }
            return (copied, kept)
        }
    }

    // MARK: - The copy

    /// Copies `source` to a temporary file beside `destination`, checks it, and renames it into place; runs
    /// `beforeRename` with the temporary file's path just before the rename.
    private static func copy(
        from source: String, to destination: String, beforeRename: (String) throws -> Void = { _ in }
    ) throws -> Copied {
        let folder = (destination as NSString).deletingLastPathComponent
        let temporary =
            (folder.isEmpty ? "." : folder) + "/.\((destination as NSString).lastPathComponent).\(getpid()).partial"
        let descriptor = Glibc.open(temporary, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure.cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        var renamed = false
        defer {
            if !renamed {
                for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
            }
        }
        let copied: Copied
        do {
            var readOnly = Configuration()
            readOnly.readonly = true
            readOnly.busyMode = .timeout(5)
            let reader = try DatabaseQueue(path: source, configuration: readOnly)
            let copy = try DatabaseQueue(path: temporary)
            try reader.backup(to: copy)
            try reader.close()
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            copied = try copy.read { db in
                try checkIntegrity(db, of: source)
                return Copied(bytes: 0, players: try count("player", in: db), games: try count("game", in: db))
            }
            try copy.close()
        } catch {
            throw failure(error, reading: source) { .cannotWrite(path: destination, reason: "\($0)") }
        }
        try flush(temporary)
        try beforeRename(temporary)
        guard rename(temporary, destination) == 0 else {
            throw Failure.cannotWrite(path: destination, reason: String(cString: strerror(errno)))
        }
        renamed = true
        try flush(folder.isEmpty ? "." : folder)
        var status = stat()
        _ = stat(destination, &status)
        return Copied(bytes: Int64(status.st_size), players: copied.players, games: copied.games)
    }

    /// Rows of a table, or 0 when a database predates it.
    private static func count(_ table: String, in db: Database) throws -> Int {
        guard try db.tableExists(table) else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }

    /// Flushes a file or a folder (the rename in it) to disk.
    private static func flush(_ path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw Failure.cannotWrite(path: path, reason: reason)
        }
        close(descriptor)
    }

    /// Refuses a destination that cannot take the copy: a folder, a missing folder, the source itself.
    /// The files kept beside a database: SQLite's write-ahead log and its shared-memory index, the rollback
    /// journal, and ``DatabaseLock``'s lock file.
    static let companionSuffixes = ["-wal", "-shm", "-journal", ".lock"]

    private static func checkDestination(_ destination: String, notTheSameAs source: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue {
            throw Failure.isFolder(destination)
        }
        let folder = (destination as NSString).deletingLastPathComponent
        if !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue
        {
            throw Failure.noFolder(path: destination, folder: folder)
        }
        let resolved = URL(fileURLWithPath: destination).resolvingSymlinksInPath().path
        let database = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
        if resolved == database { throw Failure.sameFile(destination) }
        if Self.companionSuffixes.contains(where: { resolved == database + $0 }) {
            throw Failure.companionFile(path: destination, database: source)
        }
    }

    /// Refuses a file that is not a Tessera database this version can open.
    private static func checkSchema(of backup: String) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        do {
            let reader = try DatabaseQueue(path: backup, configuration: readOnly)
            let migrator = SQLiteSchema.migrator
            let (applied, objects) = try reader.read { db in
                try checkIntegrity(db, of: backup)
                return (
                    try db.tableExists("grdb_migrations") ? try migrator.appliedIdentifiers(db) : [],
                    try schemaObjects(db)
                )
            }
            guard let first = migrator.migrations.first, applied.contains(first) else {
                throw Failure.notABackup(path: backup, reason: "it has none of Tessera's tables")
            }
            guard applied.isSubset(of: Set(migrator.migrations)) else { throw Failure.newerSchema(path: backup) }
            // Only what Tessera's migrations create, exactly: a trigger or a view would run inside the bot.
            guard let last = migrator.migrations.last(where: applied.contains) else {
                throw Failure.notABackup(path: backup, reason: "it has none of Tessera's tables")
            }
            let fresh = try DatabaseQueue()
            try migrator.migrate(fresh, upTo: last)
            let expected = try fresh.read(schemaObjects)
            if let extra = objects.subtracting(expected).sorted(by: { $0.name < $1.name }).first {
                throw Failure.notABackup(
                    path: backup, reason: "its \(extra.type) \(extra.name) is not one Tessera's migrations create")
            }
            if let missing = expected.subtracting(objects).sorted(by: { $0.name < $1.name }).first {
                throw Failure.notABackup(
                    path: backup, reason: "its \(missing.type) \(missing.name) is missing or changed")
            }
        } catch {
            throw failure(error, reading: backup) { .notABackup(path: backup, reason: "\($0)") }
        }
    }

    /// A schema object as `sqlite_master` has it: what it is, its name, and the SQL that made it.
    private struct SchemaObject: Hashable {
        let type: String
        let name: String
        let sql: String?
    }

    /// Every schema object of a database but SQLite's statistics, which `PRAGMA optimize` may add to any.
    private static func schemaObjects(_ db: Database) throws -> Set<SchemaObject> {
        Set(
            try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name, sql FROM sqlite_master
                    WHERE NOT (type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat4'))
                    """
            ).map { SchemaObject(type: $0["type"], name: $0["name"], sql: $0["sql"]) })
    }

    /// Throws ``Failure/damaged`` unless `PRAGMA integrity_check` finds nothing wrong in the copy of `path`.
    private static func checkIntegrity(_ db: Database, of path: String) throws {
        let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard check == ["ok"] else { throw Failure.damaged(path: path, check: check.prefix(3).joined(separator: "; ")) }
    }

    /// What reading `path` failed with, as the person at the terminal should hear it: a file that is not a
    /// database, a damaged one, or `otherwise`.
    private static func failure(_ error: any Error, reading path: String, otherwise: (any Error) -> Failure)
        -> Failure
    {
        switch error {
        case let failure as Failure: failure
        case let error as DatabaseError where error.resultCode == .SQLITE_NOTADB:
            .notABackup(path: path, reason: "not an SQLite database")
        case let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT:
            .damaged(path: path, check: error.message ?? "\(error.resultCode)")
        default: otherwise(error)
        }
    }
}
