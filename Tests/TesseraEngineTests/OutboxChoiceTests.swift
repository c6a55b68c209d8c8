import Foundation
import TesseraEngine
import Testing

/// The rule a read of the outbox chooses by (``OutboxEntry/Choice``), alone: the store conformance suite holds
/// each store's read to it.
@Suite("The outbox's choice")
struct OutboxChoiceTests {
    let now = Date(timeIntervalSince1970: 1_000)

    @Test("Oldest first, at most five of a chat, at most the limit, and nothing offered once it is full")
    func fewOfEachChat() {
        let flooded = ChatID(.telegram, "-1")
        let quiet = ChatID(.telegram, "-2")
        var choice = OutboxEntry.Choice(limit: 7, now: now)
        for id in Int64(1)...8 { choice.offer(id, chat: flooded, notBefore: now.timeIntervalSince1970) }
        for id in Int64(9)...12 { choice.offer(id, chat: quiet, notBefore: now.timeIntervalSince1970) }
        #expect(choice.chosen == [1, 2, 3, 4, 5, 9, 10], "the flooded chat's sixth waits; the quiet chat fills up")
        #expect(choice.isFull)
    }

    @Test("A postponed message holds back its chat's later ones, not another chat's")
    func postponedHoldsItsChat() {
        let held = ChatID(.matrix, "!a:example.org")
        let other = ChatID(.matrix, "!b:example.org")
        var choice = OutboxEntry.Choice(limit: 10, now: now)
        choice.offer(1, chat: held, notBefore: now.timeIntervalSince1970)
        choice.offer(2, chat: held, notBefore: now.timeIntervalSince1970 + 30)
        choice.offer(3, chat: other, notBefore: now.timeIntervalSince1970)
        choice.offer(4, chat: held, notBefore: now.timeIntervalSince1970)
        choice.offer(5, chat: other, notBefore: now.timeIntervalSince1970 - 60)
        #expect(choice.chosen == [1, 3, 5], "4 would follow the postponed 2, an older version of its board")
        #expect(!choice.isFull)
    }
}
