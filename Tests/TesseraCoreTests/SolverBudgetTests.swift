import Foundation
import TesseraCoreTesting
import Testing

@testable import TesseraCore

/// Issue 37: a game's analysis spends at most its budget, and a value the budget does not settle is given as exact
/// bounds, never as a number made up.
@Suite("The solver's budget")
struct SolverBudgetTests {
    let list = Language.english.wordList

    /// The solver suite's lists and random games (answers, then any allowed word; hard mode keeps the rule).
    func lists(seed: UInt64, answers: Int, others: Int) -> (answers: [Word], guesses: [Word]) {
        SolverTests().lists(seed: seed, answers: answers, others: others)
    }

    func games(_ solver: Solver, count: Int, seed: UInt64) -> [(answer: Int, played: [Int])] {
        SolverTests().games(solver, count: count, seed: seed)
    }

    func contains(_ bounds: Solver.Total, _ exact: Solver.Total) -> Bool {
        guard exact.isExact else { return false }
        let value = exact.lower
        // nil is infinite: above every number.
        let aboveLower = bounds.lower.map { lower in value.map { $0 >= lower } ?? true } ?? (value == nil)
        let belowUpper = bounds.upper.map { upper in value.map { $0 <= upper } ?? false } ?? true
        return aboveLower && belowUpper
    }

    func contains(_ range: GameAnalysis.Measure?, _ exact: GameAnalysis.Measure?) -> Bool {
        guard let exact else { return true }  // undefined exactly: any bounds say no more than that
        guard let range else { return false }
        return range.lower <= exact.lower + 1e-9 && exact.upper <= range.upper + 1e-9
    }

    @Test(
        "Whatever the budget, every value is the exact one or bounds that hold it, in both modes",
        arguments: [(71, false), (72, false), (73, true), (74, true)] as [(UInt64, Bool)])
    func boundsHoldTheExactValues(seed: UInt64, hardMode: Bool) async throws {
        try await offThePool { try boundsHoldWork(seed: seed, hardMode: hardMode) }
    }

    func boundsHoldWork(seed: UInt64, hardMode: Bool) throws {
        let (answers, others) = lists(seed: seed, answers: hardMode ? 40 : 60, others: hardMode ? 150 : 200)
        let exactSolver = Solver(guesses: others, answers: answers, hardMode: hardMode)
        let best = try #require(exactSolver.optimal(exactSolver.start))
        let opening = Solver.Opening(guess: best.guess, total: best.total)
        var leftToBounds = 0
        for steps in [1, 300, 3_000, 30_000] {
            for (answer, played) in games(exactSolver, count: 5, seed: seed &+ UInt64(steps)) {
                let exact = try exactSolver.analyse(answer: answer, played: played, best: opening)
                let budgeted = Solver(
                    tables: exactSolver.tables, budget: Solver.Budget(steps: steps, stepsPerValueAfterward: steps))
                let bounded = try budgeted.analyse(answer: answer, played: played, best: opening)
                #expect(exact.isExact, "an unlimited budget settles every value")
                var position = exactSolver.start
                for (turn, truth) in zip(bounded.turns, exact.turns) {
                    #expect(contains(turn.optimal, truth.optimal), "V \(turn.optimal) vs \(truth.optimal), \(steps)")
                    #expect(contains(turn.guessed, truth.guessed), "E \(turn.guessed) vs \(truth.guessed), \(steps)")
                    #expect(contains(turn.after, truth.after), "V after \(turn.after) vs \(truth.after), \(steps)")
                    #expect(contains(turn.inaccuracyRange, truth.inaccuracyRange), "inaccuracy, \(steps) steps")
                    #expect(contains(turn.luckRange, truth.luckRange), "luck, \(steps) steps")
                    // An optimal guess is named only where it is known to be one, and it is one.
                    if let best = turn.best {
                        #expect(turn.optimal.isExact)
                        let index = try #require(exactSolver.guesses.firstIndex(of: best))
                        #expect(exactSolver.total(position, guessing: index) == truth.optimal.lower)
                    }
                    // No number stands in for a value that is not settled.
                    if !turn.isExact { #expect(turn.inaccuracy == nil && turn.luck == nil) }
                    position = exactSolver.after(
                        position, guess: try #require(exactSolver.guesses.firstIndex(of: turn.guess)),
                        pattern: UInt16(turn.feedback.code))
                }
                #expect(bounded.skillRange.contains(exact.skill) && bounded.luckScoreRange.contains(exact.luckScore))
                #expect(bounded.isExact == bounded.turns.allSatisfy(\.isExact))
                leftToBounds += budgeted.valuesLeftToBounds
            }
        }
        #expect(leftToBounds > 0, "the smallest budgets left no value to bounds: the test proves nothing")
    }

    @Test("An opener that leaves most answers in one part is given as bounds within the budget, not searched for ever")
    func worstOpenerIsBounded() async throws {
        try await offThePool { try worstOpenerWork() }
    }

    func worstOpenerWork() throws {
        // 1,000 answers and 3,000 guesses: FUFFY's all-grey part is most of them, as on the full lists.
        let (answers, others) = lists(seed: 81, answers: 1_000, others: 3_000)
        let fuffy = list.testWord("fuffy")
        let budget = Solver.Budget(steps: 2_000_000, stepsPerValueAfterward: 100_000)
        let solver = Solver(guesses: others + [fuffy], answers: answers, budget: budget)
        let first = try #require(solver.guesses.firstIndex(of: fuffy))
        let answer = try #require(answers.indices.first { solver.pattern(first, $0) == 0 })
        let allGrey = solver.after(solver.start, guess: first, pattern: 0).candidates.count
        #expect(allGrey * 2 > answers.count, "FUFFY keeps \(allGrey) of \(answers.count): pick other lists")
        // The best opener's total as a caller supplies it (the book's, on the full lists): exact bounds will do.
        let opening = Solver.Opening(guess: 0, total: Solver.Total(lower: 2 * answers.count - 1, upper: nil))
        let analysis = try solver.analyse(answer: answer, played: [first, answer], best: opening)
        let turn = analysis.turns[0]
        #expect(!turn.guessed.isExact, "FUFFY's total fitted the budget: make the lists larger")
        let lower = try #require(turn.guessed.lower)
        #expect(lower > 2 * answers.count, "the lower bound adds nothing to 2n − 1: \(lower)")
        // The exact search stopped within its steps; the bounds' look-aheads come on top, a colour a guess and
        // candidate each at most, for each guess that can still be played.
        let lookAheads = 3 * analysis.turns.count * solver.maximumGuesses * solver.guesses.count * answers.count
        #expect(solver.steps <= budget.ceiling(maximumGuesses: 6) + lookAheads, "\(solver.steps) steps")
        #expect(analysis.skillRange.lowerBound < analysis.skillRange.upperBound)
        // What is written for people and kept as JSON says bounds, and reads back the same.
        let report = AnalysisReport(analysis, answer: answers[answer], list: list, path: [fuffy, answers[answer]])
        let json = try report.json()
        #expect(json.contains("\"bounds\""))
        #expect(try JSONDecoder().decode(AnalysisReport.self, from: Data(json.utf8)) == report)
        #expect(report.turns[0].inaccuracy == nil && report.turns[0].bounds?.inaccuracy?.atLeast != nil)
    }

    @Test("The memo is emptied before it passes its ceiling, and the values stay exact")
    func memoCeiling() async throws {
        try await offThePool {
            let (answers, others) = lists(seed: 91, answers: 300, others: 600)
            let unlimited = Solver(guesses: others, answers: answers)
            let expected = unlimited.optimal(unlimited.start)
            let ceiling = unlimited.memoBytes / 4
            let small = Solver(
                guesses: others, answers: answers,
                budget: Solver.Budget(steps: .max, stepsPerValueAfterward: .max, memoBytes: ceiling))
            #expect(unlimited.memoBytes > 10_000, "the search remembered too little to test a ceiling")
            #expect(small.optimal(small.start)?.total == expected?.total)
            #expect(small.memoBytes <= ceiling)
        }
    }

    @Test("Old stored analyses, without bounds, read back as exact")
    func oldJSONIsExact() throws {
        let json = """
            {"answer":"cigar","botPath":["salet","cigar"],"hard":false,"luckScore":61,"skill":99,\
            "totalInaccuracy":0,"totalLuck":0.5,"turns":[{"best":"salet","candidatesAfter":1,"candidatesBefore":2315,\
            "givesUpSureWin":false,"guess":"salet","inaccuracy":0,"luck":0.5,"pattern":"ggggg"}]}
            """
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(json.utf8))
        #expect(report.isExact && report.turns[0].bounds == nil && report.botPathIsOptimal == nil)
    }
}
