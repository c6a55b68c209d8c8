public import Foundation
public import TesseraCore

/// A game played outside the daily competition: practice on a random word (`/practice`), or a past puzzle from
/// the archive (`/archive 312`).
///
/// Practice games are stored apart from the daily games, so that nothing that reads those (boards, summaries,
/// streaks, reminders, daily statistics) can ever count one.
public struct PracticeGame: Sendable, Hashable, Codable {
    public enum Kind: Sendable, Hashable, Codable {
        /// A random word from the current answers.
        case practice
        /// A past puzzle, with its own answer.
        case archive(PuzzleNumber)
    }

    public let player: UserID
    /// The player's practice games are numbered 1, 2, 3… in the order they were started.
    public let number: Int
    public let kind: Kind
    public let language: Language
    /// The answer, lowercase: drawn once, and kept, so that a restart continues the same game.
    public let answer: String
    public var hardMode: Bool
    /// Accepted guesses, lowercase, in order.
    public var guesses: [String]
    /// Set when the game ends; a game given up for a new one is lost.
    public var result: GameResult?
    public let startedAt: Date
    public var finishedAt: Date?
    /// Given up for a new game before it ended.
    public var abandoned: Bool
    /// Whether this game was touched after the daily puzzle: a word typed in the direct chat goes to it.
    public var hasFocus: Bool

    public init(
        player: UserID,
        number: Int,
        kind: Kind,
        language: Language,
        answer: String,
        hardMode: Bool,
        guesses: [String] = [],
        result: GameResult? = nil,
        startedAt: Date,
        finishedAt: Date? = nil,
        abandoned: Bool = false,
        hasFocus: Bool = true
    ) {
        self.player = player
        self.number = number
        self.kind = kind
        self.language = language
        self.answer = answer
        self.hardMode = hardMode
        self.guesses = guesses
        self.result = result
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.abandoned = abandoned
        self.hasFocus = hasFocus
    }

    /// The archive puzzle played; nil for practice on a random word.
    public var archivePuzzle: PuzzleNumber? {
        if case .archive(let puzzle) = kind { return puzzle }
        return nil
    }

    public var isFinished: Bool { result != nil }
}

/// A player's practice and archive games in one language, counted for `/stats`: never on a board.
public struct PracticeResults: Sendable, Hashable {
    /// Games played to the end, by result.
    public var finished: [GameResult: Int]
    /// Games given up, by starting another, after at least one guess: neither won nor lost.
    public var givenUp: Int

    public init(finished: [GameResult: Int] = [:], givenUp: Int = 0) {
        self.finished = finished
        self.givenUp = givenUp
    }

    public var isEmpty: Bool { finished.isEmpty && givenUp == 0 }
}
