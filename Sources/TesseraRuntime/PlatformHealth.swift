public import Foundation

/// One platform's health, judged once for both readers: the running process's `/healthz` and `tessera status`,
/// which reads the heartbeats from outside. One line: the verdict, the facts, and what to do.
public struct PlatformHealth: Sendable, Hashable {
    public enum Verdict: Sendable, Hashable {
        case healthy, starting, standingBy, stalled
    }

    public let verdict: Verdict
    /// `tessera run (telegram) on …: started 2 min ago, heartbeat 9 s ago, last poll 3 s ago, last send never.`
    public let facts: String
    /// `Healthy: tessera run (telegram) on …: started 2 min ago, heartbeat 9 s ago, last poll 3 s ago, …`
    public let line: String

    /// - Parameters:
    ///   - started: when the platform's service started.
    ///   - heartbeat: when its heartbeat was last written; judged against `heartbeatLimit`, or not at all when
    ///     that is nil (`tessera status` judges a heartbeat by whether a process still holds the database).
    ///   - leading: whether this process leads the platform; a standby is neither healthy nor stalled.
    ///   - database: the store, named as the operator gave it.
    public init(
        transport: String, database: String, started: Date, heartbeat: Date?, lastPoll: Date?, lastSend: Date?,
        leading: Bool = true, now: Date, staleAfter: TimeInterval, heartbeatLimit: TimeInterval?
    ) {
        func age(_ date: Date?) -> String { date.map { Self.age(now.timeIntervalSince($0)) + " ago" } ?? "never" }
        func tooOld(_ date: Date?, _ limit: TimeInterval) -> Bool { now.timeIntervalSince(date ?? started) > limit }
        facts =
            "tessera run (\(transport)) on \(database): started \(age(started)), heartbeat \(age(heartbeat)), "
            + "last poll \(age(lastPoll)), last send \(age(lastSend))."
        let receiving = "Running but not receiving"
        let logSays = "its log says why (network, token, the platform)."
        let limit = Self.age(staleAfter)
        if !leading {
            (verdict, line) = (.standingBy, "Standing by: \(facts) Another process leads \(transport).")
        } else if let heartbeatLimit, tooOld(heartbeat, heartbeatLimit) {
            verdict = .stalled
            line =
                "Stalled: \(facts) No heartbeat written for over \(Self.age(heartbeatLimit)): the database takes no "
                + "writes; its log says why (disk, locks, the PostgreSQL server)."
        } else if lastPoll == nil {
            // A long poll waits up to 50 s for the first updates: starting, not failing, until the limit.
            (verdict, line) =
                tooOld(started, staleAfter)
                ? (.stalled, "Stalled: \(facts) \(receiving): its first poll has not come back in \(limit); \(logSays)")
                : (.starting, "Starting: \(facts) The first poll is still in progress.")
        } else if tooOld(lastPoll, staleAfter) {
            verdict = .stalled
            line = "Stalled: \(facts) \(receiving): no poll has come back for over \(limit); \(logSays)"
        } else {
            (verdict, line) = (.healthy, "Healthy: \(facts)")
        }
    }

    /// A duration as people say it: 40 s, 3 min, 2 h, 5 days.
    public static func age(_ seconds: TimeInterval) -> String {
        // A heartbeat's time is read from the database: a nonsense one reads as long ago, never a trap.
        let seconds = seconds.isFinite ? Int(min(max(0, seconds), 1e12)) : 1_000_000_000_000
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) days"
        }
    }
}
