import Synchronization

/// What a test double did, in order, and a way to wait for one event without polling or sleeping.
public final class EventLog: Sendable {
    private struct State {
        var events: [String] = []
        var waiters: [(event: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Every event so far.
    public var all: [String] { state.withLock { $0.events } }

    public func record(_ event: String) {
        let ready = state.withLock { state in
            state.events.append(event)
            let counts = state.waiters.map { waiter in state.events.filter { $0 == waiter.event }.count }
            let ready = zip(state.waiters, counts).filter { $0.1 >= $0.0.count }.map(\.0.continuation)
            state.waiters = zip(state.waiters, counts).filter { $0.1 < $0.0.count }.map(\.0)
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until `event` has happened `count` times in all (at once if it already has).
    public func wait(for event: String, count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.events.filter({ $0 == event }).count >= count { return true }
                state.waiters.append((event, count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
