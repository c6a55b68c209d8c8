import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``SeasonEnd`` alone, on a ``SliceDouble``: the family's November season ends with puzzle 334 (Monday
/// 2026-11-30); Ann was October's champion.
@Suite("The season's end, on its slice of the store")
struct SeasonEndFeatureTests {
    typealias Setting = FeatureSetting
    let seasonEnd = SeasonEnd(core: Setting.core)
    let lastOfNovember = PuzzleNumber(334)
    let ann = Setting.player(1, "Ann")
    let bob = Setting.player(2, "Bob")
    let november = BoardPeriod.month.key(containing: PuzzleNumber(334), schedule: .tessera)
    let october = BoardPeriod.month.key(containing: PuzzleNumber(300), schedule: .tessera)

    func group(revealed: PuzzleNumber) -> Group {
        Group(
            chat: Setting.family, timeZone: "UTC", rolloverHour: 0, language: .english,
            lastClosedPuzzle: revealed, lastRevealedPuzzle: revealed, team: GroupTeam(champions: [ann.id]))
    }

    func standing(_ player: Player, points: Int, played: Int) -> Standing {
        Standing(
            player: player.id, name: player.displayName, points: points, played: played, wins: played,
            winningGuesses: 4 * played, streak: played, lastPuzzle: lastOfNovember, joinedPuzzle: PuzzleNumber(280))
    }

    var season: SliceDouble {
        var reads = SliceDouble(players: [ann, bob], members: [Setting.family: [ann.id, bob.id]])
        reads.standings = [
            november: [standing(ann, points: 30, played: 10), standing(bob, points: 40, played: 12)],
            october: [],
        ]
        reads.records = [ann.id: BoardRecord(crowns: 3, bestStreak: 6), bob.id: BoardRecord(crowns: 5, bestStreak: 4)]
        return reads
    }

    @Test("Once the season's last word is out: one post, its champion, and the tag moves from Ann to Bob")
    func seasonOver() async throws {
        var group = group(revealed: lastOfNovember)
        let messages = try await seasonEnd.posts(of: &group, revealedAfter: PuzzleNumber(333), in: season)
        let posts = messages.filter { $0.action == .post }
        #expect(posts.count == 1)
        let post = try #require(posts.first).html
        #expect(post.contains(Language.english.texts.seasonChampion(TextFormat.person("Bob"))))
        #expect(post.contains("Ann") && post.contains("6 wins in a row"))
        #expect(
            messages.map(\.action).filter { $0 != .post } == [
                .tagMember(ann.id, tag: ""), .tagMember(bob.id, tag: Language.english.texts.championTag),
            ])
        #expect(group.team.champions == [bob.id])
    }

    @Test("In the middle of a season nothing is posted, and nothing is read")
    func midSeason() async throws {
        var group = group(revealed: PuzzleNumber(330))
        // The double has no standings and no records: a read would throw.
        let messages = try await seasonEnd.posts(of: &group, revealedAfter: PuzzleNumber(329), in: SliceDouble())
        #expect(messages.isEmpty && group.team.champions == [ann.id])
    }

    @Test("A season nobody played twice has had its summary: no post, and the champion keeps the tag")
    func playedOnce() async throws {
        var reads = season
        reads.standings[november] = [standing(ann, points: 5, played: 1)]
        var group = group(revealed: lastOfNovember)
        let messages = try await seasonEnd.posts(of: &group, revealedAfter: PuzzleNumber(333), in: reads)
        #expect(messages.isEmpty && group.team.champions == [ann.id])
    }

    @Test("Where the platform has no member tags, the champion is only named")
    func noTags() async throws {
        var configuration = EngineConfiguration()
        configuration.platform.memberTags = false
        let seasonEnd = SeasonEnd(
            core: EngineCore(configuration: configuration, secret: Setting.core.secret, logger: Setting.core.logger))
        var group = group(revealed: lastOfNovember)
        let messages = try await seasonEnd.posts(of: &group, revealedAfter: PuzzleNumber(333), in: season)
        #expect(messages.map(\.action) == [.post])
    }
}
