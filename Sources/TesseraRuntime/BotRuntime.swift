import CoreMetrics
public import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import TesseraEngine
import UnixSignals

/// The running bot, as small services in one `ServiceGroup`. ``services(for:engine:)`` lists, in order, what runs
/// for each platform: a ``SendService``, and, while this process leads the platform (``LeadershipService``), a
/// ``ReceiveService``, a ``DayCloser``, an ``AnalysisService`` and a ``HeartbeatService``, all sharing one
/// ``PlatformContext``. ``serviceGroup(platforms:before:signals:)`` puts them in dependency order after the
/// services they need (the store's own), so that a graceful shutdown stops receiving first, then sends what it
/// can, then closes the store, all within ``Configuration/shutdownDeadline``.
///
/// A failure is never silent: a transient one (the network, a busy or full disk) is retried with backoff and
/// logged once per episode (``Retrier``); any other ends the group, which throws it, so the process exits and its
/// supervisor restarts it.
public struct BotRuntime: Sendable {
    public typealias Configuration = RuntimeConfiguration

    private let store: any GameStore
    private let configuration: Configuration
    private let clock: ServiceClock
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private let logger: Logger
    private let commits: CommitMetrics
    /// Each platform's health and the gauges counted when read, for the operator's listener.
    public let monitor: RuntimeMonitor

    /// `now` is the wall clock the engine's days and the heartbeat read; `clock` is what the services wait on;
    /// `jitter` gives a fraction in 0…1 for each backoff. All three are injected, so tests control them.
    public init<RuntimeClock: Clock>(
        store: any GameStore,
        configuration: Configuration = Configuration(),
        clock: RuntimeClock,
        now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double,
        logger: Logger
    ) where RuntimeClock.Duration == Duration {
        self.store = store
        self.configuration = configuration
        self.clock = ServiceClock(clock)
        self.now = now
        self.jitter = jitter
        self.logger = logger
        commits = CommitMetrics(factory: configuration.metrics)
        monitor = RuntimeMonitor(store: store, started: now(), heartbeatInterval: configuration.healthInterval)
    }

    /// One platform's services: its sender, and the leader's work (receiving, closing days, analyses, the
    /// heartbeat), which runs while this process leads the platform.
    func services(for transport: any ChatTransport, engine: BotEngine) -> (sender: any Service, leader: any Service) {
        let activity = PlatformActivity(
            transport: transport.name, platform: transport.platform, started: now(),
            metrics: PlatformMetrics(platform: transport.platform, factory: configuration.metrics))
        monitor.register(activity)
        let context = PlatformContext(
            transport: transport, engine: engine, store: store, activity: activity, clock: clock, now: now,
            retrier: Retrier(
                store: store, transport: transport.name, initialBackoff: configuration.initialBackoff,
                maximumBackoff: configuration.maximumBackoff, clock: clock, jitter: jitter, logger: logger))
        let heartbeat = HeartbeatService(
            context: context, launcher: configuration.launcher,
            monitor: monitor, interval: configuration.healthInterval)
        let sender = SendService(
            context: context, sentMessages: SentMessages(store: store),
            rateLimits: configuration.rateLimits[transport.platform] ?? transport.traits.rateLimits,
            configuration: configuration)
        let leader = LeadershipService(
            role: transport.name, leadership: configuration.leadership,
            services: [
                ReceiveService(context: context, heartbeat: heartbeat, commits: commits),
                DayCloser(context: context, interval: configuration.dayCheckInterval),
                AnalysisService(context: context, interval: configuration.analysisInterval),
                heartbeat,
            ], activity: activity)
        return (sender, leader)
    }

    /// Every platform's services, in dependency order: the senders, then the leaders' work, so that a graceful
    /// shutdown (in reverse) stops receiving first, each receiver finishing its batch, and then drains the outbox.
    public func services(
        platforms: [(transport: any ChatTransport, engine: BotEngine)]
    ) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let perPlatform = platforms.map { services(for: $0.transport, engine: $0.engine) }
        let shutdown = ShutdownProgress()
        return (perPlatform.map(\.sender) + perPlatform.map(\.leader)).map {
            // A failure still lets the others finish their work, within the deadline, before the group throws it.
            ServiceGroupConfiguration.ServiceConfiguration(
                service: Reported($0, shutdown: shutdown, logger: logger),
                failureTerminationBehavior: .gracefullyShutdownGroup)
        }
    }

    /// The group that runs every platform's services after `before` (the store's own services, which must start
    /// first and stop last), with ``Configuration/shutdownDeadline``. SIGTERM and SIGINT stop it gracefully when
    /// `signals` is true. More services can join it while it runs (`addServiceUnlessShutdown`), as
    /// ``services(platforms:)`` once the platforms are connected.
    public func serviceGroup(
        platforms: [(transport: any ChatTransport, engine: BotEngine)],
        before: [ServiceGroupConfiguration.ServiceConfiguration] = [],
        signals: Bool = false
    ) -> ServiceGroup {
        var group = ServiceGroupConfiguration(services: before + services(platforms: platforms), logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownDeadline
        if signals { group.gracefulShutdownSignals = [.sigterm, .sigint] }
        return ServiceGroup(configuration: group)
    }
}

/// A service whose failure is logged, once and loudly (`ServiceGroup` logs it at debug level only), and whose
/// cancellation at the shutdown deadline is no failure: the process then exits cleanly, its unsent messages
/// queued for the next start, and says so once.
private struct Reported: Service, CustomStringConvertible {
    let service: any Service
    let shutdown: ShutdownProgress
    let logger: Logger

    init(_ service: any Service, shutdown: ShutdownProgress, logger: Logger) {
        self.service = service
        self.shutdown = shutdown
        self.logger = logger
    }

    func run() async throws {
        do {
            try await withGracefulShutdownHandler {
                try await service.run()
            } onGracefulShutdown: {
                shutdown.started()
            }
        } catch is CancellationError {
            // Past the deadline (the group shuts its services down one after another, so this one may not have
            // been told yet), or the process cancelled: either way nothing failed.
            if shutdown.cutShort() {
                logger.warning(
                    "Stopping before the work in hand was done; unsent messages stay in the outbox",
                    metadata: ["service": "\(service)"])
            }
        } catch {
            logger.critical(
                "Stopping: \(error). Restart tessera once the cause is fixed; nothing acknowledged is lost.",
                metadata: ["service": "\(service)"])
            throw error
        }
    }

    // ServiceGroup logs each service's description: a short one, with none of the engine's secrets.
    var description: String { "\(service)" }
}

/// Whether the bot's graceful shutdown has started, and whether a service cancelled since has said so.
private final class ShutdownProgress: Sendable {
    private let state = Mutex((started: false, reported: false))

    func started() { state.withLock { $0.started = true } }

    /// True once for a shutdown cut short by its deadline.
    func cutShort() -> Bool {
        state.withLock { state in
            guard state.started, !state.reported else { return false }
            state.reported = true
            return true
        }
    }
}
