import Synchronization

/// What a test double did, in order, and a way to wait for one event without polling or sleeping.
public final class EventLog: Sendable {
    private struct Waiter {
        let event: String
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
        var timer: Task<Void, Never>?
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
        for waiter in ready {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }

    /// Waits until `event` has happened `count` times in all (at once if it already has); after `limit`, throws
    /// ``WaitTimedOut`` with what happened meanwhile, instead of hanging the test.
    public func wait(for event: String, count: Int = 1, within limit: Duration = WaitTimedOut.defaultLimit)
        async throws
    {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready = state.withLock { state in
                if state.events.filter({ $0 == event }).count >= count { return true }
                state.waiters[id] = Waiter(event: event, count: count, continuation: continuation)
                return false
            }
            if ready { return continuation.resume() }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                let (expired, seen) = state.withLock { ($0.waiters.removeValue(forKey: id), $0.events) }
                expired?.continuation.resume(
                    throwing: WaitTimedOut(awaited: "\(event) ×\(count)", limit: limit, seen: "events: \(seen)"))
            }
            state.withLock { state in
                if state.waiters[id] != nil { state.waiters[id]?.timer = timer } else { timer.cancel() }
            }
        }
    }
}

/// A test's wait for a double that did not come within its limit: it says what it awaited and what happened
/// instead, where an unbounded wait would leave the test to its time limit with nothing said.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// Long enough for any in-process event on a loaded machine: in the whole suite on two cores, a test's
    /// tasks have waited over 20 s for their turn. A wait that needs longer says so.
    public static let defaultLimit = Duration.seconds(120)

    public let awaited: String
    public let limit: Duration
    public let seen: String

    public var description: String { "Waited \(limit) for \(awaited), in vain; \(seen)" }
}
