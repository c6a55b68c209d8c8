import Synchronization

/// What a test double did, in order, and a way to wait for one event without polling or sleeping.
public final class EventLog: Sendable {
    private struct Waiter {
        let event: String
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var events: [String] = []
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Every event so far.
    public var all: [String] { state.withLock { $0.events } }

    public func record(_ event: String) {
        let ready = state.withLock { state in
            state.events.append(event)
            let events = state.events
            let ready = state.waiters.filter { _, waiter in events.filter { $0 == waiter.event }.count >= waiter.count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Waits until `event` has happened `count` times in all (at once if it already has); after `limit`, or when
    /// the test's time limit cancels it, throws with what happened meanwhile (``WaitTimedOut``, ``WaitCancelled``).
    public func wait(for event: String, count: Int = 1, within limit: Duration = WaitTimedOut.defaultLimit)
        async throws
    {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await boundedWait(for: "\(event) ×\(count)", within: limit) { continuation in
            state.withLock { state in
                if state.events.filter({ $0 == event }).count >= count { return true }
                state.waiters[id] = Waiter(event: event, count: count, continuation: continuation)
                return false
            }
        } remove: {
            self.state.withLock { state in
                state.waiters.removeValue(forKey: id).map { ($0.continuation, "events: \(state.events)") }
            }
        }
    }
}
