import Foundation
import Logging
import TesseraEngine

extension SendService {
    /// Sends each chat's messages in order, several chats at a time; returns the first failure of each chat
    /// that had one (its later messages stay queued).
    func sendConcurrently(_ chats: [[OutboxEntry]]) async throws -> [(OutboxEntry, TransportError)] {
        try await withThrowingTaskGroup(of: (OutboxEntry, TransportError)?.self) { group in
            var remaining = chats.makeIterator()
            func startNext() {
                guard let entries = remaining.next() else { return }
                group.addTask { try await send(chat: entries) }
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

    /// Sends one chat's messages in order, each removed from the outbox once sent; stops at the first that
    /// fails, and returns it with its failure.
    private func send(chat entries: [OutboxEntry]) async throws -> (OutboxEntry, TransportError)? {
        let hold = configuration.sendHold
        // The live messages this chat's sends post in this pass, newer than what the store read.
        var livePosts: [String: MessageID] = [:]
        for (index, entry) in entries.enumerated() {
            let live = entry.message.live
            if let live, !entry.message.repostsLive, (livePosts[live] ?? entry.livePost) != nil,
                entries[(index + 1)...].contains(where: { $0.message.live == live })
            {
                // A later version of the same live message follows and shows all this one would, as
                // an edit of the post that shows it. A re-post is sent all the same: it moves the
                // message to the bottom of the chat. So is a first post: one a crash cut off before
                // it was recorded is sent again under its own key, which a platform that keeps keys
                // (Matrix's transaction ids) answers with the message already posted.
                try await sentMessages.markSent(entry.id)
                continue
            }
            // Read a while ago, it may have become another sender's: then so is the rest of the chat.
            guard try await store.hold([entry.id], for: hold).contains(entry.id) else { return nil }
            if entry.message.atMostOnce { try await store.claim(entry.id) }
            var entry = entry
            if case .postPlayerData = entry.message.action {
                guard let gathered = try await gather(entry.message) else {
                    try await sentMessages.markSent(entry.id)
                    continue
                }
                entry = OutboxEntry(
                    id: entry.id, message: gathered, livePost: entry.livePost, key: entry.key)
            }
            let posted: MessageID?
            do {
                let shown =
                    entry.message.repostsLive ? nil : live.flatMap { livePosts[$0] } ?? entry.livePost
                sending.insert(entry.id)
                defer { sending.remove(entry.id) }
                posted = try await Self.deliver(
                    entry, editing: shown, through: transport, metrics: activity.metrics, logger: logger)
            } catch let error as TransportError {
                activity.metrics.countFailure(error)
                // Not posted: it may be sent again.
                if entry.message.atMostOnce { try await store.unclaim(entry.id) }
                return (entry, error)
            }
            let sent = now()
            activity.sent(at: sent)
            var postedLive: PostedLiveMessage?
            if let live, let posted {
                livePosts[live] = posted
                postedLive = PostedLiveMessage(chat: entry.message.chat, key: live, messageID: posted)
            }
            try await sentMessages.markSent(entry.id, posted: postedLive)
        }
        return nil
    }

    /// Sends a message: an edit of the post that shows it when it is a live message already posted, a new
    /// post otherwise or when the platform will not edit. Returns the new post's id, if one was made.
    private static func deliver(
        _ entry: OutboxEntry, editing shown: MessageID?, through transport: any ChatTransport,
        metrics: PlatformMetrics, logger: Logger
    ) async throws -> MessageID? {
        if let shown {
            do {
                // Its own key: should the edit be refused, the post that replaces it is another message.
                try await transport.edit(shown, toRead: entry.message, key: entry.key + ".edit")
                metrics.countSent(.edit)
                return nil
            } catch let error as TransportError {
                // Deleted, or too old to edit: the player sees it anew at the bottom of the chat.
                guard case .editRefused = error else { throw error }
                metrics.countFailure(error)
            }
        }
        let posted: MessageID?
        var sent = entry.message
        do {
            posted = try await transport.send(sent, key: entry.key)
        } catch TransportError.pictureRefused(let reason) {
            // The words matter more than the picture: they go alone, once, under a key of their own (the picture's
            // post may have been half made).
            metrics.countFailure(.pictureRefused(reason))
            logger.warning(
                "The platform refused a picture; its text is sent without it",
                metadata: ["chat.id": "\(entry.message.chat)", "reason": "\(reason)"])
            sent.picture = nil
            posted = try await transport.send(sent, key: entry.key + ".text")
        }
        metrics.countSent(PlatformMetrics.SentKind(sent))
        return posted
    }

    func handle(
        _ error: TransportError,
        for entry: OutboxEntry,
        limiter: inout RateLimiter,
        backoff: inout Backoff,
        at seconds: Double,
        sendingWorks: Bool
    ) async throws {
        let (chat, logger) = (entry.message.chat, retrier.logger)
        switch SendFailure(error, chat: chat, sendingWorks: sendingWorks) {
        case .waitInChat(let waiting, let delay):
            limiter.block(chat: waiting, until: seconds + delay.seconds)
            try await store.postpone(entry.id, until: now() + delay.seconds)
        case .deactivate(let unavailable, let reason):
            logger.notice(
                "Chat unavailable; marked inactive", metadata: ["chat.id": "\(unavailable)", "reason": "\(reason)"])
            try await store.deactivateChat(unavailable)
        case .move(let from, let to):
            logger.notice("Chat moved", metadata: ["chat.id": "\(from)", "chat.new_id": "\(to)"])
            try await store.write { try await $0.moveChat(from: from, to: to) }
        case .drop(let reason):
            logger.error("Message rejected and dropped", metadata: ["chat.id": "\(chat)", "reason": "\(reason)"])
            try await store.markSent([entry.id])
        case .retryChat:
            let attempts = try await store.recordFailedAttempt(entry.id)
            let maximum = configuration.maximumAttempts
            if let delay = SendFailure.retry(afterAttempts: attempts, maximum: maximum, backoff: retrier.backoff()) {
                limiter.block(chat: chat, until: seconds + delay.seconds)
                try await store.postpone(entry.id, until: now() + delay.seconds)
            } else {
                logger.error(
                    "Gave up a message after \(attempts) failed attempts; the chat keeps failing while others work",
                    metadata: ["chat.id": "\(chat)", "error": "\(error)"])
                try await store.markSent([entry.id])
            }
        case .pauseSending:
            try await retrier.pause(after: error, backoff: &backoff, activity: "sending")
        case .stop:
            throw error
        }
    }
}
