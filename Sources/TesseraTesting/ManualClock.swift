public import Foundation
import Synchronization

/// A clock that moves only when a test advances it, so that backoffs, timers and deadlines are tested
/// without waiting: a sleeper resumes once ``advance(by:)`` passes its deadline.
///
/// Tests wait for the code under test to be asleep with ``sleepers(atLeast:)`` before advancing, instead of
/// sleeping themselves.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock started.
        public let offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Tests waiting for a number of sleepers, or for one due at an instant.
        var watchers: [Int: Watcher] = [:]
    }

    private struct Watcher {
        let condition: Condition
        let continuation: CheckedContinuation<Void, any Error>
    }

    private enum Condition {
        case count(Int)
        case dueAt(Instant)

        var description: String {
            switch self {
            case .count(let count): count == 1 ? "a sleeping task" : "\(count) sleeping tasks"
            case .dueAt(let instant): "a sleeper due at \(instant.offset)"
            }
        }

        func holds(in state: State) -> Bool {
            switch self {
            case .count(let count): state.sleepers.count >= count
            case .dueAt(let instant): state.sleepers.values.contains { $0.deadline == instant }
            }
        }
    }

    private let state = Mutex(State())
    private let start: Date

    /// - Parameter date: the calendar date at the clock's start (by default 2026-11-22 12:00 UTC); ``date``
    ///   moves on with it.
    public init(startingAt date: Date = Date(timeIntervalSince1970: 1_795_348_800)) {
        start = date
    }

    public var now: Instant { state.withLock { $0.now } }
    /// The calendar date now: the start date plus the time advanced, for code that reads wall time too.
    public var date: Date { start.addingTimeInterval(now.offset.seconds) }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    Self.notifyWatchers(&state)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits until at least `count` tasks sleep on this clock: the code under test is waiting for time. After
    /// `limit`, or cancelled, it throws (``WaitTimedOut``, ``WaitCancelled``) instead of hanging the test.
    public func sleepers(atLeast count: Int, within limit: Duration = WaitTimedOut.defaultLimit) async throws {
        try await wait(until: .count(count), within: limit)
    }

    /// Waits until a task sleeps until exactly `instant`: the one sleep a test means, whatever else sleeps.
    public func sleeper(dueAt instant: Instant, within limit: Duration = WaitTimedOut.defaultLimit) async throws {
        try await wait(until: .dueAt(instant), within: limit)
    }

    private func wait(until condition: Condition, within limit: Duration) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await boundedWait(for: condition.description, within: limit) { continuation in
            state.withLock { state in
                if condition.holds(in: state) { return true }
                state.watchers[id] = Watcher(condition: condition, continuation: continuation)
                return false
            }
        } remove: {
            self.state.withLock { state in
                state.watchers.removeValue(forKey: id).map { watcher in
                    let deadlines = state.sleepers.values.map(\.deadline.offset)
                    return (watcher.continuation, "sleepers due at \(deadlines), the clock at \(state.now.offset)")
                }
            }
        }
    }

    private static func notifyWatchers(_ state: inout State) {
        let snapshot = state
        let ready = state.watchers.filter { $0.value.condition.holds(in: snapshot) }
        for id in ready.keys { state.watchers[id] = nil }
        for watcher in ready.values { watcher.continuation.resume() }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
