import TesseraCore
import TesseraCoreTesting
import Testing

/// The rating of duels and races (issue 59): Elo with K = 32 from 1,000, points moved between players.
@Suite("Ratings of duels and races")
struct RatingTests {
    @Test(
        "Equal players: a win is worth 16, a draw nothing; a favourite gains less for winning than it loses for losing")
    func elo() {
        #expect(Rating.change(1000, against: 1000, .win) == 16)
        #expect(Rating.change(1000, against: 1000, .draw) == 0)
        #expect(Rating.change(1000, against: 1000, .loss) == -16)
        // 400 points apart, the favourite is expected to score 10/11.
        #expect(Rating.change(1400, against: 1000, .win) == 3)
        #expect(Rating.change(1400, against: 1000, .loss) == -29)
        #expect(Rating.change(Int.max, against: Int.min, .win) == 0, "a damaged rating is read at its bound")
    }

    @Test("A race is every pair's result: first beats all, a shared place is a draw")
    func race() {
        let changes = Rating.changes(afterRace: ["Ann": 1, "Ben": 2, "Cleo": 2, "Dan": 4], ratings: [:])
        #expect(changes == ["Ann": 48, "Ben": 0, "Cleo": 0, "Dan": -48])
    }

    @Test("Property: whatever the ratings and results, a group's total is conserved")
    func conserved() {
        var random = SplitMix64(seed: 59)
        var ratings = Dictionary(uniqueKeysWithValues: (0..<12).map { ($0, Rating.start) })
        let total = ratings.values.reduce(0, +)
        for _ in 0..<2_000 {
            if Bool.random(using: &random) {
                let (a, b) = (Int.random(in: 0..<12, using: &random), Int.random(in: 0..<12, using: &random))
                guard a != b else { continue }
                let outcome = [Rating.Outcome.win, .draw, .loss].randomElement(using: &random)!
                let delta = Rating.change(ratings[a]!, against: ratings[b]!, outcome)
                ratings[a]! += delta
                ratings[b]! -= delta
            } else {
                let runners = (0..<12).shuffled(using: &random).prefix(Int.random(in: 2...6, using: &random))
                let places = Dictionary(
                    uniqueKeysWithValues: runners.map { ($0, Int.random(in: 1...runners.count, using: &random)) })
                for (player, change) in Rating.changes(afterRace: places, ratings: ratings) {
                    ratings[player]! += change
                }
            }
            #expect(ratings.values.reduce(0, +) == total)
        }
    }
}
