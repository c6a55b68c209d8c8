import CoreMetrics
import Foundation
import Synchronization
import TesseraEngine

/// What one platform's services share: the outbox's doorbell, which the receiver and the day closer ring for
/// the sender; when the platform last answered, which the heartbeat reports, `/healthz` reads and the sender
/// reads to tell one chat's failures from the platform's; whether this process leads it; and its metrics.
final class PlatformActivity: Sendable {
    let transport: String
    let platform: Platform
    let outbox = Doorbell()
    let metrics: PlatformMetrics
    private let times: Mutex<Times>

    struct Times {
        var started: Date
        var lastPoll: Date?
        var lastSend: Date?
        /// When the heartbeat was last written: the store takes writes.
        var lastHeartbeat: Date?
        var leading = false
    }

    init(transport: String, platform: Platform, started: Date, metrics: PlatformMetrics) {
        self.transport = transport
        self.platform = platform
        self.metrics = metrics
        times = Mutex(Times(started: started))
    }

    var current: Times { times.withLock { $0 } }

    /// Records a successful poll; true for the first.
    func polled(at date: Date) -> Bool {
        metrics.lastPoll.record(date.timeIntervalSince1970)
        return times.withLock { times in
            defer { times.lastPoll = date }
            return times.lastPoll == nil
        }
    }

    func sent(at date: Date) {
        times.withLock { $0.lastSend = date }
    }

    func wroteHeartbeat(at date: Date) {
        times.withLock { $0.lastHeartbeat = date }
    }

    /// This process leads the platform from now on, or no longer does.
    func lead(_ leading: Bool) {
        metrics.leader.record(leading ? 1 : 0)
        times.withLock { $0.leading = leading }
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
