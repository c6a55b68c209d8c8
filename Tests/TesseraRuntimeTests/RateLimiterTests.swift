import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraRuntime

@Suite("Outgoing rate limits")
struct RateLimiterTests {
    @Test("A direct chat gets a short burst, then about one message a second")
    func perChat() {
        var limiter = RateLimiter(configuration: .telegramLike)
        let chat = ChatID(7)
        for _ in 0..<3 { #expect(limiter.acquire(chat: chat, isGroup: false, now: 0) == 0) }
        let wait = limiter.acquire(chat: chat, isGroup: false, now: 0)
        #expect(wait > 0.9 && wait <= 1.0)
        #expect(limiter.acquire(chat: chat, isGroup: false, now: 1.0) == 0)
        #expect(limiter.acquire(chat: ChatID(8), isGroup: false, now: 1.0) == 0, "other chats are not held back")
    }

    @Test("A group gets twenty messages in any sixty seconds, the first minute included")
    func perGroup() {
        var limiter = RateLimiter(configuration: .telegramLike)
        let group = ChatID(-100)
        var sends: [Double] = []
        var now = 0.0
        while now < 180 {
            if limiter.acquire(chat: group, isGroup: true, now: now) == 0 { sends.append(now) }
            now += 0.25
        }
        #expect(sends.filter { $0 < 60 }.count == 20, "the first minute")
        for start in sends {
            #expect(sends.filter { $0 >= start && $0 < start + 60 }.count <= 20, "the minute from \(start)")
        }
        #expect(sends.count == 60, "twenty a minute for three minutes")
    }

    @Test("Thirty messages a second overall")
    func overall() {
        var limiter = RateLimiter(configuration: .telegramLike)
        var sent = 0
        for chat in 1...100 where limiter.acquire(chat: ChatID(Int64(chat)), isGroup: false, now: 0) == 0 { sent += 1 }
        #expect(sent == 30)
        #expect(limiter.acquire(chat: ChatID(1_000), isGroup: false, now: 1.0 / 30) == 0)
    }

    @Test("retry_after holds a chat until its time")
    func blocked() {
        var limiter = RateLimiter(configuration: .telegramLike)
        limiter.block(chat: ChatID(7), until: 5)
        #expect(limiter.acquire(chat: ChatID(7), isGroup: false, now: 2) == 3)
        #expect(limiter.acquire(chat: ChatID(7), isGroup: false, now: 5) == 0)
    }

    @Test("Unlimited, for load tests, never waits")
    func unlimited() {
        var limiter = RateLimiter(configuration: .unlimited)
        for _ in 0..<10_000 { #expect(limiter.acquire(chat: ChatID(-1), isGroup: true, now: 0) == 0) }
    }
}

extension RateLimits {
    /// Telegram's documented limits, as the test kit's scripted platform has them.
    static var telegramLike: RateLimits { PlatformTraits.scripted.rateLimits }
}
