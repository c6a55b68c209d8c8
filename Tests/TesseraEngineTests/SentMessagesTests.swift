import Foundation
import Synchronization
import TesseraSQLite
import Testing

@testable import TesseraEngine

@Suite("Removing sent messages in group commits")
struct SentMessagesTests {
    /// An in-memory store that counts (and can fail) its removals.
    final class RemovalCountingStore: GameStore {
        let base: SQLiteGameStore
        let removals = Mutex<[[Int64]]>([])
        let failure = Mutex<(any Error)?>(nil)

        init() throws { base = try SQLiteGameStore.inMemory() }

        func markSent(_ ids: [Int64]) async throws {
            if let error = failure.withLock({ $0 }) { throw error }
            // Slow enough that other chats finish their sends meanwhile, as over a real network.
            try await Task.sleep(for: .milliseconds(20))
            try await base.markSent(ids)
            removals.withLock { $0.append(ids) }
        }

        func write<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) throws -> Result) async throws
            -> Result
        { try await base.write(body) }
        func position(of transport: String) async throws -> Int64? { try await base.position(of: transport) }
        func processBatch<Result: Sendable>(
            transport: String,
            nextPosition: Int64,
            _ body: @Sendable (any GameStoreTransaction) throws -> Result
        ) async throws -> Result { try await base.processBatch(transport: transport, nextPosition: nextPosition, body) }
        func flush() async throws { try await base.flush() }
        func pendingMessages(limit: Int, now: Date) async throws -> [OutboxEntry] {
            try await base.pendingMessages(limit: limit, now: now)
        }
        func postpone(_ id: Int64, until: Date) async throws { try await base.postpone(id, until: until) }
        func deactivateChat(_ chat: ChatID) async throws { try await base.deactivateChat(chat) }
        func setting(_ key: String) async throws -> String? { try await base.setting(key) }
        func setSetting(_ key: String, _ value: String) async throws { try await base.setSetting(key, value) }
    }

    func queue(_ count: Int, in store: RemovalCountingStore) async throws -> [Int64] {
        try await store.write { transaction in
            try transaction.enqueue((1...count).map { OutgoingMessage(chat: ChatID(Int64($0)), html: "reply \($0)") })
        }
        return try await store.pendingMessages(limit: count, now: Date()).map(\.id)
    }

    @Test("Concurrent removals share writes, and each caller returns only once its message is removed")
    func groupCommits() async throws {
        let store = try RemovalCountingStore()
        let ids = try await queue(16, in: store)
        let sent = SentMessages(store: store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask {
                    try await sent.markSent(id)
                    let removed = store.removals.withLock { $0.joined() }
                    #expect(removed.contains(id))
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.pendingMessages(limit: 100, now: Date()).isEmpty)
        let writes = store.removals.withLock { $0 }
        #expect(writes.joined().sorted() == ids.sorted())
        #expect(writes.count < ids.count, "every removal had its own write: \(writes)")
    }

    @Test("A failed write reaches every caller whose message it held, and nothing is lost")
    func failure() async throws {
        struct DiskFull: Error {}
        let store = try RemovalCountingStore()
        let ids = try await queue(8, in: store)
        store.failure.withLock { $0 = DiskFull() }
        let sent = SentMessages(store: store)
        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for id in ids {
                group.addTask {
                    do {
                        try await sent.markSent(id)
                        return false
                    } catch is DiskFull {
                        return true
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == ids.count)
        #expect(try await store.pendingMessages(limit: 100, now: Date()).count == ids.count)
    }
}
