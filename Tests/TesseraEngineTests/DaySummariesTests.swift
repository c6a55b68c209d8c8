import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("The day's post: the summary, the word, the crown", .onBothPaths)
struct DaySummariesTests {
    @Test(
        "/settings summary 21 sums up Sunday on Sunday at 21:00 and says so; later results still count, the word waits until midnight"
    )
    func eveningSummary() async throws {
        var bot = try EngineHarness()  // Sunday 22 November, 12:00 UTC: puzzle 326
        try await bot.group(-1)
        try await bot.send("/join", from: 2, name: "Ben", in: -1, group: true)
        try await bot.send("/join", from: 1, name: "Ann", in: -1, group: true)
        try await bot.play(1, name: "Ann", misses: 1)
        let saved = try await bot.text("/settings summary 21", name: "Ann", in: -1, group: true, admin: true)
        #expect(
            saved.contains("Daily summary: at 21:00 · next: Sunday's puzzle, on Sunday 22 November at 21:00"),
            "\(saved)")
        let (engine, store) = (bot.engine, bot.store)
        let close = { (now: Date) in try await store.write { try await engine.closeDays(at: now, in: $0) } }
        let sunday = Date(timeIntervalSince1970: 1_795_305_600)
        #expect(try await close(sunday + 20 * 3600 + 3599) == 0)
        #expect(try await close(sunday + 21 * 3600) == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: sunday + 21 * 3600).last)
        try await bot.store.markSent([summary.id])
        #expect(summary.message.html.hasPrefix("<b>⏳ Puzzle 326 so far</b>"), "\(summary.message.html)")
        #expect(!summary.message.html.contains("👑"), "nobody is crowned before the results are in")
        #expect(
            summary.message.html.contains("🔒 The word follows when Ben has played, or at midnight."),
            "\(summary.message.html)")
        // 22:00: still Sunday's puzzle here; Ben's game counts, and the word follows.
        bot.now = sunday + 22 * 3600
        #expect(
            try await bot.text("/leaderboard", name: "Ann", in: -1, group: true).hasPrefix(
                "<b>Leaderboard · puzzle 326</b>"))
        try await bot.play(2, name: "Ben", misses: 0)
        #expect(try await close(bot.now + 5) == 1)
        let reveal = try #require(try await bot.store.pendingMessages(limit: 10, now: bot.now + 5).last)
        try await bot.store.markSent([reveal.id])
        #expect(reveal.message.html.contains("\n👑 1/6: Ben\n2/6: Ann\n"), "\(reveal.message.html)")
        // Monday evening, before and after Monday's summary: yesterday is Sunday, final.
        for hours in [44.0, 45.5] {
            bot.now = sunday + hours * 3600
            if hours > 45 { try await bot.play(1, name: "Ann", misses: 2) }
            _ = try await close(bot.now)
            let yesterday =
                try await bot.send("/leaderboard yesterday", name: "Ann", in: -1, group: true).last?.html ?? ""
            #expect(yesterday.hasPrefix("<b>Leaderboard · puzzle 326 · yesterday · final</b>"), "\(yesterday)")
        }
        #expect(
            try await bot.text("/settings", name: "Ann", in: -1, group: true).contains(
                "next: Tuesday's puzzle, on Tuesday 24 November at 21:00"))
        // Back to the new puzzle: Monday's summary is not posted twice, and Tuesday's comes at Wednesday 00:00.
        let back = try await bot.text("/settings summary rollover", name: "Ann", in: -1, group: true, admin: true)
        #expect(
            back.contains("at the new puzzle · next: Tuesday's puzzle, on Wednesday 25 November at 00:00"), "\(back)")
    }

    @Test("The summary of a closed day: the word, winners, grids, streaks kept and broken, who missed; once")
    func summary() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        for day in 0..<3 {
            if day < 2 { try await bot.play(1, name: "Alice", misses: 1) }
            try await bot.play(2, name: "Bob", misses: 0)
            if day < 2 { bot.now += 86_400 }
        }
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        try await bot.play(3, name: "Carol", misses: 6)
        let engine = bot.engine
        let closing = EngineHarness.monday + 2.5 * 86_400  // Thursday 00:00 UTC: Wednesday's puzzle 322 closes
        // Nothing closed Monday's and Tuesday's days yet: only the latest, Tuesday's, is summed up.
        #expect(try await bot.store.write { try await engine.closeDays(at: closing - 60, in: $0) } == 1)
        let tuesday = try await bot.store.pendingMessages(limit: 10, now: closing)
        #expect(
            tuesday.count == 1 && tuesday[0].message.html.hasPrefix("<b>🔓 Everyone here is done with puzzle 321.</b>"))
        // Monday, closed silently, still counts in the group's days together.
        #expect(tuesday[0].message.html.contains("\n🔥 Day 2 together · "), "\(tuesday[0].message.html)")
        #expect(try await bot.store.write { try await engine.closeDays(at: closing + 60, in: $0) } == 1)
        #expect(try await bot.store.write { try await engine.closeDays(at: closing + 120, in: $0) } == 0, "once")
        let posted = try await bot.store.pendingMessages(limit: 10, now: closing)
        let summary = try #require(posted.last?.message)
        #expect(summary.chat == ChatID(-1) && summary.replyTo == nil && summary.silent && summary.atMostOnce)
        let word = try bot.answer(puzzle: PuzzleNumber(322)).uppercased()
        #expect(
            summary.html == """
                <b>🔓 Everyone here is done with puzzle 322.</b>
                The word was <spoiler>\(word)</spoiler>.
                👑 1/6: Bob
                X/6: Carol
                🌱 The group's 2 days together end here. Every run starts with one day.
                🔥 Streaks going: Bob (3)
                💔 Streaks broken: Alice (2)
                😴 Missed: Alice
                """)
        // A day nobody played closes without a post.
        #expect(try await bot.store.write { try await engine.closeDays(at: closing + 86_400, in: $0) } == 0)
    }

    @Test(
        "The word waits only for members who can still play: named with the latest time, revealed as soon as they play"
    )
    func wordWaitsForEveryMember() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        // Bob is first met in a Los Angeles group, so his day is Los Angeles'; the board's group is on UTC.
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        try await bot.send("/join", from: 2, name: "Bob", in: -2, group: true)
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.play(1, name: "Alice", misses: 0)
        let engine = bot.engine
        let word = try bot.answer(puzzle: bot.puzzle).uppercased()
        let midnight = EngineHarness.monday + 12 * 3600  // Monday 12:00 UTC + 12 h: the UTC group's day closes.
        // 00:01 UTC is 16:01 in Los Angeles: Bob can still play, so the word is not posted.
        let queued = try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) }
        #expect(queued == 1)
        let results = try #require(try await bot.store.pendingMessages(limit: 10, now: midnight).last?.message)
        #expect(results.chat == ChatID(-1) && results.silent)
        #expect(!results.html.uppercased().contains(word), "\(results.html)")
        // Alice, who finished, does not hold it; Bob's day ends at 08:00 UTC, the group's time.
        #expect(results.html.contains("🔒 The word follows when Bob has played, or at 08:00."), "\(results.html)")
        #expect(!results.html.contains("Still playing") && !results.html.contains("Missed"), "\(results.html)")
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 3600, in: $0) } == 0)
        // 03:00 UTC, 19:00 in Los Angeles: Bob finishes, and the next check reveals the word, hours before his
        // day ends: once, behind a spoiler and without a notification.
        bot.now = midnight + 3 * 3600
        let list = Language.english.wordList
        let wrong = list.answers.lazy.map { list.letters($0) }.first { $0 != word.lowercased() }
        for guess in [try #require(wrong), word.lowercased()] { try await bot.send(guess, from: 2, name: "Bob") }
        let finished = bot.now + 5
        #expect(try await bot.store.write { try await engine.closeDays(at: finished, in: $0) } == 1)
        #expect(try await bot.store.write { try await engine.closeDays(at: finished + 60, in: $0) } == 0, "once")
        let reveal = try #require(try await bot.store.pendingMessages(limit: 10, now: finished).last?.message)
        #expect(reveal.chat == ChatID(-1) && reveal.silent && reveal.atMostOnce)
        #expect(reveal.html.hasPrefix("<b>🔓 Everyone here is done with puzzle 320.</b>"), "\(reveal.html)")
        #expect(reveal.html.contains("The word was <spoiler>\(word)</spoiler>."), "\(reveal.html)")
        #expect(reveal.html.contains("\n👑 1/6: Alice\n2/6: Bob\n"), "\(reveal.html)")
        #expect(reveal.live == "day:320", "a later analysis edits it")
    }

    @Test("The reveal names the streaks that ended after the summary: a late loss, and a day that ran out")
    func revealNamesLateBrokenStreaks() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // 12:00 UTC, puzzle 320
        try await bot.group(-1)
        for (user, name, zone) in [
            (1, "Alice", "UTC"), (2, "Bob", "America/Los_Angeles"), (3, "Carol", "America/Los_Angeles"),
        ]
            as [(Int64, String, String)]
        {
            try await bot.store.write {
                try await $0.save(
                    Player(id: UserID(user), displayName: name, language: .english, timeZone: zone, rolloverHour: 0))
            }
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Monday and Tuesday, everyone wins; Wednesday only Alice, before the group's summary at midnight UTC.
        for day in 0..<3 {
            for (user, name) in [(1, "Alice"), (2, "Bob"), (3, "Carol")] as [(Int64, String)] where day < 2 || user == 1
            {
                try await bot.play(user, name: name, misses: 1)
            }
            if day < 2 { try await bot.nextDay() }
        }
        let (engine, store) = (bot.engine, bot.store)
        let thursday = EngineHarness.monday + 60 * 3600  // 00:00 UTC: the summary, the word waiting for Bob and Carol
        #expect(try await store.write { try await engine.closeDays(at: thursday, in: $0) } == 1)
        try await store.markSent(try await store.pendingMessages(limit: 10, now: thursday).map(\.id))
        // 03:00 UTC, 19:00 in Los Angeles: Bob loses Wednesday's puzzle after the summary; Carol never plays it.
        bot.now = thursday + 3 * 3600
        let answer = try bot.answer(puzzle: PuzzleNumber(322))
        let list = Language.english.wordList
        let wrong = list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(6)
        for guess in wrong { try await bot.send(guess, from: 2, name: "Bob") }
        // 08:00 UTC: Carol's Wednesday is over, and the word comes.
        let over = thursday + 8 * 3600 + 5
        #expect(try await store.write { try await engine.closeDays(at: over, in: $0) } == 1)
        let reveal = try #require(try await store.pendingMessages(limit: 10, now: over).last?.message.html)
        #expect(reveal.hasPrefix("<b>🔓 Everyone here is done with puzzle 322.</b>"), "\(reveal)")
        #expect(reveal.contains("\n💔 Streaks broken: Bob (2), Carol (2)\n"), "\(reveal)")
        // Carol's missed day ends the group's run too, in the post that closes the day for everyone.
        #expect(
            reveal.contains("\n🌱 The group's 2 days together end here. Every run starts with one day.\n"), "\(reveal)")
    }

    @Test(
        "A member west of the group counts on their own day: a late finish is on yesterday's and the week's boards and the reveal's standings"
    )
    func lateFinishCounts() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // 12:00 UTC: puzzle 320.
        // Bob's day is Los Angeles'; Carol's too. The board's group is on UTC.
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        for (user, name) in [(2, "Bob"), (3, "Carol")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -2, group: true)
        }
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.play(1, name: "Alice", misses: 3)
        let engine = bot.engine
        let midnight = EngineHarness.monday + 12 * 3600
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) } == 1)
        // 03:00 UTC is 19:00 in Los Angeles: Bob finishes 320 in 2/6, after the group's summary.
        bot.now = midnight + 3 * 3600
        let word = try bot.answer(puzzle: PuzzleNumber(320))
        let list = Language.english.wordList
        let wrong = list.answers.lazy.map { list.letters($0) }.first { $0 != word } ?? "crane"
        for guess in [wrong, word] { try await bot.send(guess, from: 2, name: "Bob") }
        let yesterday = try await bot.send("/leaderboard yesterday", in: -1, group: true).last?.html ?? ""
        #expect(yesterday.contains("🥇 Bob — 2/6") && yesterday.contains("🥈 Alice — 4/6"), "\(yesterday)")
        let week = try await bot.send("/leaderboard week", in: -1, group: true).last?.html ?? ""
        #expect(week.contains("Bob — 5 pts"), "\(week)")
        // 08:01 UTC: Bob's day is over too; the word comes with the day's final standings (and the Los Angeles
        // group, where Bob played too, gets its summary).
        let over = midnight + 8 * 3600 + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: over, in: $0) } == 2)
        let posted = try await bot.store.pendingMessages(limit: 10, now: over).map(\.message)
        let reveal = try #require(posted.last { $0.chat == ChatID(-1) }?.html)
        #expect(reveal.contains("\n👑 2/6: Bob\n4/6: Alice\n"), "\(reveal)")
        // Carol joins once the word is shown here: her game of 320, still open on her day, does not count.
        bot.now = over + 60
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        for guess in [wrong, word] { try await bot.send(guess, from: 3, name: "Carol") }
        let after = try await bot.send("/leaderboard yesterday", in: -1, group: true).last?.html ?? ""
        #expect(!after.contains("Carol"), "\(after)")
    }

    @Test("A day only a western member plays: no summary at the group's rollover, and their late game counts")
    func onlyALateFinisher() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        try await bot.send("/join", from: 2, name: "Bob", in: -2, group: true)
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        let engine = bot.engine
        let midnight = EngineHarness.monday + 12 * 3600
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight + 60, in: $0) } == 0)
        bot.now = midnight + 3 * 3600
        let word = try bot.answer(puzzle: PuzzleNumber(320))
        try await bot.send(word, from: 2, name: "Bob")
        let yesterday = try await bot.send("/leaderboard yesterday", in: -1, group: true).last?.html ?? ""
        #expect(yesterday.contains("🥇 Bob — 1/6"), "\(yesterday)")
        let over = midnight + 8 * 3600 + 60
        _ = try await bot.store.write { try await engine.closeDays(at: over, in: $0) }
        let posted = try await bot.store.pendingMessages(limit: 10, now: over).map(\.message)
        let reveal = try #require(posted.last { $0.chat == ChatID(-1) }?.html)
        #expect(reveal.contains("\n👑 1/6: Bob\n"), "\(reveal)")
    }

    @Test("The word waits for a member still playing on a zone they are moving to, west of their old one")
    func wordWaitsForPendingZone() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // 12:00 UTC, 21:00 in Tokyo: puzzle 320 in both.
        try await bot.group(-1, timeZone: "Asia/Tokyo")
        for (user, name) in [(1, "Ann"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Ann, first met in the Tokyo group, moves to Los Angeles from her next puzzle, 321.
        let moved = try await bot.text("/timezone America/Los_Angeles", from: 1, name: "Ann")
        #expect(moved.contains("puzzle 321"), "\(moved)")
        bot.now += 86_400  // Tuesday 12:00 UTC: puzzle 321 in Tokyo.
        try await bot.play(2, name: "Bob", misses: 0)
        // Tuesday 15:01 UTC is past midnight in Tokyo: the group's day of 321 closes. Ann is still on 321,
        // on Los Angeles' Tuesday, until 08:00 UTC on Wednesday.
        let closing = EngineHarness.monday + 86_400 + 3 * 3600 + 60
        let ann = try #require(try await bot.store.write { try await $0.player(UserID(1)) })
        #expect(ann.puzzle(at: closing, schedule: .tessera) == PuzzleNumber(321))
        let engine = bot.engine
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        let word = try bot.answer(puzzle: PuzzleNumber(321)).uppercased()
        let results = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message)
        #expect(!results.html.uppercased().contains(word), "\(results.html)")
        // 08:00 UTC on Wednesday is 17:00 in Tokyo, the group's time.
        #expect(results.html.contains("🔒 The word follows when Ann has played, or at 17:00."), "\(results.html)")
        #expect(try await bot.store.write { try await engine.closeDays(at: closing + 12 * 3600, in: $0) } == 0)
        // Wednesday 08:01 UTC: her day is over on both zones, and the word follows.
        let over = EngineHarness.monday + 2 * 86_400 - 4 * 3600 + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: over, in: $0) } == 1)
        let reveal = try #require(try await bot.store.pendingMessages(limit: 10, now: over).last?.message)
        #expect(reveal.html.contains("<spoiler>\(word)</spoiler>"), "\(reveal.html)")
    }

    @Test("A large group's post stays short: one line a score, 20 names a list, and counts of the rest")
    func largeSummary() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        for user in 1...40 as ClosedRange<Int64> {
            let name = String(format: "P%02d", user)
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
            try await bot.play(user, name: name, misses: 0)
        }
        _ = try await GroupTeamTests.nextDay(&bot)
        // Tuesday: the last five miss it.
        for user in 1...35 as ClosedRange<Int64> {
            try await bot.play(user, name: String(format: "P%02d", user), misses: user > 30 ? 1 : 0)
        }
        let posts = try await GroupTeamTests.nextDay(&bot)
        let lines = try #require(posts.first).split(separator: "\n").map(String.init)
        let names = { (range: ClosedRange<Int>) in range.map { String(format: "P%02d", $0) }.joined(separator: ", ") }
        #expect(lines[2] == "👑 1/6: " + names(1...20) + ", … and 10 more", "\(lines)")
        #expect(lines[3] == "2/6: " + names(31...35), "\(lines)")
        #expect(lines.contains("😴 Missed: " + names(36...40)), "\(lines)")
        #expect(lines.count == 6, "title, word, two scores, streaks, missed: \(lines)")
    }

    @Test("The crown goes to the fewest guesses, hard mode or not: 2/6* and 2/6 share it on their two lines")
    func crownAcrossHardMode() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        for (user, name) in [(1, "Ann"), (2, "Ben"), (3, "Cat")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        _ = try await bot.send("/hard on", from: 1, name: "Ann")
        try await bot.play(1, name: "Ann", misses: 1)
        try await bot.play(2, name: "Ben", misses: 1)
        try await bot.play(3, name: "Cat", misses: 2)
        let post = try #require(try await GroupTeamTests.nextDay(&bot).first)
        #expect(post.contains("\n👑 2/6*: Ann\n👑 2/6: Ben\n3/6: Cat\n"), "\(post)")
    }

    @Test("A shortlist keeps the first few in order without sorting everything, and counts the rest")
    func shortlist() {
        let streaks = [("Cy", 3), ("Al", 5), ("Bo", 3), ("Di", 1), ("Ed", 5)]
        let longest = Shortlist(streaks, count: 3) { a, b in a.1 != b.1 ? a.1 > b.1 : a.0 < b.0 }
        #expect(longest.shown.map(\.0) == ["Al", "Ed", "Bo"] && longest.more == 2)
        let names = Shortlist(["d", "b", "e", "a", "c"], count: 2, by: <)
        #expect(names.shown == ["a", "b"] && names.more == 3)
        let asListed = Shortlist(["d", "b", "e"], count: 2) { _, _ in false }
        #expect(asListed.shown == ["d", "b"] && asListed.more == 1)
        #expect(Shortlist([Int](), count: 2, by: <).isEmpty)
    }
}
