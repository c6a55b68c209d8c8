/// One finished game in a player's history.
public struct PlayedGame: Sendable, Hashable, Codable {
    public let puzzle: PuzzleNumber
    public let result: GameResult

    public init(puzzle: PuzzleNumber, result: GameResult) {
        self.puzzle = puzzle
        self.result = result
    }
}

/// A player's statistics, as the original game shows them.
public struct Statistics: Sendable, Hashable {
    public private(set) var played = 0
    public private(set) var wins = 0
    /// Wins over consecutive puzzles up to the latest one played, while no puzzle has been missed since.
    public private(set) var currentStreak = 0
    public private(set) var maxStreak = 0
    /// `guessDistribution[n - 1]` counts the games won in `n` guesses.
    public private(set) var guessDistribution: [Int]
    public private(set) var failures = 0

    /// Computes statistics from a history in any order.
    ///
    /// A streak continues only over consecutive puzzle numbers and a loss ends it. With `today`, a current
    /// streak whose last win is older than yesterday's puzzle has been broken by a missed day. When the
    /// history has two results for one puzzle, the first one counts.
    public init(
        history: some Sequence<PlayedGame>, maximumGuesses: Int = Game.defaultMaximumGuesses, today: PuzzleNumber? = nil
    ) {
        guessDistribution = Array(repeating: 0, count: maximumGuesses)
        var seen = Set<PuzzleNumber>()
        let games = history.filter { seen.insert($0.puzzle).inserted }.sorted { $0.puzzle < $1.puzzle }
        var streak = 0
        var previous: PuzzleNumber?
        for game in games {
            played += 1
            if let guesses = game.result.guesses, (1...maximumGuesses).contains(guesses) {
                wins += 1
                guessDistribution[guesses - 1] += 1
                let continues = previous.map { $0.rawValue + 1 == game.puzzle.rawValue } ?? false
                streak = continues ? streak + 1 : 1
            } else {
                failures += 1
                streak = 0
            }
            maxStreak = max(maxStreak, streak)
            previous = game.puzzle
        }
        let streakIsLive = today.map { today in previous.map { $0.rawValue >= today.rawValue - 1 } ?? false } ?? true
        currentStreak = streakIsLive ? streak : 0
    }

    /// Statistics of games that make no streak (practice): how many ended with each result.
    public init(results: [GameResult: Int], maximumGuesses: Int = Game.defaultMaximumGuesses) {
        guessDistribution = Array(repeating: 0, count: maximumGuesses)
        for (result, count) in results {
            played += count
            if let guesses = result.guesses, (1...maximumGuesses).contains(guesses) {
                wins += count
                guessDistribution[guesses - 1] += count
            } else {
                failures += count
            }
        }
    }

    /// Wins as a whole percentage of games played, rounded as the original does; 0 before any game.
    public var winPercentage: Int {
        played == 0 ? 0 : Int(bounded: (Double(wins) * 100 / Double(played)).rounded())
    }
}

/// Statistics travel as values (a picture queued in the outbox): read back, they must add up as the ones
/// computed from a history do, with no figure beyond ``largestCount``, or they are refused as damaged.
extension Statistics: Codable {
    /// More games than anyone plays in three thousand years of daily puzzles: a larger figure is damage.
    public static let largestCount = 1_000_000
    /// More guesses a game than any variant allows.
    public static let longestDistribution = 32

    private enum CodingKeys: String, CodingKey {
        case played, wins, currentStreak, maxStreak, guessDistribution, failures
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        played = try container.decode(Int.self, forKey: .played)
        wins = try container.decode(Int.self, forKey: .wins)
        currentStreak = try container.decode(Int.self, forKey: .currentStreak)
        maxStreak = try container.decode(Int.self, forKey: .maxStreak)
        guessDistribution = try container.decode([Int].self, forKey: .guessDistribution)
        failures = try container.decode(Int.self, forKey: .failures)
        let figures = [played, wins, currentStreak, maxStreak, failures] + guessDistribution
        guard figures.allSatisfy({ (0...Self.largestCount).contains($0) }),
            (1...Self.longestDistribution).contains(guessDistribution.count),
            guessDistribution.reduce(0, +) == wins, wins + failures == played, currentStreak <= maxStreak,
            maxStreak <= wins
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "statistics that do not add up"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(played, forKey: .played)
        try container.encode(wins, forKey: .wins)
        try container.encode(currentStreak, forKey: .currentStreak)
        try container.encode(maxStreak, forKey: .maxStreak)
        try container.encode(guessDistribution, forKey: .guessDistribution)
        try container.encode(failures, forKey: .failures)
    }
}
