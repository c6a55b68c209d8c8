import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraRuntime

/// The sender's handling of each platform error, as a table: pure, with no service, store or clock.
@Suite("What the sender does about each failed send")
struct SendFailureTests {
    static let chat = ChatID(7)

    /// Each error the transports throw, with and without other sends getting through, and what follows.
    static let table: [(error: TransportError, sendingWorks: Bool, then: SendFailure)] = [
        (.rateLimited(retryAfter: .seconds(3), chat: nil), true, .waitInChat(chat, for: .seconds(3))),
        (.rateLimited(retryAfter: .seconds(3), chat: nil), false, .waitInChat(chat, for: .seconds(3))),
        // A limit for another chat (a reply in a group answered for the group) holds that chat.
        (
            .rateLimited(retryAfter: .seconds(40), chat: ChatID(-100)), true,
            .waitInChat(ChatID(-100), for: .seconds(40))
        ),
        (.chatUnavailable(chat, reason: "bot was blocked"), true, .deactivate(chat, reason: "bot was blocked")),
        (.chatUnavailable(chat, reason: "kicked"), false, .deactivate(chat, reason: "kicked")),
        (.chatMigrated(from: chat, to: ChatID(-1_007)), true, .move(from: chat, to: ChatID(-1_007))),
        (.messageRejected("can't parse entities"), true, .drop(reason: "can't parse entities")),
        (.editRefused("message to edit not found"), false, .drop(reason: "message to edit not found")),
        (.transient("502 Bad Gateway"), true, .retryChat),
        (.transient("502 Bad Gateway"), false, .pauseSending),
        (.fatal("401 Unauthorized"), true, .stop),
        (.fatal("401 Unauthorized"), false, .stop),
    ]

    @Test("Each platform error has one handling", arguments: table)
    func handling(_ row: (error: TransportError, sendingWorks: Bool, then: SendFailure)) {
        #expect(SendFailure(row.error, chat: Self.chat, sendingWorks: row.sendingWorks) == row.then)
    }

    @Test("A chat's own failures wait on a doubling backoff, and the message is given up at the last attempt")
    func chatRetries() {
        let backoff = Backoff(initial: .seconds(1), maximum: .seconds(8), jitter: { 1 })
        let delays = (1...6).map { SendFailure.retry(afterAttempts: $0, maximum: 6, backoff: backoff) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), nil])
        #expect(SendFailure.retry(afterAttempts: 9, maximum: 6, backoff: backoff) == nil)
    }
}
