import Foundation
import Synchronization
import TesseraEngine
import TesseraSQLite
import TesseraTesting
import Testing

@testable import TesseraRuntime

@Suite("Removing sent messages in group commits")
struct SentMessagesTests {
    func queue(_ count: Int, in store: FaultyStore) async throws -> [Int64] {
        try await store.write { transaction in
            try await transaction.enqueue(
                (1...count).map { OutgoingMessage(chat: ChatID(Int64($0)), chatKind: .direct, html: "reply \($0)") })
        }
        return try await store.pendingMessages(limit: count, now: Date()).map(\.id)
    }

    @Test(
        "Removals that arrive while one is written share the next write, and each caller returns once its message is removed",
        .timeLimit(.minutes(1)))
    func groupCommits() async throws {
        let store = FaultyStore(try SQLiteGameStore.inMemory())
        let ids = try await queue(16, in: store)
        let (first, others) = (ids[0], Array(ids.dropFirst()))
        let sent = SentMessages(store: store)
        // The first removal's write stalls at the gate while the other chats finish their sends.
        store.close(.markSent)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in [first] + others {
                group.addTask {
                    try await sent.markSent(id)
                    #expect(store.removals.joined().contains(id), "returned before its message was removed")
                }
                if id == first { try await store.events.wait(for: "markSent held") }
            }
            // The actor is the only witness that all fifteen are queued behind the write: ask it between turns.
            while await sent.waitingCallers < others.count { await Task.yield() }
            store.open(.markSent)
            try await group.waitForAll()
        }
        #expect(try await store.pendingMessages(limit: 100, now: Date()).isEmpty)
        let writes = store.removals
        #expect(writes.count == 2, "one write for the first, one for all that waited: \(writes)")
        #expect(writes.first == [first] && Set(writes.last ?? []) == Set(others))
    }

    @Test("A failed write reaches every caller whose message it held, and nothing is lost")
    func failure() async throws {
        struct DiskFull: Error {}
        let store = FaultyStore(try SQLiteGameStore.inMemory())
        let ids = try await queue(8, in: store)
        store.fail(.markSent, with: DiskFull(), times: .max)
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
