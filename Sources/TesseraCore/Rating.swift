import Foundation

/// Elo ratings for play outside the ranked daily (duels and group races): 1,000 to start, K = 32, kept apart
/// from every daily board. A result moves points from one player to the other, whole points, so a group's total
/// is what its players started with whatever happens; a race counts as the results of every pair in it.
public enum Rating {
    public static let start = 1000
    public static let k = 32.0

    /// What one side of a game scored: 1 for a win, ½ for a draw, 0 for a loss.
    public enum Outcome: Sendable, Hashable {
        case win, draw, loss

        var score: Double {
            switch self {
            case .win: 1
            case .draw: 0.5
            case .loss: 0
            }
        }
    }

    /// The points `player` gains (or, negative, loses) against `opponent` for `outcome`; the opponent's change
    /// is its negation. Ratings beyond ±1,000,000 (a damaged store) are read at that bound.
    public static func change(_ player: Int, against opponent: Int, _ outcome: Outcome) -> Int {
        let (mine, theirs) = (Double(bounded(player)), Double(bounded(opponent)))
        let expected = 1 / (1 + pow(10, (theirs - mine) / 400))
        return Int(bounded: (k * (outcome.score - expected)).rounded())
    }

    /// Every player's change after a race, from the ratings before it: each pair once, the one placed higher
    /// winning and a shared place a draw. `places` gives each player's place (1 is first); the changes add up
    /// to zero.
    public static func changes<Player: Hashable>(
        afterRace places: [Player: Int], ratings: [Player: Int]
    ) -> [Player: Int] {
        let players = Array(places.keys)
        var changes = Dictionary(uniqueKeysWithValues: players.map { ($0, 0) })
        for (index, first) in players.enumerated() {
            for second in players[(index + 1)...] {
                let (a, b) = (places[first] ?? 0, places[second] ?? 0)
                let outcome: Outcome = a == b ? .draw : a < b ? .win : .loss
                let delta = change(ratings[first] ?? start, against: ratings[second] ?? start, outcome)
                changes[first, default: 0] += delta
                changes[second, default: 0] -= delta
            }
        }
        return changes
    }

    private static func bounded(_ rating: Int) -> Int { min(max(rating, -1_000_000), 1_000_000) }
}
