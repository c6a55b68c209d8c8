import Foundation
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
}
