public import ServiceLifecycle
import ServiceLifecycleTestKit

/// How ``withRunningBot(_:stopping:_:)`` ends what it started once the test's body is done.
public enum Stopping: Sendable {
    /// A graceful shutdown, as on SIGTERM: the services finish the work in hand, and an error they end with
    /// is the test's.
    case gracefully
    /// Cancelled, as a crash would stop them mid-work; what they throw on cancellation is not the test's.
    case cancelling
}

/// Runs `service` (a bot's ``ServiceGroup``, or one of its services) while `body` checks what it wants, and
/// always stops it before returning: a test that fails half-way leaves nothing running into the next one.
///
/// When `body` throws, the service is cancelled and awaited, and `body`'s error is thrown.
public func withRunningBot<Result>(
    _ service: some Service, stopping: Stopping = .cancelling, _ body: () async throws -> Result
) async throws -> Result {
    switch stopping {
    case .cancelling:
        return try await running(service, body) { group in
            group.cancelAll()
            await drain(&group)
        }
    case .gracefully:
        return try await testGracefulShutdown { trigger in
            try await running(service, body) { group in
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}

/// Runs `service` beside `body`, then `stop`s it; cancels it should `body` throw.
private func running<Result>(
    _ service: some Service, _ body: () async throws -> Result,
    stop: (inout ThrowingTaskGroup<Void, any Error>) async throws -> Void
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await service.run() }
        let result: Result
        do {
            result = try await body()
        } catch {
            group.cancelAll()
            await drain(&group)
            throw error
        }
        try await stop(&group)
        return result
    }
}

/// Waits for every task of a cancelled group, whatever each ends with.
private func drain(_ group: inout ThrowingTaskGroup<Void, any Error>) async {
    while true {
        do {
            guard try await group.next() != nil else { return }
        } catch {
            continue
        }
    }
}
