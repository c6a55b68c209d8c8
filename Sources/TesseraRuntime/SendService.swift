import Foundation
import Logging
import ServiceLifecycle
import TesseraEngine

/// Sends a platform's replies from the durable outbox within its rate limits, each chat's in order and several
/// chats at a time. It drains the outbox whenever it is rung (a batch committed, summaries queued) and every
/// ``BotRuntime/Configuration/outboxInterval`` (postponed messages coming due), so a reply computed before a crash
/// is still sent after the restart. Every process sends, leader or not. On graceful shutdown it sends what may be
/// sent at once and leaves the rest queued for the next start.
struct SendService: PlatformService {
    let context: PlatformContext
    let sentMessages: SentMessages
    let rateLimits: RateLimits
    let configuration: RuntimeConfiguration
    let sending = MessagesBeingSent()

    /// What a message gathered at sending becomes (``OutgoingMessage/Action/postPlayerData(of:)``): read in a
    /// snapshot beside the writer, never in the transaction that queued it; nil drops it.
    @Sendable func gather(_ message: OutgoingMessage) async throws -> OutgoingMessage? {
        let (engine, now) = (self.engine, self.now)
        return try await store.read { try await engine.gatherPlayerData(message, at: now(), in: $0) }
    }

    func run() async throws {
        // Before sending: a database already gone stops the bot here.
        try await retrier.storage("checking the database") { try await store.verifyStorage() }
        let platform = transport.platform
        let dropped = try await retrier.storage("starting") { try await store.dropClaimed(platform: platform) }
        if dropped > 0 {
            logger.warning(
                "The bot stopped while posting a summary; it is not posted again, so no group sees it twice",
                metadata: ["messages": "\(dropped)"])
        }
        var limiter = RateLimiter(configuration: rateLimits)
        var backoff = retrier.backoff()
        let start = clock.now
        let (clock, interval, outbox) = (self.clock, configuration.outboxInterval, activity.outbox)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while (try? await clock.sleep(for: interval)) != nil { outbox.ring() }
            }
            group.addTask { await renewHolds() }
            try await withGracefulShutdownHandler {
                while await outbox.waitForRing() {
                    try await retrier.storage("sending from the outbox") {
                        try await drain(&limiter, &backoff, since: start)
                    }
                }
            } onGracefulShutdown: {
                outbox.close()
            }
            group.cancelAll()
        }
        // Shutting down: send what may be sent now; the rest stays in the outbox for the next start. Cancelled
        // (the group's deadline passed), it sends nothing more.
        if Task.isCancelled { return }
        try await drain(&limiter, &backoff, since: start)
    }

    /// Renews the hold of every message being sent, every third of ``BotRuntime/Configuration/sendHold``, in one call: a send
    /// that lasts (a slow network) keeps its message from other senders however long it takes, and a sender that
    /// dies lets it go soon. One loop for all sends, not a timer each.
    private func renewHolds() async {
        let (hold, sending, logger) = (configuration.sendHold, self.sending, logger)
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
    /// Different chats are sent to concurrently (up to ``BotRuntime/Configuration/concurrentChats``); each message is
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
            var lanes: [SendingLane] = []
            var byLane: [SendingLane: [OutboxEntry]] = [:]
            for entry in pending {
                let lane = SendingLane(entry)
                if byLane[lane] == nil { lanes.append(lane) }
                byLane[lane, default: []].append(entry)
            }
            // Answers, then direct chats, then groups, each oldest first: they take the overall limit's tokens
            // and the first places of the pass in that order, so groups at their limits never hold up a player
            // waiting in a direct chat.
            let order = SendingLane.Priority.allCases.flatMap { priority in
                lanes.filter { $0.priority(byLane[$0]?.first) == priority }
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
            logger.debug(
                "Sent a pass of messages",
                metadata: [
                    "transport": "\(transport.name)", "chats": "\(ready.count)", "failed": "\(failures.count)",
                ])
            // Failures are one chat's own when other sends work: this pass's, or any in the last minute.
            let lastSend = activity.current.lastSend
            let sendingWorks =
                failures.count < ready.count || lastSend.map { now().timeIntervalSince($0) < 60 } == true
            for (entry, error) in failures {
                try await handle(
                    error, for: entry, limiter: &limiter, backoff: &backoff, at: seconds, sendingWorks: sendingWorks)
            }
            if failures.count == ready.count && !sendingWorks { return }
            if failures.count < ready.count { retrier.recovered(&backoff, activity: "sending") }
        }
    }
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

    /// Which lanes a pass serves first.
    enum Priority: CaseIterable {
        case answer, direct, group
    }

    func priority(_ first: OutboxEntry?) -> Priority {
        switch self {
        case .answer: .answer
        case .chat: first?.message.chatKind == .group ? .group : .direct
        }
    }
}

extension SendService: CustomStringConvertible {
    var description: String { "SendService(\(transport.name))" }
}
