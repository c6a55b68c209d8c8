import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraSQLite

/// The store's transactions are `async`: these check that SQLite's stay whole across suspensions, and that
/// their work stays on the database's own queue.
@Suite("SQLite transactions across suspensions")
struct SQLiteTransactionTests {
    /// Somewhere else to suspend to: an actor runs on the cooperative pool, away from the transaction.
    actor Elsewhere {
        func visit() {}
        /// Reads through the transaction from the actor's own thread.
        func player(_ id: UserID, in transaction: any GameStoreTransaction) async throws -> Player? {
            try await transaction.player(id)
        }
    }

    static func player(_ name: String) -> Player {
        Player(id: UserID(1), displayName: name, language: .english, timeZone: "UTC", rolloverHour: 0)
    }

    /// Whether the caller runs on the thread of the writer's queue that serves the transaction.
    static func onWriterQueue(_ transaction: any GameStoreTransaction) -> Bool {
        (transaction as? OpenTransaction)?.isServingCurrentThread ?? false
    }

    /// In memory (one connection), or a file (a pool of readers beside the writer).
    static func store(onDisk: Bool) throws -> SQLiteGameStore {
        guard onDisk else { return try SQLiteGameStore.inMemory() }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-\(UUID().uuidString)/tessera.sqlite").path
        return try SQLiteGameStore(path: path, logger: Logger(label: "test"))
    }

    @Test(
        "Writers that read, suspend and write lose no update: a transaction holds the writer until it ends",
        arguments: [false, true])
    func concurrentWritersSerialize(onDisk: Bool) async throws {
        let store = try Self.store(onDisk: onDisk)
        try await store.write { try await $0.save(Self.player("0")) }
        let elsewhere = Elsewhere()
        try await withThrowingTaskGroup { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.write { transaction in
                        let stored = try await transaction.player(UserID(1))
                        let count = try #require(stored.flatMap { Int($0.displayName) })
                        await elsewhere.visit()
                        await Task.yield()
                        try await transaction.save(Self.player(String(count + 1)))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.write { try await $0.player(UserID(1)) }?.displayName == "20")
    }

    @Test(
        "A transaction's code runs on the database's queue, not the cooperative pool, even after suspending",
        arguments: [false, true])
    func workStaysOnTheDatabaseQueue(onDisk: Bool) async throws {
        let store = try Self.store(onDisk: onDisk)
        let elsewhere = Elsewhere()
        let (before, after, seenElsewhere) = try await store.write { transaction in
            let before = Self.onWriterQueue(transaction)
            try await transaction.save(Self.player("Ada"))
            await elsewhere.visit()
            let after = Self.onWriterQueue(transaction)
            // A call from another thread waits its turn on the queue, and sees the transaction's own writes.
            let seen = try await elsewhere.player(UserID(1), in: transaction)
            return (before, after, seen?.displayName)
        }
        #expect(before, "on the writer's queue, not a thread of the cooperative pool")
        #expect(after, "back on the writer's queue after suspending")
        #expect(seenElsewhere == "Ada")
    }

    @Test("A failure after a suspension rolls back the whole transaction; a savepoint only its own part")
    func rollbackAcrossSuspensions() async throws {
        let store = try SQLiteGameStore.inMemory()
        struct Interrupted: Error {}
        let elsewhere = Elsewhere()
        await #expect(throws: Interrupted.self) {
            try await store.write { transaction in
                try await transaction.save(Self.player("lost"))
                await elsewhere.visit()
                throw Interrupted()
            }
        }
        #expect(try await store.write { try await $0.player(UserID(1)) } == nil)

        try await store.write { transaction in
            try await transaction.save(Self.player("kept"))
            await #expect(throws: Interrupted.self) {
                try await transaction.isolated {
                    try await transaction.save(Self.player("undone"))
                    await elsewhere.visit()
                    throw Interrupted()
                }
            }
            #expect(try await transaction.player(UserID(1))?.displayName == "kept")
        }
        #expect(try await store.write { try await $0.player(UserID(1)) }?.displayName == "kept")
    }

    @Test("A transaction used after it ended says so, and writes nothing")
    func transactionUsedAfterItsEnd() async throws {
        let store = try SQLiteGameStore.inMemory()
        let leaked = try await store.write { $0 }
        await #expect {
            try await leaked.save(Self.player("late"))
        } throws: { error in
            "\(error)".contains("used a database transaction after it had ended")
        }
        #expect(try await store.write { try await $0.player(UserID(1)) } == nil)
    }
}
