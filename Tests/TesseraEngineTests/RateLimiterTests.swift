import TesseraEngine
import Testing

@Suite("Outgoing rate limits")
struct RateLimiterTests {
    @Test("A direct chat gets a short burst, then about one message a second")
    func perChat() {
        var limiter = RateLimiter()
        let chat = ChatID(7)
        for _ in 0..<3 { #expect(limiter.acquire(chat: chat, isGroup: false, now: 0) == 0) }
        let wait = limiter.acquire(chat: chat, isGroup: false, now: 0)
        #expect(wait > 0.9 && wait <= 1.0)
        #expect(limiter.acquire(chat: chat, isGroup: false, now: 1.0) == 0)
        #expect(limiter.acquire(chat: ChatID(8), isGroup: false, now: 1.0) == 0, "other chats are not held back")
    }

    @Test("A group gets twenty messages a minute")
    func perGroup() {
        var limiter = RateLimiter()
        let group = ChatID(-100)
        var sent = 0
        var now = 0.0
        while now < 60 {
            if limiter.acquire(chat: group, isGroup: true, now: now) == 0 { sent += 1 }
            now += 0.25
        }
        #expect((20...25).contains(sent), "\(sent) messages in a minute (5 burst + 20/min)")
    }

    @Test("Thirty messages a second overall")
    func overall() {
        var limiter = RateLimiter()
        var sent = 0
        for chat in 1...100 where limiter.acquire(chat: ChatID(Int64(chat)), isGroup: false, now: 0) == 0 { sent += 1 }
        #expect(sent == 30)
        #expect(limiter.acquire(chat: ChatID(1_000), isGroup: false, now: 1.0 / 30) == 0)
    }

    @Test("retry_after holds a chat until its time")
    func blocked() {
        var limiter = RateLimiter()
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
