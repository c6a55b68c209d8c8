public import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization

/// The running bot: receives updates from a transport, applies them through the engine exactly once, and
/// sends the replies from the durable outbox within the platform's rate limits.
///
/// Four loops share one task group. Receiving stores each batch's effects and the transport's new position
/// in one transaction, then wakes the sender. Sending drains the outbox after the commit, so a reply computed
/// before a crash is still sent after the restart. Closing days queues the groups' summaries; the health loop
/// checks the storage and writes the heartbeat. On graceful
/// shutdown the receiver stops polling, the batch in hand is finished, and the sender drains what it may send
/// before returning.
///
/// A failure is never silent: a transient one (the network, a busy or full disk) is retried with backoff and
/// logged once per episode; any other ends every loop, and `run()` throws it, so the process exits and its
/// supervisor restarts it.
public struct BotService<ServiceClock: Clock>: Service where ServiceClock.Duration == Duration {
    public struct Configuration: Sendable {
        /// The first pause after a failure; it doubles (with jitter) up to ``maximumBackoff``.
        public var initialBackoff = Duration.milliseconds(500)
        public var maximumBackoff = Duration.seconds(30)
        /// How often the sender looks for postponed messages that have become due.
        public var outboxInterval = Duration.seconds(1)
        /// Outgoing limits; nil: the platform's own (``PlatformTraits/rateLimits``).
        public var rateLimits: RateLimiter.Configuration?
        /// How many chats are sent to at the same time (each chat's messages stay in order).
        public var concurrentChats = 8
        /// How often groups' days are checked for closing (and their summaries queued); also at start, to
        /// catch up on a rollover missed while the bot was down.
        public var dayCheckInterval = Duration.seconds(5)
        /// How long the loops have to finish their work once a graceful shutdown starts (the batch in hand,
        /// draining the outbox); then they are cancelled and whatever is unsent stays in the outbox. Shorter
        /// than `docker stop`'s 10 s and the systemd unit's 30 s, whatever the platform does.
        public var shutdownDeadline = Duration.seconds(7)
        /// How often the storage is checked (the database file still the one opened) and the heartbeat
        /// written for `tessera status`.
        public var healthInterval = Duration.seconds(30)
        /// Failed attempts after which a message is given up (logged and removed), when other chats are
        /// being sent to meanwhile, so the failures are that chat's own and not the platform's or network's.
        public var maximumAttempts = 10
        /// How long a sender holds a message it is about to send (``GameStore/hold(_:for:)``), where several
        /// processes send from one database, so that no other sender takes it meanwhile; renewed every third of
        /// that while the send lasts. A sender that dies while sending delays that message by as much.
        public var sendHold = Duration.seconds(10)
        /// Whether this process receives and closes days now, or stands by (several processes on one database).
        public var leadership: any Leadership = SoleLeader()

        public init() {}
    }

    private let transport: any ChatTransport
    private let store: any GameStore
    private let sentMessages: SentMessages
    private let engine: BotEngine
    private let configuration: Configuration
    private let clock: ServiceClock
    private let now: @Sendable () -> Date
    /// A fraction in 0…1 for each backoff's jitter: randomness is passed in, as the clock is.
    private let jitter: @Sendable () -> Double
    private let logger: Logger
    private let health = HealthState()
    /// The outbox ids of the messages being sent right now, whose holds ``renewHolds()`` renews.
    private let sending = MessagesBeingSent()

    public init(
        transport: any ChatTransport,
        store: any GameStore,
        engine: BotEngine,
        configuration: Configuration = Configuration(),
        clock: ServiceClock,
        now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double,
        logger: Logger
    ) {
        self.transport = transport
        self.store = store
        self.sentMessages = SentMessages(store: store)
        self.engine = engine
        self.configuration = configuration
        self.clock = clock
        self.now = now
        self.jitter = jitter
        self.logger = logger
    }

    public func run() async throws {
        let outbox = Doorbell()
        let clock = self.clock
        let deadline = configuration.shutdownDeadline
        let started = now()
        health.value.withLock { $0.started = started }
        // Before any loop: a database already gone stops the bot here.
        try await retryingStorage("checking the database") { try await store.verifyStorage() }
        let platform = transport.platform
        let dropped = try await retryingStorage("starting") { try await store.dropClaimed(platform: platform) }
        if dropped > 0 {
            logger.warning(
                "The bot stopped while posting a summary; it is not posted again, so no group sees it twice",
                metadata: ["messages": "\(dropped)"])
        }
        try await withThrowingTaskGroup(of: ServiceTaskEnd.self) { group in
            // Receiving, closing days and the heartbeat `tessera status` reads (the leader's, then, not a
            // standby's) while this process leads; sending whatever it does.
            let (leadership, name) = (configuration.leadership, transport.name)
            group.addTask {
                try await leadership.whileLeading(name) {
                    // A heartbeat from the moment it leads.
                    try await checkHealth()
                    try await withThrowingTaskGroup(of: Void.self) { leading in
                        leading.addTask { try await receiveLoop(outbox: outbox) }
                        leading.addTask { try await closeDaysLoop(outbox: outbox) }
                        leading.addTask { try await healthLoop() }
                        // The first to fail ends the other: none runs beside a dead one.
                        while try await leading.next() != nil {}
                    }
                }
                return .loop
            }
            group.addTask {
                try await sendLoop(outbox: outbox)
                return .loop
            }
            group.addTask {
                try await gracefulShutdown()
                try await clock.sleep(for: deadline)
                return .deadline
            }
            var running = 2
            var pastDeadline = false
            do {
                // A loop that ends normally (graceful shutdown) leaves the others to finish their work; one that
                // fails ends them all, so no loop keeps running beside a dead one.
                while running > 0, let ended = try await group.next() {
                    switch ended {
                    case .loop:
                        running -= 1
                    case .deadline:
                        pastDeadline = true
                        logger.warning(
                            "Stopping before the work in hand was done; unsent messages stay in the outbox",
                            metadata: ["shutdown.deadline": "\(deadline)"])
                        group.cancelAll()
                    }
                }
                // The loops are done: the deadline is not needed.
                group.cancelAll()
            } catch is CancellationError where pastDeadline {
                // Loops cancelled at the deadline end this way; nothing failed.
            } catch {
                group.cancelAll()
                logger.critical(
                    "Stopping: \(error). Restart tessera once the cause is fixed; nothing acknowledged is lost.",
                    metadata: ["transport": "\(transport.name)"])
                throw error
            }
        }
        logger.info("Stopped", metadata: ["transport": "\(transport.name)"])
    }

    // MARK: - Receiving

    private func receiveLoop(outbox: Doorbell) async throws {
        var position = try await store.position(of: transport.name)
        var backoff = Backoff(
            initial: configuration.initialBackoff, maximum: configuration.maximumBackoff, jitter: jitter)
        logger.info(
            "Receiving",
            metadata: ["transport": "\(transport.name)", "position": "\(position ?? "start")"])
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
            recovered(&backoff, activity: "receiving")
            let polled = now()
            let first = health.value.withLock { state in
                defer { state.lastPoll = polled }
                return state.lastPoll == nil
            }
            // `tessera status` says the bot is receiving from its first poll on, not from the next heartbeat.
            if first { try await checkHealth() }
            if batch.messages.isEmpty && batch.migrations.isEmpty && batch.nextPosition == position { continue }
            let checked = await checkingPlatform(batch)
            // A transaction that fails is rolled back, so trying it again applies the batch once.
            let applied = try await retryingStorage("storing a batch") { try await apply(checked, after: position) }
            // Replies may go out now; the next poll acknowledges the batch, so it must be on disk first.
            outbox.ring()
            try await retryingStorage("flushing to disk") { try await store.flush() }
            if applied {
                position = checked.nextPosition
            } else {
                // Applied already (by an earlier try whose commit went through, or by another process): carry on
                // from what is stored, never applying anything twice.
                logger.notice(
                    "Skipped a batch that was applied already",
                    metadata: ["transport": "\(transport.name)", "position": "\(position ?? "start")"])
                position = try await retryingStorage("reading the position") {
                    try await store.position(of: transport.name)
                }
            }
        }
    }

    /// Asks the platform what the batch's messages need to know (``BotEngine/questions(for:)``): whether
    /// senders administer their group, whether the bot may delete there. When it cannot tell, the message says
    /// so to the engine (nil) rather than failing the batch. The questions are asked concurrently (the
    /// transport keeps each short), so a slow platform holds a batch up for one answer's time at most.
    private func checkingPlatform(_ batch: ReceivedBatch) async -> ReceivedBatch {
        var batch = batch
        let (transport, logger) = (self.transport, self.logger)
        let asked = batch.messages.indices.flatMap { index in
            engine.questions(for: batch.messages[index]).map { (index, $0) }
        }
        // Most batches need none; an empty task group still costs a suspension on every batch.
        guard !asked.isEmpty else { return batch }
        let answers = await withTaskGroup(of: (Int, PlatformQuestion, Bool?).self) { group in
            for (index, question) in asked {
                let message = batch.messages[index]
                group.addTask {
                    do {
                        switch question {
                        case .senderIsAdministrator:
                            return (
                                index, question, try await transport.isAdministrator(message.sender, in: message.chat)
                            )
                        case .botMayDeleteMessages:
                            return (index, question, try await transport.mayDeleteMessages(in: message.chat))
                        }
                    } catch {
                        logger.warning(
                            "Could not ask the platform about a group; the message is handled without the answer",
                            metadata: [
                                "chat.id": "\(message.chat)", "user.id": "\(message.sender)",
                                "question": "\(question.rawValue)", "error": "\(error)",
                            ])
                        return (index, question, nil)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (index, question, answer) in answers { batch.messages[index][answer: question] = answer }
        return batch
    }

    /// Applies a batch and stores the new position in one transaction; false when the stored position had moved
    /// past `position` already, and nothing was applied.
    private func apply(_ batch: ReceivedBatch, after position: String?) async throws -> Bool {
        let engine = self.engine
        let logger = self.logger
        let now = self.now
        let applied: Void? = try await store.processBatch(
            transport: transport.name, from: position, to: batch.nextPosition
        ) { transaction in
            for migration in batch.migrations {
                try await transaction.moveChat(from: migration.from, to: migration.to)
            }
            for message in batch.messages {
                do {
                    // One message that cannot be handled must not hold back the others forever.
                    try await transaction.isolated { try await engine.handle(message, at: now(), in: transaction) }
                } catch {
                    logger.error(
                        "A message could not be handled and was skipped",
                        metadata: ["chat.id": "\(message.chat)", "user.id": "\(message.sender)", "error": "\(error)"]
                    )
                }
            }
        }
        return applied != nil
    }

    // MARK: - Closing days

    private func closeDaysLoop(outbox: Doorbell) async throws {
        let engine = self.engine
        let now = self.now
        // This platform's groups only: another platform's service closes its own, with its own traits, and two
        // services never sum up one day.
        let platform = transport.platform
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let queued = try await retryingStorage("closing the groups' days") {
                try await store.write { store in
                    let instant = now()
                    return try await engine.closeDays(at: instant, on: platform, in: store)
                        + engine.queueReminders(at: instant, in: store)
                }
            }
            if queued > 0 {
                logger.info("Queued daily summaries and reminders", metadata: ["posts": "\(queued)"])
                outbox.ring()
            }
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: configuration.dayCheckInterval) }
            } catch is CancellationError {
                return
            }
        }
    }

    // MARK: - Health

    /// Checks the storage and writes the heartbeat `tessera status` reads, every interval until shutdown.
    private func healthLoop() async throws {
        while true {
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: configuration.healthInterval) }
            } catch is CancellationError {
                return
            }
            try await checkHealth()
        }
    }

    private func checkHealth() async throws {
        // A database file deleted or replaced under the bot throws here, which stops the service.
        try await retryingStorage("checking the database") { try await store.verifyStorage() }
        let heartbeat = health.value.withLock { $0 }.heartbeat(at: now(), transport: transport.name)
        try await retryingStorage("writing the heartbeat") {
            try await store.setSetting(Heartbeat.settingKey(for: transport.name), heartbeat.encoded())
        }
    }

    // MARK: - Sending

    /// Drains the outbox each time it is rung (a batch committed, summaries queued) and every
    /// ``Configuration/outboxInterval`` (postponed messages coming due), until graceful shutdown.
    private func sendLoop(outbox: Doorbell) async throws {
        var limiter = RateLimiter(configuration: configuration.rateLimits ?? transport.traits.rateLimits)
        var backoff = Backoff(
            initial: configuration.initialBackoff, maximum: configuration.maximumBackoff, jitter: jitter)
        let start = clock.now
        let (clock, interval) = (self.clock, configuration.outboxInterval)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while (try? await clock.sleep(for: interval)) != nil { outbox.ring() }
            }
            group.addTask { await renewHolds() }
            try await withGracefulShutdownHandler {
                while await outbox.waitForRing() {
                    try await retryingStorage("sending from the outbox") {
                        try await drain(&limiter, &backoff, since: start)
                    }
                }
            } onGracefulShutdown: {
                outbox.close()
            }
            group.cancelAll()
        }
        // Shutting down: send what may be sent now; the rest stays in the outbox for the next start. Cancelled
        // (another loop failed), it sends nothing more.
        if Task.isCancelled { return }
        try await drain(&limiter, &backoff, since: start)
    }

    /// Renews the hold of every message being sent, every third of ``Configuration/sendHold``, in one call: a send
    /// that lasts (a slow network) keeps its message from other senders however long it takes, and a sender that
    /// dies lets it go soon. One loop for all sends, not a timer each.
    private func renewHolds() async {
        let hold = configuration.sendHold
        while (try? await clock.sleep(for: hold / 3)) != nil {
            let ids = sending.ids
            guard !ids.isEmpty else { continue }
            do {
                let held = try await store.hold(ids, for: hold)
                // Sent meanwhile, a message is no longer held, and no longer being sent either.
                for id in ids where !held.contains(id) && sending.contains(id) {
                    logger.warning(
                        "Another sender took a message while it was being sent; it may be sent twice",
                        metadata: ["outbox.id": "\(id)"])
                }
            } catch {
                // The sends go on: they cannot be called back. Only where several processes send can a hold run out,
                // and only then may another sender send the message too.
                logger.warning(
                    "Could not renew the hold of messages being sent; another sender may send them too",
                    metadata: ["error": "\(error)"])
            }
        }
    }

    /// One pass over the outbox: sends what the rate limits allow, oldest first, keeping each chat in order.
    /// Different chats are sent to concurrently (up to ``Configuration/concurrentChats``); each message is
    /// removed from the outbox (in group commits, see ``SentMessages``) before its chat's next is sent, so a
    /// crash repeats at most one message per chat.
    private func drain(_ limiter: inout RateLimiter, _ backoff: inout Backoff, since start: ServiceClock.Instant)
        async throws
    {
        while true {
            let pending = try await store.pendingMessages(limit: 200, now: now(), platform: transport.platform)
            if pending.isEmpty { return }
            // Each chat's messages in order; only those the limits allow now. An answer to an inline query is no
            // message of its chat: it goes on its own, under the overall limit alone, before the query expires.
            var order: [SendingLane] = []
            var byLane: [SendingLane: [OutboxEntry]] = [:]
            for entry in pending {
                let lane = SendingLane(entry)
                if byLane[lane] == nil { order.append(lane) }
                byLane[lane, default: []].append(entry)
            }
            let seconds = start.duration(to: clock.now).seconds
            let ready: [[OutboxEntry]] = order.compactMap { lane in
                let allowed = (byLane[lane] ?? []).prefix { entry in
                    switch lane {
                    case .chat(let chat):
                        limiter.acquire(chat: chat, isGroup: entry.message.chatKind == .group, now: seconds) == 0
                    case .answer: limiter.acquireOverall(now: seconds) == 0
                    }
                }
                return allowed.isEmpty ? nil : Array(allowed)
            }
            if ready.isEmpty { return }

            let failures = try await sendConcurrently(ready)
            // Failures are one chat's own when other sends work: this pass's, or any in the last minute.
            let lastSend = health.value.withLock { $0.lastSend }
            let sendingWorks =
                failures.count < ready.count || lastSend.map { now().timeIntervalSince($0) < 60 } == true
            for (entry, error) in failures {
                try await handle(
                    error, for: entry, limiter: &limiter, backoff: &backoff, at: seconds, sendingWorks: sendingWorks)
            }
            if failures.count == ready.count && !sendingWorks { return }
            if failures.count < ready.count { recovered(&backoff, activity: "sending") }
        }
    }

    /// Sends each chat's messages in order, several chats at a time; returns the first failure of each chat
    /// that had one (its later messages stay queued).
    private func sendConcurrently(_ chats: [[OutboxEntry]]) async throws -> [(OutboxEntry, TransportError)] {
        let (transport, store) = (self.transport, self.store)
        let sentMessages = self.sentMessages
        let (health, now, hold, sending) = (self.health, self.now, configuration.sendHold, self.sending)
        return try await withThrowingTaskGroup(of: (OutboxEntry, TransportError)?.self) { group in
            var remaining = chats.makeIterator()
            func startNext() {
                guard let entries = remaining.next() else { return }
                group.addTask {
                    // The live messages this chat's sends post in this pass, newer than what the store read.
                    var livePosts: [String: MessageID] = [:]
                    for (index, entry) in entries.enumerated() {
                        let live = entry.message.live
                        if let live, !entry.message.repostsLive,
                            entries[(index + 1)...].contains(where: { $0.message.live == live })
                        {
                            // A later version of the same live message follows and shows all this one would. A
                            // re-post is sent all the same: it moves the message to the bottom of the chat.
                            try await sentMessages.markSent(entry.id)
                            continue
                        }
                        // Read a while ago, it may have become another sender's: then so is the rest of the chat.
                        guard try await store.hold([entry.id], for: hold).contains(entry.id) else { return nil }
                        if entry.message.atMostOnce { try await store.claim(entry.id) }
                        let posted: MessageID?
                        do {
                            let shown =
                                entry.message.repostsLive ? nil : live.flatMap { livePosts[$0] } ?? entry.livePost
                            sending.insert(entry.id)
                            defer { sending.remove(entry.id) }
                            posted = try await Self.deliver(entry, editing: shown, through: transport)
                        } catch let error as TransportError {
                            // Not posted: it may be sent again.
                            if entry.message.atMostOnce { try await store.unclaim(entry.id) }
                            return (entry, error)
                        }
                        let sent = now()
                        health.value.withLock { $0.lastSend = sent }
                        var postedLive: PostedLiveMessage?
                        if let live, let posted {
                            livePosts[live] = posted
                            postedLive = PostedLiveMessage(chat: entry.message.chat, key: live, messageID: posted)
                        }
                        try await sentMessages.markSent(entry.id, posted: postedLive)
                    }
                    return nil
                }
            }
            for _ in 0..<configuration.concurrentChats { startNext() }
            var failures: [(OutboxEntry, TransportError)] = []
            while let result = try await group.next() {
                if let failure = result { failures.append(failure) }
                startNext()
            }
            return failures
        }
    }

    /// Sends a message: an edit of the post that shows it when it is a live message already posted, a new
    /// post otherwise or when the platform will not edit. Returns the new post's id, if one was made.
    private static func deliver(
        _ entry: OutboxEntry, editing shown: MessageID?, through transport: any ChatTransport
    ) async throws -> MessageID? {
        if let shown {
            do {
                // Its own key: should the edit be refused, the post that replaces it is another message.
                try await transport.edit(shown, toRead: entry.message, key: entry.key + ".edit")
                return nil
            } catch TransportError.editRefused {
                // Deleted, or too old to edit: the player sees it anew at the bottom of the chat.
            }
        }
        return try await transport.send(entry.message, key: entry.key)
    }

    private func handle(
        _ error: TransportError,
        for entry: OutboxEntry,
        limiter: inout RateLimiter,
        backoff: inout Backoff,
        at seconds: Double,
        sendingWorks: Bool
    ) async throws {
        let chat = entry.message.chat
        switch error {
        case .rateLimited(let delay, let limitedChat):
            limiter.block(chat: limitedChat ?? chat, until: seconds + delay.seconds)
            try await store.postpone(entry.id, until: now() + delay.seconds)
        case .chatUnavailable(let unavailable, let reason):
            logger.notice(
                "Chat unavailable; marked inactive", metadata: ["chat.id": "\(unavailable)", "reason": "\(reason)"])
            try await store.deactivateChat(unavailable)
        case .chatMigrated(let from, let to):
            logger.notice("Chat moved", metadata: ["chat.id": "\(from)", "chat.new_id": "\(to)"])
            try await store.write { try await $0.moveChat(from: from, to: to) }
        case .messageRejected(let reason), .editRefused(let reason):
            logger.error("Message rejected and dropped", metadata: ["chat.id": "\(chat)", "reason": "\(reason)"])
            try await store.markSent([entry.id])
        case .transient where sendingWorks:
            // This chat's own trouble: it waits on its own backoff, the others go on, and after
            // `maximumAttempts` the message is given up rather than tried forever.
            let attempts = try await store.recordFailedAttempt(entry.id)
            let delay = Backoff(
                initial: configuration.initialBackoff, maximum: configuration.maximumBackoff, jitter: jitter
            ).delay(forAttempt: attempts - 1)
            if attempts >= configuration.maximumAttempts {
                logger.error(
                    "Gave up a message after \(attempts) failed attempts; the chat keeps failing while others work",
                    metadata: ["chat.id": "\(chat)", "error": "\(error)"])
                try await store.markSent([entry.id])
            } else {
                limiter.block(chat: chat, until: seconds + delay.seconds)
                try await store.postpone(entry.id, until: now() + delay.seconds)
            }
        case .transient:
            // Nothing gets through: the network or the platform; everything waits, and nothing is given up.
            try await pause(after: error, backoff: &backoff, activity: "sending")
        case .fatal:
            throw error
        }
    }

    // MARK: - Failures

    /// Runs storage work, retrying it with backoff while the store says its failure is transient (busy,
    /// locked, disk full, I/O); any other failure is thrown and ends the service. One warning per episode.
    private func retryingStorage<Result>(_ activity: String, _ work: () async throws -> Result) async throws
        -> Result
    {
        var backoff = Backoff(
            initial: configuration.initialBackoff, maximum: configuration.maximumBackoff, jitter: jitter)
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

    /// Waits out a platform failure: its backoff, or the delay the platform asked for. The first failure of
    /// an episode is a warning; the rest, until something works again, are debug lines.
    private func pause(after error: TransportError, backoff: inout Backoff, activity: String) async throws {
        if case .fatal = error {
            logger.critical("Stopping: \(error)", metadata: ["transport": "\(transport.name)"])
            throw error
        }
        let firstFailure = backoff.failures == 0
        var delay = backoff.next()
        if case .rateLimited(let retryAfter, _) = error { delay = retryAfter }
        let metadata: Logger.Metadata = [
            "transport": "\(transport.name)", "error": "\(error)", "retry.after": "\(delay)",
        ]
        if firstFailure {
            logger.warning(
                "Failure while \(activity); retrying until it works. Check the network and the platform's status.",
                metadata: metadata)
        } else {
            logger.debug("Failure while \(activity) again; retrying", metadata: metadata)
        }
        try await clock.sleep(for: delay)
    }

    /// Ends a failure episode: says once that the platform works again.
    private func recovered(_ backoff: inout Backoff, activity: String) {
        if backoff.failures > 0 {
            logger.notice(
                "The platform works again",
                metadata: [
                    "transport": "\(transport.name)", "activity": "\(activity)", "failures": "\(backoff.failures)",
                ])
        }
        backoff.reset()
    }
}

extension BotService: CustomStringConvertible, CustomReflectable {
    // ServiceGroup logs each service's description: a short one, with none of the engine's secrets.
    public var description: String { "BotService(transport: \(transport.name))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What keeps its order and its rate limit when sending: a chat's messages, or one answer to an inline query.
private enum SendingLane: Hashable {
    case chat(ChatID)
    case answer(Int64)

    init(_ entry: OutboxEntry) {
        if case .answerQuery = entry.message.action {
            self = .answer(entry.id)
        } else {
            self = .chat(entry.message.chat)
        }
    }
}

/// When the service last polled and sent successfully.
private final class MessagesBeingSent: Sendable {
    private let state = Mutex<Set<Int64>>([])

    var ids: [Int64] { state.withLock { Array($0) } }
    func contains(_ id: Int64) -> Bool { state.withLock { $0.contains(id) } }
    func insert(_ id: Int64) { state.withLock { _ = $0.insert(id) } }
    func remove(_ id: Int64) { state.withLock { _ = $0.remove(id) } }
}

private final class HealthState: Sendable {
    struct Times {
        var started = Date.distantPast
        var lastPoll: Date?
        var lastSend: Date?

        func heartbeat(at now: Date, transport: String) -> Heartbeat {
            Heartbeat(transport: transport, started: started, written: now, lastPoll: lastPoll, lastSend: lastSend)
        }
    }

    let value = Mutex(Times())
}

/// How a child task of ``BotService/run()`` ended: one of its loops, or the shutdown deadline.
private enum ServiceTaskEnd: Sendable {
    case loop
    case deadline
}

/// Exponential backoff with jitter: each pause is between half and all of the current ceiling.
struct Backoff {
    let initial: Duration
    let maximum: Duration
    let jitter: @Sendable () -> Double
    private var attempt = 0
    /// Failures since the last reset: the length of the current episode.
    var failures: Int { attempt }

    init(initial: Duration, maximum: Duration, jitter: @escaping @Sendable () -> Double) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    mutating func next() -> Duration {
        defer { attempt += 1 }
        return delay(forAttempt: attempt)
    }

    /// The pause after the failure numbered `attempt`, counting from 0.
    func delay(forAttempt attempt: Int) -> Duration {
        let ceiling = min(maximum.seconds, initial.seconds * pow(2, Double(min(max(attempt, 0), 30))))
        return .seconds(ceiling / 2 + ceiling / 2 * min(max(jitter(), 0), 1))
    }

    mutating func reset() { attempt = 0 }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Wakes the sender: any number of rings while it works make one more pass, and it never sleeps through one.
/// A resumed continuation, with no stream or merge between the ring and the sender.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var closed = false
        var waiting: CheckedContinuation<Bool, Never>?
    }
    private let state = Mutex(State())

    func ring() {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiting == nil { state.rung = true }
            return state.waiting.take()
        }
        waiting?.resume(returning: true)
    }

    /// Whether a ring waits to be taken by the next ``waitForRing()``.
    var hasRing: Bool { state.withLock { $0.rung } }

    /// Ends the waiting for good: the next ``waitForRing()`` returns false.
    func close() {
        state.withLock { state in
            state.closed = true
            return state.waiting.take()
        }?.resume(returning: false)
    }

    /// Waits for a ring since the last call (returns at once if there was one); false once closed or
    /// cancelled.
    func waitForRing() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.closed || Task.isCancelled { return false }
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiting = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            close()
        }
    }
}
