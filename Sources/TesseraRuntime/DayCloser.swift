import Foundation
import Logging
import ServiceLifecycle
import TesseraEngine

/// Closes the days of one platform's groups at their rollovers and queues their summaries, and the streak
/// reminders of its players, every ``BotRuntime/Configuration/dayCheckInterval`` and at once on start, to catch
/// up on a rollover missed while the bot was down. It runs while this process leads the platform, so each group's
/// day is closed by one closer, with its own platform's traits and command syntax; where several processes share
/// a database, the store claims each group it closes (``GameStoreTransaction/activeGroups(on:)``).
struct DayCloser: PlatformService {
    let context: PlatformContext
    let interval: Duration

    func run() async throws {
        let (engine, now, platform) = (self.engine, self.now, self.platform)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let queued = try await retrier.storage("closing the groups' days") {
                try await store.write { store in
                    let instant = now()
                    return try await engine.closeDays(at: instant, on: platform, in: store)
                        + engine.queueReminders(at: instant, on: platform, in: store)
                }
            }
            if queued > 0 {
                logger.info("Queued daily summaries and reminders", metadata: ["posts": "\(queued)"])
                activity.outbox.ring()
            }
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
            } catch is CancellationError {
                return
            }
        }
    }
}
