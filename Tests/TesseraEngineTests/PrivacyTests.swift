import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("A player's own data: /export and /forgetme", .onBothPaths)
struct PrivacyTests {
    /// Alice plays, is on group -1's board with a pasted official result too; Bob is on the same board.
    func harness() async throws -> EngineHarness {
        let bot = try EngineHarness()
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.play(2, name: "Bob", misses: 3)
        for user: Int64 in [1, 2] {
            try await bot.send("/join", from: user, name: user == 1 ? "Alice" : "Bob", in: -1, group: true)
        }
        try await bot.send("Wordle 1,982 3/6", in: -1, group: true)
        return bot
    }

    func isStored(_ user: Int64, in bot: EngineHarness) async throws -> Bool {
        try await bot.store.write { try await $0.data(of: UserID(user)) != nil }
    }

    @Test("/export sends everything stored about the player as a JSON document, only in their direct chat")
    func export() async throws {
        let bot = try await harness()
        #expect(
            try await bot.text("/export", in: -1, group: true)
                == "Send me that in our private chat: it is about your own data.")
        // Queued without the data, which the sender gathers in a read beside the writer (the harness does as
        // the runtime's sender): the transaction that handles /export reads none of the player's history.
        let now = bot.now
        let export = ChatMessage(
            chat: ChatID(1), chatKind: .direct, sender: UserID(1), senderName: "Alice", text: "/export",
            messageID: MessageID(7)
        ).readingCommands()
        try await bot.apply([export])
        let queued = try await bot.store.pendingMessages(limit: 10, now: now)
        #expect(queued.map(\.message.action) == [.postPlayerData(of: UserID(1))])
        #expect(queued.first?.message.document == nil)
        try await bot.store.markSent(queued.map(\.id))
        let replies = try await bot.send("/export")
        #expect(replies.count == 1)
        let reply = try #require(replies.first)
        #expect(reply.html == "Everything I store about you, as JSON.")
        let document = try #require(reply.document)
        #expect(document.fileName == "tessera-data-1.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.contents)) as? [String: Any])
        let player = try #require(json["player"] as? [String: Any])
        #expect(player["name"] as? String == "Alice" && player["time_zone"] as? String == "UTC")
        let games = try #require(json["games"] as? [[String: Any]])
        #expect(games.count == 1)
        #expect(games.first?["result"] as? String == "2/6")
        let guesses = try #require(games.first?["guesses"] as? [String])
        let answer = try bot.answer()
        #expect(guesses.count == 2 && guesses.last == answer)
        #expect((json["groups"] as? [[String: Any]])?.map { $0["group"] as? String } == ["-1"])
        #expect(player["platform"] as? String == "scripted" && player["id"] as? String == "1")
        let results = try #require(json["board_results"] as? [[String: Any]])
        #expect(results.compactMap { $0["board"] as? String }.sorted() == ["official", "tessera"])
        #expect(!String(decoding: document.contents, as: UTF8.self).contains("Bob"), "only the asker's data")
    }

    @Test("/forgetme asks first; only the confirm button deletes, and then everything about the player is gone")
    func forget() async throws {
        let bot = try await harness()
        #expect(try await bot.text("/forgetme", in: -1, group: true).hasPrefix("Send me that in our private chat"))
        let question = try #require(try await bot.send("/forgetme").first)
        #expect(question.html.hasPrefix("This deletes everything I store about you"))
        let data = question.buttons.joined().map(\.data)
        #expect(data.count == 2 && data[0].hasPrefix("forgetme:yes~") && data[1].hasPrefix("forgetme:no~"))
        #expect(data.allSatisfy { $0.utf8.count <= 64 }, "Telegram's limit for button data")
        let (confirm, cancel) = (data[0], data[1])
        #expect(question.buttons.joined().map(\.text) == ["Yes, delete everything", "No, keep it"])
        #expect(question.buttons.joined().map(\.style) == [.danger, nil], "what cannot be undone is in red")
        #expect(try await isStored(1, in: bot), "asking deletes nothing")

        #expect(try await bot.text("", button: cancel) == "Nothing was deleted.")
        #expect(try await isStored(1, in: bot))
        #expect(try await bot.text("/forgetme confirm").hasPrefix("This deletes"), "typing is not pressing")

        // Presses the bot did not offer this player here are ignored: forged, unsigned (an older version's),
        // another player's, or this player's button pressed from another chat.
        #expect(try await bot.send("", button: "forgetme:yes").isEmpty)
        #expect(try await bot.send("", button: "forgetme:yes~0000000000000000").isEmpty)
        #expect(try await bot.send("", from: 2, name: "Bob", button: confirm).isEmpty)
        #expect(try await bot.send("", in: -1, group: true, button: confirm).isEmpty)
        #expect(try await isStored(1, in: bot))
        #expect(try await isStored(2, in: bot))
        #expect(
            try await bot.text("", button: confirm).hasPrefix("Done: everything I stored about you is deleted."))
        #expect(try await !isStored(1, in: bot), "the reply does not store the player again")
        let board = try await bot.text("/leaderboard", from: 2, name: "Bob", in: -1, group: true)
        #expect(!board.contains("Alice") && board.contains("Bob — 4/6"), "\(board)")
        let week = try await bot.text("/leaderboard official week", from: 2, name: "Bob", in: -1, group: true)
        #expect(week.hasPrefix("No Wordle"), "\(week)")
        #expect(try await bot.text("", button: confirm).hasPrefix("Done"), "pressing again is harmless")
        #expect(try await bot.send("", button: "unknown:button").isEmpty)
    }

    @Test("After /forgetme an open day cannot be played again; the next day can")
    func noReplayAfterForgetting() async throws {
        var bot = try EngineHarness()
        try await bot.play(1, name: "Alice", misses: 6)
        let question = try #require(try await bot.send("/forgetme").first)
        let confirm = try #require(question.buttons.joined().first?.data)
        #expect(try await bot.text("", button: confirm).hasPrefix("Done"))
        #expect(try await !isStored(1, in: bot))

        let again = try await bot.text(try bot.answer())
        #expect(again.hasPrefix("You played this puzzle before your data was deleted"), "\(again)")
        #expect(try await bot.text("/guess \(try bot.answer())").hasPrefix("You played this"))
        #expect(try await bot.text("/language es").contains("español"))
        #expect(try await !bot.text("sueño").hasPrefix("You played"), "another language's puzzle is another game")

        bot.now += 24 * 60 * 60
        try await bot.send("/language en")
        let tomorrow = try await bot.text(try bot.wrongWord())
        #expect(!tomorrow.hasPrefix("You played") && !tomorrow.hasPrefix("Jugaste"), "\(tomorrow)")
    }

    @Test("Every command in each language's menu is one the bot knows")
    func commandMenus() async throws {
        let bot = try EngineHarness()
        let menus = BotEngine.commandMenus(defaultLanguage: .spanish)
        #expect(menus.map(\.languageCode) == [nil, "en", "es"])
        #expect(menus[0].commands == menus[2].commands, "the default menu is in the default language")
        #expect(menus[1].commands.map(\.name) == menus[2].commands.map(\.name))
        for command in menus[1].commands {
            let reply = try await bot.text("/\(command.name)", from: 9, name: "Menu")
            #expect(!reply.contains("I don't know that command"), "/\(command.name)")
        }
    }

    @Test("Thousands of forged presses are ignored in a log line a minute, each saying how many it stands for")
    func forgedPressesLogged() async throws {
        let logs = LogRecorder()
        let store = try TestStore.make()
        let engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret(EngineHarness.secretText)),
            logger: logs.logger(level: .info))
        let start = Date(timeIntervalSince1970: 1_795_348_800)
        for index in 0..<3000 {
            let press = ChatMessage(
                chat: ChatID(Int64(index)), chatKind: .direct, sender: UserID(Int64(index)), senderName: "P",
                text: "", button: "forgetme:yes~\(String(index, radix: 16))")
            // Two and a half minutes of presses, 20 a second.
            let now = start + Double(index) * 0.05
            try await store.write { _ = try await engine.handle(press, at: now, in: $0) }
        }
        let lines = logs.lines.filter { $0.message.hasPrefix("Ignored a press") }
        #expect(lines.count == 3)
        #expect(lines.map { $0.metadata.contains("presses.unlogged=0") } == [true, false, false])
        #expect(lines.dropFirst().allSatisfy { $0.metadata.contains("presses.unlogged=1199") })
        #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).isEmpty, "and nobody was answered")
    }
}
