public import CoreMetrics
public import TesseraEngine

/// How the runtime's services run: their intervals, backoff, limits and deadline (``BotRuntime/Configuration``).
public struct RuntimeConfiguration: Sendable {
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
    /// How the process was started (the terminal chat, systemd, a container), kept in the heartbeat for
    /// `tessera status`.
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
    /// Where the services count (docs/operating.md, "Metrics and health"): the executable's Prometheus registry; nowhere by default.
    public var metrics: any MetricsFactory = NOOPMetricsHandler.instance

    public init() {}
}
