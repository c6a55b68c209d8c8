/// One version of a language's answer list, in effect from a puzzle number on.
///
/// A word list never changes the answer of a puzzle somebody may already have played: a changed list is a
/// new edition that takes effect from a later puzzle, and earlier puzzles keep the edition they had.
public struct AnswerEdition: Sendable, Hashable {
    /// The first puzzle this edition answers; the first edition also answers every puzzle before it.
    public let firstPuzzle: PuzzleNumber
    /// The possible answers, in a fixed order.
    public let answers: [Word]

    public init(firstPuzzle: PuzzleNumber, answers: [Word]) {
        precondition(!answers.isEmpty, "an answer edition needs answers")
        self.firstPuzzle = firstPuzzle
        self.answers = answers
    }
}
