import TesseraCore
import Testing

@Suite("Statistics")
struct StatisticsTests {
    func history(_ entries: [(Int, GameResult)]) -> [PlayedGame] {
        entries.map { PlayedGame(puzzle: PuzzleNumber($0.0), result: $0.1) }
    }

    @Test("Played, win percentage and the guess distribution")
    func totals() {
        let stats = Statistics(
            history: history([(1, .won(guesses: 3)), (2, .won(guesses: 4)), (3, .lost), (4, .won(guesses: 3))])
        )
        #expect(stats.played == 4)
        #expect(stats.wins == 3)
        #expect(stats.winPercentage == 75)
        #expect(stats.guessDistribution == [0, 0, 2, 1, 0, 0])
        #expect(stats.failures == 1)
        #expect(Statistics(history: []).winPercentage == 0)
        // 2 of 3 is 66.7%, shown as 67 like the original.
        #expect(
            Statistics(history: history([(1, .won(guesses: 1)), (2, .won(guesses: 2)), (3, .lost)])).winPercentage == 67
        )
    }

    @Test(
        "Streaks continue only over consecutive puzzles; a loss or a missed day ends them",
        arguments: [
            ([(1, GameResult.won(guesses: 3)), (2, .won(guesses: 2)), (3, .won(guesses: 5))], nil as Int?, 3, 3),
            ([(1, .won(guesses: 3)), (2, .lost), (3, .won(guesses: 5))], nil, 1, 1),
            ([(1, .won(guesses: 3)), (2, .won(guesses: 2)), (4, .won(guesses: 5))], nil, 1, 2),
            ([(1, .won(guesses: 3)), (2, .won(guesses: 2)), (3, .lost)], nil, 0, 2),
            // In any order.
            ([(3, .won(guesses: 3)), (1, .won(guesses: 2)), (2, .won(guesses: 5))], nil, 3, 3),
            // Today not yet played: yesterday's streak is still alive.
            ([(9, .won(guesses: 3)), (10, .won(guesses: 2))], 11, 2, 2),
            // Two days without playing: broken.
            ([(9, .won(guesses: 3)), (10, .won(guesses: 2))], 12, 0, 2),
            // A second result for the same puzzle does not count.
            ([(1, .won(guesses: 3)), (1, .lost), (2, .won(guesses: 2))], nil, 2, 2),
        ]
    )
    func streaks(entries: [(Int, GameResult)], today: Int?, current: Int, max: Int) {
        let stats = Statistics(history: history(entries), today: today.map(PuzzleNumber.init))
        #expect(stats.currentStreak == current)
        #expect(stats.maxStreak == max)
    }
}
