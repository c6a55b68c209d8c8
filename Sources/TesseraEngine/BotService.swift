import AsyncAlgorithms
public import Foundation
public import Logging
public import ServiceLifecycle

/// The running bot: receives updates from a transport, applies them through the engine exactly once, and
/// sends the replies from the durable outbox within the platform's rate limits.
///
/// Two loops share one task group. Receiving stores each batch's effects and the transport's new position
/// in one transaction, then wakes the sender. Sending drains the outbox after the commit, so a reply computed
/// before a crash is still sent after the restart. On graceful shutdown the receiver stops polling, the batch
/// in hand is finished, and the sender drains what it may send before returning.
public struct BotService<ServiceClock: Clock>: Service where ServiceClock.Duration == Duration {
    public struct Configuration: Sendable {
        /// The first pause after a failure; it doubles (with jitter) up to ``maximumBackoff``.
        public var initialBackoff = Duration.milliseconds(500)
        public var maximumBackoff = Duration.seconds(30)
        /// How often the sender looks for postponed messages that have become due.
        public var outboxInterval = Duration.seconds(1)
        public var rateLimits = RateLimiter.Configuration()

        public init() {}
    }

    private let transport: any ChatTransport
    private let store: any GameStore
    private let engine: BotEngine
    private let configuration: Configuration
    private let clock: ServiceClock
    private let now: @Sendable () -> Date
    private let logger: Logger

    public init(
        transport: any ChatTransport,
        store: any GameStore,
        engine: BotEngine,
        configuration: Configuration = Configuration(),
        clock: ServiceClock,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger
    ) {
        self.transport = transport
        self.store = store
        self.engine = engine
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        let (wakeups, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { waker.finish() }
                try await receiveLoop(waker: waker)
            }
            group.addTask { try await sendLoop(wakeups: wakeups) }
            try await group.waitForAll()
        }
        logger.info("Stopped", metadata: ["transport": "\(transport.name)"])
    }

    // MARK: - Receiving

    private func receiveLoop(waker: AsyncStream<Void>.Continuation) async throws {
        var position = try await store.position(of: transport.name)
        var backoff = Backoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        logger.info(
            "Receiving",
            metadata: ["transport": "\(transport.name)", "position": "\(position.map(String.init) ?? "start")"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let batch: ReceivedBatch
            do {
                let transport = self.transport
                let after = position
                batch = try await cancelWhenGracefulShutdown { try await transport.receive(after: after) }
            } catch let error as TransportError {
                try await pause(after: error, backoff: &backoff, activity: "receiving")
                continue
            } catch is CancellationError {
                break
            }
            backoff.reset()
            if batch.messages.isEmpty && batch.migrations.isEmpty && batch.nextPosition == position { continue }
            try await apply(batch)
            position = batch.nextPosition
            waker.yield()
        }
    }

    /// Applies a batch and stores the new position in one transaction.
    private func apply(_ batch: ReceivedBatch) async throws {
        let engine = self.engine
        let logger = self.logger
        let now = self.now
        try await store.processBatch(transport: transport.name, nextPosition: batch.nextPosition) { transaction in
            for migration in batch.migrations {
                try transaction.moveChat(from: migration.from, to: migration.to)
            }
            for message in batch.messages {
                do {
                    // One message that cannot be handled must not hold back the others forever.
                    try transaction.isolated { try engine.handle(message, at: now(), in: transaction) }
                } catch {
                    logger.error(
                        "A message could not be handled and was skipped",
                        metadata: ["chat.id": "\(message.chat)", "user.id": "\(message.sender)", "error": "\(error)"]
                    )
                }
            }
        }
    }

    // MARK: - Sending

    private func sendLoop(wakeups: AsyncStream<Void>) async throws {
        var limiter = RateLimiter(configuration: configuration.rateLimits)
        var backoff = Backoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        let start = clock.now
        let ticks = AsyncTimerSequence(interval: configuration.outboxInterval, clock: clock).map { _ in () }
        for await _ in merge(wakeups, ticks).cancelOnGracefulShutdown() {
            try await drain(&limiter, &backoff, since: start)
        }
        // Shutting down: send what may be sent now; the rest stays in the outbox for the next start.
        try await drain(&limiter, &backoff, since: start)
    }

    /// One pass over the outbox: sends what the rate limits allow, oldest first, keeping each chat in order.
    private func drain(_ limiter: inout RateLimiter, _ backoff: inout Backoff, since start: ServiceClock.Instant)
        async throws
    {
        while true {
            let pending = try await store.pendingMessages(limit: 100, now: now())
            if pending.isEmpty { return }
            var held = Set<ChatID>()
            var sent = 0
            for entry in pending where !held.contains(entry.message.chat) {
                let chat = entry.message.chat
                let seconds = start.duration(to: clock.now).seconds
                if limiter.acquire(chat: chat, isGroup: chat.rawValue < 0, now: seconds) > 0 {
                    held.insert(chat)
                    continue
                }
                do {
                    try await transport.send(entry.message)
                    try await store.markSent(entry.id)
                    sent += 1
                    backoff.reset()
                } catch let error as TransportError {
                    switch error {
                    case .rateLimited(let delay, let limitedChat):
                        let until = seconds + delay.seconds
                        limiter.block(chat: limitedChat ?? chat, until: until)
                        try await store.postpone(entry.id, until: now() + delay.seconds)
                        held.insert(chat)
                    case .chatUnavailable(let unavailable, let reason):
                        logger.notice(
                            "Chat unavailable; marked inactive",
                            metadata: ["chat.id": "\(unavailable)", "reason": "\(reason)"])
                        try await store.deactivateChat(unavailable)
                    case .chatMigrated(let from, let to):
                        logger.notice("Chat moved", metadata: ["chat.id": "\(from)", "chat.new_id": "\(to)"])
                        try await store.write { try $0.moveChat(from: from, to: to) }
                        held.insert(chat)
                    case .messageRejected(let reason):
                        logger.error(
                            "Message rejected and dropped", metadata: ["chat.id": "\(chat)", "reason": "\(reason)"])
                        try await store.markSent(entry.id)
                    case .transient:
                        try await pause(after: error, backoff: &backoff, activity: "sending")
                        held.insert(chat)
                    case .fatal:
                        throw error
                    }
                }
            }
            // Everything left is waiting on a rate limit or a retry: the next wake-up or tick resumes it.
            if sent == 0 { return }
        }
    }

    // MARK: - Failures

    private func pause(after error: TransportError, backoff: inout Backoff, activity: String) async throws {
        let delay: Duration
        switch error {
        case .fatal:
            logger.critical("Stopping: \(error)", metadata: ["transport": "\(transport.name)"])
            throw error
        case .rateLimited(let retryAfter, _):
            delay = retryAfter
        default:
            delay = backoff.next()
        }
        logger.warning(
            "Failure while \(activity); retrying",
            metadata: ["transport": "\(transport.name)", "error": "\(error)", "retry.after": "\(delay)"]
        )
        try await clock.sleep(for: delay)
    }
}

/// Exponential backoff with full jitter.
struct Backoff {
    let initial: Duration
    let maximum: Duration
    private var attempt = 0

    init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    mutating func next() -> Duration {
        let ceiling = min(maximum.seconds, initial.seconds * pow(2, Double(min(attempt, 30))))
        attempt += 1
        return .seconds(Double.random(in: (ceiling / 2)...ceiling))
    }

    mutating func reset() { attempt = 0 }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
