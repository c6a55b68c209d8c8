import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraEngine
import Testing

@Suite("The bot service")
struct BotServiceTests {
    /// Hands out its batches in turn, then long-polls until cancelled; each receive is recorded in the store's
    /// events.
    final class ScriptedTransport: ChatTransport {
        let name = "scripted"
        let batches: Mutex<[ReceivedBatch]>
        let store: RecordingStore

        init(batches: [ReceivedBatch], store: RecordingStore) {
            self.batches = Mutex(batches)
            self.store = store
        }

        convenience init(batch: ReceivedBatch, store: RecordingStore) {
            self.init(batches: [batch], store: store)
        }

        func receive(after position: Int64?) async throws -> ReceivedBatch {
            store.record("receive(after: \(position.map(String.init) ?? "nil"))")
            if let batch = batches.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return batch }
            try await Task.sleep(for: .seconds(600))
            throw CancellationError()
        }

        func send(_ message: OutgoingMessage) async throws {}
        func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool { false }
    }

    @Test("A batch is flushed to disk before the next poll acknowledges it")
    func flushBeforeAcknowledging() async throws {
        let store = try RecordingStore()
        let transport = ScriptedTransport(batch: ReceivedBatch(messages: [], nextPosition: 2), store: store)
        let engine = BotEngine(
            configuration: BotEngine.Configuration(),
            secret: try #require(ScheduleSecret("service test secret")),
            logger: Logger(label: "test")
        )
        let service = BotService(
            transport: transport, store: store, engine: engine, clock: ContinuousClock(), logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        let deadline = Date() + 10
        while !store.events.withLock({ $0.contains("receive(after: 2)") }) {
            guard Date() < deadline else {
                Issue.record("the service never polled again: \(store.events.withLock { $0 })")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        running.cancel()
        _ = await running.result  // ends with the cancellation it was asked for
        #expect(
            store.events.withLock { $0 }
                == ["receive(after: nil)", "processBatch(next: 2)", "flush", "receive(after: 2)"])
    }

    // MARK: - Failures are never silent

    func service(_ store: RecordingStore, batch: ReceivedBatch, logs: LogRecorder) throws -> BotService<ContinuousClock>
    {
        try service(store, batches: [batch], logs: logs)
    }

    func service(_ store: RecordingStore, batches: [ReceivedBatch], logs: LogRecorder) throws
        -> BotService<ContinuousClock>
    {
        var configuration = BotService<ContinuousClock>.Configuration()
        // Retries at once: the tests count attempts, not seconds.
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        return BotService(
            transport: ScriptedTransport(batches: batches, store: store), store: store,
            engine: BotEngine(
                configuration: BotEngine.Configuration(), secret: try #require(ScheduleSecret("service test secret")),
                logger: logs.logger()),
            configuration: configuration, clock: ContinuousClock(), logger: logs.logger())
    }

    static let help = ChatMessage(
        chat: ChatID(7), chatKind: .direct, sender: UserID(7), senderName: "Ann", text: "/help")

    @Test(
        "A storage failure that goes away is retried: the batch is stored once, one warning, and polling goes on",
        .timeLimit(.minutes(1)))
    func transientStorageFailure() async throws {
        let store = try RecordingStore()
        store.batchFailures.withLock {
            $0 = [DatabaseError(resultCode: .SQLITE_BUSY), DatabaseError(resultCode: .SQLITE_FULL)]
        }
        let logs = LogRecorder()
        let service = try service(store, batch: ReceivedBatch(messages: [Self.help], nextPosition: 2), logs: logs)
        let running = Task { try await service.run() }
        await store.waitFor("receive(after: 2)")
        running.cancel()
        _ = await running.result
        #expect(
            store.events.withLock { $0 }.filter { $0 != "markSent" } == [
                "receive(after: nil)", "processBatch failed", "processBatch failed", "processBatch(next: 2)", "flush",
                "receive(after: 2)",
            ])
        #expect(try await store.position(of: "scripted") == 2)
        let warnings = logs.lines(at: .warning).map(\.message)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Storage failed while storing a batch"), "\(warnings)")
        #expect(logs.lines(at: .notice).contains { $0.message == "Storage works again" })
        // The help reply was queued once: sent, or still waiting in the outbox.
        let sent = store.removals.withLock { $0.joined().count }
        let waiting = try await store.pendingMessages(limit: 10, now: Date()).count
        #expect(sent + waiting == 1)
    }

    @Test(
        "An unrecoverable storage failure ends every loop, loudly, and the service throws it", .timeLimit(.minutes(1)))
    func fatalStorageFailure() async throws {
        let store = try RecordingStore()
        store.batchFailures.withLock { $0 = [DatabaseError(resultCode: .SQLITE_CORRUPT)] }
        let logs = LogRecorder()
        let service = try service(store, batch: ReceivedBatch(messages: [Self.help], nextPosition: 2), logs: logs)
        // Before the fix the other loops kept running beside the dead receiver and run() never returned.
        await #expect(throws: DatabaseError.self) { try await service.run() }
        #expect(store.events.withLock { $0 } == ["receive(after: nil)", "processBatch failed"])
        #expect(try await store.position(of: "scripted") == nil)
        let critical = logs.lines(at: .critical).map(\.message)
        #expect(critical.count == 1 && critical[0].hasPrefix("Stopping:"), "\(critical)")
    }

    @Test("An update sent again, in the same batch or after it was applied, is applied once", .timeLimit(.minutes(1)))
    func duplicateUpdates() async throws {
        func help(chat: Int64, position: Int64) -> ChatMessage {
            ChatMessage(
                chat: ChatID(chat), chatKind: .direct, sender: UserID(chat), senderName: "P\(chat)", text: "/help",
                position: position)
        }
        let store = try RecordingStore()
        let logs = LogRecorder()
        let service = try service(
            store,
            batches: [
                ReceivedBatch(messages: [help(chat: 5, position: 5), help(chat: 5, position: 5)], nextPosition: 6),
                // 5 again, and 3, from before what was applied; only 6 is new. The platform's next goes backwards.
                ReceivedBatch(
                    messages: [help(chat: 5, position: 5), help(chat: 3, position: 3), help(chat: 6, position: 6)],
                    nextPosition: 4),
            ], logs: logs)
        let running = Task { try await service.run() }
        await store.waitFor("receive(after: 7)")
        running.cancel()
        _ = await running.result
        #expect(try await store.position(of: "scripted") == 7)
        // One reply to chat 5 and one to chat 6, none to chat 3: sent, or still waiting in the outbox.
        let waiting = try await store.pendingMessages(limit: 10, now: Date()).count
        let sent = store.removals.withLock { $0.joined().count }
        #expect(sent + waiting == 2)
        #expect(
            logs.lines(at: .notice).filter { $0.message == "Skipped an update that was applied already" }.count == 3)
    }

    /// Hands out one message, then long-polls; every send fails as a server in trouble would.
    final class FailingPlatform: ChatTransport {
        let name = "failing"
        let store: RecordingStore
        let handedOut = Mutex(false)

        init(store: RecordingStore) { self.store = store }

        func receive(after position: Int64?) async throws -> ReceivedBatch {
            if !handedOut.withLock({ $0 }) {
                handedOut.withLock { $0 = true }
                return ReceivedBatch(messages: [BotServiceTests.help], nextPosition: 2)
            }
            try await Task.sleep(for: .seconds(600))
            throw CancellationError()
        }

        func send(_ message: OutgoingMessage) async throws {
            store.record("send failed")
            throw TransportError.transient("sendMessage: 503 Service Unavailable")
        }

        func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool { false }
    }

    @Test(
        "Shutting down while the platform fails ends within the deadline; the reply stays queued",
        .timeLimit(.minutes(1)))
    func shutdownWhilePlatformFails() async throws {
        let store = try RecordingStore()
        let logs = LogRecorder()
        var configuration = BotService<ContinuousClock>.Configuration()
        // Without a deadline the sender would sit out this backoff.
        configuration.initialBackoff = .seconds(600)
        configuration.maximumBackoff = .seconds(600)
        configuration.shutdownDeadline = .milliseconds(100)
        let service = BotService(
            transport: FailingPlatform(store: store), store: store,
            engine: BotEngine(
                configuration: .init(), secret: try #require(ScheduleSecret("service test secret")),
                logger: logs.logger()),
            configuration: configuration, clock: ContinuousClock(), logger: logs.logger())
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: logs.logger()))
        let running = Task { try await group.run() }
        await store.waitFor("send failed")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(try await store.pendingMessages(limit: 10, now: Date()).count == 1)
        #expect(logs.lines(at: .warning).contains { $0.message.hasPrefix("Stopping before the work in hand was done") })
        #expect(logs.lines(at: .critical).isEmpty)
    }

    @Test("A heartbeat is written from the start and records the last successful poll", .timeLimit(.minutes(1)))
    func heartbeat() async throws {
        let store = try RecordingStore()
        var configuration = BotService<ContinuousClock>.Configuration()
        configuration.healthInterval = .milliseconds(10)
        let service = BotService(
            transport: ScriptedTransport(batch: ReceivedBatch(messages: [Self.help], nextPosition: 2), store: store),
            store: store,
            engine: BotEngine(
                configuration: .init(), secret: try #require(ScheduleSecret("service test secret")),
                logger: Logger(label: "test")),
            configuration: configuration, clock: ContinuousClock(), logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        await store.waitFor("receive(after: 2)")
        await store.waitFor("setSetting(\(Heartbeat.settingKey))")
        running.cancel()
        _ = await running.result
        let written = store.settingsWritten.withLock { $0 }.filter { $0.key == Heartbeat.settingKey }
        let first = try Heartbeat(decoding: try #require(written.first?.value))
        #expect(first.lastPoll == nil, "the first heartbeat is written before the first poll")
        let heartbeat = try Heartbeat(decoding: try #require(try await store.setting(Heartbeat.settingKey)))
        #expect(heartbeat.transport == "scripted")
        let poll = try #require(heartbeat.lastPoll)
        #expect(heartbeat.started <= poll && poll <= heartbeat.written)
    }

    /// Hands out its batch, then long-polls; sends to one chat always fail, the others work.
    final class OneChatFails: ChatTransport {
        let name = "one-chat-fails"
        let failing: ChatID
        let store: RecordingStore
        let batch: Mutex<ReceivedBatch?>
        let attempts = Mutex<[ChatID]>([])

        init(failing: ChatID, batch: ReceivedBatch, store: RecordingStore) {
            self.failing = failing
            self.batch = Mutex(batch)
            self.store = store
        }

        func receive(after position: Int64?) async throws -> ReceivedBatch {
            if let batch = batch.withLock({ batch in
                defer { batch = nil }
                return batch
            }) {
                return batch
            }
            try await Task.sleep(for: .seconds(600))
            throw CancellationError()
        }

        func send(_ message: OutgoingMessage) async throws {
            attempts.withLock { $0.append(message.chat) }
            if message.chat == failing { throw TransportError.transient("sendMessage: 500 Internal Server Error") }
        }

        func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool { false }
    }

    @Test(
        "A chat that keeps failing while others work waits on its own and is given up after its attempts",
        .timeLimit(.minutes(1)))
    func oneFailingChat() async throws {
        let store = try RecordingStore()
        let logs = LogRecorder()
        func help(_ chat: Int64) -> ChatMessage {
            ChatMessage(chat: ChatID(chat), chatKind: .direct, sender: UserID(chat), senderName: "P", text: "/help")
        }
        let transport = OneChatFails(
            failing: ChatID(7), batch: ReceivedBatch(messages: [help(7), help(8)], nextPosition: 2), store: store)
        var configuration = BotService<ContinuousClock>.Configuration()
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        configuration.maximumAttempts = 3
        configuration.rateLimits = .unlimited
        let service = BotService(
            transport: transport, store: store,
            engine: BotEngine(
                configuration: .init(), secret: try #require(ScheduleSecret("service test secret")),
                logger: logs.logger()),
            configuration: configuration, clock: ContinuousClock(), logger: logs.logger())
        let running = Task { try await service.run() }
        // Chat 8's reply is marked sent, and chat 7's is removed when given up.
        await store.waitFor("markSent")
        await store.waitFor("markSent")
        running.cancel()
        _ = await running.result
        let attempts = transport.attempts.withLock { $0 }
        #expect(attempts.filter { $0 == ChatID(8) }.count == 1)
        #expect(attempts.filter { $0 == ChatID(7) }.count == 3)
        #expect(try await store.pendingMessages(limit: 10, now: Date()).isEmpty)
        let errors = logs.lines(at: .error).map(\.message)
        #expect(errors.count == 1 && errors[0].hasPrefix("Gave up a message after 3 failed attempts"), "\(errors)")
        #expect(logs.lines(at: .warning).isEmpty, "no global pause: sending works")
    }
}
