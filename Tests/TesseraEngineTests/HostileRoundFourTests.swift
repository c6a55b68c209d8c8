import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// The fourth red team's findings, each as the engine meets it (the crash loop through the daemon is in
/// `HostilePasteDaemonTests`).
@Suite(
    "Hostile round 4: a paste that trapped, a forgotten champion, long podiums, names that reorder lines", .onBothPaths)
struct HostileRoundFourTests {
    @Test("A Mini paste dated in the year 30000000000000000 is no result: the bot answers it and the next message")
    func farMiniPaste() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        for year in ["30000000000000000", "9223372036854775807", "99999"] {
            let paste = "I solved the January 1, \(year) New York Times Mini Crossword in 0:22!"
            let replies = try await bot.send(paste, from: 2, name: "Eve", in: -1, group: true)
            #expect(replies.allSatisfy { $0.action != .react(.counted) }, "\(year): \(replies.map(\.html))")
        }
        // Numbers far from any puzzle, typed into commands, are answered as the puzzles they are not.
        for command in ["/analysis en 9223372036854775807", "/archive 999999999", "/archive before 999999999"] {
            #expect(try await !bot.send(command, from: 2, name: "Eve").isEmpty, "\(command)")
        }
        #expect(try await bot.text("/help", from: 3, name: "Ben", in: -1, group: true).contains("/leaderboard"))
    }

    @Test("/forgetme takes a season's champion out of every group's team, and hands their tag back")
    func forgottenChampion() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        try await bot.group(-2)
        for chat in [-1, -2] as [Int64] {
            try await bot.send("/join", from: 2, name: "Ben", in: chat, group: true)
            try await bot.send("/join", from: 3, name: "Cat", in: chat, group: true)
        }
        // Ben won the last season in both groups (with Cat in the second), then left the first group's board.
        for (chat, champions) in [(-1, [2]), (-2, [2, 3])] as [(Int64, [Int64])] {
            try await bot.store.write { transaction in
                var group = try #require(try await transaction.group(ChatID(chat)))
                group.team.champions = champions.map { UserID($0) }
                try await transaction.save(group)
            }
        }
        try await bot.send("/leave", from: 2, name: "Ben", in: -1, group: true)
        let question = try #require(try await bot.send("/forgetme", from: 2, name: "Ben").first)
        let confirm = try #require(question.buttons.joined().first?.data)
        let replies = try await bot.send("", from: 2, name: "Ben", button: confirm)
        let untagged = replies.compactMap { message -> String? in
            guard case .tagMember(let player, let tag) = message.action else { return nil }
            return "\(message.chat) \(player.value):\(tag)"
        }
        #expect(untagged.sorted() == ["\(ChatID(-1)) 2:", "\(ChatID(-2)) 2:"], "\(replies.map(\.action))")
        for (chat, champions) in [(-1, [UserID]()), (-2, [UserID(3)])] as [(Int64, [UserID])] {
            let group = try await bot.store.read { try await $0.group(ChatID(chat)) }
            #expect(group?.team.champions == champions)
            #expect(group?.team.json.contains("\"2\"") == false, "\(group?.team.json ?? "")")
        }
    }

    @Test("Forty members level on the week's podium: twenty names and '… and 20 more', as every list of names")
    func cappedWeekPodium() async throws {
        // Saturday and Sunday 2026-11-21 and 22, the week's last days: a week is posted once played on two.
        var bot = try EngineHarness()
        bot.now -= 86_400
        for user in 1...40 as ClosedRange<Int64> {
            try await bot.send("/join", from: user, name: "M\(user)", in: -1, group: true)
        }
        for day in 0..<2 {
            for user in 1...40 as ClosedRange<Int64> { try await bot.play(user, name: "M\(user)", misses: 1) }
            if day == 0 { try await bot.nextDay() }
        }
        let engine = bot.engine
        let closing = bot.now + 12 * 3600 + 60  // Monday 2026-11-23, 00:01 UTC.
        _ = try await bot.store.write { try await engine.closeDays(at: closing, in: $0) }
        let posts = try await bot.store.pendingMessages(limit: 10, now: closing).map(\.message.html)
        let week = try #require(posts.first { $0.hasPrefix("<b>🏁 The week") }, "\(posts)")
        let lines = week.components(separatedBy: "\n")
        #expect(lines.count(where: { $0.hasPrefix("🥇 M") }) == 20, "\(week)")
        #expect(lines.contains("… and 20 more"), "\(week)")
    }

    @Test("A season's champions past twenty are counted on the champion's line, not listed")
    func cappedChampions() {
        let places = (0..<25).map { SeasonSummary.Place(place: $0 < 22 ? 0 : 1, name: "M\($0)", points: 10, crowns: 0) }
        let season = SeasonSummary(
            length: .month, firstDay: CivilDate(year: 2026, month: 11, day: 1)!,
            podium: Shortlist(places, count: Ranking.namesShown, by: { _, _ in false }),
            champions: (0..<22).map { UserID(Int64($0)) }, mostImproved: nil, bestStreak: nil, mostSkilful: nil)
        let lines = Language.english.texts.seasonOver(season).html.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix("🏆 Champion: M0, M1") && $0.hasSuffix("M19, … and 2 more!") }, "\(lines)")
        #expect(lines.count(where: { $0.hasPrefix("🥇 ") }) == 20 && lines.contains("… and 5 more"), "\(lines)")
    }

    @Test("Direction marks never reach a line of names; a right-to-left name is isolated, on every platform")
    func namesThatReorder() async throws {
        var bot = try EngineHarness()
        try await bot.group(-1)
        let names: [(Int64, String)] = [(2, "\u{202E}Eve\u{202C}"), (3, "مريم"), (4, "Bob\u{2066}")]
        for (user, name) in names {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.play(2, name: names[0].1, misses: 1)
        try await bot.play(3, name: names[1].1, misses: 2)
        try await bot.play(1, name: "Ann", misses: 0)
        let posts = try await GroupTeamTests.nextDay(&bot)
        let summary = try #require(posts.first)
        #expect(!summary.unicodeScalars.contains { [0x202E, 0x202C, 0x2066].contains($0.value) }, "\(summary)")
        #expect(summary.contains("Eve"))
        #expect(summary.contains("\u{2068}مريم\u{2069}"), "\(summary.debugDescription)")
        #expect(TextFormat.person("\u{202E}<Eve>") == "&lt;Eve&gt;")
        #expect(TextFormat.person("דוד 3/6") == "\u{2068}דוד 3/6\u{2069}")
        #expect(TextFormat.person("Ann") == "Ann", "a name with no right-to-left letters is written as it is")
    }
}
