public import TesseraCore
public import TesseraEngine

// What a board's scans read of each player (a period's totals, the all-time streak) and the standing they make,
// written once: each dialect scans and matches them its own way (SQLite in player order from its C API,
// PostgreSQL as columns of arrays), and builds every standing and day member here.

/// A player's totals on a board over one period, as a scan of `board_total` reads them.
public struct ScannedTotals: Sendable {
    public var points: Int
    public var played: Int
    public var wins: Int
    public var winningGuesses: Int

    public init(points: Int, played: Int, wins: Int, winningGuesses: Int) {
        (self.points, self.played, self.wins, self.winningGuesses) = (points, played, wins, winningGuesses)
    }

    /// Whether a player who left the board still stands on it over the period: the days they played in it stay
    /// in its history (only `/forgetme` erases them).
    public var keepsPlayerWhoLeft: Bool { played > 0 }
}

/// A player's streak on a board: the all-time row's, that of their latest result.
public struct ScannedStreak: Sendable {
    public var streak: Int
    public var lastPuzzle: PuzzleNumber

    public init(streak: Int, lastPuzzle: PuzzleNumber) { (self.streak, self.lastPuzzle) = (streak, lastPuzzle) }
}

extension Standing {
    /// A member's standing: the period's totals, zero without any, and the all-time streak, none without a result.
    public init(
        member player: UserID, name: String, joinedPuzzle: PuzzleNumber, totals: ScannedTotals?,
        allTime: ScannedStreak?
    ) {
        self.init(
            player: player, name: name, points: totals?.points ?? 0, played: totals?.played ?? 0,
            wins: totals?.wins ?? 0, winningGuesses: totals?.winningGuesses ?? 0, streak: allTime?.streak ?? 0,
            lastPuzzle: allTime?.lastPuzzle, joinedPuzzle: joinedPuzzle)
    }

    /// The standing of a player who left the board (``isMember``), over a period they played in
    /// (``ScannedTotals/keepsPlayerWhoLeft``); nil over one they did not.
    public init?(leftBoard player: UserID, name: String, totals: ScannedTotals, allTime: ScannedStreak?) {
        guard totals.keepsPlayerWhoLeft else { return nil }
        self.init(
            player: player, name: name, points: totals.points, played: totals.played, wins: totals.wins,
            winningGuesses: totals.winningGuesses, streak: allTime?.streak ?? 0, lastPuzzle: allTime?.lastPuzzle,
            joinedPuzzle: PuzzleNumber(0), isMember: false)
    }
}

extension DayMember {
    /// A member on a closed day: their result of it, if any, and the all-time streak, none without a result.
    public init(
        member player: UserID, name: String, joinedPuzzle: PuzzleNumber, day: MemberDay, result: BoardResult?,
        allTime: ScannedStreak?
    ) {
        self.init(
            player: player, name: name, joinedPuzzle: joinedPuzzle, day: day, result: result,
            streak: allTime?.streak ?? 0, lastPuzzle: allTime?.lastPuzzle)
    }
}
