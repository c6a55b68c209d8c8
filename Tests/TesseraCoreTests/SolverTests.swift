import TesseraCore
import TesseraCoreTesting
import Testing

/// The exact solver against an oracle that is slow and obviously right: every allowed guess at every position,
/// no bounds, and hard mode decided by `Game`'s own rule. It remembers what it has worked out, by the candidates
/// and the set of words played (which fix the clues, since every candidate shows each played word the same
/// colours), so that lists of 16 answers and 80 guesses take seconds in a debug build.
final class Oracle {
    let list = Language.english.wordList
    let guesses: [Word]
    let hardMode: Bool
    let limit = 6
    /// `Feedback(guess:answer:)`, the game's own scorer, for every pair: worked out once, as it is slow.
    private var feedback: [Word: [Word: Feedback]] = [:]
    private var memo: [Key: Int?] = [:]

    /// In normal mode only the number of guesses played matters; in hard mode also which (their clues).
    struct Key: Hashable {
        var candidates: Set<Word>
        var played: Int
        var words: Set<Word>
    }

    init(guesses: [Word], answers: [Word], hardMode: Bool) {
        self.guesses = guesses
        self.hardMode = hardMode
        for guess in guesses {
            feedback[guess] = Dictionary(uniqueKeysWithValues: answers.map { ($0, Feedback(guess: guess, answer: $0)) })
        }
    }

    func parts(_ candidates: [Word], by guess: Word) -> [Feedback: [Word]] {
        Dictionary(grouping: candidates) { feedback[guess]?[$0] ?? Feedback(guess: guess, answer: $0) }
    }

    /// The total guesses optimal play needs for `candidates` after the guesses `played`, the next one included.
    func total(_ candidates: [Word], played: [Word]) -> Int? {
        if candidates.isEmpty { return 0 }
        if played.count >= limit { return nil }
        if candidates.count == 1 { return 1 }
        // Two: guess one, then the other if need be (no strategy does better than 1 + 2).
        if candidates.count == 2 { return played.count + 2 <= limit ? 3 : nil }
        let key = Key(candidates: Set(candidates), played: played.count, words: hardMode ? Set(played) : [])
        if let known = memo[key] { return known }
        var best: Int?
        for guess in guesses {
            // A guess that tells nothing only spends a guess: never better, and endless to explore.
            let parts = parts(candidates, by: guess)
            if parts.count == 1, parts.keys.first?.isSolved == false { continue }
            guard let value = total(candidates, played: played, guessing: guess) else { continue }
            best = min(best ?? value, value)
        }
        memo[key] = best
        return best
    }

    /// The total when `guess` is played now: nil when hard mode forbids it or a part cannot be solved in time.
    func total(_ candidates: [Word], played: [Word], guessing guess: Word) -> Int? {
        if played.count >= limit { return nil }
        guard allows(guess, candidates: candidates, played: played) else { return nil }
        var sum = candidates.count
        for (feedback, part) in parts(candidates, by: guess) where !feedback.isSolved {
            guard let value = total(part, played: played + [guess]) else { return nil }
            sum += value
        }
        return sum
    }

    /// Whether the game, in hard mode, accepts `guess` after `played` (every candidate replays the same clues).
    func allows(_ guess: Word, candidates: [Word], played: [Word]) -> Bool {
        guard hardMode else { return true }
        var game = Game(answer: candidates[0], wordList: list, maximumGuesses: limit, hardMode: true)
        for word in played { _ = game.submit(word) }
        switch game.submit(guess) {
        case .failure(.mustKeepLetter), .failure(.mustContainLetter): return false
        default: return true
        }
    }
}

@Suite("The optimal solver")
struct SolverTests {
    let list = Language.english.wordList

    /// Small lists drawn from the English ones: `answers` answers, and `others` other allowed guesses.
    func lists(seed: UInt64, answers: Int, others: Int) -> (answers: [Word], guesses: [Word]) {
        var random = SplitMix64(seed: seed)
        let chosen = Array(list.answers.shuffled(using: &random).prefix(answers))
        let allowed = list.allowedGuesses.subtracting(chosen).sorted { $0.codes.lexicographicallyPrecedes($1.codes) }
        return (chosen, Array(allowed.shuffled(using: &random).prefix(others)))
    }

    @Test(
        "From the start, the solver's total is the oracle's, in both modes",
        arguments: [(1, false), (2, false), (3, true), (4, true)] as [(UInt64, Bool)])
    func startValues(seed: UInt64, hardMode: Bool) async throws {
        try await offThePool { startValuesWork(seed: seed, hardMode: hardMode) }
    }

    func startValuesWork(seed: UInt64, hardMode: Bool) {
        let (answers, others) = lists(seed: seed, answers: 16, others: 80)
        do {
            let solver = Solver(guesses: others, answers: answers, hardMode: hardMode)
            let oracle = Oracle(guesses: solver.guesses, answers: answers, hardMode: hardMode)
            #expect(solver.total(solver.start) == oracle.total(answers, played: []), "seed \(seed), hard \(hardMode)")
        }
    }

    @Test("The limit makes values infinite: two candidates with one guess left, any with none")
    func limits() {
        let (answers, others) = lists(seed: 9, answers: 5, others: 3)
        let solver = Solver(guesses: others, answers: answers, maximumGuesses: 1)
        #expect(solver.total(solver.start) == nil)
        let one = Solver(guesses: others, answers: Array(answers.prefix(1)), maximumGuesses: 1)
        #expect(one.total(one.start) == 1)
        let none = Solver(guesses: others, answers: answers, maximumGuesses: 6)
        var position = none.start
        position.played = 6
        #expect(none.total(position) == nil)
    }

    @Test("Hard mode allows after a clue exactly the guesses the game accepts", arguments: [11, 12, 13] as [UInt64])
    func hardModeAllowed(seed: UInt64) async throws {
        try await offThePool { hardModeAllowedWork(seed: seed) }
    }

    func hardModeAllowedWork(seed: UInt64) {
        let (answers, others) = lists(seed: seed, answers: 30, others: 100)
        let solver = Solver(guesses: others, answers: answers, hardMode: true)
        let oracle = Oracle(guesses: solver.guesses, answers: answers, hardMode: true)
        for guess in solver.guesses.indices.prefix(12) {
            for answer in answers.indices where solver.guesses[guess] != answers[answer] {
                let next = solver.after(solver.start, guess: guess, pattern: solver.pattern(guess, answer))
                let candidates = next.candidates.map { answers[$0] }
                let accepted = solver.guesses.indices.filter {
                    oracle.allows(solver.guesses[$0], candidates: candidates, played: [solver.guesses[guess]])
                }
                #expect(
                    solver.guesses.indices.filter { solver.isAllowed($0, in: next) } == accepted,
                    "guess \(solver.guesses[guess]), answer \(answers[answer])")
            }
        }
    }

    /// Games on small lists: each turn the optimal guess, a candidate or any allowed guess, by chance.
    func games(_ solver: Solver, count: Int, seed: UInt64) -> [(answer: Int, played: [Int])] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let answer = Int.random(in: solver.answers.indices, using: &random)
            var position = solver.start
            var played: [Int] = []
            while played.count < solver.maximumGuesses,
                played.last.map({ solver.guesses[$0] }) != solver.answers[answer]
            {
                let allowed = solver.guesses.indices.filter { solver.isAllowed($0, in: position) }
                let guess: Int
                switch Int.random(in: 0..<3, using: &random) {
                case 0: guess = solver.optimal(position)?.guess ?? allowed[0]
                case 1: guess = position.candidates.randomElement(using: &random) ?? allowed[0]
                default: guess = allowed.randomElement(using: &random) ?? allowed[0]
                }
                played.append(guess)
                position = solver.after(position, guess: guess, pattern: solver.pattern(guess, answer))
            }
            return (answer, played)
        }
    }

    @Test(
        "Every turn's V, E, inaccuracy and luck are the oracle's, in both modes",
        arguments: [(21, false), (22, false), (23, true)] as [(UInt64, Bool)])
    func analysisValues(seed: UInt64, hardMode: Bool) async throws {
        try await offThePool { try analysisValuesWork(seed: seed, hardMode: hardMode) }
    }

    func analysisValuesWork(seed: UInt64, hardMode: Bool) throws {
        // Hard mode's oracle remembers less (the clues differ with the words played): smaller lists.
        let (answers, others) = lists(seed: seed, answers: hardMode ? 12 : 16, others: hardMode ? 60 : 80)
        do {
            let solver = Solver(guesses: others, answers: answers, hardMode: hardMode)
            let oracle = Oracle(guesses: solver.guesses, answers: answers, hardMode: hardMode)
            let best = try #require(solver.optimal(solver.start))
            for (answer, played) in games(solver, count: 6, seed: seed) {
                let analysis = try solver.analyse(
                    answer: answer, played: played, best: Solver.Opening(guess: best.guess, total: best.total))
                var candidates = answers
                var words: [Word] = []
                for (turn, guess) in zip(analysis.turns, played.map { solver.guesses[$0] }) {
                    let feedback = Feedback(guess: guess, answer: answers[answer])
                    let after = candidates.filter { Feedback(guess: guess, answer: $0) == feedback }
                    let optimal = oracle.total(candidates, played: words)
                    let expected = oracle.total(candidates, played: words, guessing: guess)
                    let left = feedback.isSolved ? 0 : oracle.total(after, played: words + [guess])
                    #expect(turn.guess == guess && turn.feedback == feedback)
                    #expect(turn.candidatesBefore == candidates.count && turn.candidatesAfter == after.count)
                    #expect(turn.optimal == .exactly(optimal), "V, seed \(seed), hard \(hardMode)")
                    #expect(turn.guessed == .exactly(expected), "E, seed \(seed), hard \(hardMode)")
                    #expect(turn.after == .exactly(left), "V after, seed \(seed), hard \(hardMode)")
                    if let optimal, let expected {
                        #expect(turn.inaccuracy == Double(expected - optimal) / Double(candidates.count))
                    } else {
                        #expect(turn.inaccuracy == nil)
                    }
                    if let expected, let left {
                        let luck =
                            Double(expected - candidates.count) / Double(candidates.count)
                            - (feedback.isSolved ? 0 : Double(left) / Double(after.count))
                        #expect(turn.luck == luck)
                    } else {
                        #expect(turn.luck == nil)
                    }
                    // The bot's choice is optimal: its own total is the position's.
                    if let choice = turn.best {
                        #expect(oracle.total(candidates, played: words, guessing: choice) == optimal)
                    } else {
                        #expect(optimal == nil)
                    }
                    candidates = after
                    words.append(guess)
                }
            }
        }
    }

    @Test(
        "Over a won game, guesses = V(start) + Σ inaccuracy − Σ luck, whenever every value is finite",
        arguments: [31, 32, 33, 34] as [UInt64])
    func identity(seed: UInt64) async throws {
        try await offThePool { try identityWork(seed: seed) }
    }

    func identityWork(seed: UInt64) throws {
        let (answers, others) = lists(seed: seed, answers: 40, others: 300)
        for hardMode in [false, true] {
            let solver = Solver(guesses: others, answers: answers, hardMode: hardMode)
            let best = try #require(solver.optimal(solver.start))
            var checked = 0
            for (answer, played) in games(solver, count: 60, seed: seed) {
                let analysis = try solver.analyse(
                    answer: answer, played: played, best: Solver.Opening(guess: best.guess, total: best.total))
                guard analysis.won, let inaccuracy = analysis.totalInaccuracy, let luck = analysis.totalLuck else {
                    continue
                }
                let start = Double(best.total) / Double(answers.count)
                #expect(abs(Double(played.count) - (start + inaccuracy - luck)) < 1e-9, "\(played) → \(answer)")
                checked += 1
            }
            #expect(checked >= 20, "too few won games with finite values to check: \(checked)")
        }
    }

    @Test("Every guess of an optimal hard-mode strategy is one the game accepts", arguments: [41, 42] as [UInt64])
    func hardModeLegality(seed: UInt64) async throws {
        try await offThePool { try hardModeLegalityWork(seed: seed) }
    }

    func hardModeLegalityWork(seed: UInt64) throws {
        let (answers, others) = lists(seed: seed, answers: 60, others: 400)
        let solver = Solver(guesses: others, answers: answers, hardMode: true)
        let first = try #require(solver.optimal(solver.start)).guess
        for answer in answers.indices {
            let (path, optimal) = solver.path(from: solver.start, to: answer, first: first)
            #expect(optimal, "an unlimited budget settles every step")
            var game = Game(answer: answers[answer], wordList: list, hardMode: true)
            for guess in path {
                let result = game.submit(solver.guesses[guess])
                guard case .success = result else {
                    Issue.record("\(solver.guesses[guess]) refused after \(path): \(result)")
                    break
                }
            }
            #expect(game.status == .won, "the optimal path \(path.map { solver.guesses[$0] }) does not find the answer")
        }
    }

    @Test("A game that goes on after it is won, or breaks hard mode, is not analysed")
    func rejections() throws {
        let (answers, others) = lists(seed: 51, answers: 20, others: 50)
        let solver = Solver(guesses: others, answers: answers, hardMode: true)
        let best = try #require(solver.optimal(solver.start))
        let opening = Solver.Opening(guess: best.guess, total: best.total)
        #expect(throws: Solver.AnalysisRejection.continuesAfterWin(turn: 2)) {
            try solver.analyse(answer: 0, played: [0, 1], best: opening)
        }
        #expect(throws: Solver.AnalysisRejection.noGuesses) { try solver.analyse(answer: 0, played: [], best: opening) }
        // A guess that leaves out a revealed letter: some answer shows the first guess a green or yellow.
        let answer = try #require(answers.indices.first { solver.pattern(1, $0) != 0 && $0 != 1 })
        let next = solver.after(solver.start, guess: 1, pattern: solver.pattern(1, answer))
        let breaking = try #require(solver.guesses.indices.first { !solver.isAllowed($0, in: next) })
        #expect(throws: Solver.AnalysisRejection.breaksHardMode(turn: 2)) {
            try solver.analyse(answer: answer, played: [1, breaking], best: opening)
        }
    }

    @Test("The analyst's next game starts from what the last one learned: the same analysis, a fraction of the steps")
    func keptMemo() async throws {
        let (analyst, list) = (GameAnalyst(), list)
        let edition = list.answerEditions.count - 1
        let answer = list.answerEditions[edition].answers[0]
        let guesses = [list.testWord("crane"), list.testWord("doubt"), answer]
        @Sendable func analyse() throws -> GameAnalyst.Analysed {
            try analyst.analyse(answer: answer, guesses: guesses, list: list, edition: edition, hardMode: false)
        }
        try await offThePool {
            let cold = try analyse()
            let warm = try analyse()
            #expect(warm.analysis == cold.analysis && warm.report == cold.report)
            #expect(warm.steps * 10 < cold.steps, "\(warm.steps) steps warm, \(cold.steps) cold")
            // Released, the memo goes with the tables: the next game starts cold again.
            analyst.release()
            #expect(try analyse().steps == cold.steps)
        }
    }

    @Test("An analysis never names a withheld word as the bot's; its values stay the whole vocabulary's")
    func withheldWords() throws {
        let (answers, others) = lists(seed: 71, answers: 30, others: 60)
        // The game is played with the first edition; the second, the latest, has other answers, so that the
        // first's may be withheld (the latest's never are).
        let latest = Array(others.prefix(10))
        func wordList(withheld: Set<Word>) -> WordList {
            WordList(
                language: .english, alphabet: list.alphabet,
                answerEditions: [
                    AnswerEdition(firstPuzzle: PuzzleNumber(1), answers: answers),
                    AnswerEdition(firstPuzzle: PuzzleNumber(100), answers: latest),
                ],
                otherGuesses: others.dropFirst(10) + answers, withheld: withheld)
        }
        func analysed(_ list: WordList, answer: Word, guesses: [Word]) throws -> AnalysisReport {
            try GameAnalyst().analyse(answer: answer, guesses: guesses, list: list, edition: 0, hardMode: false).report
        }
        let open = wordList(withheld: [])
        // A game whose bot's path, after the player's first word, goes through a word that may be withheld.
        var game: (guesses: [Word], report: AnalysisReport)?
        for first in others.dropFirst(10) where game == nil {
            let guesses = [first, answers[3], answers[0]]
            let report = try analysed(open, answer: answers[0], guesses: guesses)
            let middle = report.botPath.dropFirst().dropLast().map(open.testWord)
            if !Set(middle).subtracting(latest).isEmpty { game = (guesses, report) }
        }
        let (guesses, named) = try #require(game, "no game's path names a word to withhold")
        let words = Set((named.turns.compactMap(\.best) + named.botPath.dropFirst().dropLast()).map(open.testWord))
            .subtracting(latest)
        let withheld = wordList(withheld: words)
        let report = try analysed(withheld, answer: answers[0], guesses: guesses)
        for turn in report.turns { #expect(turn.best.map(withheld.testWord).map(words.contains) != true, "\(turn)") }
        #expect(report.botPath.isEmpty, "a path through a withheld word is left out")
        #expect(report.turns.map(\.inaccuracy) == named.turns.map(\.inaccuracy))
        #expect(report.skill == named.skill && report.luckScore == named.luckScore)
        #expect(report.turns.map(\.guess) == named.turns.map(\.guess), "the player's own words are shown")
        // A stored report is read through the same rule.
        #expect(named.withholding(withheld) == report)
        // The first word is the player's, the last the game's answer: withheld, they still begin and end the path.
        let ends = wordList(withheld: [answers[0], guesses[0]])
        #expect(try analysed(ends, answer: answers[0], guesses: guesses).botPath == named.botPath)
    }

    @Test("A requested stop ends a search at once, and the analyst then says the game was stopped, not analysed")
    func stop() async throws {
        let (answers, others) = lists(seed: 61, answers: 16, others: 40)
        let stop = Solver.Stop()
        let running = Solver(guesses: others, answers: answers, stop: stop)
        #expect(running.optimal(running.start) != nil)
        stop.request()
        let stopped = Solver(guesses: others, answers: answers, stop: stop)
        #expect(stopped.optimal(stopped.start) == nil)
        // PLUMB is in no opening book: its total is searched, a minute and a half on the full lists unstopped.
        let (analyst, list) = (GameAnalyst(), list)
        let (plumb, edition) = (list.testWord("plumb"), list.answerEditions.count - 1)
        try await offThePool {
            #expect(throws: GameAnalyst.Failure.stopped) {
                try analyst.analyse(
                    answer: list.answers[0], guesses: [plumb, list.answers[0]], list: list, edition: edition,
                    hardMode: false, stop: stop)
            }
        }
    }
}

@Suite("Skill and luck scores")
struct AnalysisScoreTests {
    let list = Language.english.wordList

    func turn(_ before: Int, optimal: Int?, guess: Int?, after: Int, afterTotal: Int?, solved: Bool = false)
        -> GameAnalysis.Turn
    {
        let word = list.answers[0]
        let feedback = Feedback(Array(repeating: solved ? .correct : .absent, count: 5))
        return GameAnalysis.Turn(
            guess: word, feedback: feedback, candidatesBefore: before, candidatesAfter: after, best: word,
            optimalTotal: optimal, guessTotal: guess, afterTotal: afterTotal)
    }

    @Test("Skill is 99 exactly when every guess was optimal, and falls as inaccuracy grows")
    func skill() {
        let perfect = GameAnalysis(
            turns: [
                turn(10, optimal: 25, guess: 25, after: 3, afterTotal: 5),
                turn(3, optimal: 5, guess: 5, after: 1, afterTotal: 0, solved: true),
            ],
            hardMode: false)
        #expect(perfect.skill == 99)
        let slightly = GameAnalysis(
            turns: [turn(10, optimal: 25, guess: 26, after: 1, afterTotal: 0, solved: true)], hardMode: false)
        #expect(slightly.skill == 89)  // 0.1 guesses: 99 / 1.1, just under 90 in floating point
        let poor = GameAnalysis(
            turns: [turn(10, optimal: 25, guess: 35, after: 1, afterTotal: 0, solved: true)], hardMode: false)
        #expect(poor.skill == 49)  // 1 guess: 99 / 2 = 49.5
        // Giving up the sure win in six costs as much as a guess of inaccuracy.
        let risky = GameAnalysis(
            turns: [turn(10, optimal: 25, guess: nil, after: 1, afterTotal: 0, solved: true)], hardMode: true)
        #expect(risky.skill == 49)
        #expect(risky.totalInaccuracy == nil)
    }

    @Test("Luck is 50 when the colours were as expected, higher when kinder")
    func luck() {
        // E − 1 = 1.5 and V(after) = 1.5: as expected.
        let expected = GameAnalysis(turns: [turn(10, optimal: 25, guess: 25, after: 2, afterTotal: 3)], hardMode: false)
        #expect(expected.totalLuck == 0)
        #expect(expected.luckScore == 50)
        let lucky = GameAnalysis(
            turns: [turn(10, optimal: 25, guess: 25, after: 1, afterTotal: 0, solved: true)], hardMode: false)
        #expect(lucky.totalLuck == 1.5)
        #expect(lucky.luckScore == 94)  // 50 + 49 · tanh 1.5
        let unlucky = GameAnalysis(turns: [turn(10, optimal: 25, guess: 25, after: 4, afterTotal: 12)], hardMode: false)
        #expect(unlucky.luckScore == 6)  // E − 1 = 1.5, V(after) = 3: 50 + 49 · tanh(−1.5) = 5.8
    }
}
