import Foundation
import Logging
import TesseraEngine

/// How the runtime's services live with failures: storage work is retried while the store calls its failure
/// transient (busy, locked, a full disk, the network), a platform's failure is waited out on a growing backoff,
/// and each episode is one warning, then debug lines, then one notice when it works again. Any other failure is
/// thrown, which ends the service and, with it, the process: its supervisor restarts it.
struct Retrier: Sendable {
    let store: any GameStore
    let transport: String
    let initialBackoff: Duration
    let maximumBackoff: Duration
    let clock: ServiceClock
    /// A fraction in 0…1 for each backoff's jitter: randomness is passed in, as the clock is.
    let jitter: @Sendable () -> Double
    let logger: Logger

    func backoff() -> Backoff {
        Backoff(initial: initialBackoff, maximum: maximumBackoff, jitter: jitter)
    }

    /// Runs storage work, retrying it with backoff while the store says its failure is transient.
    func storage<Result>(_ activity: String, _ work: () async throws -> Result) async throws -> Result {
        var backoff = backoff()
        var failures = 0
        while true {
            do {
                let result = try await work()
                if failures > 0 {
                    logger.notice(
                        "Storage works again", metadata: ["activity": "\(activity)", "failures": "\(failures)"])
                }
                return result
            } catch let error where store.isTransient(error) {
                failures += 1
                let delay = backoff.next()
                if failures == 1 {
                    logger.warning(
                        """
                        Storage failed while \(activity); retrying until it works. Check the disk's free space \
                        and that no other program holds the database.
                        """,
                        metadata: ["error": "\(error)", "retry.after": "\(delay)"])
                }
                try await clock.sleep(for: delay)
            }
        }
    }

    /// Waits out a platform failure: its backoff, or the delay the platform asked for. A fatal one (a token the
    /// platform refuses) is thrown.
    func pause(after error: TransportError, backoff: inout Backoff, activity: String) async throws {
        if case .fatal = error {
            logger.critical("Stopping: \(error)", metadata: ["transport": "\(transport)"])
            throw error
        }
        let firstFailure = backoff.failures == 0
        var delay = backoff.next()
        if case .rateLimited(let retryAfter, _) = error { delay = retryAfter }
        let metadata: Logger.Metadata = ["transport": "\(transport)", "error": "\(error)", "retry.after": "\(delay)"]
        if firstFailure {
            logger.warning(
                "Failure while \(activity); retrying until it works. Check the network and the platform's status.",
                metadata: metadata)
        } else {
            logger.debug("Failure while \(activity) again; retrying", metadata: metadata)
        }
        try await clock.sleep(for: delay)
    }

    /// Ends a platform failure episode: says once that the platform works again.
    func recovered(_ backoff: inout Backoff, activity: String) {
        if backoff.failures > 0 {
            logger.notice(
                "The platform works again",
                metadata: ["transport": "\(transport)", "activity": "\(activity)", "failures": "\(backoff.failures)"])
        }
        backoff.reset()
    }
}
