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

    @Test("Concurrent removals share writes, and each caller returns only once its message is removed")
    func groupCommits() async throws {
        // Slow enough that other chats finish their sends meanwhile.
        let store = FaultyStore(try SQLiteGameStore.inMemory())
        store.delay(.markSent, by: .milliseconds(20))
        let ids = try await queue(16, in: store)
        let sent = SentMessages(store: store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask {
                    try await sent.markSent(id)
                    let removed = store.removals.joined()
                    #expect(removed.contains(id))
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.pendingMessages(limit: 100, now: Date()).isEmpty)
        let writes = store.removals
        #expect(writes.joined().sorted() == ids.sorted())
        #expect(writes.count < ids.count, "every removal had its own write: \(writes)")
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
