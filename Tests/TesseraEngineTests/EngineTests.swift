import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("The bot engine", .onBothPaths)
struct EngineTests {
    @Test("A bare word in a direct chat is a guess, answered with the game's live board")
    func directGuess() async throws {
        let bot = try EngineHarness()
        let wrong = try bot.wrongWord()
        let replies = try await bot.send(wrong)
        #expect(replies.count == 1)
        #expect(replies.first?.chat == ChatID(1))
        #expect(replies.first?.live == "board:en:326" && replies.first?.replyTo == nil)
        let board = try #require(replies.first?.html)
        #expect(board.hasPrefix("<b>Tessera 326</b> · 1/6\n"))
        #expect(board.contains("<code>\(wrong.uppercased())</code>"))
        let won = try await bot.text(try bot.answer())
        #expect(won.contains("Solved in 2/6"))
        #expect(try await bot.text("slate").contains("You have finished today's puzzle (2/6)"))
    }

    @Test("Rejections use the game's messages and no try")
    func rejections() async throws {
        let bot = try EngineHarness()
        // A first message that plays nothing is welcomed, not corrected; its reply says which day the player is
        // on, once.
        let first = try await bot.text("hi")
        #expect(first.hasPrefix("<b>Welcome to Tessera!</b>"), "\(first)")
        #expect(
            first.hasSuffix(
                "\n\n🕰️ Your day follows <b>UTC</b>, with a new puzzle at 00:00; another zone? "
                    + "Send /timezone and its name, like /timezone Europe/Madrid."))
        #expect(try await bot.text("abc") == "Not enough letters")
        #expect(try await bot.text("xqzvj") == "Not in word list")
        #expect(try await bot.text("/guess xqzvj") == "Not in word list")
        #expect(try await bot.text("/guess") == "Add your word: /guess CRANE")
        #expect(try await bot.text("/board") == "No guesses yet today. Send a word to start.")
    }

    @Test("An operator's extra guesses are accepted in that language only, and never become answers")
    func extraGuesses() async throws {
        let extra = Language.english.wordList.testWord("qwzzy")
        let bot = try EngineHarness { $0.extraGuesses = [.english: [extra]] }
        let board = try await bot.text("qwzzy")
        #expect(board.contains("<code>QWZZY</code>"), "\(board)")
        let other = try EngineHarness()
        try await other.send("/start")
        #expect(try await other.text("qwzzy") == "Not in word list")
        #expect(!Language.english.wordList.answers.contains(extra))
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

    @Test("A group takes no guesses: /guess and /play answer with a button to the direct chat, never the word")
    func groupsTakeNoGuesses() async throws {
        let bot = try EngineHarness()
        let wrong = try bot.wrongWord()
        let replies = try await bot.send("/guess@TesseraBot \(wrong)", in: -100, group: true)
        let reply = try #require(replies.first)
        #expect(replies.count == 1)
        #expect(!reply.html.uppercased().contains(wrong.uppercased()))
        #expect(reply.replyTo == nil, "the reply does not quote the message that shows the word")
        #expect(reply.buttons.joined().map(\.directChatStart) == ["play-en"])
        #expect(reply.html.hasPrefix("Guesses are made in our private chat"))
        let play = try #require(try await bot.send("/play", in: -100, group: true).first)
        #expect(play.replyTo != nil && play.buttons.joined().map(\.directChatStart) == ["play-en"])
        #expect(play.buttons.joined().map(\.style) == [.success], "playing is in green")
        // Nothing was played: the direct chat has no guesses yet.
        #expect(try await bot.text("/board").hasPrefix("No guesses yet today. Send a word to start.\n\n🕰️"))
        // Bare words in groups are chatter, not guesses.
        #expect(try await bot.send(wrong, in: -100, group: true).isEmpty)
        // The group's board shows squares only.
        try await bot.send(wrong)
        try await bot.send("/join", in: -100, group: true)
        let board = try await bot.text("/board@TesseraBot", in: -100, group: true)
        #expect(!board.uppercased().contains(wrong.uppercased()) && board.contains("1/6"))
    }

    @Test("The group leaderboard ranks by guesses; equal scores share a place, the first to finish listed first")
    func leaderboard() async throws {
        var bot = try EngineHarness()
        let answer = try bot.answer()
        let wrong = try bot.wrongWord()
        // Carol: 2 guesses, first to finish; Bob: 2 guesses, later; Dave: 1 guess; Erin: still playing.
        try await bot.send("/join", from: 3, name: "Carol", in: -100, group: true)
        try await bot.send(wrong, from: 3, name: "Carol")
        try await bot.send(answer, from: 3, name: "Carol")
        bot.now += 60
        try await bot.send(wrong, from: 2, name: "Bob")
        try await bot.send(answer, from: 2, name: "Bob")
        try await bot.send("/share", from: 2, name: "Bob", in: -100, group: true)
        try await bot.send(answer, from: 4, name: "Dave <script>")
        try await bot.send("/share", from: 4, name: "Dave <script>", in: -100, group: true)
        try await bot.send(wrong, from: 5, name: "Erin")
        try await bot.send("/join", from: 5, name: "Erin", in: -100, group: true)
        let board = try await bot.text("/leaderboard", in: -100, group: true)
        #expect(
            board == """
                <b>Leaderboard · puzzle 326</b>
                🥇 Dave &lt;script&gt; — 1/6
                🥈 Carol — 2/6
                🥈 Bob — 2/6
                4. Erin — playing (1/6)
                """
        )
        #expect(
            try await bot.text("/leaderboard")
                .hasPrefix("Leaderboards are for groups: add me to a group and play or /share there.\n\n"))
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
                == "Ahora juegas en <b>español</b>; tus próximos intentos usan su lista de palabras."
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
        let highlights = DayHighlights(skilful: ("Ana", 92))
        for language in Language.allCases where language != .english {
            let texts = language.texts
            let samples: [(String, String)] = [
                (texts.help, english.help), (texts.groupHelp, english.groupHelp),
                (texts.guessHowTo, english.guessHowTo),
                (texts.rejection(.notInWordList), english.rejection(.notInWordList)),
                (texts.won(guesses: 3, maximumGuesses: 6), english.won(guesses: 3, maximumGuesses: 6)),
                (texts.leaderboardPrivate, english.leaderboardPrivate),
                (texts.summarySoFarTitle(puzzle: PuzzleNumber(1)), english.summarySoFarTitle(puzzle: PuzzleNumber(1))),
                (texts.summaryWord(in: .english, "X"), english.summaryWord(in: .spanish, "X")),
                (
                    texts.summaryWordLater(
                        waitingFor: "Ben", count: 1, until: LocalTime(hour: 6, minute: 0, daysAhead: 1)),
                    english.summaryWordLater(
                        waitingFor: "Ben", count: 1, until: LocalTime(hour: 6, minute: 0, daysAhead: 1))
                ),
                (texts.revealTitle(puzzle: PuzzleNumber(1)), english.revealTitle(puzzle: PuzzleNumber(1))),
                (texts.highlights(highlights), english.highlights(highlights)),
                (texts.analysisComing(unstudied: nil), english.analysisComing(unstudied: nil)),
                (texts.analysisComing(unstudied: "plumb"), english.analysisComing(unstudied: "plumb")),
                (texts.analysisPrivateOnly, english.analysisPrivateOnly),
                (texts.luck(.exactly(0.5)), english.luck(.exactly(0.5))),
                (texts.luck(.between(-0.5, 0.5)), english.luck(.between(-0.5, 0.5))),
                (texts.analysisBounded, english.analysisBounded),
                (texts.botPath(["SALET"], optimal: false), english.botPath(["SALET"], optimal: false)),
                (texts.summaryStillPlaying, english.summaryStillPlaying),
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

    @Test("A new player starts in their app's language when the bot speaks it, and keeps what they choose")
    func appLanguage() async throws {
        let bot = try EngineHarness()
        #expect(try await bot.text("/start", from: 1, appLanguage: "es-419").hasPrefix("<b>¡Bienvenido"))
        #expect(try await bot.text("/start", from: 2, appLanguage: "pt-BR").hasPrefix("<b>Welcome"), "not spoken")
        #expect(try await bot.text("/start", from: 3).hasPrefix("<b>Welcome"), "no language: the default")
        try await bot.send("/language en", from: 1)
        #expect(try await bot.text("/help", from: 1, appLanguage: "es").hasPrefix("<b>Commands"), "a choice stays")
    }

    @Test("Display names follow renames")
    func renames() async throws {
        let bot = try EngineHarness()
        try await bot.send(try bot.wrongWord(), name: "Al")
        try await bot.send("/join", name: "Al", in: -100, group: true)
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
        let now = harness.now
        // One batch, as a flood arrives: the chat's count of waiting replies grows within it.
        let flood = (0..<40).map { index in
            ChatMessage(
                chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Flo", text: "/help",
                messageID: MessageID(Int64(index))
            ).readingCommands()
        }
        try await harness.apply(flood)
        let other = ChatMessage(chat: ChatID(6), chatKind: .direct, sender: UserID(6), senderName: "Ann", text: "/help")
            .readingCommands()
        try await harness.apply([other])
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

    @Test("A message the bot cannot read (encrypted) is answered with where to play instead, in the player's language")
    func unreadable() async throws {
        let bot = try EngineHarness()
        let replies = try await bot.send("", event: .unreadable)
        #expect(replies.count == 1 && replies.first?.replyTo == nil)
        #expect(replies.first?.html.hasPrefix("🔒 I can't read encrypted messages") == true)
        _ = try await bot.send("/language es")
        let spanish = try await bot.send("", event: .unreadable)
        #expect(spanish.first?.html.hasPrefix("🔒 No puedo leer mensajes cifrados") == true)
        #expect(try await bot.send("", in: -5, group: true, event: .unreadable).count == 1, "in a group as well")
    }
}
