import Foundation
import Synchronization
import TesseraEngine

/// What one platform's services share: the outbox's doorbell, which the receiver and the day closer ring for
/// the sender, and when the platform last answered, which the heartbeat reports and the sender reads to tell one
/// chat's failures from the platform's.
final class PlatformActivity: Sendable {
    let outbox = Doorbell()
    private let times: Mutex<Times>

    struct Times {
        var started: Date
        var lastPoll: Date?
        var lastSend: Date?
    }

    init(started: Date) {
        times = Mutex(Times(started: started))
    }

    var current: Times { times.withLock { $0 } }

    /// Records a successful poll; true for the first.
    func polled(at date: Date) -> Bool {
        times.withLock { times in
            defer { times.lastPoll = date }
            return times.lastPoll == nil
        }
    }

    func sent(at date: Date) {
        times.withLock { $0.lastSend = date }
    }
}

/// The outbox ids of the messages a sender is sending right now, whose holds it renews.
final class MessagesBeingSent: Sendable {
    private let state = Mutex<Set<Int64>>([])

    var ids: [Int64] { state.withLock { Array($0) } }
    func contains(_ id: Int64) -> Bool { state.withLock { $0.contains(id) } }
    func insert(_ id: Int64) { state.withLock { _ = $0.insert(id) } }
    func remove(_ id: Int64) { state.withLock { _ = $0.remove(id) } }
}
