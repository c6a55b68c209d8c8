import Foundation
import Synchronization
import TesseraEngine
import TesseraSQLite

/// An in-memory store that records the calls that order matters for, and can fail or slow its removals.
final class RecordingStore: GameStore {
    let base: SQLiteGameStore
    /// processBatch, flush and markSent calls, in order.
    let events = Mutex<[String]>([])
    let removals = Mutex<[[Int64]]>([])
    let removalFailure = Mutex<(any Error)?>(nil)
    /// How long each removal takes, as over a real disk.
    let removalDelay: Duration

    /// Failures processBatch throws, first one first, before it stores anything (injected storage faults).
    let batchFailures = Mutex<[any Error]>([])
    /// Every setting written, in order.
    let settingsWritten = Mutex<[(key: String, value: String)]>([])
    /// The events as they happen, to wait for one without polling.
    let eventStream: AsyncStream<String>
    private let eventContinuation: AsyncStream<String>.Continuation

    init(removalDelay: Duration = .zero) throws {
        base = try SQLiteGameStore.inMemory()
        self.removalDelay = removalDelay
        (eventStream, eventContinuation) = AsyncStream.makeStream(of: String.self)
    }

    func record(_ event: String) {
        events.withLock { $0.append(event) }
        eventContinuation.yield(event)
    }

    /// Waits until an event has been recorded.
    func waitFor(_ event: String) async {
        for await recorded in eventStream where recorded == event { return }
    }

    func processBatch<Result: Sendable>(
        transport: String,
        nextPosition: Int64,
        _ body: @Sendable (any GameStoreTransaction) throws -> Result
    ) async throws -> Result {
        if let failure = batchFailures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            record("processBatch failed")
            throw failure
        }
        let result = try await base.processBatch(transport: transport, nextPosition: nextPosition, body)
        record("processBatch(next: \(nextPosition))")
        return result
    }

    func flush() async throws {
        try await base.flush()
        record("flush")
    }

    func markSent(_ ids: [Int64]) async throws {
        if let error = removalFailure.withLock({ $0 }) { throw error }
        try await Task.sleep(for: removalDelay)
        try await base.markSent(ids)
        removals.withLock { $0.append(ids) }
        record("markSent")
    }

    func write<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) throws -> Result) async throws
        -> Result
    { try await base.write(body) }
    func position(of transport: String) async throws -> Int64? { try await base.position(of: transport) }
    func pendingMessages(limit: Int, now: Date) async throws -> [OutboxEntry] {
        try await base.pendingMessages(limit: limit, now: now)
    }
    func postpone(_ id: Int64, until: Date) async throws { try await base.postpone(id, until: until) }
    func recordFailedAttempt(_ id: Int64, retryAt: Date) async throws -> Int {
        try await base.recordFailedAttempt(id, retryAt: retryAt)
    }
    func deactivateChat(_ chat: ChatID) async throws { try await base.deactivateChat(chat) }
    func setting(_ key: String) async throws -> String? { try await base.setting(key) }
    func setSetting(_ key: String, _ value: String) async throws {
        try await base.setSetting(key, value)
        settingsWritten.withLock { $0.append((key, value)) }
        // Waiters hear of it; `events` keeps only the calls whose order the tests check.
        eventContinuation.yield("setSetting(\(key))")
    }
    func isTransient(_ error: any Error) -> Bool { base.isTransient(error) }
    func verifyStorage() async throws { try await base.verifyStorage() }
}
