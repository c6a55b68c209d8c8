import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``WeekEnd`` alone, on a ``SliceDouble``: the week of Monday 2026-11-16 ends with Sunday's puzzle 326, and a
/// family that began its board on Saturday (325) reads its post.
@Suite("The week's end, on its slice of the store")
struct WeekEndFeatureTests {
    typealias Setting = FeatureSetting
    let weekEnd = WeekEnd(schedule: .tessera)
    let saturday = PuzzleNumber(325)
    let sunday = PuzzleNumber(326)
    let ann = Setting.player(1, "Ann")
    let bob = Setting.player(2, "Bob")

    func group(revealed: PuzzleNumber, summary: Bool = true) -> Group {
        Group(
            chat: Setting.family, timeZone: "UTC", rolloverHour: 0, language: .english, summaryEnabled: summary,
            lastClosedPuzzle: revealed, lastRevealedPuzzle: revealed)
    }

    func won(_ player: Player, _ guesses: Int, on puzzle: PuzzleNumber) -> BoardResult {
        BoardResult(
            chat: Setting.family, board: .tessera, puzzle: puzzle, player: player.id, language: .english,
            guesses: guesses, hardMode: false, finishedAt: Setting.now)
    }

    func standing(_ player: Player, points: Int, played: Int) -> Standing {
        Standing(
            player: player.id, name: player.displayName, points: points, played: played, wins: played,
            winningGuesses: 3 * played, streak: played, lastPuzzle: sunday, joinedPuzzle: saturday)
    }

    /// Both played both days; Bob has more points.
    var bothDays: SliceDouble {
        var reads = SliceDouble(
            players: [ann, bob], members: [Setting.family: [ann.id, bob.id]],
            results: [
                won(ann, 4, on: saturday), won(bob, 3, on: saturday), won(ann, 4, on: sunday), won(bob, 2, on: sunday),
            ])
        reads.standings[BoardPeriod.week.key(containing: sunday, schedule: .tessera)] = [
            standing(ann, points: 6, played: 2), standing(bob, points: 9, played: 2),
        ]
        return reads
    }

    @Test("Once Sunday's word is out: one post, the podium by points, the best streak, the days everyone played")
    func weekOver() async throws {
        let post = try #require(
            try await weekEnd.post(of: group(revealed: sunday), revealedAfter: saturday, in: bothDays))
        let text = post.html
        let monday = try #require(CivilDate(year: 2026, month: 11, day: 16))
        #expect(text.contains(Language.english.texts.weekOverTitle(since: monday)))
        let bob = try #require(text.range(of: "Bob"))
        let ann = try #require(text.range(of: "Ann"))
        #expect(bob.lowerBound < ann.lowerBound, "Bob's 9 points lead Ann's 6: \(text)")
        #expect(text.contains(Language.english.texts.weekEveryonePlayed(2, of: 2)))
        #expect(post.chat == Setting.family && post.silent && post.atMostOnce)
    }

    @Test("No post before the week's last day is revealed, and none is read for")
    func notYet() async throws {
        // The double has no standings of the week before: a read of them would throw.
        let reads = SliceDouble(players: [ann, bob], members: [Setting.family: [ann.id, bob.id]])
        #expect(
            try await weekEnd.post(of: group(revealed: saturday), revealedAfter: PuzzleNumber(324), in: reads) == nil)
    }

    @Test("A week played on one day only has had its summary, and a group without summaries gets no post")
    func noPost() async throws {
        var oneDay = bothDays
        oneDay.results.removeAll { $0.puzzle == saturday }
        #expect(try await weekEnd.post(of: group(revealed: sunday), revealedAfter: saturday, in: oneDay) == nil)
        let quiet = group(revealed: sunday, summary: false)
        #expect(try await weekEnd.post(of: quiet, revealedAfter: saturday, in: bothDays) == nil)
    }
}
