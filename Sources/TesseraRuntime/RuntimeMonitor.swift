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
        let heartbeatLimit = max(staleAfter, 3 * heartbeatInterval)
        guard !platforms.isEmpty else {
            let running = now.timeIntervalSince(started)
            guard running > staleAfter else {
                return Health(healthy: true, text: "Starting: connecting to the platforms.")
            }
            return Health(
                healthy: false,
                text: "Stalled: tessera run on \(database) started \(PlatformHealth.age(running)) ago and has "
                    + "connected to no platform; its log says why (network, token, the platform).")
        }
        let judged = platforms.map { activity in
            let times = activity.current
            return PlatformHealth(
                transport: activity.transport, database: database, started: times.started,
                heartbeat: times.lastHeartbeat, lastPoll: times.lastPoll, lastSend: times.lastSend,
                leading: times.leading, now: now, staleAfter: staleAfter, heartbeatLimit: heartbeatLimit)
        }
        return Health(
            healthy: !judged.contains { $0.verdict == .stalled }, text: judged.map(\.line).joined(separator: "\n"))
    }

    /// Sets the gauges that are counted when read: each platform's outbox.
    public func refreshGauges() async throws {
        for activity in platforms.withLock({ $0 }) {
            activity.metrics.outbox.record(try await store.outboxSize(platform: activity.platform))
        }
    }
}
