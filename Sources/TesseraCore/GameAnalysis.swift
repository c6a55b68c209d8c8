import Foundation

/// How a game was played, measured against optimal play (issue 26; the definitions are in the README).
///
/// Every value comes from exact totals (``Solver``): the guesses a position needs over all its candidates.
/// nil stands for infinite, or for a difference of two infinite values: no strategy is sure to win in time.
public struct GameAnalysis: Sendable, Hashable {
    public struct Turn: Sendable, Hashable {
        public var guess: Word
        public var feedback: Feedback
        /// Candidates consistent with the clues before this guess, and after its colours (1 once solved).
        public var candidatesBefore: Int
        public var candidatesAfter: Int
        /// An optimal guess here; nil when no strategy is sure to win in time.
        public var best: Word?
        /// The total of the position under optimal play (V × candidates before).
        public var optimalTotal: Int?
        /// The total when the player's guess is played and optimal play follows (E × candidates before).
        public var guessTotal: Int?
        /// The total of the position the colours left (V × candidates after); 0 once solved.
        public var afterTotal: Int?

        public init(
            guess: Word, feedback: Feedback, candidatesBefore: Int, candidatesAfter: Int, best: Word?,
            optimalTotal: Int?, guessTotal: Int?, afterTotal: Int?
        ) {
            self.guess = guess
            self.feedback = feedback
            self.candidatesBefore = candidatesBefore
            self.candidatesAfter = candidatesAfter
            self.best = best
            self.optimalTotal = optimalTotal
            self.guessTotal = guessTotal
            self.afterTotal = afterTotal
        }

        /// V: the guesses still needed on average under optimal play, this one included.
        public var optimalValue: Double? { optimalTotal.map { Double($0) / Double(candidatesBefore) } }
        /// E: the guesses needed on average after playing this guess.
        public var guessValue: Double? { guessTotal.map { Double($0) / Double(candidatesBefore) } }

        /// E − V, in guesses: 0 for an optimal guess; nil when E or V is infinite.
        public var inaccuracy: Double? {
            guard let guessTotal, let optimalTotal else { return nil }
            return Double(guessTotal - optimalTotal) / Double(candidatesBefore)
        }

        /// Whether this guess gave up a sure win within the limit: V finite, E infinite.
        public var losesTheGuarantee: Bool { optimalTotal != nil && guessTotal == nil }

        /// (E − 1) − V(after), in guesses: positive when the colours left fewer guesses to go than expected.
        public var luck: Double? {
            guard let guessTotal, let afterTotal else { return nil }
            let expected = Double(guessTotal - candidatesBefore) / Double(candidatesBefore)
            return expected - (feedback.isSolved ? 0 : Double(afterTotal) / Double(candidatesAfter))
        }
    }

    public var turns: [Turn]
    public var hardMode: Bool
    public var won: Bool { turns.last?.feedback.isSolved ?? false }

    public init(turns: [Turn], hardMode: Bool) {
        self.turns = turns
        self.hardMode = hardMode
    }

    /// The sum of the turns' inaccuracies; nil when one is infinite.
    public var totalInaccuracy: Double? {
        turns.reduce(0 as Double?) { sum, turn in sum.flatMap { sum in turn.inaccuracy.map { sum + $0 } } }
    }

    /// The sum of the turns' luck; nil when one is infinite.
    public var totalLuck: Double? {
        turns.reduce(0 as Double?) { sum, turn in sum.flatMap { sum in turn.luck.map { sum + $0 } } }
    }

    /// Skill for people, 0–99: 99 exactly when every guess was optimal, and 99 · e^(−inaccuracy) below,
    /// rounded down and at most 98. A guess that gives up a sure win in six counts as one guess of
    /// inaccuracy; a turn whose inaccuracy is undefined (no sure win was left to lose) counts as none.
    public var skill: Int {
        var inaccuracy = 0.0
        for turn in turns {
            if let value = turn.inaccuracy {
                inaccuracy += value
            } else if turn.losesTheGuarantee {
                inaccuracy += 1
            }
        }
        if inaccuracy <= 0 { return 99 }
        return min(98, max(0, Int((99 * Foundation.exp(-inaccuracy)).rounded(.down))))
    }

    /// Luck for people, 0–99: 50 when the colours were as expected overall, 50 + 49 · tanh(luck) otherwise,
    /// rounded. Turns whose luck is infinite or undefined (a position with no sure win) count as 0.
    public var luckScore: Int {
        let luck = turns.reduce(0.0) { $0 + ($1.luck ?? 0) }
        return min(99, max(0, Int((50 + 49 * Foundation.tanh(luck)).rounded())))
    }
}
