import TesseraCore
import TesseraCoreTesting
import Testing

/// The words the bot plays, and the skill score's calibration on simulated players (docs/analysis.md, "How skill is
/// scored"). Serialised: each test keeps a core busy.
@Suite("The bot's words and the skill score's calibration", .serialized)
struct CalibrationTests {
    @Test(
        "Every word the bot suggests or plays in an analysis is a familiar word",
        arguments: Language.allCases, [false, true])
    func botWordsAreFamiliar(language: Language, hardMode: Bool) async throws {
        try await offThePool { try botWordsAreFamiliarWork(language: language, hardMode: hardMode) }
    }

    private func botWordsAreFamiliarWork(language: Language, hardMode: Bool) throws {
        let list = language.wordList
        let edition = list.answerEditions.count - 1
        let analyst = GameAnalyst()
        let tables = analyst.tables(for: list, edition: edition, hardMode: hardMode)
        let book = try #require(OpeningBook.lookup(fingerprint: tables.fingerprint, hardMode: hardMode))
        let solver = Solver(tables: tables)
        let openers = book.totals.filter { $0.value != nil }.keys.sorted().compactMap { text in
            (try? list.word(from: text).get()).flatMap { tables.guesses.firstIndex(of: $0) }
        }
        let familiar = Set(list.familiarGuesses.map { list.letters($0) })
        var draws = SeededDraws(seed: hardMode ? 11 : 5)
        var checked = 0
        for game in 0..<4 {
            let answer = (game * 7_919 + 13) % tables.answers.count
            let played = SimulatedPlayer.randomCandidates.play(
                answer: answer, solver: solver, bestOpener: 0, commonOpener: 0, openers: openers
            ) { draws.next(below: $0) }
            let report = try analyst.analyse(
                answer: tables.answers[answer], guesses: played.map { tables.guesses[$0] }, list: list,
                edition: edition, hardMode: hardMode, budget: .standard
            ).report
            let botWords = report.turns.compactMap(\.best) + report.botPath.dropFirst()
            for word in botWords {
                #expect(familiar.contains(word), "\(word) is not familiar (\(report.turns.map(\.guess)))")
            }
            checked += botWords.count
        }
        #expect(checked >= 8, "too few of the bot's words were checked")
    }

    @Test("Simulated players' median skill: optimal 99, a sensible player 60–90, random candidates below that")
    func calibration() async throws {
        try await offThePool { try calibrationWork() }
    }

    private func calibrationWork() throws {
        let list = Language.english.wordList
        let rows = try Calibration.measure(
            list: list, edition: list.answerEditions.count - 1, hardMode: false, games: 16)
        let skill = Dictionary(uniqueKeysWithValues: rows.map { ($0.player, $0.skill) })
        #expect(skill[.optimal] == 99)
        let sensible = try #require(skill[.commonOpenerThenFewestLeft])
        #expect((60...90).contains(sensible), "\(rows)")
        #expect(try #require(skill[.randomCandidates]) < sensible, "\(rows)")
    }
}
