extension Solver {
    /// A first guess and its total (nil: infinite), or what a budget settled of it. The start's optimal total
    /// is kept rather than searched for: finding it means evaluating every opener, hours for a full list, so
    /// callers supply a known result.
    public struct Opening: Sendable, Hashable {
        public var guess: Int
        public var total: Total

        public init(guess: Int, total: Total) {
            self.guess = guess
            self.total = total
        }

        public init(guess: Int, total: Int?) { self.init(guess: guess, total: .exactly(total)) }
    }

    /// Why a game cannot be analysed as given.
    public enum AnalysisRejection: Error, Sendable, Hashable, CustomStringConvertible {
        /// More guesses than the game allows.
        case tooManyGuesses(limit: Int)
        /// A guess after the one that found the answer (turn counted from 1).
        case continuesAfterWin(turn: Int)
        /// A guess that breaks hard mode's rule (turn counted from 1).
        case breaksHardMode(turn: Int)
        case noGuesses

        public var description: String {
            switch self {
            case .tooManyGuesses(let limit): "the game allows \(limit) guesses"
            case .continuesAfterWin(let turn): "guess \(turn) comes after the answer was found"
            case .breaksHardMode(let turn): "guess \(turn) breaks hard mode (greens in place, revealed letters used)"
            case .noGuesses: "a game needs at least one guess"
            }
        }
    }

    /// Analyses a game against optimal play: `answer` is an index into ``answers``, `played` indices into
    /// ``guesses``. `best` is the start's optimal opener; `first` the player's first guess's total when it is
    /// already known (it does not depend on the answer), otherwise it is computed. Exact search spends the
    /// solver's ``Budget``; a value it does not settle is given as bounds.
    public func analyse(answer: Int, played: [Int], best: Opening, first: Opening? = nil) throws(AnalysisRejection)
        -> GameAnalysis
    {
        guard !played.isEmpty else { throw .noGuesses }
        guard played.count <= maximumGuesses else { throw .tooManyGuesses(limit: maximumGuesses) }
        var spending = Spending(budget: budget)
        var position = start
        var turns: [GameAnalysis.Turn] = []
        for (index, guess) in played.enumerated() {
            if turns.last?.feedback.isSolved == true { throw .continuesAfterWin(turn: index + 1) }
            guard isAllowed(guess, in: position) else { throw .breaksHardMode(turn: index + 1) }
            let code = pattern(guess, answer)
            let feedback = Feedback(code: code, length: UInt8(tables.wordLength))
            let next = after(position, guess: guess, pattern: code)
            let optimal: (guess: Int?, total: Total)
            if index == 0 {
                optimal = (best.total.isFinite ? best.guess : nil, best.total)
            } else if let found = spending.exactly(self, { self.optimal(position) }) {
                optimal = (found?.guess, .exactly(found?.total))
            } else {
                // Where the bounds meet, the strategy that gave the upper one plays an optimal guess.
                let total = boundedTotal(position)
                optimal = (total.isExact && total.isFinite ? strategyGuess(position) : nil, total)
            }
            let guessed: Total =
                if index == 0, let first, first.guess == guess {
                    first.total
                } else if index == 0 {
                    // Searched once and kept for every later game with this opener: its own allowance.
                    within(budget.firstGuessSteps) { self.total(position, guessing: guess) }.map(Total.exactly)
                        ?? boundedTotal(position, guessing: guess)
                } else {
                    spending.exactly(self) { self.total(position, guessing: guess) }.map(Total.exactly)
                        ?? boundedTotal(position, guessing: guess)
                }
            let after: Total =
                feedback.isSolved
                ? .exactly(0)
                : spending.exactly(self) { self.total(next) }.map(Total.exactly) ?? boundedTotal(next)
            var turn = GameAnalysis.Turn(
                guess: guesses[guess], feedback: feedback, candidatesBefore: position.candidates.count,
                candidatesAfter: next.candidates.count, best: optimal.guess.map { guesses[$0] },
                optimal: optimal.total, guessed: guessed, after: after)
            if next.candidates.count <= GameAnalysis.listedLeft { turn.left = next.candidates.map { answers[$0] } }
            turns.append(turn)
            position = next
        }
        return GameAnalysis(turns: turns, hardMode: hardMode)
    }

    /// The guesses optimal play makes from `position` to `answer`, after `first` (which it plays first), and
    /// whether each was found optimal: a step the budget does not settle is the bounded strategy's guess.
    public func path(from position: Position, to answer: Int, first: Int) -> (guesses: [Int], optimal: Bool) {
        var spending = Spending(budget: budget, spent: budget.steps)
        var position = position
        var guesses = [first]
        var guess = first
        var optimal = true
        while pattern(guess, answer) != UInt16(tables.solvedCode), position.played + 1 < maximumGuesses {
            position = after(position, guess: guess, pattern: pattern(guess, answer))
            let next: Int?
            if let found = spending.exactly(self, { self.optimal(position) }) {
                next = found?.guess
            } else {
                optimal = false
                next = strategyGuess(position)
            }
            guard let next else { break }
            guesses.append(next)
            guess = next
        }
        return (guesses, optimal)
    }

    /// What a game's analysis has spent of the budget: each value gets what is left, and at least
    /// ``Budget/stepsPerValueAfterward``.
    struct Spending {
        let budget: Budget
        var spent = 0

        /// A value searched exactly within what is left; nil when the steps ran out first.
        mutating func exactly<Value>(_ solver: Solver, _ work: () -> Value) -> Value? {
            let allowance = max(budget.steps - spent, budget.stepsPerValueAfterward)
            let before = solver.steps
            // Saturating: a path that spends all it has (an unlimited budget) must not overflow.
            defer { spent += min(budget.steps - spent, solver.steps - before) }
            return solver.within(allowance, work)
        }
    }
}
