import Foundation
import ServiceLifecycle
import Synchronization
import TesseraEngine

/// Checks the storage and writes the heartbeat `tessera status` reads, from the moment this process leads a
/// platform and every ``BotRuntime/Configuration/healthInterval`` after; the receiver writes one more at its
/// first poll (``write()``), so that status says it receives at once.
struct HeartbeatService: PlatformService {
    let context: PlatformContext
    let launcher: Heartbeat.Launcher?
    let monitor: RuntimeMonitor
    let interval: Duration
    /// The receiver's write at its first poll and this service's own, one at a time: each reads the times when
    /// its turn comes, so an older heartbeat never lands after a newer one (seen as "last poll never" on
    /// PostgreSQL, after the first poll had been written).
    let writes = OneAtATime()

    func run() async throws {
        try await write()
        while true {
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
            } catch is CancellationError {
                return
            }
            try await write()
        }
    }

    func write() async throws {
        let (store, activity, transport, now, retrier, monitor) = (
            self.store, self.activity, self.transport.name, self.now, self.retrier, self.monitor
        )
        try await writes.run {
            // A database file deleted or replaced under the bot throws here, which stops the bot.
            try await retrier.storage("checking the database") { try await store.verifyStorage() }
            let times = activity.current
            let heartbeat = Heartbeat(
                transport: transport, started: times.started, written: now(), lastPoll: times.lastPoll,
                lastSend: times.lastSend, listener: monitor.listenerProblem, launcher: launcher)
            try await retrier.storage("writing the heartbeat") {
                try await store.setSetting(Heartbeat.settingKey(for: transport), heartbeat.encoded())
            }
            activity.wroteHeartbeat(at: heartbeat.written)
        }
    }
}

/// Runs async work one piece at a time, in the order it is asked for, each after the one before has ended.
final class OneAtATime: Sendable {
    private let last = Mutex<Task<Void, any Error>?>(nil)

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let task = last.withLock { last in
            let previous = last
            let task = Task {
                _ = await previous?.result
                try await work()
            }
            last = task
            return task
        }
        // A caller cancelled (shutting down) cancels its work, which may be retrying a store that is down.
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
