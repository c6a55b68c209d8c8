public import CoreMetrics
public import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import TesseraEngine
import UnixSignals

/// The running bot, as small services in one `ServiceGroup`: for each platform a ``SendService``, and, while this
/// process leads the platform (``LeadershipService``), a ``ReceiveService``, a ``DayCloser``, an
/// ``AnalysisService`` and a ``HeartbeatService``. ``serviceGroup(platforms:before:signals:)`` puts them in dependency order after the
/// services they need (the store's own), so that a graceful shutdown stops receiving first, then sends what it can, then
/// closes the store, all within ``Configuration/shutdownDeadline``.
///
/// A failure is never silent: a transient one (the network, a busy or full disk) is retried with backoff and
/// logged once per episode (``Retrier``); any other ends the group, which throws it, so the process exits and its
/// supervisor restarts it.
public struct BotRuntime<RuntimeClock: Clock>: Sendable where RuntimeClock.Duration == Duration {
    public struct Configuration: Sendable {
        /// The first pause after a failure; it doubles (with jitter) up to ``maximumBackoff``.
        public var initialBackoff = Duration.milliseconds(500)
        public var maximumBackoff = Duration.seconds(30)
        /// How often the sender looks for postponed messages that have become due.
        public var outboxInterval = Duration.seconds(1)
        /// Outgoing limits by platform; a platform not named keeps its own (``PlatformTraits/rateLimits``).
        public var rateLimits: [Platform: RateLimits] = [:]
        /// How many chats are sent to at the same time (each chat's messages stay in order).
        public var concurrentChats = 8
        /// How often groups' days are checked for closing (and their summaries queued); also at start, to
        /// catch up on a rollover missed while the bot was down.
        public var dayCheckInterval = Duration.seconds(5)
        /// How often the analysis service looks for finished games to analyse when none was waiting.
        public var analysisInterval = Duration.seconds(1)
        /// How long the services have to finish their work once a graceful shutdown starts (the batch in hand,
        /// draining the outbox); then they are cancelled and whatever is unsent stays in the outbox. Shorter than
        /// `docker stop`'s 10 s and the systemd unit's 30 s, whatever the platform does.
        public var shutdownDeadline = Duration.seconds(7)
        /// How often the storage is checked (the database file still the one opened) and the heartbeat
        /// written for `tessera status`.
        public var healthInterval = Duration.seconds(30)
        /// How the process was started, kept in the heartbeat for `tessera status`; the terminal chat's own
        /// transport says so by itself.
        public var launcher: Heartbeat.Launcher?
        /// Failed attempts after which a message is given up (logged and removed), when other chats are
        /// being sent to meanwhile, so the failures are that chat's own and not the platform's or network's.
        public var maximumAttempts = 10
        /// How long a sender holds a message it is about to send (``GameStore/hold(_:for:)``), where several
        /// processes send from one database, so that no other sender takes it meanwhile; renewed every third of
        /// that while the send lasts. A sender that dies while sending delays that message by as much.
        public var sendHold = Duration.seconds(10)
        /// Whether this process receives and closes days now, or stands by (several processes on one database).
        public var leadership: any Leadership = SoleLeader()
        /// Where the services count (README "Metrics"): the executable's Prometheus registry; nowhere by default.
        public var metrics: any MetricsFactory = NOOPMetricsHandler.instance

        public init() {}
    }

    private let store: any GameStore
    private let configuration: Configuration
    private let clock: RuntimeClock
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private let logger: Logger
    private let commits: CommitMetrics
    /// Each platform's health and the gauges counted when read, for the operator's listener.
    public let monitor: RuntimeMonitor

    /// `now` is the wall clock the engine's days and the heartbeat read; `clock` is what the services wait on;
    /// `jitter` gives a fraction in 0…1 for each backoff. All three are injected, so tests control them.
    public init(
        store: any GameStore,
        configuration: Configuration = Configuration(),
        clock: RuntimeClock,
        now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double,
        logger: Logger
    ) {
        self.store = store
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.jitter = jitter
        self.logger = logger
        commits = CommitMetrics(factory: configuration.metrics)
        monitor = RuntimeMonitor(store: store, started: now(), heartbeatInterval: configuration.healthInterval)
    }

    /// One platform's services: its sender, and its leader's work.
    func services(for transport: any ChatTransport, engine: BotEngine) -> (sender: any Service, leader: any Service) {
        let retrier = Retrier(
            store: store, transport: transport.name, initialBackoff: configuration.initialBackoff,
            maximumBackoff: configuration.maximumBackoff, clock: clock, jitter: jitter,
            logger: logger)
        let activity = PlatformActivity(
            transport: transport.name, platform: transport.platform, started: now(),
            metrics: PlatformMetrics(platform: transport.platform, factory: configuration.metrics))
        monitor.register(activity)
        let heartbeat = HeartbeatService(
            transport: transport.name, launcher: transport.name == "console" ? .terminal : configuration.launcher,
            store: store, activity: activity, monitor: monitor,
            interval: configuration.healthInterval,
            clock: clock, now: now, retrier: retrier)
        let sender = SendService(
            transport: transport, store: store, sentMessages: SentMessages(store: store), activity: activity,
            rateLimits: configuration.rateLimits[transport.platform] ?? transport.traits.rateLimits,
            configuration: configuration, clock: clock, now: now, retrier: retrier,
            gather: { [store] message in
                try await store.read { try await engine.gatherPlayerData(message, at: now(), in: $0) }
            })
        let receiver = ReceiveService(
            transport: transport, store: store, engine: engine, activity: activity, heartbeat: heartbeat, now: now,
            retrier: retrier, commits: commits)
        let closer = DayCloser(
            platform: transport.platform, store: store, engine: engine, activity: activity,
            interval: configuration.dayCheckInterval, clock: clock, now: now, retrier: retrier)
        let analyses = AnalysisService(
            platform: transport.platform, store: store, engine: engine, activity: activity,
            interval: configuration.analysisInterval, clock: clock, retrier: retrier)
        let leader = LeadershipService(
            role: transport.name, leadership: configuration.leadership,
            services: [receiver, closer, analyses, heartbeat], activity: activity)
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
