// MARK: - What a search may spend
//
// An exact search's cost depends on the position: a studied opener's parts take a fraction of a second, while an
// opener that leaves most answers in one part (FUFFY keeps 1,405 of 2,315 in its all-grey part) takes CPU-hours.
// So a game's analysis has a budget of steps, counted where the search does its work (each colour looked up),
// which makes it the same on every machine and in every test. A value the budget does not settle is reported as
// exact bounds (``Solver/Total``) from cheap computations (`Solver+Bounds.swift`), never as a guess. The memo
// has a ceiling too: it is only a cache, so it is emptied when full.

extension Solver {
    /// What the analysis of one game may spend.
    public struct Budget: Sendable, Hashable {
        /// Colours looked up for the game's values, all turns together, but for the first guess's total. About
        /// 150 million a second on one core here (docs/analysis.md, "Analyses have a budget").
        public var steps: Int
        /// What the first guess's total may take when neither the opening book nor an earlier game knows it. It
        /// does not depend on the answer, so it is searched once and kept for every later game with that opener:
        /// worth more than one game's values.
        public var firstGuessSteps: Int
        /// What each value still gets once `steps` are spent, so that small endgames stay exact.
        public var stepsPerValueAfterward: Int
        /// The memo's ceiling, estimated in bytes; the tables come on top.
        public var memoBytes: Int

        public init(
            steps: Int, firstGuessSteps: Int? = nil, stepsPerValueAfterward: Int? = nil, memoBytes: Int = 128 << 20
        ) {
            precondition(steps > 0 && memoBytes > 0, "a budget is positive")
            self.steps = steps
            self.firstGuessSteps = max(steps, firstGuessSteps ?? steps)
            self.stepsPerValueAfterward = stepsPerValueAfterward ?? max(1, steps / 64)
            self.memoBytes = memoBytes
        }

        /// No limit: every value exact, however long it takes (`tessera analyse --steps 0`).
        public static let unlimited = Budget(
            steps: .max, firstGuessSteps: .max, stepsPerValueAfterward: .max, memoBytes: .max)

        /// The bot's default: about 7 CPU-seconds for a game's values, 4 minutes for an opener nobody has studied
        /// (once per opener), a 128 MB memo.
        public static let standard = Budget(steps: 1_000_000_000, firstGuessSteps: 36_000_000_000)

        /// This budget with the first guess's total held to a game's steps: for a player past their share of
        /// searches.
        public var withoutFirstGuessSearch: Budget {
            var budget = self
            budget.firstGuessSteps = steps
            return budget
        }

        /// The most steps one game's exact search takes: the first guess's, `steps`, then each of a game's values
        /// (three a turn, and one a step of the bot's path) at most `stepsPerValueAfterward` more. Bounds for the
        /// values left unsettled come on top (`Solver+Bounds.swift`).
        public func ceiling(maximumGuesses: Int) -> Int {
            let (more, overflow) = stepsPerValueAfterward.multipliedReportingOverflow(by: 4 * maximumGuesses)
            let (total, overflowed) = steps.addingReportingOverflow(more)
            let (all, overflowedAgain) = total.addingReportingOverflow(firstGuessSteps)
            return overflow || overflowed || overflowedAgain ? .max : all
        }
    }

    /// A position's total as far as a budget settled it: at least `lower` and at most `upper`, exact when the
    /// two meet. nil stands for infinite: a `lower` of nil means no strategy wins every candidate in time, an
    /// `upper` of nil that none was found to.
    public struct Total: Sendable, Hashable, CustomStringConvertible {
        public var lower: Int?
        public var upper: Int?

        public init(lower: Int?, upper: Int?) {
            precondition(lower != nil || upper == nil, "an infinite lower bound has no finite upper one")
            self.lower = lower
            self.upper = upper.map { max($0, lower ?? $0) }
        }

        public static func exactly(_ total: Int?) -> Total { Total(lower: total, upper: total) }

        public var isExact: Bool { lower == upper }
        /// The total when it is exact (`.some(nil)`: infinite); nil when only bounds are known.
        public var exact: Int?? { isExact ? .some(lower) : nil }
        /// Whether the total is known to be infinite.
        public var isInfinite: Bool { lower == nil }
        /// Whether the total is known to be finite.
        public var isFinite: Bool { upper != nil }

        public var description: String {
            if isExact { return lower.map(String.init) ?? "infinite" }
            return "\(lower.map(String.init) ?? "∞")…\(upper.map(String.init) ?? "∞")"
        }
    }

    var givingUp: Bool { ranOut || stop?.isRequested == true }

    @inline(__always) func spend(_ count: Int) {
        steps &+= count
        stepsLeft &-= count
        if stepsLeft < 0 { ranOut = true }
    }

    /// Runs `work` with `allowance` steps; nil when they ran out, or a stop was requested, before it finished.
    func within<Value>(_ allowance: Int, _ work: () -> Value) -> Value? {
        stepsLeft = allowance
        ranOut = false
        defer {
            stepsLeft = .max
            ranOut = false
        }
        let value = work()
        if givingUp { valuesLeftToBounds += 1 }
        return givingUp ? nil : value
    }

    /// Keeps a position's result in the memo, emptying it first when it would pass the budget's ceiling.
    func remember(_ key: Key, _ entry: Entry) {
        // The key's candidates, the dictionary's slot and the array's header; hard mode's clues are three more arrays.
        let bytes = 2 * key.candidates.count + 96 + (key.clues == nil ? 0 : 160)
        if memoBytes + bytes > budget.memoBytes {
            memo.removeAll()
            memoBytes = 0
        }
        memo[key] = entry
        memoBytes += bytes
    }
}
