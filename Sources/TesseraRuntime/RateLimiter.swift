import TesseraEngine

/// Keeps to a platform's ``RateLimits``: token buckets on the caller's clock, and for groups a sliding window.
struct RateLimiter: Sendable {
    typealias Limit = RateLimits.Limit

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let configuration: RateLimits
    private var chats: [ChatID: Bucket] = [:]
    /// Each group's sends in the last sixty seconds, oldest first.
    private var groups: [ChatID: [Double]] = [:]
    private var overall: Bucket?
    private var blockedUntil: [ChatID: Double] = [:]

    init(configuration: RateLimits) {
        self.configuration = configuration
    }

    /// Takes a token for a message to `chat` at `now` (seconds on any monotonic clock) and returns 0, or
    /// returns how many seconds to wait and takes nothing.
    mutating func acquire(chat: ChatID, isGroup: Bool, now: Double) -> Double {
        if let until = blockedUntil[chat] {
            if now < until { return until - now }
            blockedUntil[chat] = nil
        }
        var overallBucket = refilled(overall, configuration.overall, now)
        var chatBucket = refilled(chats[chat], configuration.perChat, now)
        var window = isGroup ? (groups[chat] ?? []).filter { $0 > now - 60 } : []
        let groupWait = window.count >= configuration.perGroupPerMinute ? window[0] + 60 - now : 0
        let waits = [wait(overallBucket, configuration.overall), wait(chatBucket, configuration.perChat), groupWait]
        if let longest = waits.max(), longest > 0 { return longest }
        overallBucket.tokens -= 1
        chatBucket.tokens -= 1
        overall = overallBucket
        chats[chat] = chatBucket
        if isGroup && configuration.perGroupPerMinute < .max {
            window.append(now)
            groups[chat] = window
        }
        return 0
    }

    /// Takes a token of the overall limit alone, for a call that posts in no chat (an inline query's answer):
    /// 0, or how many seconds to wait.
    mutating func acquireOverall(now: Double) -> Double {
        var bucket = refilled(overall, configuration.overall, now)
        let waiting = wait(bucket, configuration.overall)
        guard waiting <= 0 else { return waiting }
        bucket.tokens -= 1
        overall = bucket
        return 0
    }

    /// Holds every message to a chat until a time (the platform said to retry after it).
    mutating func block(chat: ChatID, until: Double) {
        blockedUntil[chat] = max(blockedUntil[chat] ?? 0, until)
    }

    private func refilled(_ bucket: Bucket?, _ limit: Limit, _ now: Double) -> Bucket {
        guard let bucket else { return Bucket(tokens: limit.burst, updated: now) }
        let tokens = min(limit.burst, bucket.tokens + max(0, now - bucket.updated) * limit.perSecond)
        return Bucket(tokens: tokens, updated: now)
    }

    private func wait(_ bucket: Bucket, _ limit: Limit) -> Double {
        bucket.tokens >= 1 ? 0 : (1 - bucket.tokens) / limit.perSecond
    }
}
