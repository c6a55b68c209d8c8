import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// The end of a season through the real daemon and the fake Bot API: the post, and the champion's member tag where
/// the bot may set tags (and no call at all where it may not).
@Suite("A season's end, through the daemon", .serialized)
struct SeasonDaemonTests {
    enum Member: Int64, CaseIterable, FamilyMember {
        case ann = 1
        case ben

        var name: String { "\(self)".capitalized }
        var appLanguage: String { "en" }
    }

    @Test(
        "November's last two days, then its season's post; the champion tagged only where the bot has the right",
        arguments: [false, true])
    func seasonEnd(botMayTag: Bool) async throws {
        // Sunday 29 November, puzzle 333.
        let family = try await FamilyChat<Member>(at: "2026-11-29T10:00:00Z", administrator: .ann)
        let fake = family.fake
        if botMayTag { try await fake.allowTagging(in: -1) }
        try await fake.push([FakeTelegram.added(to: -1, by: Member.ann.rawValue, name: "Ann", languageCode: "en")])
        _ = try await family.post(containing: "👋")
        for member in Member.allCases { try await family.send("/join", from: member, inGroup: true) }
        for (puzzle, time) in [(333, "2026-11-30T00:00:30Z"), (334, "2026-12-01T00:00:30Z")] {
            try await family.play(try FamilyWeekDaemonTests.win(.english, puzzle, misses: 3), as: .ann, puzzle: puzzle)
            try await family.play(try FamilyWeekDaemonTests.win(.english, puzzle, misses: 1), as: .ben, puzzle: puzzle)
            try await family.at(time, "the day ends")
            _ = try await family.post(containing: "Everyone here is done with puzzle \(puzzle).")
        }
        let season = try await family.post(containing: "🏁 The November season is over.")
        // A rich message: the podium is a table.
        #expect(
            season.text.hasPrefix(
                "🏁 The November season is over.\n🏆 Champion: Ben!\n# | Player | Points | \n🥇 | Ben | 10 pts | 👑2\n"
                    + "🥈 | Ann | 6 pts | \n"),
            "\(season.text)")
        #expect(season.silent)
        // Queued after the season's post in the same chat: by its reply, the tag has been dealt with.
        let board = try await family.reply(to: "/leaderboard season", from: .ben, inGroup: true)
        #expect(board.text.hasPrefix("No results for puzzle 335"), "a new season: \(board.text)")
        let tags = try await fake.tags()
        if botMayTag {
            #expect(tags.map(\.user) == [2] && tags.map(\.tag) == ["Champion"], "\(tags)")
        } else {
            #expect(tags.isEmpty)
            #expect(try await fake.stats()["calls.setChatMemberTag"] == nil, "nothing is tried without the right")
        }
        #expect(try await fake.undocumentedParameters() == [])
        family.note("—— tags set: \(tags.map { "\($0.user): \($0.tag ?? "removed")" })")
        try family.writeTranscript(named: "season-end-\(botMayTag ? "tagged" : "untagged").txt")
        #expect(await family.stop() == 0)
    }
}
