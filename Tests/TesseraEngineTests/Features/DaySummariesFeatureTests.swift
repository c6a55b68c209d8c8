import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``DaySummaries/close(_:at:reads:)`` alone, on a ``SliceDouble``: a family across zones (Ann in UTC, Kenji in
/// Tokyo, Nora in New York) closes puzzle 325, a Saturday (Sunday's would end the week), of a UTC group. The decision changes nothing: it returns the posts
/// and the group as it leaves it, which the engine queues and saves.
@Suite("The day's close, on its slice of the store")
struct DaySummariesFeatureTests {
    typealias Setting = FeatureSetting
    let summaries = DaySummaries(core: Setting.core)
    let puzzle = PuzzleNumber(325)
    let ann = Setting.player(1, "Ann")
    let kenji = Player(id: UserID(2), displayName: "Kenji", language: .english, timeZone: "Asia/Tokyo", rolloverHour: 0)
    let nora = Player(
        id: UserID(3), displayName: "Nora", language: .english, timeZone: "America/New_York", rolloverHour: 0)
    /// 2026-11-22 01:00 UTC: the group's puzzle 325 is over, Tokyo's long since, New York's at 05:00 UTC.
    let afterUTC = Date(timeIntervalSince1970: 1_795_309_200)
    /// 2026-11-22 06:00 UTC: New York's day of 325 is over too.
    let afterNewYork = Date(timeIntervalSince1970: 1_795_327_200)
    /// Saturday 2026-11-21 12:00 UTC.
    let saturdayNoon = Date(timeIntervalSince1970: 1_795_262_400)
    let group = Group(
        chat: FeatureSetting.family, timeZone: "UTC", rolloverHour: 0, language: .english,
        lastClosedPuzzle: PuzzleNumber(324))

    func won(_ player: Player, in guesses: Int, minutesIn: Int) -> BoardResult {
        BoardResult(
            chat: Setting.family, board: .tessera, puzzle: puzzle, player: player.id, language: .english,
            guesses: guesses, hardMode: false, finishedAt: saturdayNoon.addingTimeInterval(Double(minutesIn) * 60))
    }

    func family(results: [BoardResult]) -> SliceDouble {
        SliceDouble(
            players: [ann, kenji, nora], groups: [group],
            members: [Setting.family: [ann.id, kenji.id, nora.id]], results: results)
    }

    var word: String { Language.english.wordList.display(Setting.core.answer(for: puzzle, in: .english)) }

    @Test("A day nobody played closes and is revealed without a post")
    func nobodyPlayed() async throws {
        let (closed, messages) = try await summaries.close(group, at: afterNewYork, reads: family(results: []))
        #expect(messages.isEmpty)
        #expect(closed.lastClosedPuzzle == puzzle)
        #expect(closed.lastRevealedPuzzle == puzzle)
    }

    @Test("While a member's own day is open the post is the day so far: results, who is still playing, no word")
    func daySoFar() async throws {
        let reads = family(results: [won(ann, in: 3, minutesIn: 20), won(kenji, in: 4, minutesIn: 5)])
        let (closed, messages) = try await summaries.close(group, at: afterUTC, reads: reads)
        let post = try #require(messages.first { $0.action == .post && $0.html.contains("so far") })
        #expect(!post.html.localizedCaseInsensitiveContains(word))
        #expect(post.html.contains("Nora"))
        #expect(post.html.contains("🔒"))
        #expect(post.live == nil)
        #expect(closed.lastClosedPuzzle == puzzle)
        #expect(closed.lastRevealedPuzzle == PuzzleNumber(324))
    }

    @Test("Once every member's day is over the final post shows the word and crowns the fewest guesses, once")
    func finalPost() async throws {
        let reads = family(results: [won(ann, in: 3, minutesIn: 20), won(kenji, in: 4, minutesIn: 5)])
        let (closed, soFar) = try await summaries.close(group, at: afterUTC, reads: reads)
        let (revealed, messages) = try await summaries.close(closed, at: afterNewYork, reads: reads)
        let post = try #require(messages.first { $0.action == .post })
        #expect(post.html.localizedCaseInsensitiveContains(word))
        let crowned = try #require(post.html.split(separator: "\n").first { $0.contains("👑") })
        #expect(crowned.contains("Ann") && !crowned.contains("Kenji"))
        #expect(post.live == DaySummaries.liveKey(of: puzzle))
        #expect(revealed.lastRevealedPuzzle == puzzle)
        #expect(
            soFar.count + messages.count == 2, "one post so far, one final: \(soFar.map(\.html) + messages.map(\.html))"
        )
        // Closed and revealed, the day posts nothing more.
        let (_, again) = try await summaries.close(revealed, at: afterNewYork.addingTimeInterval(3_600), reads: reads)
        #expect(again.isEmpty)
    }

    @Test("Where the chat cannot hide the word, the final post says so and never shows it")
    func noSpoilerPlatform() async throws {
        var configuration = EngineConfiguration()
        configuration.platform.spoilers = false
        let summaries = DaySummaries(
            core: EngineCore(configuration: configuration, secret: Setting.core.secret, logger: Setting.core.logger))
        let reads = family(results: [won(ann, in: 3, minutesIn: 20), won(nora, in: 5, minutesIn: 400)])
        let (_, messages) = try await summaries.close(group, at: afterNewYork, reads: reads)
        let post = try #require(messages.first { $0.action == .post })
        #expect(!post.html.localizedCaseInsensitiveContains(word))
        #expect(post.html.contains("cannot hide the word"))
    }
}
