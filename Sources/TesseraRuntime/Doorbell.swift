import Synchronization

/// Wakes the sender: any number of rings while it works make one more pass, and it never sleeps through one.
/// A resumed continuation, with no stream or merge between the ring and the sender.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var closed = false
        var waiting: CheckedContinuation<Bool, Never>?
    }
    private let state = Mutex(State())

    func ring() {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiting == nil { state.rung = true }
            return state.waiting.take()
        }
        waiting?.resume(returning: true)
    }

    /// Whether a ring waits to be taken by the next ``waitForRing()``.
    var hasRing: Bool { state.withLock { $0.rung } }

    /// Ends the waiting for good: the next ``waitForRing()`` returns false.
    func close() {
        state.withLock { state in
            state.closed = true
            return state.waiting.take()
        }?.resume(returning: false)
    }

    /// Waits for a ring since the last call (returns at once if there was one); false once closed or
    /// cancelled.
    func waitForRing() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.closed || Task.isCancelled { return false }
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiting = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            close()
        }
    }
}
