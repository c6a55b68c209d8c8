import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraSQLite

@Suite("The SQLite store")
struct SQLiteStoreTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(UUID().uuidString)/tessera.sqlite")
            .path
    }

    @Test("A file database commits durably: WAL with synchronous = FULL, even though the pool defaults to NORMAL")
    func durability() async throws {
        let path = temporaryPath()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        #expect(try await store.synchronousLevel() == 2)
        // Removing a sent message commits with NORMAL; FULL must be back for everything after it.
        try await store.write {
            try await $0.enqueue([OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "hi")])
        }
        let entry = try #require(try await store.pendingMessages(limit: 1, now: Date()).first)
        try await store.markSent([entry.id])
        #expect(try await store.synchronousLevel() == 2)
        #expect(try await store.pendingMessages(limit: 1, now: Date()).isEmpty)
        // So does a batch, which the caller flushes before acknowledging it.
        try await store.processBatch(transport: "test", from: nil, to: "5") { _ in }
        #expect(try await store.synchronousLevel() == 2)
        try await store.flush()
        #expect(try await store.position(of: "test") == "5")
        let journal = try await DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode")
        }
        #expect(journal == "wal")
    }

    // The limit only guards against a hang: in the whole suite, on two loaded cores, the checkpoints every 200 ms
    // wait their turn with everything else, and the test has taken 83 s of wall time.
    @Test("Checkpoints run in the background: commits leave the log to another connection", .timeLimit(.minutes(3)))
    func backgroundCheckpoints() async throws {
        let store = try SQLiteGameStore(path: temporaryPath(), logger: Logger(label: "test"))
        for index in 0..<50 {
            try await store.processBatch(
                transport: "test", from: index == 0 ? nil : String(index - 1), to: String(index)
            ) {
                transaction in
                try await transaction.enqueue([
                    OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: String(repeating: "x", count: 5000))
                ])
            }
        }
        // Far fewer pages than the writer's own threshold: only the background checkpoints copy these. One may
        // run between the commits (every 200 ms; a loaded machine is slower), and once it has copied the whole
        // log the writer starts the log over, so the log holds only the commits since: wait for a checkpoint
        // that finds it all copied. Bounded: waiting for a count the log never reaches hung CI.
        let copiedAll = { (progress: WriteAheadLog.Progress?) in
            progress.map { $0.logFrames > 0 && $0.copiedFrames == $0.logFrames } ?? false
        }
        #expect(!copiedAll(store.latestCheckpoint), "no checkpoint runs before the store's service does")
        var progress = store.latestCheckpoint
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.checkpoints.run() }
            var checkpoints = 0
            while !copiedAll(progress) && checkpoints < 100 {
                let next: WriteAheadLog.Progress = try #require(
                    await store.nextCheckpoint(), "the store has no write-ahead log")
                progress = next
                checkpoints += 1
            }
            group.cancelAll()
        }
        #expect(copiedAll(progress), "\(String(describing: progress))")
    }

    @Test("A file that is not a database gets a clear error and is left as it was")
    func notADatabase() throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        } throws: { error in
            "\(error)".hasPrefix("Cannot use the database at \(path):")
                && "\(error)".contains("restore it from a backup")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test("A chat's live message is the last one posted: a new key (a new game's board) replaces the old one")
    func liveMessages() async throws {
        let store = try SQLiteGameStore.inMemory()
        let board = { @Sendable (key: String) in
            OutgoingMessage(chat: ChatID(3), chatKind: .direct, html: key, live: key)
        }
        try await store.write { try await $0.enqueue([board("board:en:1")]) }
        let first = try await store.pendingMessages(limit: 10, now: Date())
        #expect(first.map(\.livePost) == [nil], "nothing posted yet")
        try await store.markSent(
            first.map(\.id), posted: [.init(chat: ChatID(3), key: "board:en:1", messageID: MessageID(10))])
        try await store.write { try await $0.enqueue([board("board:en:1")]) }
        let second = try await store.pendingMessages(limit: 10, now: Date())
        #expect(second.map(\.livePost) == [MessageID(10)], "the next version edits message 10")
        try await store.markSent(
            second.map(\.id), posted: [.init(chat: ChatID(3), key: "board:en:2", messageID: MessageID(20))])
        try await store.write { try await $0.enqueue([board("board:en:1"), board("board:en:2")]) }
        let third = try await store.pendingMessages(limit: 10, now: Date())
        #expect(third.map(\.livePost) == [nil, MessageID(20)], "yesterday's board is no longer the live one")
    }

    @Test("Whether a chat is a group travels with each queued message, whatever its id looks like")
    func chatKindTravels() async throws {
        let store = try SQLiteGameStore.inMemory()
        // A Matrix room's id is no negative number; a group is a group because the message says so.
        try await store.write { transaction in
            try await transaction.enqueue([
                OutgoingMessage(chat: ChatID(500), chatKind: .group, html: "to a group"),
                OutgoingMessage(chat: ChatID(-7), chatKind: .direct, html: "to a person"),
            ])
        }
        let pending = try await store.pendingMessages(limit: 10, now: Date())
        #expect(pending.map(\.message.chatKind) == [.group, .direct])
    }

    @Test("A reaction queued before actions existed is still sent as that reaction after the upgrade")
    func reactionsMigrate() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        let v10 = "v10: words revealed once every member's day is over; settings from the next day"
        try SQLiteSchema.migrator.migrate(queue, upTo: v10)
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, display_name, language, time_zone, rollover_hour, prefers_hard_mode)
                        VALUES (1, 'Alice', 'en', 'UTC', 0, 0);
                    INSERT INTO outbox (chat_id, html, reply_to, not_before, reaction) VALUES (-5, 'Joined', 9, 0, 'counted');
                    INSERT INTO outbox (chat_id, html, not_before) VALUES (-5, 'Hello', 0);
                    """)
        }
        try queue.close()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let pending = try await store.pendingMessages(limit: 10, now: Date())
        #expect(pending.map(\.message.action) == [.react(.counted), .post])
        #expect(pending.map(\.message.chatKind) == [.group, .group], "Telegram's groups have negative ids")
        #expect(pending.map(\.message.html) == ["Joined", "Hello"] && pending.first?.message.replyTo == MessageID(9))
        let alice = try await store.write { try await $0.player(UserID(.telegram, "1")) }
        #expect(alice?.displayName == "Alice" && alice?.reminders == false && alice?.remindedPuzzle == nil)
    }

    @Test("Practice games stored before v18 keep taking words: their players' flag is set, and they await no analysis")
    func practiceFlagMigrates() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(queue, upTo: "v17: practice and archive games, apart from the daily games")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, platform, account, display_name, language, time_zone, rollover_hour,
                        prefers_hard_mode) VALUES (1, 'telegram', 1, 'Alice', 'en', 'UTC', 0, 0);
                    INSERT INTO player (id, platform, account, display_name, language, time_zone, rollover_hour,
                        prefers_hard_mode) VALUES (2, 'telegram', 2, 'Bob', 'en', 'UTC', 0, 0);
                    INSERT INTO practice_game (player_id, number, language, answer, hard_mode, guesses, started_at,
                        has_focus) VALUES (1, 1, 'en', 'cigar', 0, 'crane', 1795262400, 1);
                    """)
        }
        try queue.close()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let (alice, bob, waiting) = try await store.write { transaction in
            (
                try await transaction.player(UserID(.telegram, "1")),
                try await transaction.player(UserID(.telegram, "2")),
                try await transaction.pendingPracticeAnalyses(on: nil, limit: 10)
            )
        }
        #expect(alice?.practiceInPlay == true && bob?.practiceInPlay == false)
        #expect(waiting.isEmpty)
    }

    @Test("Boards kept before the official board existed are the group's own board after the upgrade")
    func boardsMigrate() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(queue, upTo: "v3: group settings and boards")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player VALUES (1, 'Alice', 'en', 'UTC', 0, NULL, NULL, 0);
                    INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (-5, 1, 300);
                    INSERT INTO board_result VALUES (-5, 325, 1, 'en', 3, 0, 1795262400, 0);
                    INSERT INTO board_total VALUES (-5, 'all', 1, 4, 1, 1, 3, 1, 325);
                    """)
        }
        try queue.close()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let (own, official, results) = try await store.write { transaction in
            await (
                try transaction.standing(of: UserID(.telegram, "1"), in: ChatID(.telegram, "-5"), board: .tessera),
                try transaction.standing(of: UserID(.telegram, "1"), in: ChatID(.telegram, "-5"), board: .official),
                try transaction.results(in: ChatID(.telegram, "-5"), board: .tessera, puzzle: PuzzleNumber(325))
            )
        }
        #expect(own?.points == 4 && own?.streak == 1 && own?.joinedPuzzle == PuzzleNumber(300))
        #expect(official == nil)
        #expect(results.map(\.result.guesses) == [3])
    }

    @Test("A database of Telegram's integer ids keeps everything when ids become platform-qualified (v12)")
    func platformIDsMigrate() async throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(
            queue, upTo: "v11: live boards, reactions and deletions as actions, reminders")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, display_name, language, time_zone, rollover_hour, prefers_hard_mode,
                        reminders, direct_chat_id) VALUES (7001, 'Alice', 'en', 'UTC', 0, 0, 1, 7001);
                    INSERT INTO player (id, display_name, language, time_zone, rollover_hour, prefers_hard_mode,
                        direct_chat_id) VALUES (7002, 'Bob', 'es', 'Europe/Madrid', 6, 1, 7002);
                    INSERT INTO game (player_id, language, puzzle, hard_mode, guesses, won_in, lost, finished_at)
                        VALUES (7001, 'en', 325, 0, 'crane slate', 2, 0, 1795262400);
                    INSERT INTO chat_group (id, time_zone, rollover_hour, language, hard_mode_required,
                        summary_enabled, summary_hour, topic, last_closed_puzzle, last_revealed_puzzle)
                        VALUES (-1005, 'UTC', 0, 'en', 0, 1, NULL, 42, 324, 324);
                    INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (-1005, 7001, 300);
                    INSERT INTO chat_member (chat_id, player_id, joined_puzzle) VALUES (-1005, 7002, 310);
                    INSERT INTO board_result VALUES (-1005, 'tessera', 325, 7001, 'en', 2, 0, 1795262400, 0);
                    INSERT INTO board_total VALUES (-1005, 'tessera', 'all', 7001, 5, 1, 1, 2, 1, 325);
                    INSERT INTO chat (id, active) VALUES (-2009, 0);
                    INSERT INTO transport_position (transport, next) VALUES ('telegram', 123456790);
                    INSERT INTO live_message (chat_id, key, message_id) VALUES (7001, 'board:en:325', 88);
                    INSERT INTO outbox (chat_id, chat_kind, html, reply_to, thread, not_before, live)
                        VALUES (-1005, 'group', 'Queued', 17, 42, 0, NULL);
                    INSERT INTO outbox (chat_id, chat_kind, html, not_before, live)
                        VALUES (7001, 'direct', 'Board', 0, 'board:en:325');
                    """)
        }
        try queue.close()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        let (alice, bob, aliceID, group) = (
            UserID(.telegram, "7001"), UserID(.telegram, "7002"), ChatID(.telegram, "7001"), ChatID(.telegram, "-1005")
        )
        #expect(try await store.position(of: "telegram") == "123456790")
        let pending = try await store.pendingMessages(limit: 10, now: Date())
        #expect(pending.map(\.message.chat) == [group, aliceID])
        #expect(pending.first?.message.replyTo == MessageID(17) && pending.first?.message.thread == MessageID(42))
        #expect(pending.last?.livePost == MessageID(88), "the live board is still edited in place")
        #expect(try await store.isChatActive(ChatID(.telegram, "-2009")) == false)
        let (players, game, stored, standings, results) = try await store.write { transaction in
            await (
                [try transaction.player(alice), try transaction.player(bob)],
                try transaction.game(of: alice, language: .english, puzzle: PuzzleNumber(325)),
                try transaction.group(group),
                try transaction.standings(in: group, board: .tessera, period: .all),
                try transaction.results(in: group, board: .tessera, puzzle: PuzzleNumber(325))
            )
        }
        #expect(players.map { $0?.displayName } == ["Alice", "Bob"])
        #expect(players[0]?.directChat == aliceID && players[0]?.reminders == true)
        #expect(players[1]?.timeZone == "Europe/Madrid" && players[1]?.prefersHardMode == true)
        #expect(game?.guesses == ["crane", "slate"] && game?.result == .won(guesses: 2))
        #expect(
            stored?.chat == group && stored?.topic == MessageID(42) && stored?.lastClosedPuzzle == PuzzleNumber(324))
        #expect(standings.map(\.player) == [alice, bob] && standings.map(\.points) == [5, 0])
        #expect(results.map(\.result.player) == [alice] && results.map(\.name) == ["Alice"])
        // Another platform's players and rooms join beside them, with ids of their own.
        let carol = UserID(.matrix, "@carol:example.org")
        let room = ChatID(.matrix, "!room:example.org")
        let boards = try await store.write { transaction in
            try await transaction.save(
                Player(id: carol, displayName: "Carol", language: .english, timeZone: "UTC", rolloverHour: 0))
            _ = try await transaction.addMember(carol, to: room, joinedPuzzle: PuzzleNumber(325))
            return await (
                try transaction.standings(in: room, board: .tessera, period: .all).map(\.player),
                try await transaction.standings(in: group, board: .tessera, period: .all).map(\.player),
                try await transaction.player(carol)?.displayName
            )
        }
        #expect(boards.0 == [carol] && boards.1 == [alice, bob] && boards.2 == "Carol")
        // A group's members are people of its platform.
        await #expect(throws: StoreMisuse.self) {
            try await store.write { _ = try await $0.addMember(carol, to: group, joinedPuzzle: PuzzleNumber(325)) }
        }
    }

    @Test("A database from a newer Tessera is refused, not changed")
    func newerSchema() throws {
        let path = temporaryPath()
        _ = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect {
            _ = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        } throws: { error in
            "\(error)"
                == "The database at \(path) was written by a newer Tessera (schema changes v99: from the future). "
                + "Upgrade tessera; this version will not touch it."
        }
    }

    @Test("A batch stores its effects and the transport position together, or neither")
    func batchesAreAtomic() async throws {
        let store = try SQLiteGameStore.inMemory()
        struct Interrupted: Error {}
        await #expect(throws: Interrupted.self) {
            try await store.processBatch(transport: "telegram", from: nil, to: "42") { transaction in
                try await transaction.enqueue([OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "lost")])
                throw Interrupted()
            }
        }
        #expect(try await store.position(of: "telegram") == nil)
        #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).isEmpty)

        try await store.processBatch(transport: "telegram", from: nil, to: "43") { transaction in
            try await transaction.enqueue([
                OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "kept", replyTo: MessageID(5))
            ])
        }
        #expect(try await store.position(of: "telegram") == "43")
        let pending = try await store.pendingMessages(limit: 10, now: Date())
        #expect(
            pending.map(\.message) == [
                OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "kept", replyTo: MessageID(5))
            ])
    }

    @Test("A batch from a position that is no longer stored was applied already: nothing runs, nothing moves")
    func batchesApplyOnce() async throws {
        let store = try SQLiteGameStore.inMemory()
        let first = try await store.processBatch(transport: "matrix", from: nil, to: "s72_5") { transaction in
            try await transaction.enqueue([OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "once")])
            return "applied"
        }
        #expect(first == "applied")
        // The same batch again (an earlier try that committed after all, or a second process): skipped.
        let again = try await store.processBatch(transport: "matrix", from: nil, to: "s72_5") { transaction in
            try await transaction.enqueue([OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "twice")])
            return "applied"
        }
        #expect(again == nil)
        let stale = try await store.processBatch(transport: "matrix", from: "s70_1", to: "s80_9") { _ in "applied" }
        #expect(stale == nil)
        #expect(try await store.position(of: "matrix") == "s72_5")
        // Positions are per transport, and opaque: any text the platform gave.
        let next = try await store.processBatch(transport: "matrix", from: "s72_5", to: "s80_9") { _ in "applied" }
        #expect(next == "applied")
        #expect(try await store.position(of: "matrix") == "s80_9")
        #expect(try await store.position(of: "telegram") == nil)
        #expect(try await store.pendingMessages(limit: 10, now: Date()).map(\.message.html) == ["once"])
    }

    @Test("A postponed message waits until its time, then is sent once")
    func postpone() async throws {
        let store = try SQLiteGameStore.inMemory()
        try await store.write {
            try await $0.enqueue([OutgoingMessage(chat: ChatID(9), chatKind: .direct, html: "later")])
        }
        let now = Date()
        let entry = try #require(try await store.pendingMessages(limit: 1, now: now).first)
        try await store.postpone(entry.id, until: now + 30)
        #expect(try await store.pendingMessages(limit: 1, now: now + 29).isEmpty)
        #expect(try await store.pendingMessages(limit: 1, now: now + 30).map(\.id) == [entry.id])
        try await store.markSent([entry.id])
        #expect(try await store.pendingMessages(limit: 1, now: now + 60).isEmpty)
    }

    @Test("Settings survive reopening")
    func settings() async throws {
        let path = temporaryPath()
        try await SQLiteGameStore(path: path, logger: Logger(label: "test")).setSetting("schedule.secret", "s3cret")
        #expect(
            try await SQLiteGameStore(path: path, logger: Logger(label: "test")).setting("schedule.secret") == "s3cret")
    }

    @Test("Background checkpoints that fail for as long as a disk stays full warn once, and say when they work again")
    func checkpointFailuresOncePerEpisode() {
        let logs = LogRecorder()
        let logger = logs.logger(level: .info)
        var episode = FailureEpisode(activity: "Background checkpoints")
        for _ in 0..<100 { episode.failed(DatabaseError(resultCode: .SQLITE_FULL), logger: logger) }
        episode.succeeded(logger: logger)
        episode.succeeded(logger: logger)
        episode.failed(DatabaseError(resultCode: .SQLITE_FULL), logger: logger)
        let lines = logs.lines
        #expect(lines.map(\.level) == [.warning, .notice, .warning])
        #expect(lines.first?.message.hasPrefix("Background checkpoints failed; retrying until they work.") == true)
        #expect(lines[1].message == "Background checkpoints work again" && lines[1].metadata == "failures=100")
    }

    @Test("A database that cannot be opened gets advice for its cause: a backup only for a damaged file")
    func openingAdvice() {
        let readOnly = SQLiteStoreError.cannotOpen(
            path: "/srv/t.sqlite", underlying: DatabaseError(resultCode: .SQLITE_READONLY))
        #expect(readOnly.description.contains("read-only file system") && !readOnly.description.contains("backup"))
        let denied = SQLiteStoreError.cannotOpen(path: "/srv/t.sqlite", underlying: POSIXError(.EROFS))
        #expect(denied.description.contains("read-only file system"))
        let damaged = SQLiteStoreError.cannotOpen(
            path: "/srv/t.sqlite", underlying: DatabaseError(resultCode: .SQLITE_NOTADB))
        #expect(damaged.description.contains("restore it from a backup"))
        let full = SQLiteStoreError.cannotOpen(
            path: "/srv/t.sqlite", underlying: DatabaseError(resultCode: .SQLITE_FULL))
        #expect(full.description.contains("The disk is full") && !full.description.contains("backup"))
    }

    @Test("Busy, locked, full and I/O failures are transient; a damaged or newer database is not")
    func transientFailures() throws {
        let store = try SQLiteGameStore.inMemory()
        for code in [ResultCode.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_IOERR_WRITE] {
            #expect(store.isTransient(DatabaseError(resultCode: code)), "\(code)")
        }
        for code in [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_READONLY, .SQLITE_CONSTRAINT] {
            #expect(!store.isTransient(DatabaseError(resultCode: code)), "\(code)")
        }
        #expect(!store.isTransient(SQLiteStoreError.newerSchema(path: "x", unknownMigrations: ["v99"])))
        #expect(!store.isTransient(CancellationError()))
    }

    @Test("A new database, its write-ahead log and its folders are readable by the owner only")
    func ownerOnly() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-\(UUID().uuidString)")
        let path = root.appendingPathComponent("state/tessera/t.sqlite").path
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        try await store.setSetting("written", "yes")
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(root.appendingPathComponent("state").path) == 0o700)
        #expect(try mode(root.appendingPathComponent("state/tessera").path) == 0o700)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try mode(file) == 0o600, "\(file)")
        }
    }

    @Test("One lock per database: a second is refused, naming the holder; released, it can be taken again")
    func oneLockPerDatabase() throws {
        let path = temporaryPath()
        var first: DatabaseLock? = try DatabaseLock(databasePath: path)
        let refusal = #expect(throws: SQLiteStoreError.self) { try DatabaseLock(databasePath: path) }
        let message = refusal.map(String.init(describing:)) ?? ""
        #expect(message.contains("in use by another tessera (pid \(getpid()) on "), "\(message)")
        withExtendedLifetime(first) {}
        first = nil
        #expect(throws: Never.self) { try DatabaseLock(databasePath: path) }
    }

    @Test("A lock let go can be taken again while other threads of the process are starting children")
    func lockWhileSpawning() throws {
        // Each child holds a copy of the lock's descriptor until it execs: without the grace, hundreds of
        // takes were refused in these hundred starts.
        final class Spawning: Sendable {
            let count = Atomic(0)
            let stop = Atomic(false)
        }
        let path = temporaryPath()
        let spawning = Spawning()
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread {
                while !spawning.stop.load(ordering: .relaxed) {
                    let child = Process()
                    child.executableURL = URL(fileURLWithPath: "/bin/true")
                    if (try? child.run()) != nil { child.waitUntilExit() }
                    spawning.count.add(1, ordering: .relaxed)
                }
                done.leave()
            }.start()
        }
        var refused = 0
        while spawning.count.load(ordering: .relaxed) < 100 {
            do { withExtendedLifetime(try DatabaseLock(databasePath: path)) {} } catch { refused += 1 }
        }
        spawning.stop.store(true, ordering: .relaxed)
        done.wait()
        #expect(refused == 0)
    }

    @Test("Replay guards are kept until their puzzle has closed, then dropped")
    func replayGuards() async throws {
        let store = try SQLiteGameStore.inMemory()
        try await store.write { transaction in
            try await transaction.guardReplay("k330", until: PuzzleNumber(330))
            try await transaction.guardReplay("k331", until: PuzzleNumber(331))
            try await transaction.guardReplay("k330", until: PuzzleNumber(330))
        }
        #expect(
            try await store.write { [try await $0.isReplayGuarded("k330"), try await $0.isReplayGuarded("k331")] }
                == [true, true])
        try await store.write { try await $0.removeReplayGuards(before: PuzzleNumber(330)) }
        #expect(try await store.write { try await $0.isReplayGuarded("k330") })
        try await store.write { try await $0.removeReplayGuards(before: PuzzleNumber(331)) }
        #expect(
            try await store.write { [try await $0.isReplayGuarded("k330"), try await $0.isReplayGuarded("k331")] }
                == [false, true])
    }

    @Test("A database file deleted or replaced under the store is noticed, and is not a passing failure")
    func fileIdentity() async throws {
        let path = temporaryPath()
        let store = try SQLiteGameStore(path: path, logger: Logger(label: "test"))
        try await store.verifyStorage()
        let moved = path + ".moved"
        try FileManager.default.moveItem(atPath: path, toPath: moved)
        await #expect(throws: SQLiteStoreError.self) { try await store.verifyStorage() }
        do {
            try await store.verifyStorage()
        } catch {
            #expect("\(error)".contains("was deleted while tessera ran"))
            #expect(!store.isTransient(error))
        }
        try Data("not the same file".utf8).write(to: URL(fileURLWithPath: path))
        do {
            try await store.verifyStorage()
            Issue.record("a replaced file went unnoticed")
        } catch {
            #expect("\(error)".contains("was replaced while tessera ran"))
        }
    }

    @Test("Reading the outbox takes a few of each chat's messages: a flooded chat hides no other")
    func outboxRoundRobin() async throws {
        let store = try SQLiteGameStore.inMemory()
        try await store.write { transaction in
            try await transaction.enqueue(
                (1...300).map { OutgoingMessage(chat: ChatID(-100), chatKind: .group, html: "flood \($0)") })
            try await transaction.enqueue([OutgoingMessage(chat: ChatID(7), chatKind: .direct, html: "hello")])
            try await transaction.enqueue(
                (1...2).map { OutgoingMessage(chat: ChatID(-100), chatKind: .group, html: "later \($0)") })
        }
        let pending = try await store.pendingMessages(limit: 200, now: Date())
        #expect(pending.map(\.message.html) == ["flood 1", "flood 2", "flood 3", "flood 4", "flood 5", "hello"])
    }

    @Test("A claimed message is not pending; unclaimed it is again; only claimed ones are dropped at start")
    func claims() async throws {
        let store = try SQLiteGameStore.inMemory()
        try await store.write { transaction in
            try await transaction.enqueue([
                OutgoingMessage(chat: ChatID(-1), chatKind: .group, html: "summary", atMostOnce: true),
                OutgoingMessage(chat: ChatID(2), chatKind: .direct, html: "reply"),
            ])
        }
        let pending = try await store.pendingMessages(limit: 10, now: Date())
        #expect(pending.map(\.message.atMostOnce) == [true, false])
        let summary = try #require(pending.first)
        try await store.claim(summary.id)
        #expect(try await store.pendingMessages(limit: 10, now: Date()).map(\.message.html) == ["reply"])
        try await store.unclaim(summary.id)
        #expect(try await store.pendingMessages(limit: 10, now: Date()).count == 2)
        try await store.claim(summary.id)
        #expect(try await store.dropClaimed(platform: .telegram) == 0, "another platform's claim is not touched")
        #expect(try await store.dropClaimed(platform: .scripted) == 1)
        #expect(try await store.pendingMessages(limit: 10, now: Date()).map(\.message.html) == ["reply"])
    }

    @Test("Each platform's sender reads only its own chats' messages, in the outbox's order")
    func outboxPerPlatform() async throws {
        let store = try SQLiteGameStore.inMemory()
        let telegram = ChatID(.telegram, "-100")
        let room = ChatID(.matrix, "!room:example.org")
        try await store.write { transaction in
            try await transaction.enqueue([
                OutgoingMessage(chat: telegram, chatKind: .group, html: "one"),
                OutgoingMessage(chat: room, chatKind: .group, html: "two"),
                OutgoingMessage(chat: telegram, chatKind: .group, html: "three"),
            ])
        }
        #expect(
            try await store.pendingMessages(limit: 10, now: Date(), platform: .telegram).map(\.message.html) == [
                "one", "three",
            ])
        #expect(
            try await store.pendingMessages(limit: 10, now: Date(), platform: .matrix).map(\.message.chat) == [room])
        #expect(try await store.pendingMessages(limit: 10, now: Date()).count == 3)
    }
}
