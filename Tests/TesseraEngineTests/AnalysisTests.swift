import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraTesting
import Testing

@testable import TesseraEngine

/// Post-game analysis in the chat: the Analysis button and `/analysis` in the direct chat only, an analysis
/// posted once it is worked out, lost and hard-mode games, `/stats`'s averages, and the reveal's line naming the
/// day's most skilful and luckiest games. Games open with first guesses the opening book knows, so each is
/// analysed in a moment.
@Suite("Post-game analysis in the chat", .serialized, .onBothPaths)
struct AnalysisTests {
    /// What the analyst itself makes of a game of today's puzzle (edition 1 of the English answers).
    static func report(_ guesses: [String], bot: EngineHarness, hardMode: Bool = false) throws -> AnalysisReport {
        let list = Language.english.wordList
        let words = try guesses.map { text in try #require(try? list.word(from: text).get()) }
        let answer = try #require(try? list.word(from: try bot.answer()).get())
        return try GameAnalyst().analyse(
            answer: answer, guesses: words, list: list, edition: list.answerEditionIndex(for: bot.puzzle),
            hardMode: hardMode
        ).report
    }

    /// Plays today's puzzle from `first` to the answer (a second guess first when `detour` is given).
    static func play(
        _ bot: EngineHarness, from user: Int64 = 1, name: String = "Alice", first: String, detour: String? = nil
    )
        async throws -> [String]
    {
        let answer = try bot.answer()
        var guesses = [first]
        if let detour, detour != answer, first != answer { guesses.append(detour) }
        if first != answer { guesses.append(answer) }
        for guess in guesses { try await bot.send(guess, from: user, name: name) }
        return guesses
    }

    @Test("The waiting notice names an opener the book has not studied, and says minutes rather than seconds")
    func waitingNoticeNamesAnUnstudiedOpener() async throws {
        let bot = try EngineHarness()
        _ = try await Self.play(bot, first: "fuffy")
        #expect(
            try await bot.text("/analysis").contains(
                "I haven't studied <code>FUFFY</code> as a first word yet, so this one takes longer: up to a few minutes"
            ))
        _ = try await Self.play(bot, from: 2, name: "Bob", first: "salet")
        #expect(try await bot.text("/analysis", from: 2, name: "Bob").hasSuffix("comes here in a few seconds."))
    }

    @Test(
        "The Analysis button and /analysis show the finished game's analysis; one asked for early is posted when ready")
    func buttonAndCommand() async throws {
        let bot = try EngineHarness()
        let guesses = try await Self.play(bot, first: "salet", detour: "crony")
        let puzzle = bot.puzzle.rawValue
        // Finishing asks for the analysis; asked for before it is worked out, it is promised, in seconds for an
        // opener the book has studied (SALET), in minutes for one it has not, which is named.
        #expect(try await bot.text("/analysis").hasSuffix("the analysis comes here in a few seconds."))
        let posted = try await bot.analyseWaitingGames()
        #expect(posted.count == 1 && posted[0].chat == ChatID(1) && posted[0].chatKind == .direct)
        let analysis = try #require(posted.first?.html)

        let report = try Self.report(guesses, bot: bot)
        let lines = analysis.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "<b>🔍 Analysis · Tessera \(puzzle)</b>")
        // The bot's path is left out where it would name a withheld word (AnalysisReport.withholding).
        #expect(lines.count == 1 + 2 * guesses.count + (report.botPath.isEmpty ? 2 : 3), "\(analysis)")
        for (number, turn) in report.turns.enumerated() {
            #expect(lines[1 + 2 * number].hasSuffix("<code>\(turn.guess.uppercased())</code>"))
            #expect(lines[1 + 2 * number].hasPrefix("\(number + 1). "))
            let detail = lines[2 + 2 * number]
            let before = turn.candidatesBefore
            let written = before >= 1000 ? "\(before / 1000),\(String(format: "%03d", before % 1000))" : "\(before)"
            #expect(detail.hasPrefix("    \(written) → \(turn.candidatesAfter) word"), "\(detail)")
            // The word is never a mistake; the opener is compared with the bot's on average; later guesses
            // name the bot's choice.
            if turn.pattern == "ggggg" {
                #expect(detail.contains("🎯 solved") && !detail.contains("bot:"), "\(detail)")
            } else if turn.inaccuracy == 0 {
                #expect(detail.contains("✅ optimal"))
            } else if let best = turn.best, number == 0 {
                #expect(detail.contains("guesses behind <code>\(best.uppercased())</code> on average"), "\(detail)")
            } else if let best = turn.best {
                #expect(detail.contains("(bot: <code>\(best.uppercased())</code>)"), "\(detail)")
            }
            // The words left are named when there are at most 12 (and the guess did not win), as WordleBot does.
            if turn.candidatesAfter <= 12 && turn.pattern != "ggggg" {
                let left = try #require(turn.left)
                #expect(left.count == turn.candidatesAfter && left == left.sorted())
                #expect(left.contains(try bot.answer()))
                for word in left { #expect(detail.contains("<code>\(word.uppercased())</code>"), "\(detail)") }
            } else if turn.candidatesAfter > 12 {
                #expect(turn.left == nil)
            }
            if let luck = turn.luck, abs(luck) >= 0.005 {
                #expect(detail.contains(luck > 0 ? "guesses better than expected" : "guesses worse than expected"))
            }
        }
        #expect(report.turns[0].candidatesBefore == 2_300, "puzzle \(puzzle) is played with the first edition")
        #expect(lines.contains("<b>Skill \(report.skill)/99 · Luck \(report.luckScore)/99</b>"))
        if !report.botPath.isEmpty {
            #expect(
                lines.last
                    == "🤖 From your first word, the bot plays "
                    + report.botPath.map { "<code>\($0.uppercased())</code>" }.joined(separator: " → "))
        }
        let list = Language.english.wordList
        for word in report.turns.compactMap(\.best) + report.botPath.dropFirst().dropLast() {
            #expect(!list.withheld.contains(list.testWord(word)), "\(word) is withheld")
        }

        // Once stored: the button under the board, and /analysis, answer with it at once.
        #expect(try await bot.text("", button: "analysis en \(puzzle)") == analysis)
        #expect(try await bot.text("/analysis") == analysis)
        #expect(try await bot.analyseWaitingGames().isEmpty, "worked out once, posted once")
    }

    @Test("A game with an operator's extra guess is analysed: the word is measured, and never the bot's choice")
    func extraGuessAnalysed() async throws {
        let extra = Language.english.wordList.testWord("qwzzy")
        let bot = try EngineHarness { $0.extraGuesses = [.english: [extra]] }
        _ = try await Self.play(bot, first: "crane", detour: "qwzzy")
        _ = try await bot.analyseWaitingGames()
        let analysis = try await bot.text("/analysis")
        #expect(analysis.contains("QWZZY") && !analysis.contains("cannot be analysed"), "\(analysis)")
        #expect(!analysis.contains("bot: QWZZY") && analysis.components(separatedBy: "QWZZY").count == 2, "\(analysis)")
    }

    @Test("An analysis names words: not in a group, nor before a game is finished; bad arguments get the usage")
    func onlyInTheDirectChat() async throws {
        let bot = try EngineHarness()
        #expect(try await bot.text("/analysis").contains("no finished game to analyse"))
        try await bot.send(try bot.wrongWord())
        #expect(try await bot.text("/analysis").contains("no finished game to analyse"), "an unfinished game")
        _ = try await Self.play(bot, first: "crane")
        _ = try await bot.analyseWaitingGames()
        let answer = try bot.answer().uppercased()
        let group = try await bot.text("/analysis", in: -5, group: true)
        #expect(group.contains("in our private chat") && !group.uppercased().contains(answer))
        #expect(try await bot.text("", in: -5, group: true, button: "analysis en \(bot.puzzle.rawValue)") == group)
        #expect(try await bot.text("/analysis tomorrow").contains("/analysis for your latest game"))
        #expect(try await bot.text("/analysis en 999999").contains("no finished game to analyse"))
        #expect(try await bot.text("/analysis es \(bot.puzzle.rawValue)").contains("no finished game to analyse"))
        // Someone else's game is not theirs to see: the same puzzle, another player, no game.
        #expect(try await bot.text("/analysis en \(bot.puzzle.rawValue)", from: 2).contains("no finished game"))
    }

    @Test("Lost and hard-mode games are analysed too; a sure win given up is said in words")
    func lostHardModeGame() async throws {
        let bot = try EngineHarness()
        #expect(try await bot.text("/hard").contains("Hard mode is on"))
        // Six wrong guesses that each keep the clues so far, from a first guess the opening book knows.
        let list = Language.english.wordList
        let answer = try #require(try? list.word(from: try bot.answer()).get())
        let others = list.allowedGuesses.subtracting(list.answers).sorted {
            $0.codes.lexicographicallyPrecedes($1.codes)
        }
        var guesses: [String] = []
        for first in ["raise", "crane", "salet", "slate", "stare", "adieu"] where guesses.count < 6 {
            var game = Game(answer: answer, wordList: list, hardMode: true)
            guesses = [first]
            guard case .success = game.submit(first), game.result == nil else { continue }
            for candidate in list.answers + others where game.rows.count < 6 && candidate != answer {
                if case .success = game.submit(candidate) { guesses.append(list.letters(candidate)) }
            }
        }
        try #require(guesses.count == 6, "six hard-mode misses: \(guesses)")
        for guess in guesses { try await bot.send(guess) }
        _ = try await bot.analyseWaitingGames()
        let analysis = try await bot.text("/analysis")
        let report = try Self.report(guesses, bot: bot, hardMode: true)
        #expect(analysis.hasPrefix("<b>🔍 Analysis · Tessera \(bot.puzzle.rawValue) · hard mode</b>"), "\(analysis)")
        #expect(analysis.contains("6. ") && analysis.contains("<b>Skill \(report.skill)/99"))
        if let turn = report.turns.first(where: \.givesUpSureWin) {
            #expect(analysis.contains("⚠️ risky: no sure win in six after it"), "\(turn.guess)")
        }
    }

    @Test("/stats averages the skill and luck of the latest analysed games")
    func statsAverages() async throws {
        var bot = try EngineHarness()
        #expect(try await !bot.text("/stats").contains("Skill"), "nothing analysed yet")
        var reports: [AnalysisReport] = []
        for first in ["salet", "raise"] {
            let guesses = try await Self.play(bot, first: first)
            _ = try await bot.analyseWaitingGames()
            reports.append(try Self.report(guesses, bot: bot))
            if reports.count == 1 {
                #expect(
                    try await bot.text("/stats").contains(
                        "Skill \(reports[0].skill) · Luck \(reports[0].luckScore) on average over your last analysed game"
                    ))
            }
            try await bot.nextDay()
        }
        let skill = Int((Double(reports[0].skill + reports[1].skill) / 2).rounded())
        let luck = Int((Double(reports[0].luckScore + reports[1].luckScore) / 2).rounded())
        let stats = try await bot.text("/stats")
        #expect(stats.contains("Skill \(skill) · Luck \(luck) on average over your last 2 analysed games"), "\(stats)")
        _ = try await bot.send("/language es")
        #expect(try await !bot.text("/stats").contains("Habilidad"), "Spanish games have their own averages")
    }

    @Test("An analysis stored before a word was withheld shows it no more: no bot's choice, no bot's path through it")
    func storedAnalysisWithholds() async throws {
        let bot = try EngineHarness()
        let guesses = try await Self.play(bot, first: "salet", detour: "crony")
        var report = try Self.report(guesses, bot: bot)
        try #require(report.turns.count == 3)
        // As if worked out with an older list: GIPSY, on the deny list, was the bot's choice and on its path.
        report.turns[1].best = "gipsy"
        report.turns[1].inaccuracy = 0.5
        report.botPath = ["salet", "gipsy", try bot.answer()]
        let json = try report.json()
        try await bot.store.write {
            _ = try await $0.saveAnalysis(json, of: UserID(1), language: .english, puzzle: bot.puzzle)
        }
        let shown = try await bot.text("/analysis")
        #expect(shown.contains("<code>CRONY</code>") && shown.contains("cost 0.50 guesses"), "\(shown)")
        #expect(!shown.contains("GIPSY") && !shown.contains("🤖"), "\(shown)")
    }

    @Test("A game the analyst cannot read, or an analysis the database garbled, is said to be unavailable")
    func unavailable() async throws {
        let bot = try EngineHarness()
        try await bot.send("/start")
        let puzzle = bot.puzzle
        let damaged = StoredGame(
            player: UserID(1), language: .english, puzzle: puzzle, hardMode: false, guesses: ["zzzzz"], result: .lost,
            finishedAt: bot.now)
        try await bot.store.write {
            try await $0.save(damaged)
            try await $0.requestAnalysis(of: UserID(1), language: .english, puzzle: puzzle, show: true)
        }
        let posted = try await bot.analyseWaitingGames()
        #expect(
            posted.map(\.html) == [
                "This game cannot be analysed: one of its words is no longer on the word list. Your other games can."
            ])
        #expect(try await bot.text("/analysis").contains("cannot be analysed"))

        let earlier = PuzzleNumber(puzzle.rawValue - 1)
        try await bot.store.write {
            try await $0.save(
                StoredGame(
                    player: UserID(1), language: .english, puzzle: earlier, hardMode: false, guesses: ["crane"],
                    result: .won(guesses: 1), finishedAt: bot.now))
            try await $0.requestAnalysis(of: UserID(1), language: .english, puzzle: earlier, show: false)
            #expect(try await $0.saveAnalysis("{not json", of: UserID(1), language: .english, puzzle: earlier) == false)
        }
        #expect(try await bot.text("/analysis en \(earlier.rawValue)").contains("cannot be analysed"))
        #expect(try await !bot.text("/stats").contains("Skill"), "a garbled analysis is left out of the averages")
    }

    @Test("The post that reveals the word names the most skilful game, and no luck score; nothing before the word")
    func revealLine() async throws {
        let bot = try EngineHarness()
        // Carol's day is Los Angeles', and she has not played: the UTC group's summary waits for her day to end
        // before the word.
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        try await bot.send("/join", from: 3, name: "Carol", in: -2, group: true)
        for (user, name) in [(1, "Alice"), (2, "Bob"), (3, "Carol")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        let alice = try await Self.play(bot, from: 1, name: "Alice", first: "salet", detour: "crony")
        let bob = try await Self.play(bot, from: 2, name: "Bob", first: "adieu")
        _ = try await bot.analyseWaitingGames()
        let reports = [("Alice", try Self.report(alice, bot: bot)), ("Bob", try Self.report(bob, bot: bot))]
        let skilful = reports.max { $0.1.skill < $1.1.skill || ($0.1.skill == $1.1.skill && $0.0 > $1.0) }!
        let line = "🎯 Most skilful: \(skilful.0) (skill \(skilful.1.skill) of 99)"

        let engine = bot.engine
        let midnight = bot.now + 12 * 3600
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) } == 1)
        let results = try #require(try await bot.store.pendingMessages(limit: 10, now: midnight).last?.message)
        #expect(results.html.contains("🔒 The word follows") && !results.html.contains("🎯"), "\(results.html)")
        try await bot.store.markSent(try await bot.store.pendingMessages(limit: 10, now: midnight).map(\.id))
        let losAngeles = midnight + 8 * 3600 + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: losAngeles, in: $0) } == 1)
        let reveal = try #require(
            try await bot.store.pendingMessages(limit: 10, now: losAngeles).last { $0.message.chat == ChatID(-1) }?
                .message)
        let word = try bot.answer().uppercased()
        #expect(reveal.html.contains("The word was <spoiler>\(word)</spoiler>.\n" + line + "\n"), "\(reveal.html)")
        #expect(!reveal.html.contains("uck"), "no luck line: \(reveal.html)")
        // No letter beyond the word: the line holds names and scores only.
        #expect(!line.contains("<code>") && !line.uppercased().contains("SALET"))
    }

    @Test("The line waits for every game on the board to be analysed, then is edited into the day's post, once")
    func summaryLineWaits() async throws {
        let bot = try EngineHarness()
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        let alice = try await Self.play(bot, from: 1, name: "Alice", first: "crane")
        _ = try await bot.analyseWaitingGames()
        // Bob finishes after the analyses ran: his game waits for the next pass, and the line waits for it.
        let bob = try await Self.play(bot, from: 2, name: "Bob", first: "slate")
        let engine = bot.engine
        let midnight = bot.now + 12 * 3600
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: midnight).last?.message)
        let word = try bot.answer().uppercased()
        #expect(summary.html.contains("The word was <spoiler>\(word)</spoiler>."), "\(summary.html)")
        #expect(!summary.html.contains("🎯"), "one analysed game of two is no contest yet: \(summary.html)")
        try await bot.store.markSent(try await bot.store.pendingMessages(limit: 10, now: midnight).map(\.id))

        let posted = try await bot.analyseWaitingGames().filter { $0.chat == ChatID(-1) }
        let reports = [("Alice", try Self.report(alice, bot: bot)), ("Bob", try Self.report(bob, bot: bot))]
        let skilful = reports.max { $0.1.skill < $1.1.skill || ($0.1.skill == $1.1.skill && $0.0 > $1.0) }!
        #expect(summary.live == "day:\(bot.puzzle.rawValue)", "the day's post is live")
        #expect(posted.map(\.live) == [summary.live], "an edit of the same post, not a new one")
        let edited = summary.html.replacingOccurrences(
            of: "</spoiler>.\n", with: "</spoiler>.\n🎯 Most skilful: \(skilful.0) (skill \(skilful.1.skill) of 99)\n")
        #expect(posted.map(\.html) == [edited], "\(posted.map(\.html))")
        #expect(try await bot.analyseWaitingGames().isEmpty, "the line follows once")
    }

    @Test("A board with one analysed game shows no most skilful line: one game is no contest")
    func oneGameNoLine() async throws {
        let bot = try EngineHarness()
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        _ = try await Self.play(bot, from: 1, name: "Alice", first: "crane")
        _ = try await bot.analyseWaitingGames()
        let engine = bot.engine
        let midnight = bot.now + 12 * 3600
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: midnight).last?.message)
        #expect(summary.html.contains("The word was") && !summary.html.contains("🎯"), "\(summary.html)")
    }

    @Test("/export carries each finished game's analysis, and /forgetme deletes it with the game")
    func exportAndForget() async throws {
        let bot = try EngineHarness()
        let guesses = try await Self.play(bot, first: "slate")
        _ = try await bot.analyseWaitingGames()
        let document = try #require(try await bot.send("/export").first?.document)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.contents)) as? [String: Any])
        let game = try #require((json["games"] as? [[String: Any]])?.first)
        let analysis = try #require(game["analysis"] as? [String: Any], "the game's analysis is stored data")
        #expect(analysis["skill"] as? Int == (try Self.report(guesses, bot: bot)).skill)
        #expect((analysis["turns"] as? [Any])?.count == guesses.count)

        let confirm = try #require(try await bot.send("/forgetme").first?.buttons.joined().first?.data)
        _ = try await bot.send("", button: confirm)
        let left = try await bot.store.write {
            try await $0.recentAnalyses(of: UserID(1), language: .english, limit: 30)
        }
        #expect(left.isEmpty)
    }

    @Test(
        "A first guess the book lacks is keyed by its lists' fingerprint, and a kept total spares its search")
    func keptFirstGuess() async throws {
        let bot = try EngineHarness()
        let engine = bot.engine
        _ = try await Self.play(bot, first: "plumb")
        _ = try await Self.play(bot, from: 2, name: "Bob", first: "salet")
        let jobs = try await bot.store.write { try await engine.analysisJobs(on: nil, limit: 10, in: $0) }
        let analyst = GameAnalyst()
        let plumb = try #require(jobs.first { $0.player == UserID(1) })
        let salet = try #require(jobs.first { $0.player == UserID(2) })
        #expect(engine.keptFirstGuessKey(of: salet, analyst: analyst) == nil, "the book has SALET")
        let key = try #require(engine.keptFirstGuessKey(of: plumb, analyst: analyst))
        let fingerprint = analyst.fingerprint(of: Language.english.wordList, edition: 0)
        #expect(key == "first guess total \(fingerprint) normal plumb")
        #expect(fingerprint == analyst.tables(for: Language.english.wordList, edition: 0, hardMode: false).fingerprint)

        // With the total kept, nothing is searched and the kept total is the first guess's.
        let outcome = try await offThePool { engine.analyse(plumb, kept: "7901", with: analyst) }
        let analysed = try outcome.get()
        #expect(!analysed.searchedFirstGuess && analysed.firstGuessTotal == .exactly(7_901))
        #expect(BotEngine.keptText(.exactly(7_901)) == "7901" && BotEngine.keptText(.exactly(nil)) == "none")
        #expect(BotEngine.keptTotal("none") == .exactly(nil) && BotEngine.keptTotal("7901") == .exactly(7_901))
        #expect(BotEngine.keptText(Solver.Total(lower: 7_901, upper: 8_200)) == "7901..8200")
        #expect(BotEngine.keptText(Solver.Total(lower: 7_901, upper: nil)) == "7901..none")
        #expect(BotEngine.keptTotal("7901..8200") == Solver.Total(lower: 7_901, upper: 8_200))
        #expect(BotEngine.keptTotal("7901..none") == Solver.Total(lower: 7_901, upper: nil))
        for garbled in ["garbled", "8200..7901", "none..7901", "1..2..3", ""] {
            #expect(BotEngine.keptTotal(garbled) == nil, "a kept total that cannot be read is searched again")
        }
    }

    @Test("Bounds closer than two decimals read as one figure; wider ones as a range")
    func boundsReadAsOneFigure() {
        #expect(Known(AnalysisReport.Interval(atLeast: 0.201, atMost: 0.204)) == .exactly(0.2025))
        #expect(Known(AnalysisReport.Interval(atLeast: 0.1, atMost: 0.3)) == .between(0.1, 0.3))
        #expect(
            English().luck(Known(AnalysisReport.Interval(atLeast: 0.201, atMost: 0.204)))
                == "lucky: 0.20 guesses better than expected")
    }
}
