import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraSQLite
import Testing

@testable import TesseraEngine

@Suite("The bot engine")
struct EngineTests {
    @Test("A bare word in a direct chat is a guess, answered with the board and the keyboard")
    func directGuess() async throws {
        let bot = try EngineHarness()
        let wrong = try bot.wrongWord()
        let replies = try await bot.send(wrong)
        #expect(replies.count == 1)
        #expect(replies.first?.chat == ChatID(1))
        #expect(replies.first?.replyTo == 7)
        let board = try #require(replies.first?.html)
        #expect(board.contains("<code>\(wrong.uppercased())</code>"))
        #expect(board.contains("⬜ <code>"), "untried letters are listed")
        let won = try await bot.text(try bot.answer())
        #expect(won.contains("Solved in 2/6"))
        #expect(try await bot.text("slate").contains("You have finished today's puzzle (2/6)"))
    }

    @Test("Rejections use the game's messages and no try")
    func rejections() async throws {
        let bot = try EngineHarness()
        #expect(try await bot.text("abc") == "Not enough letters")
        #expect(try await bot.text("xqzvj") == "Not in word list")
        #expect(try await bot.text("/guess xqzvj") == "Not in word list")
        #expect(try await bot.text("/guess") == "Add your word: /guess CRANE")
        #expect(try await bot.text("/board") == "No guesses yet today. Send a word to start.")
    }

    @Test("A loss reveals the word, in the direct chat only")
    func loss() async throws {
        let bot = try EngineHarness()
        let answer = try bot.answer()
        let wrongs = ["crane", "slate", "fizzy", "tough", "lymph", "glory", "mound"].filter { $0 != answer }
        for word in wrongs.prefix(5) { try await bot.send(word) }
        let last = try await bot.text(wrongs[5])
        #expect(last.contains("The word was <b>\(answer.uppercased())</b>"))
    }

    @Test("In groups only squares are posted: never the word, never the letters of a guess")
    func groupsStaySpoilerFree() async throws {
        let bot = try EngineHarness()
        let answer = try bot.answer()
        let wrong = try bot.wrongWord()
        let progress = try await bot.text("/guess@TesseraBot \(wrong)", in: -100, group: true)
        #expect(progress.hasPrefix("Alice: "))
        #expect(!progress.uppercased().contains(wrong.uppercased()))
        #expect(progress.contains("1/6"))
        let board = try await bot.text("/board@TesseraBot", in: -100, group: true)
        #expect(!board.uppercased().contains(wrong.uppercased()))
        let won = try await bot.text("/guess \(answer)", in: -100, group: true)
        #expect(won.contains("Alice solved today's puzzle in 2/6"))
        #expect(!won.uppercased().contains(answer.uppercased()))
        // Bare words in groups are chatter, not guesses.
        #expect(try await bot.send("hello", in: -100, group: true).isEmpty)
    }

    @Test("Hard-mode rejections in a group do not reveal the hint letters")
    func hardModeInGroup() async throws {
        let bot = try EngineHarness()
        try await bot.send("/hard")
        let first = try #require(
            ["crane", "slate", "moist", "pound"].first { try bot.answer() != $0 && !hintsAreEmpty($0, bot) }
        )
        try await bot.send(first)
        let violating = try #require(
            Language.english.wordList.answers.map { Language.english.wordList.display($0).lowercased() }
                .first { try violatesHardMode($0, after: first, bot) }
        )
        let reply = try await bot.text("/guess \(violating)", in: -100, group: true)
        #expect(reply == "That guess does not use every hint (hard mode). Guess here privately to see why.")
        let direct = try await bot.text(violating)
        #expect(direct.contains("letter must be") || direct.contains("Guess must contain"))
    }

    func hintsAreEmpty(_ word: String, _ bot: EngineHarness) throws -> Bool {
        let list = Language.english.wordList
        return Feedback(guess: list.testWord(word), answer: list.testWord(try bot.answer())).code == 0
    }

    func violatesHardMode(_ word: String, after first: String, _ bot: EngineHarness) throws -> Bool {
        let list = Language.english.wordList
        var game = Game(answer: list.testWord(try bot.answer()), wordList: list, hardMode: true)
        game.submit(first)
        if case .failure(.mustKeepLetter) = game.submit(word) { return true }
        if case .failure(.mustContainLetter) = game.submit(word) { return true }
        return false
    }

    @Test("Commands for other bots are ignored; unknown commands only get an answer in direct chats")
    func addressing() async throws {
        let bot = try EngineHarness()
        #expect(try await bot.send("/guess@OtherBot crane", in: -100, group: true).isEmpty)
        #expect(try await bot.send("/stats@otherbot").isEmpty)
        #expect(try await bot.send("/frobnicate", in: -100, group: true).isEmpty)
        #expect(try await bot.text("/frobnicate") == "I don't know that command. /help lists the ones I do.")
        #expect(try await bot.text("/HELP@tesserabot").contains("<b>Commands</b>"))
    }

    @Test("/hard only before the first guess, remembered for the next puzzles; /hard off")
    func hardToggle() async throws {
        var bot = try EngineHarness()
        #expect(try await bot.text("/hard") == "Hard mode is on: every revealed hint must be used in later guesses.")
        #expect(try await bot.text("/hard off") == "Hard mode is off.")
        try await bot.send(try bot.wrongWord())
        #expect(
            try await bot.text("/hard")
                == "Hard mode can only be enabled at the start of a round. It will be on from your next puzzle."
        )
        bot.now += 86_400
        try await bot.send(try bot.answer())
        #expect(try await bot.text("/share").hasPrefix("Tessera \(bot.puzzle.grouped) 1/6*"))
    }

    @Test("/share posts the spoiler-free result where it is asked, and /stats sums up")
    func shareAndStats() async throws {
        var bot = try EngineHarness()
        #expect(try await bot.text("/share") == "Finish today's puzzle first; then /share posts your result.")
        try await bot.send(try bot.wrongWord())
        try await bot.send(try bot.answer())
        let shared = try await bot.send("/share", in: -100, group: true)
        #expect(shared.first?.chat == ChatID(-100))
        let text = try #require(shared.first?.html)
        #expect(text.hasPrefix("Tessera 326 2/6\n\n"))
        #expect(text.hasSuffix("🟩🟩🟩🟩🟩"))
        bot.now += 86_400
        try await bot.send(try bot.answer())
        let stats = try await bot.text("/stats")
        #expect(stats.contains("Played 2 · Win 100% · Current streak 2 · Max streak 2"))
        #expect(stats.contains("1 ████████████ 1"))
        #expect(stats.contains("2 ████████████ 1"))
    }

    @Test("The group leaderboard ranks by guesses, then by finishing time; failures after; players listed by name")
    func leaderboard() async throws {
        var bot = try EngineHarness()
        let answer = try bot.answer()
        let wrong = try bot.wrongWord()
        // Carol: 2 guesses, first to finish; Bob: 2 guesses, later; Dave: 1 guess; Erin: still playing.
        try await bot.send("/guess \(wrong)", from: 3, name: "Carol", in: -100, group: true)
        try await bot.send("/guess \(answer)", from: 3, name: "Carol", in: -100, group: true)
        bot.now += 60
        try await bot.send(wrong, from: 2, name: "Bob")
        try await bot.send(answer, from: 2, name: "Bob")
        try await bot.send("/share", from: 2, name: "Bob", in: -100, group: true)
        try await bot.send(answer, from: 4, name: "Dave <script>")
        try await bot.send("/share", from: 4, name: "Dave <script>", in: -100, group: true)
        try await bot.send("/guess \(wrong)", from: 5, name: "Erin", in: -100, group: true)
        let board = try await bot.text("/leaderboard", in: -100, group: true)
        #expect(
            board == """
                <b>Leaderboard · puzzle 326</b>
                🥇 Dave &lt;script&gt; — 1/6
                🥈 Carol — 2/6
                🥉 Bob — 2/6
                4. Erin — playing (1/6)
                """
        )
        #expect(
            try await bot.text("/leaderboard")
                == "Leaderboards are for groups: add me to a group and play or /share there.")
        #expect(try await bot.text("/leaderboard", in: -200, group: true).hasPrefix("No results for puzzle 326"))
    }

    @Test("/timezone applies from the next puzzle, so no day is replayed or skipped")
    func timeZoneChange() async throws {
        var bot = try EngineHarness()
        // 23:30 UTC on 22 November: already 23 November in Kiritimati (UTC+14).
        bot.now = Date(timeIntervalSince1970: 1_795_390_200)
        try await bot.send(try bot.answer(puzzle: PuzzleNumber(326)))
        #expect(
            try await bot.text("/timezone pacific/kiritimati")
                .hasPrefix("From puzzle 327 on, your day follows <b>Pacific/Kiritimati</b>.")
        )
        #expect(try await bot.text("/board").contains("Solved in 1/6"), "today's finished game stays today's")
        #expect(try await bot.text("/timezone Mars/Olympus").hasPrefix("I don't know the time zone"))
        bot.now += 3600  // past midnight UTC: puzzle 327 everywhere
        #expect(try await bot.text("/board") == "No guesses yet today. Send a word to start.")
        #expect(try await bot.text("/timezone").hasPrefix("Your day follows <b>Pacific/Kiritimati</b>"))
    }

    @Test("/language switches the word list and the bot's language; each language is its own daily game")
    func languageSwitch() async throws {
        let bot = try EngineHarness()
        try await bot.send(try bot.answer())
        #expect(
            try await bot.text("/language es")
                == "Ahora juegas en <b>Español</b>; tus próximos intentos usan su lista de palabras."
        )
        #expect(try await bot.text("/board") == "Todavía no has probado ninguna palabra hoy. Envía una para empezar.")
        #expect(try await bot.text("abc") == "Faltan letras")
        #expect(try await bot.text("zzzzz") == "La palabra no está en la lista")
        let spanish = try await bot.text(try bot.answer(.spanish))
        #expect(spanish.contains("Resuelto en 1/6"))
        #expect(try await bot.text("/language fr").hasPrefix("No conozco el idioma «fr»"))
        #expect(try await bot.text("/language en").hasPrefix("You now play in <b>English</b>"))
    }

    @Test("Every text exists in every language and differs from English")
    func translations() {
        let english = Language.english.texts
        for language in Language.allCases where language != .english {
            let texts = language.texts
            let samples: [(String, String)] = [
                (texts.help, english.help), (texts.guessHowTo, english.guessHowTo),
                (texts.rejection(.notInWordList), english.rejection(.notInWordList)),
                (texts.won(guesses: 3, maximumGuesses: 6), english.won(guesses: 3, maximumGuesses: 6)),
                (texts.leaderboardPrivate, english.leaderboardPrivate),
                (
                    texts.summaryTitle(puzzle: PuzzleNumber(1), answer: "X"),
                    english.summaryTitle(puzzle: PuzzleNumber(1), answer: "X")
                ),
                (texts.summaryMissed, english.summaryMissed),
            ]
            for (translated, original) in samples {
                #expect(!translated.isEmpty && translated != original, "\(language): \(translated)")
            }
        }
    }

    @Test(
        "Hostile input gets a clear reply or none, never a crash",
        arguments: [
            "", " ", "\n\n", String(repeating: "a", count: 100_000), "🟩🟩🟩🟩🟩", "\u{200F}crane\u{200E}",
            "<b>crane</b>", "/guess <i>x</i>", "/", "/@", "/guess@", "cr\u{0000}ne", "ⅽrane",
        ]
    )
    func hostileInput(text: String) async throws {
        let bot = try EngineHarness()
        let replies = try await bot.send(text)
        for reply in replies {
            #expect(!reply.html.contains("<i>x"), "user text must be escaped")
            #expect(reply.html.count < 5_000)
        }
        try await bot.send(text, in: -100, group: true)
    }

    @Test("Display names follow renames")
    func renames() async throws {
        let bot = try EngineHarness()
        try await bot.send("/guess \(try bot.wrongWord())", name: "Al", in: -100, group: true)
        try await bot.send("/board", name: "Alice B.", in: -100, group: true)
        #expect(
            try await bot.text("/leaderboard", name: "Alice B.", in: -100, group: true).contains("Alice B. — playing"))
    }

    @Test("Control characters from the platform are removed: a NUL neither cuts a name nor breaks a guess")
    func controlCharacters() async throws {
        let message = ChatMessage(
            chat: ChatID(1), chatKind: .direct, sender: UserID(1), senderName: "Ann\u{0}ie\u{1B}[31m",
            text: "line one\nline\u{0}two\t!", button: "forgetme:yes\nINFO forged line")
        #expect(message.senderName == "Annie[31m")
        #expect(message.text == "line one\nlinetwo\t!")
        #expect(message.button == "forgetme:yesINFO forged line")

        let harness = try EngineHarness()
        let word = try harness.wrongWord()
        let split = String(word.prefix(2)) + "\u{0}" + String(word.dropFirst(2))
        let reply = try await harness.text(split, name: "Ann\u{0}ie")
        #expect(reply.contains(word.uppercased()), "\(reply)")
    }

    @Test("A flood gets its queue's worth of replies and one 'slow down', not hundreds of replies")
    func floodIsCapped() async throws {
        let harness = try EngineHarness()
        let (engine, now) = (harness.engine, harness.now)
        for index in 0..<40 {
            let message = ChatMessage(
                chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Flo", text: "/help",
                messageID: Int64(index))
            try await harness.store.write { try engine.handle(message, at: now, in: $0) }
        }
        let other = ChatMessage(chat: ChatID(6), chatKind: .direct, sender: UserID(6), senderName: "Ann", text: "/help")
        try await harness.store.write { try engine.handle(other, at: now, in: $0) }
        // Everything queued, in order: the outbox hands out a few per chat at a time.
        var waiting: [OutgoingMessage] = []
        while case let batch = try await harness.store.pendingMessages(limit: 100, now: now), !batch.isEmpty {
            waiting += batch.map(\.message)
            try await harness.store.markSent(batch.map(\.id))
        }
        let flooder = waiting.filter { $0.chat == ChatID(5) }
        #expect(flooder.count == BotEngine.backlogLimit + 1)
        #expect(flooder.last?.html.hasPrefix("Slow down, please") == true)
        #expect(flooder.filter { $0.html.hasPrefix("Slow down, please") }.count == 1)
        #expect(waiting.filter { $0.chat == ChatID(6) }.count == 1, "another chat is answered as usual")
    }
}
