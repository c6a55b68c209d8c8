/// One player's round against one answer: guesses, their colours, and the hard-mode rule.
public struct Game: Sendable {
    /// A scored guess: one row of the board.
    public struct Row: Sendable, Hashable {
        public let word: Word
        public let feedback: Feedback
    }

    public enum Status: Sendable, Hashable {
        case new
        case inProgress
        case won
        case lost

        public var isFinished: Bool { self == .won || self == .lost }
    }

    /// The original game's rules.
    public static let defaultMaximumGuesses = 6

    public let wordList: WordList
    public let answer: Word
    public let maximumGuesses: Int
    public private(set) var rows: [Row] = []
    /// Whether every guess must use the hints revealed so far.
    public internal(set) var isHardMode: Bool

    public init(
        answer: Word,
        wordList: WordList,
        maximumGuesses: Int = Game.defaultMaximumGuesses,
        hardMode: Bool = false
    ) {
        precondition(answer.count == wordList.wordLength, "the answer must be a word of the list")
        precondition(maximumGuesses > 0, "a game needs at least one try")
        self.answer = answer
        self.wordList = wordList
        self.maximumGuesses = maximumGuesses
        self.isHardMode = hardMode
    }

    public var status: Status {
        if rows.last?.feedback.isSolved == true { return .won }
        if rows.count >= maximumGuesses { return .lost }
        return rows.isEmpty ? .new : .inProgress
    }

    /// The result to record once the game is over.
    public var result: GameResult? {
        switch status {
        case .won: .won(guesses: rows.count)
        case .lost: .lost
        case .new, .inProgress: nil
        }
    }

    /// Plays typed text as the next guess, or says why it is not one.
    @discardableResult
    public mutating func submit(_ text: some StringProtocol) -> Result<Row, GuessRejection> {
        guard !status.isFinished else { return .failure(.gameIsOver) }
        // The list is checked by submit(word), which also accepts the puzzle's own answer.
        switch wordList.word(from: text) {
        case .success(let word): return submit(word)
        case .failure(let rejection): return .failure(rejection)
        }
    }

    /// Plays a word as the next guess, or says why it is not one.
    @discardableResult
    public mutating func submit(_ word: Word) -> Result<Row, GuessRejection> {
        guard !status.isFinished else { return .failure(.gameIsOver) }
        guard word.count == wordList.wordLength else {
            return .failure(word.count < wordList.wordLength ? .notEnoughLetters : .tooManyLetters)
        }
        // A puzzle's own answer is always a word, even one an earlier answer edition had and the list now lacks.
        guard word == answer || wordList.isAllowed(word) else { return .failure(.notInWordList) }
        if isHardMode, let violation = hardModeViolation(of: word) { return .failure(violation) }
        let row = Row(word: word, feedback: Feedback(guess: word, answer: answer))
        rows.append(row)
        return .success(row)
    }

    /// Puts back a guess that was accepted earlier, without the checks that may have changed since (a word
    /// list regenerated without the word, hard mode switched). Only its length must fit.
    public mutating func restore(_ word: Word) {
        precondition(word.count == wordList.wordLength, "a restored guess must have the list's length")
        guard !status.isFinished else { return }
        rows.append(Row(word: word, feedback: Feedback(guess: word, answer: answer)))
    }

    /// The best state each letter has shown so far.
    public var keyboard: KeyboardSummary {
        KeyboardSummary(rows: rows)
    }
}

/// How a finished game ended.
public enum GameResult: Sendable, Hashable, Codable {
    case won(guesses: Int)
    case lost

    public var guesses: Int? {
        if case .won(let guesses) = self { guesses } else { nil }
    }

    /// The original game's word for a win: Genius for one guess … Phew for six (and beyond); none for a loss.
    public var praise: String? {
        let words = ["Genius", "Magnificent", "Impressive", "Splendid", "Great", "Phew"]
        return guesses.map { words[min(max($0, 1), words.count) - 1] }
    }
}
