import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine
@testable import TesseraRuntime

/// The order of the analysis lanes (issue 37), decided without a store or a solver.
@Suite("Analysis queue")
struct AnalysisQueueTests {
    /// A finished daily game of `player`, `minutes` after a fixed start.
    func job(_ player: String, puzzle: Int = 300, minutes: Double) -> AnalysisJob {
        let game = StoredGame(
            player: UserID(.scripted, player), language: .english, puzzle: PuzzleNumber(puzzle), hardMode: false,
            guesses: ["salet"], result: .won(guesses: 1), finishedAt: Date(timeIntervalSince1970: minutes * 60))
        return AnalysisJob(game: .daily(game), answer: .failure(.answerNotInEdition), guesses: .success([]), edition: 0)
    }

    @Test("The known lane takes its oldest game, whatever searches wait ahead of it in the store's order")
    func knownLaneOldestFirst() {
        var queue = AnalysisQueue()
        let waiting: [(job: AnalysisJob, lane: AnalysisQueue.Lane)] = [
            (job("eve", minutes: 1), .search), (job("eve", puzzle: 301, minutes: 2), .search),
            (job("ana", minutes: 9), .known), (job("bob", minutes: 5), .known),
        ]
        #expect(queue.next(for: .known, among: waiting)?.player == UserID(.scripted, "bob"))
        // In hand, it is not taken again; the next is.
        #expect(queue.next(for: .known, among: waiting)?.player == UserID(.scripted, "ana"))
        #expect(queue.next(for: .known, among: waiting) == nil)
        // The next read takes the searches seen and the games in hand on top of the window.
        #expect(queue.readLimit == AnalysisQueue.window + 2 + 2)
    }

    @Test("Searches go by player in turn: one player's fifty games delay another's by one search, not fifty")
    func searchesInTurn() {
        var queue = AnalysisQueue()
        var waiting: [(job: AnalysisJob, lane: AnalysisQueue.Lane)] =
            (0..<50).map { (job("eve", puzzle: 300 + $0, minutes: Double($0)), .search) }
        waiting.append((job("ana", minutes: 100), .search))
        var order: [String] = []
        for _ in 0..<4 {
            guard let next = queue.next(for: .search, among: waiting) else { break }
            order.append(next.player.value)
            queue.finish(next)
            waiting.removeAll { $0.job.id == next.id }
        }
        #expect(order == ["eve", "ana", "eve", "eve"])
    }

    @Test("A player's share: three deep searches in any 24 hours, then a game's budget until the oldest is a day old")
    func searchShare() {
        var queue = AnalysisQueue()
        let eve = UserID(.scripted, "eve")
        let ana = UserID(.scripted, "ana")
        var granted: [Bool] = []
        for second in 0..<5 { granted.append(queue.takeSearchShare(of: eve, at: Double(second))) }
        #expect(granted == [true, true, true, false, false])
        let anas = queue.takeSearchShare(of: ana, at: 10)
        #expect(anas, "another player's share is their own")
        let beforeADay = queue.takeSearchShare(of: eve, at: 86_399)
        #expect(!beforeADay)
        let afterADay = queue.takeSearchShare(of: eve, at: 86_400.5)
        #expect(afterADay, "the first search is more than a day old")
    }
}
