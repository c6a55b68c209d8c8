import Synchronization
import TesseraEngine
public import TesseraRuntime

/// A leadership a test hands out and takes back: the process stands by until ``grant()``, and ``revoke()``
/// cancels its work, as losing the lead does. `whileLeading`, `leading`, `revoked` are recorded in ``events``.
public final class ScriptedLeadership: Leadership {
    public let events = EventLog()
    private struct State {
        var leads = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var working: Task<Void, any Error>?
    }
    private let state = Mutex(State())

    public init() {}

    /// This process leads from now on.
    public func grant() {
        let waiting = state.withLock { state in
            state.leads = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// This process no longer leads: its work is cancelled, and it stands by again.
    public func revoke() {
        let working = state.withLock { state in
            state.leads = false
            return state.working
        }
        working?.cancel()
    }

    public func whileLeading(_ transport: String, _ work: @escaping @Sendable () async throws -> Void) async throws {
        events.record("whileLeading")
        while !Task.isCancelled {
            await withCheckedContinuation { continuation in
                let leads = state.withLock { state in
                    if !state.leads { state.waiting.append(continuation) }
                    return state.leads
                }
                if leads { continuation.resume() }
            }
            let task = Task { try await work() }
            state.withLock { $0.working = task }
            events.record("leading")
            do {
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            } catch is CancellationError {
                // The work was cancelled: by a revoke (below), or with this task (the loop ends).
            }
            guard state.withLock({ !$0.leads }) else { return }
            events.record("revoked")
        }
    }
}
