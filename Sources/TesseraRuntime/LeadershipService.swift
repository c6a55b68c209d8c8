import ServiceLifecycle
import TesseraEngine

/// Runs the services only the leader of a platform may run (receiving, closing days, the heartbeat) while this
/// process leads it: at once with ``SoleLeader``; on PostgreSQL once elected, stopped when the lead is lost and
/// started again when it is won back (``Leadership``). The first of them to fail ends the others, so none runs
/// beside a dead one, and the failure ends the group.
struct LeadershipService: Service {
    let role: String
    let leadership: any Leadership
    let services: [any Service]
    /// Told when this process leads and when it stops, for `/healthz` and `tessera_leader`.
    var activity: PlatformActivity?

    func run() async throws {
        let (services, activity) = (self.services, self.activity)
        try await leadership.whileLeading(role) {
            activity?.lead(true)
            defer { activity?.lead(false) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in services { group.addTask { try await service.run() } }
                while try await group.next() != nil {}
            }
        }
    }
}

extension LeadershipService: CustomStringConvertible {
    // ServiceGroup logs each service's description.
    var description: String { "LeadershipService(\(role))" }
}
