/// A result pasted from one of the original publisher's other daily puzzles that groups play beside Wordle:
/// Connections, Strands and the Mini crossword.
///
/// Read from the share texts the games write, and the ways people paste them: with or without the game's name
/// line, link or theme, squares with or without U+FE0F, spaces between them, lines broken by a chat app, text
/// before and after. A text whose grid contradicts the game (a Connections row of three, two spangrams in
/// Strands) is not a result.
public struct PuzzleShare: Sendable, Hashable {
    public enum Game: String, Sendable, Hashable, CaseIterable {
        case connections
        case strands
        case mini

        /// How the game numbers its days; the Mini is dated, and numbered here as Wordle numbers its dates.
        public var schedule: DailySchedule {
            switch self {
            case .connections: .connections
            case .strands: .strands
            case .mini: .wordle
            }
        }
    }

    /// How the game went, in the terms its players compare.
    public enum Outcome: Sendable, Hashable {
        /// Connections: the wrong guesses (0–4), and whether all four groups were found (four mistakes end it).
        case connections(mistakes: Int, solved: Bool)
        /// Strands: the hints used.
        case strands(hints: Int)
        /// The Mini: the solving time.
        case mini(seconds: Int)
    }

    /// Which day's puzzle: Connections and Strands number theirs, the Mini is dated.
    public enum Day: Sendable, Hashable {
        case numbered(Int)
        case dated(CivilDate)
    }

    public let game: Game
    public let day: Day
    public let outcome: Outcome

    /// What the players compare, fewer being better: Connections' mistakes (nil when not solved), Strands'
    /// hints, the Mini's seconds.
    public var measure: Int? {
        switch outcome {
        case .connections(let mistakes, let solved): solved ? mistakes : nil
        case .strands(let hints): hints
        case .mini(let seconds): seconds
        }
    }

    /// The puzzle on its game's numbering: Connections' and Strands' own; the Mini's date on ``Game/schedule``.
    public var puzzle: PuzzleNumber {
        switch day {
        case .numbered(let number): PuzzleNumber(number)
        case .dated(let date): game.schedule.puzzle(on: date)
        }
    }

    public init(game: Game, day: Day, outcome: Outcome) {
        self.game = game
        self.day = day
        self.outcome = outcome
    }

    /// Lines read, at most, and the longest line looked at: share texts are short, and a message of any size
    /// is read in bounded time.
    static let linesRead = 60
    static let lineLength = 400

    /// The first result of Connections, Strands or the Mini in a message; nil when there is none.
    public init?(parsing text: String) {
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            .prefix(Self.linesRead)
            .map { Self.cleaned($0.prefix(Self.lineLength)) }
            .filter { !$0.isEmpty }
        guard
            let share = Self.connections(in: lines) ?? Self.strands(in: lines) ?? Self.mini(in: lines)
        else { return nil }
        self = share
    }

    /// A line without the marks that vary between apps: U+FE0F and U+200D, and whitespace at its ends.
    private static func cleaned(_ line: Substring) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in line.unicodeScalars where scalar != "\u{FE0F}" && scalar != "\u{200D}" {
            scalars.append(scalar.properties.isWhitespace ? " " : scalar)
        }
        return String(scalars).trimmingSpaces
    }

    // MARK: - Numbers

    /// `#1,234`, `#970`, `# 970`, `970` after a game's name: the digits, with thousands separated by `,` or `.`.
    static func puzzleNumber(_ text: Substring) -> Int? {
        var rest = text.drop { $0 == " " }
        if rest.first == "#" { rest = rest.dropFirst().drop { $0 == " " } }
        let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }
        guard rest.dropFirst(digits.count).allSatisfy({ $0 == " " }), let first = digits.first, first.isNumber,
            digits.last?.isNumber == true, digits.count <= 9
        else { return nil }
        let groups = digits.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "." })
        guard groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        return Int(groups.joined())
    }
}

extension String {
    /// Without spaces at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
