import Foundation
import TesseraCore
import TesseraEngine
import TesseraSQLite
import TesseraTesting
import Testing

/// The engine adapts to what a platform can do (``PlatformTraits``): the same game on a platform without
/// edits, reactions or buttons.
@Suite("Platform traits")
struct PlatformTraitsTests {
    @Test("Without edits each guess posts its board anew; without buttons the finished board names the commands")
    func boardsWithoutEditsOrButtons() async throws {
        let bot = try EngineHarness { $0.platform = PlatformTraits(buttons: false, edits: false, reactions: false) }
        let first = try #require(try await bot.send(try bot.wrongWord()).first)
        let second = try #require(try await bot.send(try bot.answer()).first)
        #expect(first.live == nil && second.live == nil, "nothing to edit: each board is a message of its own")
        #expect(second.html.contains("· 2/6") && second.buttons.isEmpty)
        #expect(second.html.hasSuffix("/share to post your result · /stats"))
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
        #expect(linked.count == 1 && linked[0].buttons.first?.first?.directChatStart == "play")
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
}
