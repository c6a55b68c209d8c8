import Foundation
import ServiceLifecycle
import TesseraEngine

/// Checks the storage and writes the heartbeat `tessera status` reads, from the moment this process leads a
/// platform and every ``BotRuntime/Configuration/healthInterval`` after; the receiver writes one more at its
/// first poll (``write()``), so that status says it receives at once.
struct HeartbeatService<RuntimeClock: Clock>: Service where RuntimeClock.Duration == Duration {
    let transport: String
    let store: any GameStore
    let activity: PlatformActivity
    let interval: Duration
    let clock: RuntimeClock
    let now: @Sendable () -> Date
    let retrier: Retrier<RuntimeClock>

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
        // A database file deleted or replaced under the bot throws here, which stops the bot.
        try await retrier.storage("checking the database") { try await store.verifyStorage() }
        let times = activity.current
        let heartbeat = Heartbeat(
            transport: transport, started: times.started, written: now(), lastPoll: times.lastPoll,
            lastSend: times.lastSend)
        try await retrier.storage("writing the heartbeat") {
            try await store.setSetting(Heartbeat.settingKey(for: transport), heartbeat.encoded())
        }
    }
}
