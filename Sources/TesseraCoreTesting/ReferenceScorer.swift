public import TesseraCore

/// The straightforward two-pass scorer, written for obviousness rather than speed: the oracle the fast
/// scorer is tested against and the baseline the benchmark prints beside it.
public enum ReferenceScorer {
    /// Scores letter codes: greens first, then yellows use up the answer's remaining letters left to right.
    public static func states(guess: [UInt8], answer: [UInt8]) -> [LetterState] {
        precondition(guess.count == answer.count)
        var states = Array(repeating: LetterState.absent, count: guess.count)
        var unmatched = Array(repeating: 0, count: 32)
        for position in guess.indices {
            if guess[position] == answer[position] {
                states[position] = .correct
            } else {
                unmatched[Int(answer[position])] += 1
            }
        }
        for position in guess.indices where states[position] != .correct {
            if unmatched[Int(guess[position])] > 0 {
                states[position] = .present
                unmatched[Int(guess[position])] -= 1
            }
        }
        return states
    }

    /// Scores two words.
    public static func feedback(guess: Word, answer: Word) -> Feedback {
        Feedback(states(guess: guess.codes, answer: answer.codes))
    }
}
