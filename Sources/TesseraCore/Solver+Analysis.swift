extension Solver {
    /// A first guess and its total (nil: infinite). The start's optimal total is kept rather than searched
    /// for: finding it means evaluating every opener, hours for a full list, so callers supply a known result.
    public struct Opening: Sendable, Hashable {
        public var guess: Int
        public var total: Int?

        public init(guess: Int, total: Int?) {
            self.guess = guess
            self.total = total
        }
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
    /// already known (it does not depend on the answer), otherwise it is computed, which can take minutes.
    public func analyse(answer: Int, played: [Int], best: Opening, first: Opening? = nil) throws(AnalysisRejection)
        -> GameAnalysis
    {
        guard !played.isEmpty else { throw .noGuesses }
        guard played.count <= maximumGuesses else { throw .tooManyGuesses(limit: maximumGuesses) }
        var position = start
        var turns: [GameAnalysis.Turn] = []
        for (index, guess) in played.enumerated() {
            if turns.last?.feedback.isSolved == true { throw .continuesAfterWin(turn: index + 1) }
            guard isAllowed(guess, in: position) else { throw .breaksHardMode(turn: index + 1) }
            let code = pattern(guess, answer)
            let feedback = Feedback(code: code, length: UInt8(tables.wordLength))
            let next = after(position, guess: guess, pattern: code)
            let optimal: Opening? =
                index == 0 ? best : self.optimal(position).map { Opening(guess: $0.guess, total: $0.total) }
            let guessTotal = index == 0 && first?.guess == guess ? first?.total : total(position, guessing: guess)
            turns.append(
                GameAnalysis.Turn(
                    guess: guesses[guess], feedback: feedback, candidatesBefore: position.candidates.count,
                    candidatesAfter: next.candidates.count,
                    best: optimal.flatMap { $0.total == nil ? nil : guesses[$0.guess] },
                    optimalTotal: optimal?.total, guessTotal: guessTotal,
                    afterTotal: feedback.isSolved ? 0 : total(next)))
            position = next
        }
        return GameAnalysis(turns: turns, hardMode: hardMode)
    }

    /// The guesses optimal play makes from `position` to `answer`, after `first` (which it plays first).
    public func path(from position: Position, to answer: Int, first: Int) -> [Int] {
        var position = position
        var guesses = [first]
        var guess = first
        while pattern(guess, answer) != UInt16(tables.solvedCode), position.played + 1 < maximumGuesses {
            position = after(position, guess: guess, pattern: pattern(guess, answer))
            guard let (next, _) = optimal(position) else { break }
            guesses.append(next)
            guess = next
        }
        return guesses
    }
}
