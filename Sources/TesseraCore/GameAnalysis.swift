import Foundation

/// How a game was played, measured against optimal play (issue 26; the definitions are in docs/analysis.md).
///
/// Every value comes from exact totals (``Solver``): the guesses a position needs over all its candidates.
/// nil stands for infinite, or for a difference of two infinite values: no strategy is sure to win in time.
public struct GameAnalysis: Sendable, Hashable {
    /// The most words left after a guess that an analysis lists by name, as WordleBot does; more are counted.
    public static let listedLeft = 12

    public struct Turn: Sendable, Hashable {
        public var guess: Word
        public var feedback: Feedback
        /// Candidates consistent with the clues before this guess, and after its colours (1 once solved).
        public var candidatesBefore: Int
        public var candidatesAfter: Int
        /// An optimal guess here; nil when no strategy is sure to win in time, or the budget did not find one.
        public var best: Word?
        /// The total of the position under optimal play (V × candidates before).
        public var optimal: Solver.Total
        /// The total when the player's guess is played and optimal play follows (E × candidates before).
        public var guessed: Solver.Total
        /// The total of the position the colours left (V × candidates after); 0 once solved.
        public var after: Solver.Total
        /// The candidates the colours left, when at most ``GameAnalysis/listedLeft``: what a player learns from.
        public var left: [Word]?

        public init(
            guess: Word, feedback: Feedback, candidatesBefore: Int, candidatesAfter: Int, best: Word?,
            optimal: Solver.Total, guessed: Solver.Total, after: Solver.Total
        ) {
            self.guess = guess
            self.feedback = feedback
            self.candidatesBefore = candidatesBefore
            self.candidatesAfter = candidatesAfter
            self.best = best
            self.optimal = optimal
            self.guessed = guessed
            self.after = after
        }

        /// A turn whose values are all exact (nil: infinite).
        public init(
            guess: Word, feedback: Feedback, candidatesBefore: Int, candidatesAfter: Int, best: Word?,
            optimalTotal: Int?, guessTotal: Int?, afterTotal: Int?
        ) {
            self.init(
                guess: guess, feedback: feedback, candidatesBefore: candidatesBefore, candidatesAfter: candidatesAfter,
                best: best, optimal: .exactly(optimalTotal), guessed: .exactly(guessTotal), after: .exactly(afterTotal))
        }

        /// Whether every value of the turn is exact: the budget settled them.
        public var isExact: Bool { optimal.isExact && guessed.isExact && after.isExact }

        /// V: the guesses still needed on average under optimal play, this one included; nil unless exact and
        /// finite.
        public var optimalValue: Double? { optimal.exact?.map { Double($0) / Double(candidatesBefore) } }
        /// E: the guesses needed on average after playing this guess; nil unless exact and finite.
        public var guessValue: Double? { guessed.exact?.map { Double($0) / Double(candidatesBefore) } }

        /// E − V, in guesses: 0 for an optimal guess; nil when E or V is infinite, or only bounds are known.
        public var inaccuracy: Double? {
            guard isExact else { return nil }
            return inaccuracyRange.flatMap { $0.exact }
        }

        /// E − V as far as it is known: exact when the values are; nil when V is infinite (nothing to lose). An
        /// upper end of nil: the guess may have given up a sure win.
        public var inaccuracyRange: Measure? {
            if optimal.isInfinite { return nil }
            let count = Double(candidatesBefore)
            guard let guessedLower = guessed.lower else {
                // E infinite: a sure win given up, if there was one.
                return Measure(lower: optimal.isFinite ? .infinity : 0, upper: .infinity)
            }
            let lower = max(0, Double(guessedLower - (optimal.upper ?? Int.max)) / count)
            let upper = guessed.upper.map { Double($0 - (optimal.lower ?? 0)) / count } ?? .infinity
            return Measure(lower: lower, upper: max(lower, upper))
        }

        /// Whether this guess gave up a sure win within the limit: V finite, E infinite.
        public var losesTheGuarantee: Bool { optimal.isFinite && guessed.isInfinite }

        /// (E − 1) − V(after), in guesses: positive when the colours left fewer guesses to go than expected; nil
        /// when infinite or undefined, or only bounds are known.
        public var luck: Double? {
            guard isExact else { return nil }
            return luckRange.flatMap { $0.exact }
        }

        /// Luck as far as it is known; nil when E or V(after) is infinite.
        public var luckRange: Measure? {
            if guessed.isInfinite || after.isInfinite { return nil }
            let count = Double(candidatesBefore)
            let remaining = Double(candidatesAfter)
            func expected(_ total: Int?) -> Double { total.map { Double($0 - candidatesBefore) / count } ?? .infinity }
            func left(_ total: Int?) -> Double {
                feedback.isSolved ? 0 : total.map { Double($0) / remaining } ?? .infinity
            }
            return Measure(
                lower: expected(guessed.lower) - left(after.upper), upper: expected(guessed.upper) - left(after.lower))
        }
    }

    /// A value known exactly or between two bounds; an end may be infinite.
    public struct Measure: Sendable, Hashable {
        public var lower: Double
        public var upper: Double

        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }

        public static func exactly(_ value: Double) -> Measure { Measure(lower: value, upper: value) }

        /// The value when both ends meet and it is finite.
        public var exact: Double? { lower == upper && lower.isFinite ? lower : nil }

        static func + (a: Measure, b: Measure) -> Measure {
            Measure(lower: a.lower + b.lower, upper: a.upper + b.upper)
        }
    }

    public var turns: [Turn]
    public var hardMode: Bool
    public var won: Bool { turns.last?.feedback.isSolved ?? false }

    public init(turns: [Turn], hardMode: Bool) {
        self.turns = turns
        self.hardMode = hardMode
    }

    /// Whether every value is exact: the budget settled the whole game.
    public var isExact: Bool { turns.allSatisfy(\.isExact) }

    /// The sum of the turns' inaccuracies; nil when one is infinite, or only bounds are known.
    public var totalInaccuracy: Double? {
        turns.reduce(0 as Double?) { sum, turn in sum.flatMap { sum in turn.inaccuracy.map { sum + $0 } } }
    }

    /// The sum of the turns' luck; nil when one is infinite, or only bounds are known.
    public var totalLuck: Double? {
        turns.reduce(0 as Double?) { sum, turn in sum.flatMap { sum in turn.luck.map { sum + $0 } } }
    }

    /// Skill for people, 0–99: 99 exactly when every guess was optimal, and 99 / (1 + inaccuracy) below,
    /// rounded down and at most 98: a tenth of a guess lost over the game scores 89, a whole guess 49, two 33.
    /// It falls gently, so a game won in five after a few loose guesses reads as fair, not as a failure. A
    /// guess that gives up a sure win in six counts as one guess of inaccuracy; a turn whose inaccuracy is
    /// undefined (no sure win was left to lose) counts as none.
    public var skill: Int { skillRange.lowerBound }

    /// Skill as far as the values are known: one number when they are exact, else the scores of the most and
    /// the least inaccuracy the bounds allow.
    public var skillRange: ClosedRange<Int> {
        var inaccuracy = Measure.exactly(0)
        for turn in turns {
            guard let range = turn.inaccuracyRange else { continue }
            // Giving up a sure win counts as one guess.
            inaccuracy =
                inaccuracy
                + Measure(lower: range.lower.isFinite ? range.lower : 1, upper: range.upper.isFinite ? range.upper : 1)
        }
        return Self.skill(inaccuracy.upper)...Self.skill(inaccuracy.lower)
    }

    private static func skill(_ inaccuracy: Double) -> Int {
        if inaccuracy <= 0 { return 99 }
        return min(98, max(0, Int(bounded: (99 / (1 + inaccuracy)).rounded(.down))))
    }

    /// Luck for people, 0–99: 50 when the colours were as expected overall, 50 + 49 · tanh(luck) otherwise,
    /// rounded. Turns whose luck is infinite or undefined (a position with no sure win) count as 0.
    public var luckScore: Int { luckScoreRange.lowerBound }

    /// The luck score as far as the values are known.
    public var luckScoreRange: ClosedRange<Int> {
        let luck = turns.reduce(Measure.exactly(0)) { $0 + ($1.luckRange ?? .exactly(0)) }
        return Self.luckScore(luck.lower)...Self.luckScore(luck.upper)
    }

    private static func luckScore(_ luck: Double) -> Int {
        min(99, max(0, Int(bounded: (50 + 49 * Foundation.tanh(luck)).rounded())))
    }
}
