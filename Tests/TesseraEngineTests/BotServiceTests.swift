import Foundation
import GRDB
import Logging
import Synchronization
import TesseraCore
import TesseraEngine
import Testing

@Suite("The bot service")
struct BotServiceTests {
    /// Hands out one batch, then long-polls until cancelled; each receive is recorded in the store's events.
    struct ScriptedTransport: ChatTransport {
        let name = "scripted"
        let batch: ReceivedBatch
        let store: RecordingStore

        func receive(after position: Int64?) async throws -> ReceivedBatch {
            store.record("receive(after: \(position.map(String.init) ?? "nil"))")
            if position == nil { return batch }
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
        var configuration = BotService<ContinuousClock>.Configuration()
        // Retries at once: the tests count attempts, not seconds.
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        return BotService(
            transport: ScriptedTransport(batch: batch, store: store), store: store,
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
}
