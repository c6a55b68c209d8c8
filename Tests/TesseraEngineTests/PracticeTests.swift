import Foundation
import Synchronization
import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraTesting
import Testing

/// Practice games and the archive: more to play in the direct chat, never on a board.
@Suite(.onBothPaths) struct PracticeTests {
    /// A seeded source for the engine's randomness, so that a test's practice words are the same every run.
    static func seeded(_ seed: UInt64) -> @Sendable (Int) -> Int {
        let generator = Mutex(SplitMix64(seed: seed))
        return { bound in generator.withLock { Int.random(in: 0..<bound, using: &$0) } }
    }

    static func harness(seed: UInt64 = 1, limit: Int = 50) throws -> EngineHarness {
        try EngineHarness { configuration in
            configuration.randomBelow = seeded(seed)
            configuration.practiceGamesPerDay = limit
        }
    }

    /// The player's latest practice game, as stored.
    static func latest(_ bot: EngineHarness, of user: Int64 = 1) async throws -> PracticeGame {
        let game = try await bot.store.write { try await $0.latestPracticeGame(of: UserID(user)) }
        return try #require(game)
    }

    /// Whether the player's row says a practice game may take a word (``Player/practiceInPlay``).
    static func inPlay(_ bot: EngineHarness, _ user: Int64 = 1) async throws -> Bool {
        try #require(try await bot.store.write { try await $0.player(UserID(user)) }).practiceInPlay
    }

    /// Whether a past puzzle's English word is off the lists (no longer a guess) or withheld: the archive never
    /// deals it.
    static func isOffTheLists(_ bot: EngineHarness, _ puzzle: PuzzleNumber) throws -> Bool {
        let list = Language.english.wordList
        let word = try list.word(from: bot.answer(puzzle: puzzle)).get()
        return !list.allowedGuesses.contains(word) || list.withheld.contains(word)
    }

    /// Whether a past puzzle's word is no longer an answer: practice never deals it.
    static func isWithdrawn(_ bot: EngineHarness, _ puzzle: PuzzleNumber) throws -> Bool {
        let list = Language.english.wordList
        return !list.answers.contains(try list.word(from: bot.answer(puzzle: puzzle)).get())
    }

    /// Allowed words that are not `answer`, from the list's answers.
    static func wrongWords(_ answer: String, language: Language = .english) -> [String] {
        let list = language.wordList
        return list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(6).map { $0 }
    }

    @Test("/practice starts a game on its own board titled Practice; words go to it and it is won like any game")
    func practiceGame() async throws {
        let bot = try Self.harness()
        let started = try await bot.send("/practice")
        #expect(started.count == 1 && started[0].html.hasPrefix("<b>Practice</b> · 0/6"))
        let game = try await Self.latest(bot)
        #expect(game.kind == .practice && game.language == .english && !game.hardMode && game.guesses.isEmpty)
        #expect(started[0].live == "practice:1", "edited in place, apart from the daily board")

        let wrong = Self.wrongWords(game.answer)[0]
        let board = try await bot.send(wrong)
        #expect(board.count == 1 && board[0].html.hasPrefix("<b>Practice</b> · 1/6") && board[0].live == "practice:1")
        let won = try await bot.send(game.answer)
        #expect(won[0].html.hasPrefix("<b>Practice</b> · 2/6"))
        #expect(won[0].html.contains("<b>Magnificent!</b> Solved in 2/6."))
        #expect(won[0].buttons.flatMap { $0 }.map(\.data) == ["practice en", "stats", "analysis practice 1"])
        #expect(try await Self.latest(bot).result == .won(guesses: 2))

        // The daily puzzle is untouched: no guess, its board not started.
        #expect(try await bot.text("/play").contains("today's"))
        #expect(try await bot.text("/board") == "No guesses yet today. Send a word to start.")
    }

    @Test(
        "Words go to the game of their language: an English archive game open, the day's Spanish puzzle after /language es"
    )
    func wordsGoToTheirLanguagesGame() async throws {
        let bot = try Self.harness()
        _ = try await bot.send("/archive 312")
        let changed = try await bot.text("/language es")
        #expect(
            changed.hasSuffix(
                "Abiertos ahora: el reto de hoy en español y el reto 312 del archivo, en inglés. "
                    + "Cada palabra va a la partida de su idioma."), "\(changed)")
        // A Spanish word the English list lacks goes to today's Spanish puzzle, with its accent as written.
        let (spanish, english) = (Language.spanish.wordList, Language.english.wordList)
        func lacks(_ list: WordList, _ word: String) -> Bool {
            if case .failure = list.guess(from: word) { true } else { false }
        }
        let spanishAnswer = try bot.answer(.spanish)
        let onlySpanish = try #require(
            spanish.answers.map { spanish.letters($0) }.first { $0 != spanishAnswer && lacks(english, $0) })
        let daily = try await bot.text(onlySpanish)
        #expect(daily.hasPrefix("<b>Tessera 326</b> · 1/6"), "\(daily)")
        // An English word the Spanish list lacks goes back to the archive game.
        let archiveAnswer = try await Self.latest(bot).answer
        let onlyEnglish = try #require(
            english.answers.map { english.letters($0) }.first { $0 != archiveAnswer && lacks(spanish, $0) })
        let archived = try await bot.text(onlyEnglish)
        #expect(archived.hasPrefix("<b>Archivo 312</b> · 1/6 · en inglés"), "\(archived)")
        // A word of neither list is refused by the game in focus, naming the open games.
        #expect(
            try await bot.text("xqzvj")
                == "La palabra no está en la lista\n\nAbiertos ahora: el reto de hoy en español y el reto 312 del "
                + "archivo, en inglés. Cada palabra va a la partida de su idioma.")
        // One language for both: the focus decides, as before, and nothing more is said.
        let back = try await bot.text("/language en")
        #expect(back.hasPrefix("You now play in <b>English</b>") && !back.contains("Open now"), "\(back)")
    }

    @Test("/practice es hard plays Spanish in hard mode, and says so on its board")
    func practiceOptions() async throws {
        let bot = try Self.harness()
        let started = try await bot.text("/practice es hard")
        #expect(started.hasPrefix("<b>Practice</b> · 0/6 · hard mode · in Spanish"), "\(started)")
        let game = try await Self.latest(bot)
        #expect(game.language == .spanish && game.hardMode)
        #expect(
            Language.spanish.wordList.answers.map { Language.spanish.wordList.letters($0) }.contains(
                game.answer))
        #expect(
            try await bot.text("/practice purple")
                == "Start a practice game with /practice, or /practice es hard for Spanish in hard mode.")
    }

    /// The words practice may deal at an instant: the answers of puzzles closed in every zone (UTC−12 with a
    /// 23:00 rollover is the last to close) that are still on the latest list, worked out here from the public
    /// schedule alone.
    static func publicWords(_ language: Language, at now: Date) throws -> Set<String> {
        let secret = try #require(ScheduleSecret(EngineHarness.secretText))
        let list = language.wordList
        let answers = AnswerSchedule(wordList: list, secret: secret)
        var open: Set<Int> = []
        for offset in -12...14 {
            for rolloverHour in [0, 23] {
                let zone = try #require(TimeZone(secondsFromGMT: offset * 3600))
                let rollover = try #require(DayRollover(timeZone: zone, hour: rolloverHour))
                open.insert(DailySchedule.tessera.puzzle(at: now, rollover: rollover).rawValue)
            }
        }
        let current = Set(list.answers)
        return Set(
            (1..<open.min()!).map { answers.answer(for: PuzzleNumber($0)) }.filter(current.contains).map {
                list.letters($0)
            })
    }

    @Test(
        "Practice deals exactly the words of puzzles closed everywhere that are still on the lists: no open or coming word, no withdrawn one, every public one"
    )
    func answersAreThePublicWords() async throws {
        var bot = try Self.harness(seed: 7, limit: 100_000)
        let start = bot.now
        for language in Language.allCases {
            // Every 7 hours over two weeks, so that each closing is tried near its edges: a word appears only
            // once its puzzle has closed in the last zone.
            for hour in stride(from: 0, to: 14 * 24, by: 7) {
                bot.now = start + Double(hour) * 3600
                let dealable = try Self.publicWords(language, at: bot.now)
                for _ in 0..<4 {
                    _ = try await bot.send("/practice \(language.rawValue) new")
                    let answer = try await Self.latest(bot).answer
                    #expect(dealable.contains(answer), "\(answer) at hour \(hour)")
                }
            }
        }
        // At one instant, enough draws deal every public word: what is never drawn is what the archive shows
        // is not yet past, so the draws say nothing about an open or coming day's word.
        bot.now = start
        let dealable = try Self.publicWords(.english, at: bot.now)
        try #require(dealable.count > 250)
        var drawn: Set<String> = []
        for _ in 0..<(8 * dealable.count) {
            _ = try await bot.send("/practice en new")
            drawn.insert(try await Self.latest(bot).answer)
        }
        #expect(drawn == dealable)
        let list = Language.english.wordList
        let withdrawn = Set(list.answerEditions[0].answers).subtracting(list.answers).map {
            list.letters($0)
        }
        #expect(withdrawn.contains("squaw"))
        #expect(drawn.isDisjoint(with: withdrawn))
    }

    @Test("Each index the randomness gives is a public word, the first and the last included")
    func everyIndexIsFair() async throws {
        let dealable = try Self.publicWords(.english, at: try EngineHarness().now)
        var drawn: Set<String> = []
        for index in [0, 1, 100, Int.max] {
            let bot = try EngineHarness { configuration in
                configuration.randomBelow = { bound in min(index, bound - 1) }
            }
            _ = try await bot.send("/practice")
            let answer = try await Self.latest(bot).answer
            #expect(dealable.contains(answer))
            drawn.insert(answer)
        }
        #expect(drawn.count == 4, "each index its own word")
    }

    @Test("Practice skips the words the player played on their day and the last practice word, while others remain")
    func practiceDealsUnplayedWords() async throws {
        // The last index, every time: without the skipping the same word would be dealt each game.
        var bot = try EngineHarness { configuration in
            configuration.randomBelow = { bound in bound - 1 }
        }
        let today = bot.now
        // Puzzle 300 played on its day.
        bot.now = today - 26 * 86_400
        let played = try bot.answer()
        try await bot.send(played)
        bot.now = today
        var dealt: [String] = []
        for _ in 0..<4 {
            _ = try await bot.send("/practice new")
            dealt.append(try await Self.latest(bot).answer)
        }
        #expect(!dealt.contains(played))
        #expect(zip(dealt, dealt.dropFirst()).allSatisfy { $0 != $1 }, "\(dealt)")
    }

    @Test("Before any puzzle has closed everywhere, practice says why there is no word yet")
    func practiceBeforeTheFirstPuzzle() async throws {
        var bot = try Self.harness()
        // 2026-01-01 12:00 UTC: puzzle 1 is open somewhere until 2026-01-03.
        bot.now = Date(timeIntervalSince1970: 1_767_268_800)
        #expect(try await bot.text("/practice").hasPrefix("Practice words are past puzzles' words"))
    }

    @Test("A word goes to the game touched last; /play switches back, and each board's title says which it is")
    func touchedLast() async throws {
        let bot = try Self.harness()
        let daily = try bot.answer()
        let dailyWrong = Self.wrongWords(daily)[0]
        #expect(try await bot.text(dailyWrong).hasPrefix("<b>Tessera 326</b> · 1/6"))
        // The player's row says whether a practice game may take a word, so a daily guess reads none otherwise.
        #expect(try await !Self.inPlay(bot), "never practised")
        _ = try await bot.send("/practice")
        #expect(try await Self.inPlay(bot))
        let practice = try await Self.latest(bot)
        let practiceWrong = Self.wrongWords(practice.answer).first { $0 != dailyWrong }!
        #expect(try await bot.text(practiceWrong).hasPrefix("<b>Practice</b> · 1/6"), "touched last: practice")
        #expect(try await bot.text("/board").hasPrefix("<b>Practice</b> · 1/6"))
        #expect(try await bot.text("/play").contains("today's"))
        #expect(try await Self.inPlay(bot), "unfinished: it takes words once the daily puzzle is done")
        #expect(try await bot.text(practiceWrong).hasPrefix("<b>Tessera 326</b> · 2/6"), "after /play: the daily")
        #expect(try await bot.text("/board").hasPrefix("<b>Tessera 326</b> · 2/6"))
        // The daily puzzle finished: the unfinished practice game is the only one open, and takes words.
        #expect(try await bot.text(daily).hasPrefix("<b>Tessera 326</b> · 3/6"))
        #expect(try await bot.text(practice.answer).hasPrefix("<b>Practice</b> · 2/6"))
        #expect(try await Self.inPlay(bot), "finished, and touched last")
        // Both finished: the practice game was touched last.
        #expect(
            try await bot.text("crane")
                == "That game is over. /practice starts another, /archive lists past puzzles, /play is today's.")
        #expect(try await bot.text("/play").contains("today's"))
        #expect(try await !Self.inPlay(bot), "finished, and the daily puzzle touched last")
        #expect(try await bot.text("crane").hasPrefix("You have finished today's puzzle (3/6)"))
    }

    @Test("A new day starts on its puzzle: yesterday's practice game, left open, takes words once it is done")
    func newDayStartsOnItsPuzzle() async throws {
        var bot = try Self.harness()
        _ = try await bot.send("/practice")
        let practice = try await Self.latest(bot)
        let practiceWrong = Self.wrongWords(practice.answer)[0]
        #expect(try await bot.text(practiceWrong).hasPrefix("<b>Practice</b> · 1/6"))
        try await bot.nextDay()
        let daily = try bot.answer()
        let dailyWrong = Self.wrongWords(daily).first { $0 != practice.answer }!
        #expect(try await bot.text(dailyWrong).hasPrefix("<b>Tessera 327</b> · 1/6"), "the new day's puzzle")
        #expect(try await bot.text(daily).hasPrefix("<b>Tessera 327</b> · 2/6"))
        #expect(try await bot.text(practice.answer).hasPrefix("<b>Practice</b> · 2/6"), "then the open practice game")
    }

    @Test("A group's Play button (/start play-en) brings the player to the daily puzzle, not their practice game")
    func playButtonFocusesTheDailyPuzzle() async throws {
        let bot = try Self.harness()
        let dailyWrong = Self.wrongWords(try bot.answer())[0]
        _ = try await bot.send("/practice")
        let practice = try await Self.latest(bot)
        let practiceWrong = Self.wrongWords(practice.answer).first { $0 != dailyWrong }!
        #expect(try await bot.text(practiceWrong).hasPrefix("<b>Practice</b> · 1/6"))
        _ = try await bot.send("/start play-en")
        #expect(try await bot.text(dailyWrong).hasPrefix("<b>Tessera 326</b> · 1/6"), "the button: the daily")
    }

    @Test("A player's practice flag set with no game in play (as the migration sets it) is mended by the next word")
    func staleFlag() async throws {
        let bot = try Self.harness()
        _ = try await bot.send("/help")
        try await bot.store.write { store in
            var player = try #require(try await store.player(UserID(1)))
            player.practiceInPlay = true
            try await store.save(player)
        }
        let wrong = try bot.wrongWord()
        #expect(try await bot.text(wrong).hasPrefix("<b>Tessera 326</b> · 1/6"))
        #expect(try await !Self.inPlay(bot))
    }

    @Test("Finished practice and archive games are analysed: the button, /analysis, their titles, /stats averages")
    func analysed() async throws {
        let bot = try Self.harness()
        _ = try await bot.send("/practice")
        let practice = try await Self.latest(bot)
        _ = try await bot.send("salet")
        let won = try await bot.send(practice.answer)
        #expect(won[0].buttons.flatMap { $0 }.map(\.data).last == "analysis practice 1")
        #expect(try await bot.text("/analysis").hasPrefix("🔍 I'm working out how your guesses compare"))
        let posted = try await bot.analyseWaitingGames()
        #expect(posted.count == 1, "asked for: posted when ready")
        #expect(posted.first?.html.hasPrefix("<b>🔍 Analysis · Practice</b>\n1. ") == true)
        #expect(posted.first?.html.contains("<code>SALET</code>") == true)
        #expect(try await bot.text("", button: "analysis practice 1") == posted.first?.html)

        // An archive game, analysed without being asked; its title names its puzzle.
        _ = try await bot.send("/archive 312")
        let archived = try await Self.latest(bot)
        _ = try await bot.send("salet")
        _ = try await bot.send(archived.answer)
        #expect(try await bot.analyseWaitingGames().isEmpty, "not asked for: stored, not posted")
        let archiveAnalysis = try await bot.text("/analysis")
        #expect(archiveAnalysis.hasPrefix("<b>🔍 Analysis · Archive 312</b>"), "the game touched last")
        let stats = try await bot.text("/stats")
        #expect(stats.contains("Skill ") && stats.contains(" on average over your last 2 analysed games (/analysis)"))
        #expect(
            !stats.components(separatedBy: "<b>Practice and archive</b>")[0].contains("Skill"),
            "no daily game is analysed: the daily statistics have no averages")

        // A game given up has no analysis; the daily game's /analysis is still its own.
        _ = try await bot.send("/practice")
        _ = try await bot.send("salet")
        _ = try await bot.send("/practice new")
        #expect(try await bot.text("", button: "analysis practice 3").hasPrefix("There is no finished game"))
        #expect(try await bot.text("", button: "analysis practice 99").hasPrefix("There is no finished game"))
        _ = try await bot.send("/play")
        #expect(try await bot.text("/analysis").hasPrefix("There is no finished game"), "the daily puzzle's")
        #expect(try await bot.analyseWaitingGames().isEmpty, "nothing waits for the game given up")
        let export = try await bot.send("/export")
        let document = try #require(export.first?.document)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(document.contents)) as? [String: Any])
        let games = try #require(json["practice_games"] as? [[String: Any]])
        #expect(games.map { $0["analysis"] != nil } == [true, true, false, false])
    }

    @Test(
        "A new /practice asks before giving up an unfinished game: given up in practice alone, not counted without a guess"
    )
    func abandoning() async throws {
        let bot = try Self.harness()
        _ = try await bot.send("/practice")
        _ = try await bot.send(Self.wrongWords(try await Self.latest(bot).answer)[0])
        let first = try await Self.latest(bot)
        let question = try await bot.send("/practice es")
        #expect(question.count == 1)
        #expect(question[0].html.hasPrefix("You are still playing your practice game (1 of 6 tries)"))
        #expect(question[0].buttons.flatMap { $0 }.map(\.data) == ["practice es new"])
        #expect(question[0].buttons.flatMap { $0 }.map(\.style) == [.danger], "giving up a game is in red")
        #expect(try await Self.latest(bot) == first, "nothing changed before the press")

        let pressed = try await bot.send("", button: "practice es new")
        #expect(pressed.count == 1 && pressed[0].html.hasPrefix("<b>Practice</b> · 0/6 · in Spanish"))
        let second = try await Self.latest(bot)
        #expect(second.number == 2 && second.language == .spanish)
        let games = try await bot.store.write { try await $0.data(of: UserID(1))?.practiceGames ?? [] }
        #expect(games.first?.result == .lost && games.first?.abandoned == true)
        // Practice statistics count it given up, not lost; the Spanish game given up before any guess is not
        // counted at all; the daily statistics know nothing of either.
        _ = try await bot.send("/practice en new")
        let stats = try await bot.text("/stats")
        #expect(stats.contains("Played 0 · Win 0%"), "the daily statistics")
        #expect(
            stats.contains("<b>Practice and archive</b> (not on any board)\nPlayed 0 · Win 0% · Given up 1\n"),
            "\(stats)")
    }

    @Test("Without buttons, the question says what to type, in the platform's words")
    func abandoningTyped() async throws {
        let bot = try EngineHarness { configuration in
            configuration.platform = PlatformTraits(buttons: false)
        }
        _ = try await bot.send("/practice")
        #expect(
            try await bot.text("/archive 300")
                == "You are still playing your practice game (0 of 6 tries). A new game gives it up; with no guess "
                + "yet, it is not counted. To start anyway, send <code>/archive 300 new</code>.")
        _ = try await bot.send("/archive 300 new")
        _ = try await bot.send("crane")
        // With a guess, giving it up counts as given up, in the player's language.
        _ = try await bot.send("/language es")
        #expect(
            try await bot.text("/practice")
                == "Aún juegas el reto 300 del archivo (1 de 6 intentos). Una partida nueva la abandona: cuenta como "
                + "abandonada en tus estadísticas de práctica. Para empezar igualmente, envía <code>/practice new</code>."
        )
    }

    @Test(
        "/archive lists the past puzzles not played ten at a time, says when yesterday's comes; /archive N plays its own word"
    )
    func archive() async throws {
        var bot = try Self.harness()
        // Puzzle 320 played on its day by this player; 326 is today's (open), 325 still open at UTC−12.
        let today = bot.now
        bot.now = today - 6 * 86_400
        try await bot.send(try bot.answer())
        bot.now = today
        let reply = try #require(try await bot.send("/archive").last)
        let list = reply.html
        let numbers = { (text: String) in
            text.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
        }
        let withdrawn = try (1...324).filter { try Self.isOffTheLists(bot, PuzzleNumber($0)) }
        let unplayed = Array((1...324).reversed()).filter { $0 != 320 && !withdrawn.contains($0) }
        #expect(numbers(list) == Array(unplayed.prefix(10)), "a phone screen at a time: \(list)")
        #expect(list.contains("324 · 2026-11-20"))
        // Yesterday's puzzle is not listed yet, and the list says why and when it comes.
        #expect(
            list.contains(
                "<i>Puzzle 325 is still today's somewhere in the world: it joins the archive tomorrow at 11:00, your time.</i>"
            ),
            "\(list)")
        // The button shows the next ten.
        let more = try #require(reply.buttons.joined().first)
        #expect(more.text == "Older ▸" && more.data == "archive before \(unplayed[9]) en", "\(more)")
        let older = try await bot.text("", button: more.data)
        #expect(numbers(older) == Array(unplayed[10..<20]), "\(older)")
        #expect(!older.contains("Puzzle 325 is still"), "said on the first screen only")

        #expect(try await bot.text("/archive 325").hasPrefix("Puzzle 325 is still today's somewhere in the world"))
        #expect(try await bot.text("/archive 326").hasPrefix("Puzzle 326 is still today's"))
        #expect(try await bot.text("/archive 900").hasPrefix("There is no such past puzzle"))
        #expect(try await bot.text("/archive 0").hasPrefix("There is no such past puzzle"))
        #expect(try await bot.text("/archive 320").hasPrefix("You played puzzle 320 on its day (1/6)"))

        // Puzzle 312's word is the one its day had: a player who played it then saw it on their board.
        bot.now = today - 14 * 86_400
        var lastBoard = ""
        for word in Self.wrongWords(try bot.answer()) { lastBoard = try await bot.text(word, from: 2, name: "Bob") }
        #expect(lastBoard.contains("The word was"))
        bot.now = today
        let started = try await bot.text("/archive 312")
        #expect(started.hasPrefix("<b>Archive 312</b> · 0/6"))
        let archived = try await Self.latest(bot)
        #expect(archived.kind == .archive(PuzzleNumber(312)))
        #expect(lastBoard.contains("The word was <b>\(archived.answer.uppercased())</b>."))
        let won = try await bot.text(archived.answer)
        #expect(won.hasPrefix("<b>Archive 312</b> · 1/6"))
        #expect(try await bot.text("/archive 312").hasPrefix("You played puzzle 312 from the archive (1/6)"))
        #expect(!(try await bot.text("/archive")).contains("312 ·"))
    }

    @Test(
        "A past puzzle whose word is off the lists or withheld is kept in its history but never dealt; one only no longer an answer is"
    )
    func archiveNeverDealsWithdrawnWords() async throws {
        var bot = try Self.harness()
        let found = try (1...324).first { try Self.isOffTheLists(bot, PuzzleNumber($0)) }
        let withdrawn = try #require(found)
        // Played on its day: the history stays.
        let today = bot.now
        bot.now = today - Double(326 - withdrawn) * 86_400
        try await bot.send(try bot.answer())
        bot.now = today
        #expect(try await bot.text("/archive \(withdrawn)").hasPrefix("You played puzzle \(withdrawn) on its day"))
        // Bob did not play it: never dealt, and never listed (the list from just after it would start with it).
        #expect(
            try await bot.text("/archive \(withdrawn)", from: 2, name: "Bob").hasPrefix(
                "Puzzle \(withdrawn)'s word has since been taken off the lists"))
        #expect(try await bot.store.write { try await $0.latestPracticeGame(of: UserID(2)) } == nil)
        let listed = try await bot.text("/archive before \(withdrawn + 1)", from: 2, name: "Bob")
        #expect(!listed.contains("\n\(withdrawn) ·"), "\(listed)")
        // A withheld word (denied: a name, a slur) is still a guess, and never dealt either.
        let list = Language.english.wordList
        let denied = try #require(
            try (1...324).first {
                let word = try list.word(from: bot.answer(puzzle: PuzzleNumber($0))).get()
                return list.isAllowed(word) && list.withheld.contains(word)
            })
        #expect(
            try await bot.text("/archive \(denied)", from: 2, name: "Bob").hasPrefix(
                "Puzzle \(denied)'s word has since been taken off the lists"))
        let listedDenied = try await bot.text("/archive before \(denied + 1)", from: 2, name: "Bob")
        #expect(!listedDenied.contains("\n\(denied) ·"), "\(listedDenied)")
        // A word the newest edition no longer draws as an answer, but still a word: its puzzle is played.
        let dropped = try #require(
            try (1...324).first {
                try Self.isWithdrawn(bot, PuzzleNumber($0)) && !Self.isOffTheLists(bot, PuzzleNumber($0))
            })
        let listedDropped = try await bot.text("/archive before \(dropped + 1)", from: 2, name: "Bob")
        #expect(listedDropped.contains("\n\(dropped) ·"), "\(listedDropped)")
        #expect(
            try await bot.text("/archive \(dropped)", from: 2, name: "Bob").hasPrefix("<b>Archive \(dropped)</b> · 0/6")
        )
    }

    @Test("An archive puzzle from before a new answer edition has the word of its own edition")
    func archiveEditions() async throws {
        var bot = try Self.harness()
        // 2026-12-22: puzzle 356, after the second English edition began (336).
        bot.now += 30 * 86_400
        let list = Language.english.wordList
        try #require(list.answerEditions.count > 1)
        let old = PuzzleNumber(list.answerEditions[1].firstPuzzle.rawValue - 1)
        _ = try await bot.send("/archive \(old.rawValue)")
        let game = try await Self.latest(bot)
        let secret = try #require(ScheduleSecret(EngineHarness.secretText))
        let firstEdition = AnswerSchedule(
            editions: [list.answerEditions[0]], secret: secret)
        #expect(game.answer == list.letters(firstEdition.answer(for: old)))
    }

    @Test("Practice and archive shares are marked; in a group they are acknowledged, not counted, and why is said once")
    func sharing() async throws {
        let bot = try Self.harness()
        try await bot.group(-100)
        try await bot.send("/join", in: -100, group: true)
        _ = try await bot.send("/practice")
        let practice = try await Self.latest(bot)
        #expect(try await bot.text("/share") == "Finish this game first; then /share gives its result to post.")
        _ = try await bot.send(Self.wrongWords(practice.answer)[0])
        _ = try await bot.send(practice.answer)
        let shared = try await bot.text("/share")
        #expect(shared.hasPrefix("Tessera Practice 2/6\n\n"))
        #expect(SharedResult(parsing: shared)?.kind == .practice)

        _ = try await bot.send("/archive 312")
        let archived = try await Self.latest(bot)
        _ = try await bot.send(archived.answer)
        let archiveShare = try await bot.text("/share")
        #expect(archiveShare == "Tessera 312 (archive) 1/6\n\n🟩🟩🟩🟩🟩")

        let before = try await bot.text("/leaderboard", in: -100, group: true)
        let first = try await bot.send(shared, in: -100, group: true)
        #expect(first.count == 2 && first.contains { $0.action == .react(.notCounted) })
        #expect(first.contains { $0.html.hasPrefix("That is a practice or archive result: it counts on no board") })
        let second = try await bot.send(archiveShare, in: -100, group: true)
        #expect(second.count == 1 && second[0].action == .react(.notCounted), "the reason once")
        #expect(try await bot.text("/leaderboard", in: -100, group: true) == before)
        // In a group, /share is the group's daily puzzle's.
        #expect(try await bot.text("/share", in: -100, group: true).contains("Finish today's puzzle first"))
    }

    @Test("Groups take no practice: /practice there points to the direct chat, and words there are not guesses")
    func notInGroups() async throws {
        let bot = try Self.harness()
        try await bot.group(-100)
        #expect(
            try await bot.text("/practice", in: -100, group: true).hasPrefix("Guesses are made in our private chat"))
        #expect(
            try await bot.text("/archive 312", in: -100, group: true).hasPrefix("Guesses are made in our private chat"))
        let noGame = try await bot.store.write { try await $0.latestPracticeGame(of: UserID(1)) }
        #expect(noGame == nil)
    }

    @Test(
        "At most the configured number of games a day, with the reason, /forgetme or not; the next day more; 0 switches them off"
    )
    func dailyLimit() async throws {
        var bot = try Self.harness(limit: 3)
        for number in 1...3 {
            #expect(try await bot.text("/practice new").hasPrefix("<b>Practice</b> · 0/6"), "game \(number)")
        }
        #expect(
            try await bot.text("/archive 300 new")
                == "You have started 3 practice and archive games today, the most a day, so that everyone's games "
                + "stay quick. More in 12 h 0 min; today's puzzle is always open with /play.")
        let third = try await Self.latest(bot)
        #expect(third.number == 3 && third.result == nil, "not given up")
        // Forgetting the player deletes the games, not the day's count, which is kept by a one-way key.
        let question = try await bot.send("/forgetme")
        _ = try await bot.send("", button: try #require(question.first?.buttons.first?.first?.data))
        #expect(try await bot.store.write { try await $0.latestPracticeGame(of: UserID(1)) } == nil)
        #expect(try await bot.text("/practice").hasPrefix("You have started 3 practice and archive games today"))
        bot.now += 12 * 3600
        #expect(try await bot.text("/archive 300 new").hasPrefix("<b>Archive 300</b> · 0/6"))

        // 0 switches them off, and says so rather than counting.
        let off = try Self.harness(limit: 0)
        let switchedOff =
            "Practice and archive games are switched off on this server. Today's puzzle is open with /play."
        #expect(try await off.text("/practice").hasPrefix(switchedOff + "\n\n🕰️"))
        #expect(try await off.text("/archive 300") == switchedOff)
    }

    @Test("A restart in the middle of a practice game continues it: same word, same guesses")
    func restart() async throws {
        let bot = try Self.harness(seed: 7)
        _ = try await bot.send("/practice")
        let game = try await Self.latest(bot)
        _ = try await bot.send(Self.wrongWords(game.answer)[0])
        // A new engine on the same store, whose randomness would draw another word.
        let restarted = try bot.restarted { $0.randomBelow = Self.seeded(99) }
        let board = try await restarted.text("/board")
        #expect(board.hasPrefix("<b>Practice</b> · 1/6"))
        #expect(try await restarted.text(game.answer).hasPrefix("<b>Practice</b> · 2/6"))
    }

    @Test("/export includes practice and archive games; /forgetme deletes them")
    func privacy() async throws {
        let bot = try Self.harness()
        _ = try await bot.send("/practice")
        let game = try await Self.latest(bot)
        _ = try await bot.send(game.answer)
        let export = try await bot.send("/export")
        let document = try #require(export.first?.document)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(document.contents)) as? [String: Any])
        let practice = try #require(json["practice_games"] as? [[String: Any]])
        #expect(practice.count == 1)
        #expect(practice.first?["kind"] as? String == "practice" && practice.first?["answer"] as? String == game.answer)
        #expect(practice.first?["result"] as? String == "1/6")

        let question = try await bot.send("/forgetme")
        let confirm = try #require(question.first?.buttons.first?.first?.data)
        _ = try await bot.send("", button: confirm)
        let left = try await bot.store.write { try await $0.data(of: UserID(1))?.practiceGames ?? [] }
        #expect(left.isEmpty)
    }

    // MARK: - Never on the boards

    @Test("1,000 practice and archive games change no board, summary, streak, reminder or daily statistic")
    func neverOnTheBoards() async throws {
        // Two worlds alike, but in one the players also play 1,000 practice and archive games around their daily
        // games: everything the daily competition shows must be the same in both.
        var quiet = try Self.harness(limit: 10_000)
        var busy = try Self.harness(seed: 3, limit: 10_000)
        let quietSeen = try await Self.competition(&quiet, practising: false)
        let busySeen = try await Self.competition(&busy, practising: true)
        let games = try await busy.store.write { store in
            var games: [PracticeGame] = []
            for player in Self.players { games += try await store.data(of: UserID(player))?.practiceGames ?? [] }
            return games
        }
        #expect(games.count == 1_000)
        #expect(games.contains { $0.archivePuzzle != nil } && games.contains { $0.archivePuzzle == nil })
        #expect(games.contains { $0.result?.guesses != nil } && games.contains { $0.abandoned })
        #expect(quietSeen.count == busySeen.count)
        for (quietLine, busyLine) in zip(quietSeen, busySeen) { #expect(quietLine == busyLine) }
    }

    static let players: [Int64] = [1, 2, 3, 4]

    /// Five days of a group's competition: each player's daily game (one misses some days), then what the group
    /// and each player see: boards, statistics, summaries and reminders. `practising`: each player also plays
    /// fifty practice or archive games a day, some before their daily game, some in its middle, the rest after.
    static func competition(_ bot: inout EngineHarness, practising: Bool) async throws -> [String] {
        var random = SplitMix64(seed: 2026)
        try await bot.group(-100)
        var seen: [String] = []
        for player in players {
            _ = try await bot.send("/join", from: player, name: "P\(player)", in: -100, group: true)
            _ = try await bot.send("/remind on", from: player, name: "P\(player)")
        }
        var archived: [Int64: Int] = [:]
        for day in 0..<5 {
            for player in players {
                let name = "P\(player)"
                if practising { try await practise(&bot, player, games: 20, random: &random, archived: &archived) }
                if (Int(player) + day) % 5 != 0 {
                    let answer = try bot.answer()
                    let misses = (Int(player) + day) % 7
                    let words = wrongWords(answer).prefix(misses) + (misses < 6 ? [answer] : [])
                    for (index, word) in words.enumerated() {
                        if index == 1, practising {
                            try await practise(&bot, player, games: 10, random: &random, archived: &archived)
                        }
                        if practising { _ = try await bot.send("/play", from: player, name: name) }
                        seen.append(try await bot.text(word, from: player, name: name))
                    }
                }
                if practising {
                    let playedMiddle = (Int(player) + day) % 5 != 0 && (Int(player) + day) % 7 >= 1
                    try await practise(
                        &bot, player, games: 50 - 20 - (playedMiddle ? 10 : 0), random: &random, archived: &archived)
                }
                let stats = try await bot.text("/stats", from: player, name: name)
                seen.append(stats.components(separatedBy: "\n\n<b>Practice and archive</b>")[0])
            }
            for period in ["", " week", " all"] {
                seen.append(try await bot.text("/leaderboard" + period, from: 1, name: "P1", in: -100, group: true))
            }
            // The evening's reminders, then the day's close and its summary.
            let engine = bot.engine
            let evening = bot.now + 9 * 3600
            _ = try await bot.store.write { try await engine.queueReminders(at: evening, in: $0) }
            let reminders = try await bot.store.pendingMessages(limit: 100, now: evening)
            try await bot.store.markSent(reminders.map(\.id))
            seen += reminders.map { "\($0.message.chat) \($0.message.html)" }
            bot.now += 86_400
            let now = bot.now
            _ = try await bot.store.write { try await engine.closeDays(at: now, in: $0) }
            let closing = try await bot.store.pendingMessages(limit: 100, now: now)
            try await bot.store.markSent(closing.map(\.id))
            seen += closing.map { "\($0.message.chat) \($0.message.html)" }
        }
        return seen
    }

    /// Plays `games` practice or archive games as one player: a few wrong words, then the answer or not (the next
    /// game gives it up).
    static func practise(
        _ bot: inout EngineHarness, _ player: Int64, games: Int, random: inout SplitMix64,
        archived: inout [Int64: Int]
    ) async throws {
        let name = "P\(player)"
        for _ in 0..<games {
            if Bool.random(using: &random) {
                var puzzle = archived[player, default: 0] + 1
                while try isWithdrawn(bot, PuzzleNumber(puzzle)) { puzzle += 1 }
                archived[player] = puzzle
                _ = try await bot.send("/archive \(puzzle) new", from: player, name: name)
            } else {
                let language = Bool.random(using: &random) ? "" : " es"
                _ = try await bot.send("/practice\(language) new", from: player, name: name)
            }
            let game = try await latest(bot, of: player)
            try #require(game.result == nil && game.hasFocus, "a game started")
            let wrong = wrongWords(game.answer, language: game.language)
            for word in wrong.prefix(Int.random(in: 0...3, using: &random)) {
                _ = try await bot.send(word, from: player, name: name)
            }
            if Bool.random(using: &random) { _ = try await bot.send(game.answer, from: player, name: name) }
        }
    }
}
