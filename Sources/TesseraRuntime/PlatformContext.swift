import Foundation
import Logging
import ServiceLifecycle
import TesseraEngine

/// What one platform's services share: its transport and engine, the store, the platform's activity, the
/// clocks, the failure policy and the log. ``BotRuntime`` makes one per platform.
struct PlatformContext: Sendable {
    let transport: any ChatTransport
    let engine: BotEngine
    let store: any GameStore
    let activity: PlatformActivity
    /// What the services wait on.
    let clock: ServiceClock
    /// The wall clock the engine's days and the heartbeat read.
    let now: @Sendable () -> Date
    let retrier: Retrier
}

/// A service of one platform, which reaches what the platform's services share through its context.
protocol PlatformService: Service {
    var context: PlatformContext { get }
}

extension PlatformService {
    var transport: any ChatTransport { context.transport }
    var platform: Platform { context.transport.platform }
    var engine: BotEngine { context.engine }
    var store: any GameStore { context.store }
    var activity: PlatformActivity { context.activity }
    var clock: ServiceClock { context.clock }
    var now: @Sendable () -> Date { context.now }
    var retrier: Retrier { context.retrier }
    var logger: Logger { context.retrier.logger }
}
