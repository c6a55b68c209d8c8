import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

/// One live board per game in a direct chat, the Share and Stats buttons, deleted guesses in groups, and streak
/// reminders.
@Suite("Live boards, sharing and reminders", .onBothPaths)
struct LiveBoardTests {
    @Test("The board shows the rows, the tries used and a keyboard marked by the theme's squares, never ⬜ for untried")
    func boardLayout() async throws {
        let bot = try EngineHarness()
        let answer = try bot.answer()
        let wrong = try bot.wrongWord()
        let board = try #require(try await bot.send(wrong).first)
        let lines = board.html.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "<b>Tessera 326</b> · 1/6")
        let feedback = try Self.squares(of: wrong, answer: answer)
        #expect(lines[1] == feedback + " <code>\(wrong.uppercased())</code>")
        let keyboard = Array(lines[3...5])
        #expect(keyboard.map { $0.filter(\.isLetter) } == ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"])
        for (letter, square) in zip(wrong.uppercased(), feedback) {
            // Each tried letter is marked; a letter tried twice shows the best it showed.
            let marked = keyboard.joined(separator: " ").split(separator: " ").first { $0.hasSuffix(String(letter)) }
            #expect(marked?.count == 2, "\(letter) is marked: \(keyboard)")
            if square == "🟩" { #expect(marked?.first == "🟩") }
        }
        let untried = Set("QWERTYUIOPASDFGHJKLZXCVBNM").subtracting(wrong.uppercased())
        for letter in untried {
            #expect(keyboard.joined(separator: " ").split(separator: " ").contains(Substring(String(letter))))
        }
        #expect(!board.html.contains("⬜"), "⬜ means absent in the light theme, so it never marks untried")
        #expect(board.buttons.isEmpty, "no buttons while the game is on")

        let spanish = try EngineHarness()
        _ = try await spanish.send("/language es")
        let tablero = try #require(try await spanish.send(try spanish.answer(.spanish)).first?.html)
        let rows = tablero.split(separator: "\n").map { $0.filter(\.isLetter) }
        #expect(rows.contains("ASDFGHJKLÑ"), "Spanish keyboards have Ñ: \(tablero)")
    }

    @Test("A finished board counts down to the next puzzle and offers Share, Copy, Stats and Analysis")
    func finishedBoard() async throws {
        let bot = try EngineHarness()
        let board = try #require(try await bot.send(try bot.answer()).first)
        // 2026-11-22 12:00 UTC, a UTC player: the next puzzle comes at midnight.
        #expect(board.html.contains("Solved in 1/6.\n⏳ Next puzzle in 12 h 0 min\n\n🕰️"), "\(board.html)")
        let buttons = Array(board.buttons.joined())
        #expect(buttons.map(\.text) == ["📤 Share", "📋 Copy", "📊 Stats", "🔍 Analysis"])
        #expect(buttons.first?.postQuery == "share" && buttons[2].data == "stats")
        // Copy holds the share text itself, as /share gives it; it fits Telegram's 256 characters.
        let shared = try await bot.text("/share")
        #expect(buttons[1].copyText == shared && shared.hasPrefix("Tessera 326 1/6\n\n🟩🟩🟩🟩🟩"), "\(shared)")
        #expect(buttons.allSatisfy { $0.style == nil }, "nothing here to warn about or to urge")
        #expect(buttons.last?.data == "analysis en 326", "the Analysis button names the board's game")
        // Without inline mode the Share button sends its data back: the result comes here, to forward.
        #expect(buttons.first?.data == "share")
        #expect(try await bot.text("", button: "share").hasPrefix("Tessera 326 1/6\n\n🟩🟩🟩🟩🟩"))
        let stats = try await bot.text("", button: "stats")
        #expect(stats.hasPrefix("<b>Statistics</b>") && stats.contains("Played 1"))
    }

    @Test("The Share button's query is answered with the spoiler-free result, or a way to play first")
    func shareQuery() async throws {
        let bot = try EngineHarness()
        let early = try #require(try await bot.send("share", event: .query(id: "q1")).first)
        #expect(early.action == .answerQuery(id: "q1", title: "Finish today's puzzle first") && early.html.isEmpty)
        // Strangers' queries are answered and make no player.
        for stranger in 100...599 as ClosedRange<Int64> {
            try await bot.send("share", from: stranger, event: .query(id: "s\(stranger)"))
        }
        #expect(try await bot.store.write { try await $0.player(UserID(1)) } == nil)
        #expect(try await bot.store.write { try await $0.player(UserID(599)) } == nil)
        try await bot.send(try bot.wrongWord())
        try await bot.send(try bot.answer())
        let answer = try #require(try await bot.send("share", event: .query(id: "q2")).first)
        #expect(answer.action == .answerQuery(id: "q2", title: "Share Tessera 326 2/6"))
        let word = try bot.answer().uppercased()
        #expect(answer.html.hasPrefix("Tessera 326 2/6\n\n") && !answer.html.contains(word))
        #expect(answer.chat == ChatID(1))
    }

    @Test("/board posts the board anew at the bottom, and it is the one edited from then on")
    func boardAgain() async throws {
        let bot = try EngineHarness()
        try await bot.send(try bot.wrongWord())
        let again = try #require(try await bot.send("/board").first)
        #expect(again.live == "board:en:326" && again.repostsLive)
    }

    @Test("In a group where the bot may delete messages, a /guess with a word is deleted, and why is said once")
    func deletedGuesses() async throws {
        let bot = try EngineHarness()
        let before = try await bot.send("/guess crane", from: 2, in: -100, group: true, botMayDelete: false)
        #expect(before.allSatisfy { $0.action == .post }, "without the right, nothing is deleted")
        let unknown = try await bot.send("/guess crane", from: 2, in: -100, group: true)
        #expect(unknown.allSatisfy { $0.action == .post }, "nor when the platform could not tell")
        let first = try await bot.send("/guess crane", from: 2, in: -100, group: true, botMayDelete: true)
        #expect(first.first?.action == .delete && first.first?.replyTo == MessageID(7))
        #expect(first.last?.html.hasPrefix("🧹 I deleted that guess") == true)
        #expect(first.last?.buttons.first?.first?.directChatStart == "play-en")
        let second = try await bot.send("/guess slate", from: 4, in: -100, group: true, botMayDelete: true)
        #expect(second.first?.action == .delete && second.last?.html.contains("🧹") == false, "said once")
        let play = try await bot.send("/play", from: 4, in: -100, group: true, botMayDelete: true)
        #expect(play.allSatisfy { $0.action == .post }, "/play reveals nothing and stays")
        let message = { (text: String) in
            ChatMessage(chat: ChatID(-100), chatKind: .group, sender: UserID(1), senderName: "A", text: text)
                .readingCommands()
        }
        #expect(bot.engine.questions(for: message("/guess crane")) == [.botMayDeleteMessages])
        #expect(bot.engine.questions(for: message("/play@TesseraBot torso")) == [.botMayDeleteMessages])
        #expect(
            bot.engine.questions(for: message("/guess")).isEmpty && bot.engine.questions(for: message("/play")).isEmpty)
        // The ways round it: a word after /play, and a message edited into a guess, are deleted too; neither is
        // quoted.
        let played = try await bot.send("/play@TesseraBot torso", from: 5, in: -100, group: true, botMayDelete: true)
        #expect(played.first?.action == .delete && played.allSatisfy { $0.action == .delete || $0.replyTo == nil })
        let edited = try await bot.send(
            "/guess@TesseraBot torso", from: 5, in: -100, group: true, botMayDelete: true, edited: true)
        #expect(edited.map(\.action) == [.delete], "deleted, and the group was told why already")
        let elsewhere = try await bot.send(
            "/guess@TesseraBot torso", from: 5, in: -200, group: true, botMayDelete: true, edited: true)
        #expect(elsewhere.map(\.action) == [.delete, .post] && elsewhere.last?.replyTo == nil)
        #expect(elsewhere.last?.html.hasPrefix("🧹 I deleted that guess") == true)
        // A forwarded private board shows its letters: deleted, with the explanation the first time.
        let forwarded = "Tessera 326 · 2/6\n🟨⬛⬛⬛🟩 CRANE\n🟩🟩🟩🟩🟩 SLIME\n\n🟩E 🟨R ⬛T"
        let forward = message(forwarded)
        #expect(bot.engine.questions(for: forward) == [.botMayDeleteMessages])
        let deleted = try await bot.send(forwarded, from: 6, in: -300, group: true, botMayDelete: true)
        #expect(deleted.map(\.action) == [.delete, .post] && deleted.last?.html.hasPrefix("🧹") == true)
        // A forwarded analysis names the guesses and the bot's path to the word: handled as a forwarded board.
        let analysis = """
            🔍 Analysis · Tessera 326
            1. 🟨⬛⬛⬛🟩 SALET
                2,315 → 34 words · ✅ optimal · luck +0.20
            2. 🟩🟩🟩🟩🟩 ROUTE
                34 → 1 word · cost 0.12 guesses (bot: THRIP) · luck +1.40

            Skill 80/99 · Luck 95/99
            🤖 From your first word, the bot plays SALET → THRIP → ROUTE
            """
        let pathOnly = "🤖 Desde tu primera palabra, el bot juega SALET → THRIP → ROUTE"
        for text in [analysis, pathOnly] {
            #expect(bot.engine.questions(for: message(text)) == [.botMayDeleteMessages], "\(text)")
        }
        let forwardedAnalysis = try await bot.send(analysis, from: 6, in: -300, group: true, botMayDelete: true)
        #expect(forwardedAnalysis.map(\.action) == [.delete], "deleted; the group was told why already")
        // A share's grid, or words beside squares that are no board row, stay.
        for text in [
            "Tessera 326 2/6\n\n🟨⬛⬛⬛🟩\n🟩🟩🟩🟩🟩", "🟩🟩 so close today", "🟩🟩🟩🟩🟩 nice one", "🟩🟩🟩🟩🟩 great",
            "1. 🟩🟩🟩🟩🟩 great", "so close → next time", "Monday → Tuesday", "ok → OK",
        ] {
            #expect(bot.engine.questions(for: message(text)).isEmpty, "\(text)")
        }
    }

    @Test("A reminder goes to the chat the player wrote from, which need not have the player's id")
    func reminderToTheDirectChat() async throws {
        var bot = try EngineHarness()
        let today = bot.now
        try await Self.winThreeDays(&bot, from: 5, in: 905)
        try await bot.send("/remind on", from: 5, in: 905)
        let engine = bot.engine
        let evening = today + 9 * 3600
        _ = try await bot.store.write { try await engine.queueReminders(at: evening, in: $0) }
        let reminder = try await bot.store.pendingMessages(limit: 10, now: evening).map(\.message)
        #expect(reminder.map(\.chat) == [ChatID(905)] && reminder.first?.html.hasPrefix("🔥") == true)
    }

    @Test("A reminder comes once, a few hours before the day ends, only with a streak going and the day unplayed")
    func reminders() async throws {
        var bot = try EngineHarness()
        let today = bot.now
        try await Self.winThreeDays(&bot)
        #expect(try await bot.text("/remind").hasPrefix("🔕 Reminders are off. /remind on"), "never asked")
        #expect(try await bot.text("/remind on").hasPrefix("🔔 Reminders are on"))
        #expect(try await bot.text("/remind maybe") == "Use /remind on or /remind off.")
        #expect(try await bot.text("/remind").hasPrefix("🔔 Reminders are on"), "a junk argument changed nothing")
        #expect(try await bot.text("/remind on", in: -100, group: true).hasPrefix("In our private chat"))

        // Hours after the start of today, UTC: the player's day ends at 24.
        func due(at hour: Double) async throws -> [OutgoingMessage] {
            let engine = bot.engine
            let moment = today - 12 * 3600 + hour * 3600
            _ = try await bot.store.write { try await engine.queueReminders(at: moment, in: $0) }
            let pending = try await bot.store.pendingMessages(limit: 10, now: moment)
            try await bot.store.markSent(pending.map(\.id))
            return pending.map(\.message)
        }
        #expect(try await due(at: 19).isEmpty, "five hours before midnight: not yet")
        let reminder = try await due(at: 20.5)
        #expect(reminder.count == 1)
        #expect(
            reminder.first?.html
                == "🔥 Your streak of 3 ends in 3 h 30 min unless you play today's puzzle. Send a word to start.")
        #expect(reminder.first?.silent == true && reminder.first?.chat == ChatID(1))
        #expect(try await due(at: 21).isEmpty, "at most one a day")
        #expect(try await due(at: 23.9).isEmpty, "at most one a day")

        // The next day: played before the reminder's time, so none; then switched off, none either.
        bot.now = today + 86_400
        try await bot.send(try bot.answer())
        #expect(try await due(at: 24 + 21).isEmpty, "played today")
        #expect(try await bot.text("/remind off").hasPrefix("🔕 Reminders are off, and groups' nudges do not name you."))
        #expect(try await due(at: 48 + 21).isEmpty, "switched off")
    }
}

extension LiveBoardTests {
    /// A streak of three: the player wins the three days before the harness's day, which it is on again after.
    static func winThreeDays(_ bot: inout EngineHarness, from user: Int64 = 1, in chat: Int64? = nil) async throws {
        let today = bot.now
        for daysAgo in [3, 2, 1] {
            bot.now = today - Double(daysAgo) * 86_400
            try await bot.send(try bot.answer(), from: user, in: chat)
        }
        bot.now = today
    }

    /// The squares of a guess as the dark theme shows them.
    static func squares(of guess: String, answer: String) throws -> String {
        let list = Language.english.wordList
        guard case .success(let answerWord) = list.word(from: answer) else { throw WordNotInList() }
        var game = Game(answer: answerWord, wordList: list, hardMode: false)
        _ = game.submit(guess)
        return String(try #require(game.rows.first).feedback.states.map(ShareTheme.dark.square(for:)))
    }

    struct WordNotInList: Error {}
}
