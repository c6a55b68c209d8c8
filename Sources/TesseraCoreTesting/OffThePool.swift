import Foundation

/// Runs blocking or long CPU-bound work (a child process or a pipe waited for, an exhaustive oracle, a test's
/// 200,000 random cases) on a thread of its own, as the product runs its analyses and transfers; still in the
/// calling task, so that what it expects is the calling test's.
///
/// Not on `DispatchQueue.global()`: on Linux, Swift's tasks run on that same queue's threads, a thread a core
/// (two here). Work that blocks or computes on one of them holds up every other test of the run, and libdispatch
/// adds a thread for blocked work only about once a second, and never for work that computes: tests that wait
/// on a clock saw minutes pass.
public func offThePool<Success, Failure: Error>(_ work: () throws(Failure) -> Success) async throws(Failure)
    -> Success
{
    let thread = ThreadExecutor()
    defer { thread.finish() }
    return try await withTaskExecutorPreference(thread) { () async throws(Failure) -> Success in try work() }
}

/// A task executor on a thread of its own, for the length of one ``offThePool(_:)``.
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guards the two below; the thread waits on it for jobs.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        Thread { [self] in serve() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = condition.withLock {
            guard !finished else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }
        // After the work (a child task outliving it): the global executor's.
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Ends the thread once the jobs queued so far have run.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else { return condition.unlock() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
