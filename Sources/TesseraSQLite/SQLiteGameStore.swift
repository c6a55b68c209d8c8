public import Foundation
import GRDB
public import Logging
public import ServiceLifecycle
import TesseraCore
public import TesseraEngine
import TesseraSQL

/// The embedded default store: SQLite through GRDB, in WAL mode with `synchronous = FULL`, so a committed
/// transaction survives a crash or power loss.
public final class SQLiteGameStore: GameStore {
    private let writer: any DatabaseWriter
    private let location: String
    private let writeAheadLog: WriteAheadLog?
    /// The device and inode of the database file as opened; nil in memory.
    private let fileIdentity: FileIdentity?
    /// Random, made with the database: it starts every outbox message's key, so a new database never reuses
    /// an old one's keys, which a platform deduplicating by key would take for messages it has seen.
    private let outboxKeyPrefix: String

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// Throws ``SQLiteStoreError`` with advice when the file is not a database, is damaged, or was written
    /// by a newer Tessera.
    public convenience init(path: String, logger: Logger) throws {
        let pool: DatabasePool
        let writeAheadLog: WriteAheadLog
        do {
            try Self.createOwnerOnly(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.writeWithoutTransaction { db in
                // DatabasePool sets synchronous = NORMAL on its writer when it enables WAL; durability needs
                // FULL, and it only sticks when set after opening.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // Checkpoints run in the background (WriteAheadLog); the writer's own is only a backstop.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.backstopCheckpointPages)")
            }
            writeAheadLog = try WriteAheadLog(
                databasePath: path, checkpointInterval: .milliseconds(200), logger: logger)
        } catch {
            throw SQLiteStoreError.cannotOpen(path: path, underlying: error)
        }
        try self.init(writer: pool, location: path, writeAheadLog: writeAheadLog)
        logger.info("Opened the database", metadata: ["database.path": "\(path)"])
        Self.warnIfReadableByOthers(path, logger: logger)
    }

    /// Reads settings (``setting(_:)``) from the database at `path` without changing it: opened read-only, never
    /// migrated, its journal mode left as it is (`tessera status`). A key the database lacks is left out.
    public static func readSettings(_ keys: [String], at path: String) throws -> [String: String] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            return try reader.read { db in
                guard try db.tableExists("setting") else {
                    throw SQLiteStoreError.cannotOpen(
                        path: path, underlying: DatabaseError(message: "it has no setting table"))
                }
                var found: [String: String] = [:]
                for key in keys {
                    found[key] = try String.fetchOne(
                        db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
                }
                return found
            }
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError.cannotOpen(path: path, underlying: error)
        }
    }

    /// Creates the database's folders (0700) and file (0600) readable by the owner only, before SQLite opens
    /// it: SQLite gives its `-wal` and `-shm` files the database file's mode.
    private static func createOwnerOnly(_ path: String) throws {
        close(try OwnerOnlyFile.open(path))
    }

    /// An existing database others can read is left as it is, with a warning: its owner may have a reason,
    /// such as a backup user.
    private static func warnIfReadableByOthers(_ path: String, logger: Logger) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return }
        logger.warning(
            "The database can be read by other users: it holds every player's games. Run chmod 600 on it.",
            metadata: ["database.path": "\(path)", "mode": "\(String(status.st_mode & 0o777, radix: 8))"])
    }

    /// A private in-memory database, for tests and trying things out.
    public static func inMemory() throws -> SQLiteGameStore {
        try SQLiteGameStore(writer: DatabaseQueue(), location: ":memory:", writeAheadLog: nil)
    }

    private init(writer: any DatabaseWriter, location: String, writeAheadLog: WriteAheadLog?) throws {
        self.writer = writer
        self.location = location
        self.writeAheadLog = writeAheadLog
        self.fileIdentity = writeAheadLog == nil ? nil : FileIdentity(path: location)
        try Self.migrate(writer, location: location)
        let prefix = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Self.outboxKeySetting])
        }
        guard let prefix else { throw SQLiteStoreError.damagedRow(table: "setting", column: Self.outboxKeySetting) }
        self.outboxKeyPrefix = prefix
    }

    static let outboxKeySetting = "outbox.key"

    /// Which file a path names: deleting or replacing it changes this.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    public func verifyStorage() async throws {
        guard let opened = fileIdentity else { return }
        switch FileIdentity(path: location) {
        case nil: throw SQLiteStoreError.fileGone(path: location)
        case let current? where current != opened: throw SQLiteStoreError.fileReplaced(path: location)
        default: return
        }
    }

    /// Log pages after which the writer checkpoints by itself, should the background checkpoints fall behind.
    static let backstopCheckpointPages = 4000

    /// Frames in the write-ahead log and how many of them the latest background checkpoint copied to the
    /// database file (nil for an in-memory store).
    var latestCheckpoint: WriteAheadLog.Progress? { writeAheadLog?.latestCheckpoint }
    /// The next background checkpoint's outcome; nil for a store without a log of its own (in memory).
    func nextCheckpoint() async -> WriteAheadLog.Progress? { await writeAheadLog?.nextCheckpoint() }

    /// The store's own maintenance, to run beside the bot in its service group: the background checkpoints of
    /// the write-ahead log, every 200 ms, until a graceful shutdown (none for a store in memory).
    public var checkpoints: some Service { Checkpoints(writeAheadLog: writeAheadLog) }

    private struct Checkpoints: Service, CustomStringConvertible {
        let writeAheadLog: WriteAheadLog?

        func run() async {
            guard let writeAheadLog else { return }
            // Cancelled by the shutdown, the loop just ends: nothing is lost, the writer's backstop remains.
            await cancelWhenGracefulShutdown { await writeAheadLog.runCheckpoints() }
        }

        var description: String { "SQLite checkpoints" }
    }

    /// The `PRAGMA synchronous` level of the connection that writes: 2 is FULL.
    public func synchronousLevel() async throws -> Int {
        try await writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    // MARK: - GameStore

    public func write<Result: Sendable>(
        _ body: @Sendable (any GameStoreTransaction) async throws -> Result
    ) async throws -> Result {
        try await transaction(waitingForDisk: true, body)
    }

    public func position(of transport: String) async throws -> String? {
        try await writer.read { db in try Self.position(of: transport, in: db) }
    }

    private static func position(of transport: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT next FROM transport_position WHERE transport = ?"), arguments: [transport])
    }

    /// Commits without waiting for the disk (`synchronous = NORMAL`: safe against a crash of the process, and
    /// consistent after a power cut), so replies can go out at once; the caller calls ``flush()`` before it
    /// acknowledges the batch to the platform.
    public func processBatch<Result: Sendable>(
        transport: String,
        from position: String?,
        to nextPosition: String,
        loading needs: BatchNeeds,
        _ body: @Sendable (any GameStoreTransaction, BatchValues) async throws -> (Result, BatchChanges)
    ) async throws -> Result? {
        try await transaction(waitingForDisk: false) { transaction in
            // Read in the transaction that moves it: whatever was applied already is never applied twice.
            guard try await transaction.run({ db in try Self.position(of: transport, in: db) }) == position else {
                return nil
            }
            let (result, changes) = try await body(transaction, try await transaction.load(needs))
            try await transaction.apply(changes)
            try await transaction.run { db in
                try db.executeCached(
                    sql: """
                        INSERT INTO transport_position (transport, next) VALUES (?, ?)
                        ON CONFLICT (transport) DO UPDATE SET next = excluded.next
                        """,
                    arguments: [transport, nextPosition]
                )
            }
            return result
        }
    }

    /// Runs `body` in one write transaction held open on the writer's queue (``OpenTransaction``). Without
    /// waiting for the disk, it commits with `synchronous = NORMAL` (safe against a crash of the process, and
    /// consistent after a power cut), so replies can go out at once; everything else commits with FULL.
    private func transaction<Result: Sendable>(
        waitingForDisk: Bool,
        _ body: @Sendable (OpenTransaction) async throws -> Result
    ) async throws -> Result {
        try await open(served: { try await self.serve($0, waitingForDisk: waitingForDisk) }, body)
    }

    /// Runs `body` on a transaction that `serve` holds open on a connection's queue until the body ends; it
    /// commits when the body succeeds and `serve` commits at all.
    private func open<Result: Sendable>(
        served serve: @escaping @Sendable (OpenTransaction) async throws -> Void,
        _ body: @Sendable (OpenTransaction) async throws -> Result
    ) async throws -> Result {
        let transaction = OpenTransaction()
        async let committed: Void = serve(transaction)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await withTaskExecutorPreference(transaction) { try await body(transaction) })
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success: transaction.finish(commit: true)
        case .failure: transaction.finish(commit: false)
        }
        // A failure to begin or commit is the one to report: the body's then only says it could not run.
        try await committed
        return try outcome.get()
    }

    public func read<Result: Sendable>(
        _ body: @Sendable (any GameStoreTransaction) async throws -> Result
    ) async throws -> Result {
        // A reader's snapshot (in WAL mode beside the writer; an in-memory queue takes its turn), served as the
        // writer's transactions are; a change in it fails, the connection being read-only.
        let writer = self.writer
        return try await open(
            served: { transaction in
                defer { transaction.close() }
                try await writer.read { db in _ = transaction.serve(db) }
            }, body)
    }

    /// Serves a transaction on the writer's queue until its body ends, then commits or rolls it back.
    private func serve(_ transaction: OpenTransaction, waitingForDisk: Bool) async throws {
        defer { transaction.close() }
        try await writer.writeWithoutTransaction { db in
            if !waitingForDisk { try db.executeCached(sql: "PRAGMA synchronous = NORMAL") }
            let outcome = Swift.Result { try db.inTransaction { transaction.serve(db) ? .commit : .rollback } }
            // Back to FULL before anything else commits on this connection, whatever the body did.
            if !waitingForDisk { try db.executeCached(sql: "PRAGMA synchronous = FULL") }
            try outcome.get()
        }
    }

    public func isTransient(_ error: any Error) -> Bool { Self.isTransient(error) }

    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode)
    }

    /// Committed with `synchronous = FULL`: the claim must survive whatever happens while sending.
    /// One process sends from an SQLite database (`tessera run` holds its lock): nobody else can take a message.
    public func hold(_ ids: [Int64], for duration: Duration) async throws -> Set<Int64> { Set(ids) }

    public func claim(_ id: Int64) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "UPDATE outbox SET claimed = 1 WHERE id = ?", arguments: [id])
        }
    }

    public func unclaim(_ id: Int64) async throws {
        try await writer.write { db in
            try db.executeCached(sql: "UPDATE outbox SET claimed = 0 WHERE id = ?", arguments: [id])
        }
    }

    public func dropClaimed(platform: Platform) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM outbox WHERE claimed = 1 AND platform = ?", arguments: [platform.rawValue])
            return db.changesCount
        }
    }

    public func outboxSize(platform: Platform) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox WHERE platform = ?"),
                arguments: [platform.rawValue]
            ) ?? 0
        }
    }

    public func recordFailedAttempt(_ id: Int64) async throws -> Int {
        try await writer.write { db in
            try Int.fetchOne(
                db, sql: "UPDATE outbox SET attempts = attempts + 1 WHERE id = ? RETURNING attempts", arguments: [id])
                ?? 0
        }
    }

    public func flush() async throws {
        guard let log = writeAheadLog else { return }
        try await log.flush()
    }

    public func pendingMessages(limit: Int, now: Date, platform: Platform?) async throws -> [OutboxEntry] {
        try await writer.read { db in
            // Each kind's scan (``OutboxEntry/Choice``) reads a covering index and stops once it has enough, so it
            // costs what it returns, not what the outbox holds; only the chosen rows are read whole.
            var chosen: [Int64] = []
            for kind in ChatMessage.ChatKind.allCases {
                let candidates = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT id, platform, address, not_before FROM outbox INDEXED BY outbox_in_order
                            WHERE claimed = 0 AND chat_kind = ?2 AND (?1 IS NULL OR platform = ?1)
                            ORDER BY id
                            """),
                    arguments: [platform?.rawValue, kind.rawValue])
                var choice = OutboxEntry.Choice(limit: limit, now: now)
                while !choice.isFull, let candidate = try candidates.next() {
                    guard let platform = Platform(rawValue: candidate[1]) else {
                        throw SQLiteStoreError.damagedRow(table: "outbox", column: "platform")
                    }
                    choice.offer(
                        candidate[0], chat: ChatID(platform, candidate[2]),
                        notBefore: candidate[3])
                }
                chosen += choice.chosen
            }
            guard !chosen.isEmpty else { return [] }
            let entries = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(SQLColumns.messageSelection), live_message.message_id AS live_post
                        FROM outbox LEFT JOIN live_message
                            ON live_message.platform = outbox.platform AND live_message.address = outbox.address
                            AND live_message.key = outbox.live
                        WHERE outbox.id IN (SELECT value FROM json_each(?))
                        """),
                arguments: ["[" + chosen.map(String.init).joined(separator: ",") + "]"]
            ).map { row in
                try SQLiteTransaction.checked("outbox") { try SQLRow(row).outboxEntry(keyPrefix: outboxKeyPrefix) }
            }
            return OutboxEntry.inSendingOrder(entries)
        }
    }

    /// Should a power cut undo the removal, those messages are sent once more, and nothing is lost.
    public func markSent(_ ids: [Int64], posted: [PostedLiveMessage]) async throws {
        guard !ids.isEmpty else { return }
        try await transaction(waitingForDisk: false) { transaction in
            try await transaction.run { db in try Self.markSent(ids, posted: posted, in: db) }
        }
    }

    private static func markSent(_ ids: [Int64], posted: [PostedLiveMessage], in db: Database) throws {
        for id in ids { try db.executeCached(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
        for live in posted {
            // One live message per chat: a new game's board replaces the last one's.
            try db.executeCached(
                sql: """
                    INSERT INTO live_message (platform, address, key, message_id) VALUES (?, ?, ?, ?)
                    ON CONFLICT (platform, address) DO UPDATE SET key = excluded.key,
                        message_id = excluded.message_id
                    """,
                arguments: [live.chat.platform.rawValue, live.chat.value, live.key, live.messageID.value])
        }
    }

    public func postpone(_ id: Int64, until: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET not_before = ? WHERE id = ?",
                arguments: [until.timeIntervalSince1970, id]
            )
        }
    }

    public func deactivateChat(_ chat: ChatID) async throws {
        try await writer.write { db in
            let arguments: StatementArguments = [chat.platform.rawValue, chat.value]
            try db.execute(
                sql: """
                    INSERT INTO chat (platform, address, active) VALUES (?, ?, 0)
                    ON CONFLICT (platform, address) DO UPDATE SET active = 0
                    """,
                arguments: arguments)
            try db.execute(sql: "DELETE FROM outbox WHERE platform = ? AND address = ?", arguments: arguments)
        }
    }

    /// Whether the bot may post in a chat (chats never marked inactive are active).
    public func isChatActive(_ chat: ChatID) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT active FROM chat WHERE platform = ? AND address = ?",
                arguments: [chat.platform.rawValue, chat.value]) ?? true
        }
    }

    public func setting(_ key: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
        }
    }

    public func setting(_ key: String, keepingIfAbsent value: String) async throws -> String {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                arguments: [key, value])
            return try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) ?? value
        }
    }

    public func setSetting(_ key: String, _ value: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [key, value]
            )
        }
    }

    // MARK: - Schema

    static func migrate(_ writer: any DatabaseWriter, location: String) throws {
        let migrator = SQLiteSchema.migrator
        do {
            let superseded = try writer.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                let known = Set(migrator.migrations)
                let applied = try writer.read { db in try migrator.appliedIdentifiers(db) }
                throw SQLiteStoreError.newerSchema(
                    path: location, unknownMigrations: applied.subtracting(known).sorted())
            }
            try migrator.migrate(writer)
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError.cannotOpen(path: location, underlying: error)
        }
    }
}

/// Why the database cannot be used, and what to do.
public enum SQLiteStoreError: Error, CustomStringConvertible {
    case cannotOpen(path: String, underlying: any Error)
    case newerSchema(path: String, unknownMigrations: [String])
    case damagedRow(table: String, column: String)
    case cannotFlush(path: String, errno: Int32)
    case inUse(path: String, holder: String)
    case fileGone(path: String)
    case fileReplaced(path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let underlying):
            "Cannot use the database at \(path): \(underlying). " + Self.advice(opening: underlying)
        case .newerSchema(let path, let migrations):
            "The database at \(path) was written by a newer Tessera (schema changes "
                + "\(migrations.joined(separator: ", "))). Upgrade tessera; this version will not touch it."
        case .damagedRow(let table, let column):
            "The database has a damaged row in \(table): \(column) is missing or of the wrong type. "
                + "Restore the database from a backup."
        case .inUse(let path, let holder):
            "The database at \(path) is in use by another tessera (\(holder)). Two bots on one database would "
                + "answer every message twice: stop the other one, or give this one its own database."
        case .fileGone(let path):
            "The database file \(path) was deleted while tessera ran; what it stored since is gone with it. "
                + "Stopping so that a restart opens the database again: restore it from a backup first, or let "
                + "tessera start an empty one."
        case .fileReplaced(let path):
            "The database file \(path) was replaced while tessera ran. Stopping so that a restart opens the new "
                + "file."
        case .cannotFlush(let path, let code) where code == EMFILE || code == ENFILE:
            "Cannot open \(path) to flush it: the process has run out of file descriptors "
                + "(\(String(cString: strerror(code)))), which is not a disk problem. Something holds too many "
                + "connections or files open: count them in /proc/PID/fd, and raise LimitNOFILE in the unit if the "
                + "load is real."
        case .cannotFlush(let path, let code):
            "Cannot flush \(path) to disk: \(String(cString: strerror(code))). Check the disk and that the "
                + "database's folder is writable."
        }
    }
}

extension SQLiteStoreError {
    /// What to do about a database that cannot be opened, by why: a backup helps only a damaged file.
    static func advice(opening underlying: any Error) -> String {
        let code = (underlying as? DatabaseError)?.resultCode
        let errno = (underlying as? POSIXError)?.code
        if [.SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH, .SQLITE_CANTOPEN].contains(code)
            || [.EROFS, .EACCES, .EPERM].contains(errno)
        {
            return "The file or its folder cannot be written (a read-only file system, or its owner and mode): "
                + "make them writable for the user tessera runs as, or set TESSERA_DATABASE to a path that is."
        }
        switch code {
        case .SQLITE_FULL?: return "The disk is full: free some space, then start tessera again."
        case .SQLITE_NOTADB?, .SQLITE_CORRUPT?:
            return "The file is damaged or not a Tessera database: restore it from a backup, or set "
                + "TESSERA_DATABASE to another path."
        default: return "Check the file and its folder, or set TESSERA_DATABASE to another path."
        }
    }
}

extension Row {
    /// A column's value, or an error naming it when it is NULL or not convertible (never a crash).
    func required<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        guard let value = Value.fromDatabaseValue(self[column] as DatabaseValue) else {
            throw SQLiteStoreError.damagedRow(table: table, column: column)
        }
        return value
    }
}
