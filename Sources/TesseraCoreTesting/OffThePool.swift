import Dispatch

/// Runs long CPU-bound or blocking work (an exhaustive oracle, a child process waited for) on a thread of its
/// own and awaits it: on Swift's cooperative pool, which has a thread a core, it would stall every other test
/// of the run for as long, and tests that read the clock would see minutes pass.
public func offThePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Swift.Result { try work() }) }
    }
}
