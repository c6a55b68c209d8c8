import Synchronization

/// A test's wait for a double that did not come within its limit: it says what it awaited and what happened
/// instead, where an unbounded wait would leave the test to its time limit with nothing said.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// Long enough for any in-process event on a loaded machine: in the whole suite on two cores, a test's
    /// tasks have waited over 20 s for their turn. A wait that needs longer says so; a test's time limit that
    /// comes first cancels the wait, which then says the same (``WaitCancelled``).
    public static let defaultLimit = Duration.seconds(120)

    public let awaited: String
    public let limit: Duration
    public let seen: String

    public var description: String { "Waited \(limit) for \(awaited), in vain; \(seen)" }
}

/// A test's wait that was cancelled, most often by the test's time limit: what it awaited and what happened
/// instead, beside Swift Testing's "Time limit was exceeded".
public struct WaitCancelled: Error, CustomStringConvertible {
    public let awaited: String
    public let seen: String

    public var description: String { "Cancelled while waiting for \(awaited); \(seen)" }
}

/// Suspends until a double resumes the waiter `register` stores (or at once if `register` says the condition
/// holds), throwing ``WaitTimedOut`` after `limit` and ``WaitCancelled`` when the task is cancelled.
/// `remove` takes the waiter back, under the double's lock, with what the double has seen; nil when it was
/// resumed already, so that each waiter is resumed once.
func boundedWait(
    for awaited: String, within limit: Duration,
    register: (CheckedContinuation<Void, any Error>) -> Bool,
    remove: @escaping @Sendable () -> (waiter: CheckedContinuation<Void, any Error>, seen: String)?
) async throws {
    let timer = Mutex<Task<Void, Never>?>(nil)
    defer { timer.withLock { $0?.cancel() } }
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if register(continuation) { return continuation.resume() }
            // Cancelled before the handler could find the waiter: it is taken back here instead.
            if Task.isCancelled, let (waiter, seen) = remove() {
                return waiter.resume(throwing: WaitCancelled(awaited: awaited, seen: seen))
            }
            timer.withLock { timer in
                timer = Task {
                    guard (try? await Task.sleep(for: limit)) != nil, let (waiter, seen) = remove() else { return }
                    waiter.resume(throwing: WaitTimedOut(awaited: awaited, limit: limit, seen: seen))
                }
            }
        }
    } onCancel: {
        if let (waiter, seen) = remove() { waiter.resume(throwing: WaitCancelled(awaited: awaited, seen: seen)) }
    }
}
