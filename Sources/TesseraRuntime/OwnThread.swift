import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs CPU-bound work (an analysis: up to minutes) on a thread of its own, at the lowest priority, and awaits
/// it: on Swift's cooperative pool, which has a thread a core, it would hold up every reply meanwhile, and at
/// the same priority it would still slow them down. Cancelling the wait ends it at once with
/// `CancellationError`; the work runs on to its end and its result is dropped.
func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async throws -> Result {
    let waiting = Waiting<Result>()
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
                waiting.resume(returning: work())
            }
            thread.name = "tessera-analysis"
            thread.start()
        }
    } onCancel: {
        waiting.resume(throwing: CancellationError())
    }
}

/// The continuation of ``onOwnThread(_:)``, resumed once by whichever comes first: the result or the cancel.
private final class Waiting<Result: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<Result, any Error>?>(nil)

    func resume(returning result: Result) { continuation.withLock { $0.take() }?.resume(returning: result) }
    func resume(throwing error: any Error) { continuation.withLock { $0.take() }?.resume(throwing: error) }
}
