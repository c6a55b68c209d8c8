public import Foundation
public import TesseraCore

/// A group's boards: the puzzle played with the bot, the original Wordle's puzzles from results pasted from its
/// app, and the publisher's other daily puzzles that groups paste beside it. They never mix: their numbers count
/// different days' puzzles. On the other puzzles' boards, a result's ``BoardResult/guesses`` is the game's own
/// measure, fewer being better (``PuzzleShare/measure``): they keep each day's results, not period totals.
public enum BoardKind: String, Sendable, Hashable, CaseIterable {
    case tessera
    case official
    case connections
    case strands
    case mini

    /// The board of another puzzle's pasted results.
    init(_ game: PuzzleShare.Game) {
        switch game {
        case .connections: self = .connections
        case .strands: self = .strands
        case .mini: self = .mini
        }
    }

    /// The other puzzle whose pasted results the board keeps; nil for Tessera's and Wordle's.
    var otherPuzzle: PuzzleShare.Game? {
        switch self {
        case .tessera, .official: nil
        case .connections: .connections
        case .strands: .strands
        case .mini: .mini
        }
    }

    /// Whether the board lists only the members of the group's board: Tessera's, and Wordle's pasted results,
    /// whose authors join it. The other puzzles' boards list anyone's pasted result: pasting Connections says
    /// nothing about playing Tessera, so it never makes a member (``Pastes``).
    public var isMembersOnly: Bool { otherPuzzle == nil }

    /// The numbering of the board's puzzles.
    func schedule(_ configured: DailySchedule) -> DailySchedule {
        switch self {
        case .tessera: configured
        case .official: .wordle
        case .connections, .strands, .mini: otherPuzzle?.schedule ?? .wordle
        }
    }
}

/// One day of a board: the board, and its puzzle of the day.
public struct BoardDay: Sendable, Hashable {
    public var board: BoardKind
    public var puzzle: PuzzleNumber

    public init(_ board: BoardKind, _ puzzle: PuzzleNumber) {
        self.board = board
        self.puzzle = puzzle
    }
}

/// A board day's first results, best first, and how many it has (``GameStoreTransaction/firstResults(in:of:limit:)``).
public struct FirstResults: Sendable {
    public var results: [(name: String, result: BoardResult)]
    public var count: Int

    public init(results: [(name: String, result: BoardResult)], count: Int) {
        self.results = results
        self.count = count
    }
}

/// One player's result of one puzzle as counted on one group's board. Stored once and never replaced.
public struct BoardResult: Sendable, Hashable {
    public let chat: ChatID
    public let board: BoardKind
    public let puzzle: PuzzleNumber
    public let player: UserID
    public let language: Language
    /// Guesses used by a win; nil for a loss.
    public let guesses: Int?
    public let hardMode: Bool
    /// When the game was finished; for a pasted result, when it was posted.
    public let finishedAt: Date
    /// The player's winning streak on this board before this result: set by the engine as it counts it
    /// (``BotEngine/count(_:periods:store:)``).
    public internal(set) var streakBefore: Int

    public init(
        chat: ChatID, board: BoardKind = .tessera, puzzle: PuzzleNumber, player: UserID, language: Language,
        guesses: Int?, hardMode: Bool, finishedAt: Date, streakBefore: Int = 0
    ) {
        self.chat = chat
        self.board = board
        self.puzzle = puzzle
        self.player = player
        self.language = language
        self.guesses = guesses.map(Int.boundedCount)
        self.hardMode = hardMode
        self.finishedAt = finishedAt
        self.streakBefore = .boundedCount(streakBefore)
    }

    /// The points rule of the longer boards: a win in n guesses earns 7 − n (6 for one guess, 1 for six), a
    /// hard-mode win one more; a loss or a missed day earns nothing.
    public var points: Int {
        guard let guesses else { return 0 }
        return max(0, 7 - guesses) + (hardMode ? 1 : 0)
    }

    /// The streak after this result: one more for a win on the day after the last counted one.
    public var streakAfter: Int { guesses == nil ? 0 : streakBefore + 1 }
}

/// A member's totals on one board over one period (a key of ``BoardPeriod``): computed by the engine
/// (``counting(_:streak:)``), kept by the store, so that every store agrees.
public struct BoardTotals: Sendable, Hashable {
    public var points = 0
    public var played = 0
    public var wins = 0
    /// Guesses summed over wins, for the average.
    public var winningGuesses = 0
    /// Consecutive wins up to ``lastPuzzle``.
    public var streak = 0
    /// The latest puzzle counted.
    public var lastPuzzle: PuzzleNumber?

    public init(
        points: Int = 0, played: Int = 0, wins: Int = 0, winningGuesses: Int = 0, streak: Int = 0,
        lastPuzzle: PuzzleNumber? = nil
    ) {
        // Stores hand these back: each within 0…largestCount, so that counting one more result cannot overflow.
        self.points = .boundedCount(points)
        self.played = .boundedCount(played)
        self.wins = .boundedCount(wins)
        self.winningGuesses = .boundedCount(winningGuesses)
        self.streak = .boundedCount(streak)
        self.lastPuzzle = lastPuzzle
    }

    /// The totals with one more result: its points, game, win and guesses added, and `streak`, the member's
    /// streak up to the latest puzzle they now have (``Streak``).
    public func counting(_ result: BoardResult, streak: Int) -> BoardTotals {
        var totals = self
        totals.points += result.points
        totals.played += 1
        if let guesses = result.guesses {
            totals.wins += 1
            totals.winningGuesses += guesses
        }
        totals.streak = streak
        totals.lastPuzzle = max(lastPuzzle ?? result.puzzle, result.puzzle)
        return totals
    }
}

/// What a member did over some days of a board, beyond their totals: the days they had the best result
/// (a win in the fewest guesses; ties share the crown), and the longest winning streak they reached in them
/// (counting wins before the first day, as the board does).
public struct BoardRecord: Sendable, Hashable {
    public var crowns: Int
    public var bestStreak: Int

    public init(crowns: Int, bestStreak: Int) {
        self.crowns = crowns
        self.bestStreak = bestStreak
    }
}

/// Winning streaks on a board: consecutive puzzles won, each the day after the last.
public enum Streak {
    /// The streak up to `puzzle` from a member's results, newest first: wins on consecutive puzzles ending at
    /// `puzzle`, or 0 when it was lost or not played.
    public static func through(_ puzzle: PuzzleNumber, outcomes: [(puzzle: PuzzleNumber, won: Bool)]) -> Int {
        var expected = puzzle.rawValue
        var streak = 0
        for outcome in outcomes where outcome.puzzle.rawValue <= expected {
            guard outcome.puzzle.rawValue == expected, outcome.won else { break }
            streak += 1
            expected -= 1
        }
        return streak
    }
}

/// The time a leaderboard covers.
public enum BoardPeriod: String, Sendable, CaseIterable {
    /// `yesterday` is the last day that closed: a day's board, like `today`'s.
    case today, yesterday, week, month, all

    /// The totals a result adds to: its week (from Monday), its month, and all time.
    public static func keys(of puzzle: PuzzleNumber, schedule: DailySchedule) -> [PeriodKey] {
        [BoardPeriod.week, .month, .all].map { $0.key(containing: puzzle, schedule: schedule) }
    }

    /// The stored key of the week, month or all time containing a puzzle.
    public func key(containing puzzle: PuzzleNumber, schedule: DailySchedule) -> PeriodKey {
        let day = schedule.day(of: puzzle)
        switch self {
        case .today, .yesterday: return PeriodKey(rawValue: "day:\(day)")
        case .week: return PeriodKey(rawValue: "week:\(day.adding(days: -Self.daysSinceMonday(day)))")
        case .month: return PeriodKey(rawValue: "month:\(String(day.description.prefix(7)))")
        case .all: return .all
        }
    }

    /// The first puzzle of the period containing `puzzle` (for counting missed days).
    func firstPuzzle(containing puzzle: PuzzleNumber, schedule: DailySchedule) -> PuzzleNumber {
        let day = schedule.day(of: puzzle)
        switch self {
        case .today, .yesterday: return puzzle
        case .week: return PuzzleNumber(puzzle.rawValue - Self.daysSinceMonday(day))
        case .month: return PuzzleNumber(puzzle.rawValue - day.day + 1)
        case .all: return PuzzleNumber(1)
        }
    }

    private static func daysSinceMonday(_ day: CivilDate) -> Int {
        // 1970-01-01 was a Thursday.
        ((day.daysSinceUnixEpoch + 3) % 7 + 7) % 7
    }
}

/// The stored key of a board's totals over one period: a day (`day:2026-11-25`), the week from a Monday
/// (`week:2026-11-23`), a month (`month:2026-11`) or all time (`all`). The engine makes them
/// (``BoardPeriod/key(containing:schedule:)``); a store keeps the ``rawValue`` and compares nothing else.
public struct PeriodKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let all = PeriodKey(rawValue: "all")

    public var description: String { rawValue }
}

/// A member's totals on a board over a period, with their streak on the board.
public struct Standing: Sendable, Hashable {
    public let player: UserID
    public var name: String
    public var points: Int
    public var played: Int
    public var wins: Int
    /// Guesses summed over wins, for the average.
    public var winningGuesses: Int
    /// Consecutive wins up to ``lastPuzzle``.
    public var streak: Int
    public var lastPuzzle: PuzzleNumber?
    /// The group's puzzle when the member joined its board; 0 for who left it.
    public var joinedPuzzle: PuzzleNumber
    /// False for a player who left the board (`/leave`) after playing in the period: the days they played stay
    /// in its history (only `/forgetme` erases them), and nothing after is asked of them.
    public var isMember: Bool

    public init(
        player: UserID, name: String, points: Int, played: Int, wins: Int, winningGuesses: Int, streak: Int,
        lastPuzzle: PuzzleNumber?, joinedPuzzle: PuzzleNumber, isMember: Bool = true
    ) {
        self.player = player
        self.name = name
        // Stores hand these back: each within 0…largestCount, so that counting one more result cannot overflow.
        self.points = .boundedCount(points)
        self.played = .boundedCount(played)
        self.wins = .boundedCount(wins)
        self.winningGuesses = .boundedCount(winningGuesses)
        self.streak = .boundedCount(streak)
        self.lastPuzzle = lastPuzzle
        self.joinedPuzzle = joinedPuzzle
        self.isMember = isMember
    }

    public var winPercentage: Int { played == 0 ? 0 : Int(bounded: (Double(wins) * 100 / Double(played)).rounded()) }
    public var averageGuesses: Double? { wins == 0 ? nil : Double(winningGuesses) / Double(wins) }

    /// The streak as it stands once every member's day up to `over` is over: broken by a day up to it without
    /// a result, and never by a day a member may still be playing on their own.
    public func currentStreak(over: PuzzleNumber) -> Int {
        guard let lastPuzzle, lastPuzzle >= over else { return 0 }
        return streak
    }

    /// Days of the period since the member joined, up to `over` (the last day no member can still play), that
    /// have no result of theirs; `playedAfter` is how many of their results in the period are of later days. A
    /// day is missed only once it is over, and then stays so: no result of it can count any more.
    func missedDays(from first: PuzzleNumber, over: PuzzleNumber, playedAfter: Int) -> Int {
        let start = max(first.rawValue, joinedPuzzle.rawValue)
        let overDays = max(0, over.rawValue - start + 1)
        return max(0, overDays - (played - playedAfter))
    }
}

/// A member of a board on one day, for the day's summary: their own day, their result of it, if any, and their
/// all-time streak.
public struct DayMember: Sendable, Hashable {
    public let player: UserID
    public let name: String
    /// The group's puzzle when the member joined its board.
    public let joinedPuzzle: PuzzleNumber
    /// The member's day: their zone and rollover hour, and a zone change still pending.
    public let day: MemberDay
    public let result: BoardResult?
    /// Consecutive wins up to ``lastPuzzle``, on the all-time board.
    public let streak: Int
    public let lastPuzzle: PuzzleNumber?

    public init(
        player: UserID, name: String, joinedPuzzle: PuzzleNumber, day: MemberDay, result: BoardResult?, streak: Int,
        lastPuzzle: PuzzleNumber?
    ) {
        self.player = player
        self.name = name
        self.joinedPuzzle = joinedPuzzle
        self.day = day
        self.result = result
        self.streak = .boundedCount(streak)
        self.lastPuzzle = lastPuzzle
    }
}

/// How the all-time board ranks: by average points per game, shrunk towards a prior as if every member had
/// also played ``priorGames`` games worth ``priorPoints`` (a win in four). One lucky game cannot top it: a single
/// 6-point game scores (6 + 10 × 3) / 11 ≈ 3.3, below five wins in three, (5 × 4 + 30) / 15 ≈ 3.33; the more
/// games a member plays, the closer the score comes to their own average. A day missed since joining counts
/// as a game worth nothing, as on the week and month boards, so skipping the hard days does not pay.
public enum AllTimeRanking {
    public static let priorGames = 10.0
    public static let priorPoints = 3.0

    static func score(_ standing: Standing, over: PuzzleNumber, playedAfter: Int) -> Double {
        let missed = standing.missedDays(from: standing.joinedPuzzle, over: over, playedAfter: playedAfter)
        let days = Double(standing.played + missed)
        return (Double(standing.points) + priorGames * priorPoints) / (days + priorGames)
    }
}

extension DailySchedule {
    /// The original game's puzzle of the same date as this schedule's `puzzle`.
    func officialPuzzle(sameDayAs puzzle: PuzzleNumber) -> PuzzleNumber {
        DailySchedule.wordle.puzzle(on: day(of: puzzle))
    }
}
