public import Foundation
import Synchronization
public import TesseraEngine

/// A store that wraps another and fails on demand: a disk that fills, a database another process locks.
/// It records the calls whose order matters, so tests can check (and await) that a batch is flushed before
/// the next poll, or that a failed batch was stored once when retried.
public final class FaultyStore: GameStore {
    /// The calls a failure or a gate can be injected into.
    public enum Operation: Sendable, Hashable {
        case processBatch, flush, write, read, markSent, setSetting, verifyStorage
    }

    /// A failure to inject that any store would classify alike: one that may go away by itself (a busy or
    /// full database), or one that stops the bot (a damaged one).
    public enum InjectedFailure: Error, Sendable, Hashable {
        case transient
        case fatal
    }

    public let base: any GameStore
    /// `processBatch(next: 2)`, `processBatch failed`, `flush`, `write`, `markSent`, `setSetting(key)`,
    /// `postpone`, `deactivateChat(7)`, `hold(12)`, `hold(12) refused`, in order.
    public let events = EventLog()
    private struct State {
        var failures: [(operation: Operation, error: any Error, remaining: Int)] = []
        var closed: Set<Operation> = []
        var held: [CheckedContinuation<Void, Never>] = []
        var removals: [[Int64]] = []
        var settingsWritten: [(key: String, value: String)] = []
        /// Messages another sender takes when this one holds them; then they and their chats are its.
        var takenOnHold: Set<Int64> = []
        var chatsTaken: Set<ChatID> = []
    }
    private let state = Mutex(State())

    public init(_ base: any GameStore) {
        self.base = base
    }

    /// Makes the next `times` calls of `operation` throw `error` before they touch the store.
    public func fail(_ operation: Operation, with error: any Error, times: Int = 1) {
        state.withLock { $0.failures.append((operation, error, times)) }
    }

    /// Holds every call of `operation` at a gate until ``open(_:)``, as a disk that stalls: each call held
    /// records `markSent held` (for `.markSent`) once it waits, so a test knows what is in flight.
    public func close(_ operation: Operation) {
        state.withLock { _ = $0.closed.insert(operation) }
    }

    /// Lets the calls held at `operation`'s gate go on, and those to come pass.
    public func open(_ operation: Operation) {
        let held = state.withLock { state in
            state.closed.remove(operation)
            defer { state.held = [] }
            return state.held
        }
        for call in held { call.resume() }
    }

    /// Makes another sender take this message when this one tries to hold it for sending (its lease having run
    /// out, on a store several processes send from): the hold is refused, and from then on the message's chat
    /// is the other sender's, missing from what this one reads.
    public func takeOnHold(_ id: Int64) {
        state.withLock { _ = $0.takenOnHold.insert(id) }
    }

    /// The ids of each removal from the outbox, one list per write.
    public var removals: [[Int64]] { state.withLock { $0.removals } }
    /// Every setting written, in order.
    public var settingsWritten: [(key: String, value: String)] { state.withLock { $0.settingsWritten } }

    private func enter(_ operation: Operation) async throws {
        await passGate(operation)
        let failure = state.withLock { state -> (any Error)? in
            guard let index = state.failures.firstIndex(where: { $0.operation == operation && $0.remaining > 0 })
            else { return nil }
            state.failures[index].remaining -= 1
            return state.failures[index].error
        }
        if let failure { throw failure }
    }

    /// Waits while `operation`'s gate is closed (one gate at a time is closed in any test).
    private func passGate(_ operation: Operation) async {
        guard state.withLock({ $0.closed.contains(operation) }) else { return }
        await withCheckedContinuation { call in
            let passes = state.withLock { state in
                guard state.closed.contains(operation) else { return true }
                state.held.append(call)
                return false
            }
            if passes { return call.resume() }
            events.record("\(operation) held")
        }
    }

    // MARK: - GameStore

    public func processBatch<Result: Sendable>(
        transport: String,
        from position: String?,
        to nextPosition: String,
        loading needs: BatchNeeds,
        _ body: @Sendable (any GameStoreTransaction, BatchValues) async throws -> (Result, BatchChanges)
    ) async throws -> Result? {
        do {
            try await enter(.processBatch)
        } catch {
            events.record("processBatch failed")
            throw error
        }
        let result = try await base.processBatch(
            transport: transport, from: position, to: nextPosition, loading: needs, body)
        events.record(result == nil ? "processBatch(skipped)" : "processBatch(next: \(nextPosition))")
        return result
    }

    public func flush() async throws {
        try await enter(.flush)
        try await base.flush()
        events.record("flush")
    }

    public func markSent(_ ids: [Int64], posted: [PostedLiveMessage]) async throws {
        try await enter(.markSent)
        try await base.markSent(ids, posted: posted)
        state.withLock { $0.removals.append(ids) }
        events.record("markSent")
    }

    public func write<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) async throws -> Result)
        async throws
        -> Result
    {
        try await enter(.write)
        let result = try await base.write(body)
        events.record("write")
        return result
    }

    public func read<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) async throws -> Result)
        async throws -> Result
    {
        try await enter(.read)
        let result = try await base.read(body)
        events.record("read")
        return result
    }

    public func setSetting(_ key: String, _ value: String) async throws {
        try await enter(.setSetting)
        try await base.setSetting(key, value)
        state.withLock { $0.settingsWritten.append((key, value)) }
        events.record("setSetting(\(key))")
    }

    public func verifyStorage() async throws {
        try await enter(.verifyStorage)
        try await base.verifyStorage()
    }

    public func position(of transport: String) async throws -> String? { try await base.position(of: transport) }
    public func pendingMessages(limit: Int, now: Date, platform: Platform?) async throws -> [OutboxEntry] {
        let taken = state.withLock { $0.chatsTaken }
        return try await base.pendingMessages(limit: limit, now: now, platform: platform).filter {
            !taken.contains($0.message.chat)
        }
    }
    public func hold(_ ids: [Int64], for duration: Duration) async throws -> Set<Int64> {
        let taken = state.withLock { $0.takenOnHold }
        if !taken.isDisjoint(with: ids) {
            let chats = try await base.pendingMessages(limit: 1_000, now: .distantFuture, platform: nil)
                .filter { taken.contains($0.id) }.map(\.message.chat)
            state.withLock { $0.chatsTaken.formUnion(chats) }
        }
        var held = try await base.hold(ids.filter { !taken.contains($0) }, for: duration)
        held.subtract(taken)
        for id in ids { events.record(held.contains(id) ? "hold(\(id))" : "hold(\(id)) refused") }
        return held
    }
    public func claim(_ id: Int64) async throws {
        try await base.claim(id)
        events.record("claim")
    }
    public func unclaim(_ id: Int64) async throws { try await base.unclaim(id) }
    public func dropClaimed(platform: Platform) async throws -> Int { try await base.dropClaimed(platform: platform) }
    public func outboxSize(platform: Platform) async throws -> Int { try await base.outboxSize(platform: platform) }
    public func recordFailedAttempt(_ id: Int64) async throws -> Int {
        try await base.recordFailedAttempt(id)
    }
    public func postpone(_ id: Int64, until: Date) async throws {
        try await base.postpone(id, until: until)
        events.record("postpone")
    }
    public func deactivateChat(_ chat: ChatID) async throws {
        try await base.deactivateChat(chat)
        events.record("deactivateChat(\(chat.value))")
    }
    public func setting(_ key: String) async throws -> String? { try await base.setting(key) }
    public func setting(_ key: String, keepingIfAbsent value: String) async throws -> String {
        try await base.setting(key, keepingIfAbsent: value)
    }
    public func isTransient(_ error: any Error) -> Bool {
        if let failure = error as? InjectedFailure { return failure == .transient }
        return base.isTransient(error)
    }
}
