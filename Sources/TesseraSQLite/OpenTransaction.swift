import Foundation
import GRDB
import TesseraEngine
import TesseraSQL

/// One write transaction held open while its asynchronous body runs.
///
/// SQLite's writer is a serial queue that GRDB owns. While the body runs, that queue serves the transaction:
/// it runs the body's database work, and, as the task executor the body prefers, the body's own code too. A
/// store call made from the body therefore runs at once on the queue it is already on, with no hop between
/// threads, and nothing the transaction does runs on the cooperative pool. Work sent from elsewhere waits its
/// turn in the queue.
final class OpenTransaction: TaskExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        /// Database work, given nil when the transaction has ended before it could run.
        case database(@Sendable (Database?) -> Void)
    }

    private enum State {
        /// Created; the writer has not started serving yet (another transaction may hold it).
        case waiting
        /// The writer's queue is serving this transaction on the thread named.
        case serving(Database, pthread_t)
        /// Over: jobs go to the global executor, and database work fails.
        case ended
    }

    /// The row ids of players and chats this transaction has looked up (its own lock).
    let ids = RowIDs()
    /// The statements the shared queries have run in this transaction (``PreparedStatements``).
    let statements = PreparedStatements()
    /// Guards everything below; the serving queue waits on it for work.
    private let condition = NSCondition()
    private var work: [Work] = []
    private var state = State.waiting
    /// Set when the body has ended: whether to commit.
    private var commit: Bool?

    // MARK: - Serving, on the writer's queue

    /// Serves the transaction on the writer's queue until the body has ended; returns whether to commit.
    func serve(_ db: Database) -> Bool {
        condition.withLock { state = .serving(db, pthread_self()) }
        while true {
            condition.lock()
            while work.isEmpty && commit == nil { condition.wait() }
            guard !work.isEmpty else {
                let commit = self.commit ?? false
                state = .ended
                condition.unlock()
                return commit
            }
            let next = work.removeFirst()
            condition.unlock()
            switch next {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .database(let run): run(db)
            }
        }
    }

    /// Ends the transaction once its queued work has run: commits it, or rolls it back.
    func finish(commit: Bool) {
        condition.withLock {
            self.commit = commit
            condition.signal()
        }
    }

    /// The writer could not serve the transaction (it failed to begin), or has stopped serving it: whatever is
    /// still queued runs elsewhere or fails, so nothing waits for ever.
    func close() {
        let leftover = condition.withLock {
            state = .ended
            defer { work = [] }
            return work
        }
        for item in leftover {
            switch item {
            case .job(let job): globalConcurrentExecutor.enqueue(ExecutorJob(job))
            case .database(let run): run(nil)
            }
        }
    }

    // MARK: - Running work

    /// Runs `body` on the transaction's connection: at once when called on the serving queue, as the body's
    /// code is; otherwise queued behind the work before it.
    func run<Result: Sendable>(_ body: @escaping @Sendable (Database) throws -> Result) async throws -> Result {
        if let db = databaseOnThisThread() { return try body(db) }
        return try await withCheckedThrowingContinuation { continuation in
            let queued = condition.withLock { () -> Bool in
                if case .ended = state { return false }
                work.append(
                    .database { db in
                        guard let db else { return continuation.resume(throwing: StoreMisuse.transactionEnded) }
                        continuation.resume(with: Swift.Result { try body(db) })
                    })
                condition.signal()
                return true
            }
            if !queued { continuation.resume(throwing: StoreMisuse.transactionEnded) }
        }
    }

    /// Whether the caller runs on the writer's queue, serving this transaction.
    var isServingCurrentThread: Bool { databaseOnThisThread() != nil }

    private func databaseOnThisThread() -> Database? {
        condition.withLock {
            guard case .serving(let db, let thread) = state, pthread_equal(thread, pthread_self()) != 0 else {
                return nil
            }
            return db
        }
    }

    // MARK: - TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = condition.withLock { () -> Bool in
            if case .ended = state { return false }
            work.append(.job(job))
            condition.signal()
            return true
        }
        // A job that comes after the end (a child task outliving the body) runs on the global executor.
        if !queued { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
