/// Which of several processes on one database receives from a platform and closes its groups' days.
///
/// A long-polling bot API allows one poller per bot, and a day must be summed up once; sending needs no leader.
/// On SQLite one process holds the database, and it leads (``SoleLeader``); on PostgreSQL the processes elect one
/// per platform, and the others stand by to take over.
public protocol Leadership: Sendable {
    /// Waits until this process leads `transport`, then runs `work` for as long as it does. When the lead is
    /// lost, `work` is cancelled and this waits to lead again; it returns when `work` returns (a graceful
    /// shutdown) or when shutting down while standing by, and throws what `work` throws.
    func whileLeading(_ transport: String, _ work: @escaping @Sendable () async throws -> Void) async throws
}

/// The one process on its database: it always leads.
public struct SoleLeader: Leadership {
    public init() {}

    public func whileLeading(_ transport: String, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await work()
    }
}

/// Where a process that takes the lead of a transport writes who it is and since when, for `tessera status`.
public enum LeaderRecord {
    public static func settingKey(for transport: String) -> String { "leader.\(transport)" }
}
