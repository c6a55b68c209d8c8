import Foundation
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

/// The engine adapts to what a platform can do (``PlatformTraits``): the same game on a platform without
/// edits, reactions or buttons.
@Suite("Platform traits", .onBothPaths)
struct PlatformTraitsTests {
    @Test("Without edits each guess posts its board anew; without buttons the finished board names the commands")
    func boardsWithoutEditsOrButtons() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(buttons: false, edits: false, reactions: false) }
        let first = try #require(try await bot.send(try bot.wrongWord()).first)
        let second = try #require(try await bot.send(try bot.answer()).first)
        #expect(first.live == nil && second.live == nil, "nothing to edit: each board is a message of its own")
        #expect(second.html.contains("· 2/6") && second.buttons.isEmpty)
        #expect(second.html.hasSuffix("/share to post your result · /stats · /analysis"))
    }

    @Test(
        "Where messages have effects, a win in the direct chat adds a 🎉 with confetti below the board, unless the player said /settings effects off"
    )
    func celebratedWins() async throws {
        var bot = try EngineHarness { $0.platform = PlatformTraits(messageEffects: true) }
        let guess = try await bot.send(try bot.wrongWord())
        #expect(guess.count == 1 && guess[0].effect == nil && guess[0].live != nil, "a guess edits the board")
        let win = try await bot.send(try bot.answer())
        #expect(win.count == 2 && win[0].live == guess[0].live && win[0].effect == nil, "the board is edited")
        #expect(win.last?.html == "🎉" && win.last?.effect == .celebration && win.last?.live == nil)

        let off = try await bot.text("/settings effects off")
        #expect(off.hasPrefix("Wins in our chat come without confetti."), "\(off)")
        try await bot.nextDay()
        let quiet = try await bot.send(try bot.answer())
        #expect(quiet.count == 1 && quiet[0].effect == nil)
        #expect(try await bot.text("/settings effects maybe") == "Use /settings effects on or /settings effects off.")
        let on = try await bot.text("/settings effects on", in: -1, group: true)
        #expect(on.hasPrefix("🎉 A win in our chat comes with confetti"), "a player's own setting, asked anywhere")

        // A loss is not celebrated, nor is anything where the platform has no effects.
        try await bot.nextDay()
        for _ in 0..<5 { try await bot.send(try bot.wrongWord()) }
        let lost = try await bot.send(try bot.wrongWord() == "crane" ? "slate" : "crane")
        #expect(lost.count == 1 && lost[0].html.contains("6/6") && lost[0].effect == nil, "\(lost.map(\.html))")
        let plain = try EngineHarness()
        #expect(try await plain.send(try plain.answer()).count == 1)
    }

    @Test("Without buttons, a platform that opens direct chats is asked to: /play in a group invites the player")
    func directChatsOpened() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(buttons: false, opensDirectChats: true) }
        let replies = try await bot.send("/play", in: -1, group: true)
        #expect(replies.count == 2)
        #expect(replies[0].chat == ChatID(-1) && replies[0].html.hasPrefix("I've invited you to a private chat"))
        #expect(replies[1].action == .openDirectChat(with: UserID(1)))
        #expect(replies[1].html.hasPrefix("<b>Welcome to Tessera!</b>"))
        // A platform with buttons links to the direct chat instead, and opens nothing.
        let linked = try await EngineHarness().send("/play", in: -1, group: true)
        #expect(linked.count == 1 && linked[0].buttons.first?.first?.directChatStart == "play-en")
    }

    @Test("Without reactions a join is acknowledged in words")
    func acknowledgementsWithoutReactions() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(reactions: false) }
        let joined = try #require(try await bot.send("/join", in: -1, group: true).first)
        #expect(joined.action == .post && joined.html.contains("Alice"), "\(joined.html)")
    }

    @Test("Without buttons /forgetme is confirmed by typing its code back, bound to the player and the chat")
    func typedConfirmation() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(buttons: false) }
        try await bot.send(try bot.wrongWord())
        let question = try await bot.text("/forgetme")
        #expect(question.hasPrefix("This deletes everything I store about you"))
        let code = try #require(question.split(separator: "<code>/forgetme ").last?.split(separator: "<").first)
        let wrong = "That code is not the one I gave you, so nothing was deleted. /forgetme gives you the code."
        #expect(try await bot.text("/forgetme 0000") == wrong)
        #expect(try await bot.store.write { try await $0.player(UserID(1)) } != nil)
        #expect(try await bot.text("/forgetme \(code)", from: 2, in: 1) == wrong, "another player's code does nothing")
        #expect(try await bot.text("/forgetme \(code)").hasPrefix("Done: everything I stored about you is deleted"))
        #expect(try await bot.store.write { try await $0.player(UserID(1)) } == nil, "and nothing is written after")
        let play = try #require(try await bot.send("/play", in: -1, group: true).first)
        #expect(play.buttons.isEmpty && play.html.contains("private chat"))
    }

    @Test("Without spoilers no word is ever posted in a group: the summary says why, and no reveal follows")
    func groupsWithoutSpoilers() async throws {
        var bot = try EngineHarness { $0.platform = PlatformTraits(spoilers: false) }
        bot.now = EngineHarness.monday
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 0)
        let word = try bot.answer(puzzle: bot.puzzle).uppercased()
        let engine = bot.engine
        // Every member's day is over: with spoilers, the word would be in this summary.
        for day in 1...2 {
            let closing = EngineHarness.monday + Double(day) * 86_400
            _ = try await bot.store.write { try await engine.closeDays(at: closing, in: $0) }
        }
        let posted = try await bot.store.pendingMessages(limit: 10, now: .distantFuture).map(\.message)
            .filter { $0.chat == ChatID(-1) }
        #expect(posted.count == 1, "one summary, no reveal: \(posted.map(\.html))")
        #expect(posted.allSatisfy { !$0.html.uppercased().contains(word) && !$0.html.contains("<spoiler>") })
        #expect(posted.first?.html.contains("🔒 This chat cannot hide the word, so it is not posted here") == true)
    }

    @Test("Without threads a summary topic cannot be chosen, and nothing is changed")
    func groupsWithoutThreads() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(threads: false) }
        try await bot.group(-1)
        let reply = try await bot.text("/settings topic here", in: -1, group: true, admin: true)
        #expect(reply == "This chat has no topics: summaries are posted in the chat itself.")
        #expect(try await bot.store.write { try await $0.group(ChatID(-1)) }?.topic == nil)
    }

    @Test("A board too long for one message of the platform is not kept live: each version is posted anew")
    func boardsLongerThanAMessage() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(maximumLength: 40) }
        let board = try #require(try await bot.send(try bot.wrongWord()).first)
        #expect(!board.fits(maximumLength: 40))
        #expect(board.live == nil, "an edit could not show it")
        let roomy = try EngineHarness()
        #expect(try await roomy.send(try roomy.wrongWord()).first?.live != nil)
    }

    @Test("A long message is split at line breaks into parts that each fit, and nothing is dropped")
    func longMessagesInParts() {
        let lines = (1...30).map { "<b>line \($0)</b> &amp; more" }
        let message = OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: lines.joined(separator: "\n"))
        let parts = message.parts(maximumLength: 100)
        #expect(parts.count > 1)
        #expect(parts.map { $0.html() }.joined(separator: "\n") == message.html, "split only at line breaks")
        #expect(parts.allSatisfy { $0.plainText.utf16.count <= 100 })
        // A line longer than a whole message is cut between characters, each piece in the element it stood in.
        let long = OutgoingMessage(
            chat: ChatID(1), chatKind: .direct, html: "<i>" + String(repeating: "a&amp;b ", count: 30) + "</i>")
        let pieces = long.parts(maximumLength: 50)
        #expect(pieces.map(\.plainText.utf16.count) == [50, 50, 20])
        #expect(pieces.allSatisfy { $0.html().hasPrefix("<i>") && $0.html().hasSuffix("</i>") })
        #expect(pieces.map(\.plainText).joined() == String(repeating: "a&b ", count: 30))
        #expect(message.parts(maximumLength: 10_000) == [message.markup], "a message that fits stays whole")
    }
}
