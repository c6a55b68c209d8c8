import Foundation
import Synchronization
import TesseraCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs CPU-bound work (an analysis: up to minutes) on a thread of its own, at the lowest priority, and awaits
/// it: on Swift's cooperative pool, which has a thread a core, it would hold up every reply meanwhile, and at
/// the same priority it would still slow them down. Cancelling the wait ends it at once with
/// `CancellationError` and requests the work's stop, which a solver reads to give up its search; the result of
/// work that runs on is dropped.
func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable (Solver.Stop) -> Result) async throws -> Result {
    let waiting = Waiting<Result>()
    let stop = Solver.Stop()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            waiting.continuation.withLock { $0 = continuation }
            // Cancelled before the continuation was there for the handler to resume.
            if Task.isCancelled { waiting.resume(throwing: CancellationError()) }
            let thread = Thread {
                #if os(Linux)
                    // Nice 19: replies take the cores first. Not the idle scheduling class: a thread there can
                    // wait indefinitely while the cores are busy, holding a lock others need (the heap's), and it
                    // stalled a whole test process for minutes. On Linux the nice value is per thread; 0 names
                    // the calling one.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                #endif
                waiting.resume(returning: work(stop))
            }
            thread.name = "tessera-analysis"
            thread.start()
        }
    } onCancel: {
        stop.request()
        waiting.resume(throwing: CancellationError())
    }
}

/// The continuation of ``onOwnThread(_:)``, resumed once by whichever comes first: the result or the cancel.
private final class Waiting<Result: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<Result, any Error>?>(nil)

    func resume(returning result: Result) { continuation.withLock { $0.take() }?.resume(returning: result) }
    func resume(throwing error: any Error) { continuation.withLock { $0.take() }?.resume(throwing: error) }
}
