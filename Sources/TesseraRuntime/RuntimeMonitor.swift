import CoreMetrics
public import Foundation
import Synchronization
import TesseraEngine

/// What an operator's listener reads of the running bot: each platform's health (`/healthz`), and the gauges
/// worked out when they are read rather than kept up to date (the outbox's size, for `/metrics`).
public final class RuntimeMonitor: Sendable {
    /// The answer to `/healthz`: unhealthy (503) when a platform this process leads is stalled.
    public struct Health: Sendable, Hashable {
        public var healthy: Bool
        /// One line a platform, each starting with its verdict: `Healthy`, `Starting`, `Standing by` or
        /// `Stalled`; a stalled one says why and where to look.
        public var text: String
    }

    private let store: any GameStore
    private let started: Date
    /// How often the heartbeat is written: three missed in a row is a store that takes no writes.
    private let heartbeatInterval: TimeInterval
    private let platforms = Mutex<[PlatformActivity]>([])
    private let listener = Mutex<String?>(nil)

    init(store: any GameStore, started: Date, heartbeatInterval: Duration) {
        self.store = store
        self.started = started
        self.heartbeatInterval = TimeInterval(heartbeatInterval.components.seconds)
    }

    func register(_ activity: PlatformActivity) {
        platforms.withLock { $0.append(activity) }
    }

    /// The operator's listener at `address` cannot serve, for `reason`: the heartbeats say so to `tessera status`.
    public func listenerFailed(at address: String, _ reason: String) {
        listener.withLock { $0 = "the metrics listener on \(address) is down: \(reason)" }
    }

    /// What is wrong with the operator's listener, if anything.
    var listenerProblem: String? { listener.withLock { $0 } }

    /// The platforms' health at `now`: stalled when this process leads a platform whose last poll came back
    /// longer than `staleAfter` ago (or whose first has not come back by then), or whose heartbeat has not been
    /// written for as long, and at least three intervals (the database takes no writes). `database` names the
    /// store as `tessera status` does.
    public func health(at now: Date, staleAfter: TimeInterval, database: String) -> Health {
        let platforms = self.platforms.withLock { $0 }
        func age(_ date: Date?) -> String { date.map { Self.age(now.timeIntervalSince($0)) + " ago" } ?? "never" }
        func tooOld(_ date: Date?, limit: TimeInterval = staleAfter) -> Bool {
            now.timeIntervalSince(date ?? started) > limit
        }
        let heartbeatLimit = max(staleAfter, 3 * heartbeatInterval)
        guard !platforms.isEmpty else {
            guard tooOld(nil) else { return Health(healthy: true, text: "Starting: connecting to the platforms.") }
            return Health(
                healthy: false,
                text: "Stalled: tessera run on \(database) started \(age(started)) and has connected to no platform; "
                    + "its log says why (network, token, the platform).")
        }
        var healthy = true
        let lines = platforms.map { activity in
            let times = activity.current
            let facts =
                "tessera run (\(activity.transport)) on \(database): started \(age(times.started)), heartbeat "
                + "\(age(times.lastHeartbeat)), last poll \(age(times.lastPoll)), last send \(age(times.lastSend))."
            guard times.leading else { return "Standing by: \(facts) Another process leads \(activity.transport)." }
            let limit = Self.age(staleAfter)
            if tooOld(times.lastHeartbeat, limit: heartbeatLimit) {
                healthy = false
                return "Stalled: \(facts) No heartbeat written for over \(Self.age(heartbeatLimit)): the database "
                    + "takes no writes; its log says why (disk, locks, the PostgreSQL server)."
            }
            if times.lastPoll == nil {
                guard tooOld(times.started) else { return "Starting: \(facts) The first poll is still in progress." }
                healthy = false
                return "Stalled: \(facts) Running but not receiving: its first poll has not come back in \(limit); "
                    + "its log says why (network, token, the platform)."
            }
            if tooOld(times.lastPoll) {
                healthy = false
                return "Stalled: \(facts) Running but not receiving: no poll has come back for over \(limit); its "
                    + "log says why (network, token, the platform)."
            }
            return "Healthy: \(facts)"
        }
        return Health(healthy: healthy, text: lines.joined(separator: "\n"))
    }

    /// Sets the gauges that are counted when read: each platform's outbox.
    public func refreshGauges() async throws {
        for activity in platforms.withLock({ $0 }) {
            activity.metrics.outbox.record(try await store.outboxSize(platform: activity.platform))
        }
    }

    /// A duration as people say it: 40 s, 3 min, 2 h, 5 days.
    public static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, Int(seconds))
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) days"
        }
    }
}
