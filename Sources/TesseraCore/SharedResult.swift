/// The colours of a share text.
public enum ShareTheme: String, Sendable, Hashable, CaseIterable, Codable {
    /// 🟩 🟨 ⬛
    case dark
    /// 🟩 🟨 ⬜
    case light
    /// 🟧 🟦 with ⬛ — for colour-blind players.
    case highContrast = "high-contrast"

    public func square(for state: LetterState) -> Character {
        switch (self, state) {
        case (.highContrast, .correct): "🟧"
        case (.highContrast, .present): "🟦"
        case (_, .correct): "🟩"
        case (_, .present): "🟨"
        case (.light, .absent): "⬜"
        case (_, .absent): "⬛"
        }
    }
}

/// A spoiler-free result: `Tessera 1,234 3/6*`, a blank line, and one row of squares per guess.
///
/// The same type is rendered for sharing and parsed from results pasted from other apps.
public struct SharedResult: Sendable, Hashable {
    /// Which game a result is of: the daily puzzle, or one played outside the daily competition, whose headline
    /// says so (`Tessera Practice 3/6`, `Tessera 312 (archive) 3/6`) so that nobody takes it for a day's result.
    public enum Kind: Sendable, Hashable {
        case daily
        /// A practice game on a random word: it has no puzzle number.
        case practice
        /// A past puzzle played from the archive after its day.
        case archive
    }

    /// The game's name: `Tessera`, `Wordle`.
    public let gameName: String
    public let kind: Kind
    /// The puzzle's number; 0 for a practice game.
    public let puzzle: PuzzleNumber
    public let result: GameResult
    public let maximumGuesses: Int
    /// Whether the whole game was played in hard mode (the `*`).
    public let isHardMode: Bool
    /// The colours of each guess; empty when a pasted result came without its grid.
    public let rows: [Feedback]

    public init(
        gameName: String,
        kind: Kind = .daily,
        puzzle: PuzzleNumber,
        result: GameResult,
        maximumGuesses: Int = Game.defaultMaximumGuesses,
        isHardMode: Bool,
        rows: [Feedback]
    ) {
        self.gameName = gameName
        self.kind = kind
        self.puzzle = kind == .practice ? PuzzleNumber(0) : puzzle
        self.result = result
        self.maximumGuesses = maximumGuesses
        self.isHardMode = isHardMode
        self.rows = rows
    }

    /// The result of a finished game; `nil` while it is still being played.
    public init?(game: Game, kind: Kind = .daily, puzzle: PuzzleNumber, gameName: String) {
        guard let result = game.result else { return nil }
        self.init(
            gameName: gameName,
            kind: kind,
            puzzle: puzzle,
            result: result,
            maximumGuesses: game.maximumGuesses,
            isHardMode: game.isHardMode,
            rows: game.rows.map(\.feedback)
        )
    }

    /// `Tessera 1,234 3/6*`, `Tessera Practice 3/6*`, `Tessera 312 (archive) 3/6*`.
    public var headline: String { headline(numbered: \.grouped) }

    /// The headline with the puzzle's number written as a language writes it (`Wordle 1982 3/6` in Spanish).
    /// The marks of practice and archive games are the same in every language, as the rest of a share text is.
    public func headline(numbered number: (PuzzleNumber) -> String) -> String {
        let score = "\(result.guesses.map(String.init) ?? "X")/\(maximumGuesses)\(isHardMode ? "*" : "")"
        return switch kind {
        case .daily: "\(gameName) \(number(puzzle)) \(score)"
        case .practice: "\(gameName) \(Self.practiceMark) \(score)"
        case .archive: "\(gameName) \(number(puzzle)) \(Self.archiveMark) \(score)"
        }
    }

    /// What stands for the number in a practice game's headline.
    static let practiceMark = "Practice"
    /// What follows the number in an archive game's headline.
    static let archiveMark = "(archive)"

    /// The share text in the original format.
    /// The share text: the headline, then the grid. A game of another language than English is marked after
    /// the headline (`Tessera 320 3/6 · Español`), so one person's two results of a day are told apart; the
    /// parser reads the headline and passes over the mark.
    public func text(theme: ShareTheme = .dark, language: Language = .english) -> String {
        let grid = rows.map { row in String(row.states.map(theme.square(for:))) }
        let mark = language == .english ? "" : " · \(language.name)"
        return ([headline + mark, ""] + grid).joined(separator: "\n")
    }
}
