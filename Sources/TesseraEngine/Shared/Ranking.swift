import Foundation
import TesseraCore

/// How every board and post ranks and places people, written once: the period boards' order, a day's finishing
/// order, shared places (1, 2, 2, 4) and medals, and how many lines and names a post shows. Boards, the day's
/// post, the week's and the season's posts and the texts all place people through it; ``BoardRows`` writes
/// their rows.
enum Ranking {
    /// Whether a day's result wears the crown: it won in the day's fewest guesses (`best`, hard mode or not).
    static func wearsCrown(_ result: BoardResult, best: Int?) -> Bool { best != nil && result.guesses == best }

    /// A board's lines shown before the rest are summed up in one line; the asker's own line is always shown.
    static let boardLines = 20

    /// What a period's board ranks members by, best first, before their names.
    struct Key: Equatable {
        let score: Double
        let points: Int
        let wins: Int
        let averageGuesses: Double

        func isAhead(of other: Key) -> Bool? {
            if score != other.score { return score > other.score }
            if points != other.points { return points > other.points }
            if wins != other.wins { return wins > other.wins }
            if averageGuesses != other.averageGuesses { return averageGuesses < other.averageGuesses }
            return nil
        }
    }

    /// The standings' indices in board order, and each standing's key. Week and month: points, then wins,
    /// then fewer guesses on average, then name. All time: the shrunk average, then points.
    ///
    /// Positions are sorted by plain keys, and names read only on ties: a large board has thousands of members,
    /// and moving or copying each standing, with its strings, at every step of the sort cost more than the sort.
    static func rank(
        _ standings: [Standing], period: BoardPeriod, over: PuzzleNumber, playedAfter: [UserID: Int]
    ) -> (order: [Int], keys: [Key]) {
        let keys = standings.map { standing in
            Key(
                score: period == .all
                    ? AllTimeRanking.score(standing, over: over, playedAfter: playedAfter[standing.player] ?? 0)
                    : Double(standing.points),
                points: standing.points, wins: standing.wins, averageGuesses: standing.averageGuesses ?? .infinity)
        }
        let order = standings.indices.sorted { left, right in
            keys[left].isAhead(of: keys[right]) ?? (standings[left].name < standings[right].name)
        }
        return (order, keys)
    }

    /// A day's results: wins by fewest guesses, then losses; each by the earlier finish, then name.
    ///
    /// Positions are sorted by plain keys, and names read only on ties: a large group has thousands of results,
    /// and moving each, with its names and ids, at every step of the sort cost more than the sort itself.
    static func inFinishingOrder(_ results: [(name: String, result: BoardResult)]) -> [(
        name: String, result: BoardResult
    )] {
        let guesses = results.map { $0.result.guesses ?? .max }
        let finished = results.map(\.result.finishedAt)
        let order = results.indices.sorted { left, right in
            if guesses[left] != guesses[right] { return guesses[left] < guesses[right] }
            if finished[left] != finished[right] { return finished[left] < finished[right] }
            return results[left].name < results[right].name
        }
        return order.map { results[$0] }
    }

    /// Places in a ranked list: equal neighbours share one, and the next place skips as many (1, 2, 2, 4).
    static func places<Key: Equatable>(_ keys: [Key]) -> [Int] {
        var places: [Int] = []
        for index in keys.indices {
            places.append(index > 0 && keys[index] == keys[index - 1] ? places[index - 1] : index)
        }
        return places
    }

    static func place(_ index: Int, medal: Bool) -> String {
        let medals = ["🥇", "🥈", "🥉"]
        return medal && index < medals.count ? medals[index] : "\(index + 1)."
    }

    /// Names a list in a post shows before it says how many more there are.
    static let namesShown = 20

    /// Streaks by length, then name.
    static func longestFirst(_ a: (String, Int), _ b: (String, Int)) -> Bool { a.1 != b.1 ? a.1 > b.1 : a.0 < b.0 }
}
