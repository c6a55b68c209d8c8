import TesseraCore
import TesseraCoreTesting
import Testing

/// The exact solver against an oracle that is slow and obviously right: every allowed guess at every position,
/// nothing remembered, nothing bounded, and hard mode decided by `Game`'s own rule.
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

    /// The total guesses optimal play needs for `candidates` after the guesses `played`, the next one included.
    func oracle(
        _ candidates: [Word], played: [Word], guesses: [Word], hardMode: Bool, limit: Int = 6
    ) -> Int? {
        if candidates.isEmpty { return 0 }
        if played.count >= limit { return nil }
        if candidates.count == 1 { return 1 }
        var best: Int?
        for guess in guesses {
            guard let value = oracle(candidates, played: played, guessing: guess, guesses: guesses, hardMode: hardMode)
            else { continue }
            best = min(best ?? value, value)
        }
        return best
    }

    /// The total when `guess` is played now: nil when hard mode forbids it, when it tells nothing (one part, not
    /// solved: it only spends a guess), or when a part cannot be solved in time.
    func oracle(
        _ candidates: [Word], played: [Word], guessing guess: Word, guesses: [Word], hardMode: Bool, limit: Int = 6
    ) -> Int? {
        if hardMode {
            // Any candidate agrees with every clue so far: the game with it as the answer replays them.
            var game = Game(answer: candidates[0], wordList: list, maximumGuesses: limit, hardMode: true)
            for word in played { _ = game.submit(word) }
            guard case .success = game.submit(guess) else { return nil }
        }
        let parts = Dictionary(grouping: candidates) { Feedback(guess: guess, answer: $0) }
        if parts.count == 1, parts.keys.first?.isSolved == false { return nil }
        var sum = candidates.count
        for (feedback, part) in parts where !feedback.isSolved {
            guard let value = oracle(part, played: played + [guess], guesses: guesses, hardMode: hardMode, limit: limit)
            else { return nil }
            sum += value
        }
        return sum
    }

    @Test("From the start, the solver's total is the oracle's, in both modes", arguments: [1, 2, 3, 4] as [UInt64])
    func startValues(seed: UInt64) {
        let (answers, others) = lists(seed: seed, answers: 7, others: 9)
        for hardMode in [false, true] {
            let solver = Solver(guesses: others, answers: answers, hardMode: hardMode)
            let expected = oracle(answers, played: [], guesses: solver.guesses, hardMode: hardMode)
            #expect(solver.total(solver.start) == expected, "seed \(seed), hard \(hardMode)")
        }
    }

    @Test(
        "Every guess's total, at the start and after each first clue, is the oracle's", arguments: [5, 6] as [UInt64])
    func guessValues(seed: UInt64) {
        let (answers, others) = lists(seed: seed, answers: 6, others: 7)
        for hardMode in [false, true] {
            let solver = Solver(guesses: others, answers: answers, hardMode: hardMode)
            for guess in solver.guesses.indices {
                let word = solver.guesses[guess]
                #expect(
                    solver.total(solver.start, guessing: guess)
                        == oracle(answers, played: [], guessing: word, guesses: solver.guesses, hardMode: hardMode),
                    "\(seed) \(hardMode) guess \(guess)")
                // Each clue it can show: the position after it.
                for clue in Set(answers.indices.map { solver.pattern(guess, $0) }) {
                    let next = solver.after(solver.start, guess: guess, pattern: clue)
                    let left = next.candidates.map { answers[$0] }
                    #expect(
                        solver.total(next)
                            == oracle(left, played: [word], guesses: solver.guesses, hardMode: hardMode),
                        "\(seed) \(hardMode) guess \(guess) clue \(clue)")
                }
            }
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
    func hardModeAllowed(seed: UInt64) {
        let (answers, others) = lists(seed: seed, answers: 30, others: 200)
        let solver = Solver(guesses: others, answers: answers, hardMode: true)
        for guess in solver.guesses.indices.prefix(12) {
            for answer in answers.indices where solver.guesses[guess] != answers[answer] {
                let next = solver.after(solver.start, guess: guess, pattern: solver.pattern(guess, answer))
                var game = Game(answer: answers[answer], wordList: list, hardMode: true)
                _ = game.submit(solver.guesses[guess])
                let accepted = solver.guesses.indices.filter { candidate in
                    var trial = game
                    switch trial.submit(solver.guesses[candidate]) {
                    case .failure(.mustKeepLetter), .failure(.mustContainLetter): return false
                    default: return true
                    }
                }
                #expect(
                    solver.guesses.indices.filter { solver.isAllowed($0, in: next) } == accepted,
                    "guess \(solver.guesses[guess]), answer \(answers[answer])")
            }
        }
    }
}
