import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Leaderboards: today, yesterday, the week, the month and all time", .onBothPaths)
struct LeaderboardsTests {
    @Test("After /leave, the days played stay on the week's, the month's and the season's boards; all time is members'")
    func historyAfterLeaving() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        for (user, name) in [(1, "Ann"), (2, "Kei")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.play(1, name: "Ann", misses: 2)
        try await bot.play(2, name: "Kei", misses: 0)
        try await bot.nextDay()
        #expect(
            try await bot.text("/leave", from: 2, name: "Kei", in: -1, group: true)
                == "Kei has left this group's board; the days already played stay in its weeks and seasons. Play or "
                + "/join here to come back.")
        try await bot.play(1, name: "Ann", misses: 1)
        try await bot.nextDay()
        for period in ["week", "month", "season"] {
            let board = try await bot.text("/leaderboard \(period)", from: 1, name: "Ann", in: -1, group: true)
            #expect(board.contains("🥇 Ann — 9 pts") && board.contains("🥈 Kei — 6 pts 👑1"), "\(period): \(board)")
            #expect(!board.contains("Kei — 6 pts 👑1 · "), "no missed days asked of who left: \(board)")
        }
        let allTime = try await bot.text("/leaderboard all", from: 1, name: "Ann", in: -1, group: true)
        #expect(allTime.contains("Ann") && !allTime.contains("Kei"), "\(allTime)")
    }

    @Test("Week and month boards: 7 − guesses, nothing for a loss, missed days shown, streaks")
    func periodBoards() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        for misses in [2, 1, nil, 3] {  // Monday to Thursday; Wednesday missed
            if let misses { try await bot.play(1, name: "Alice", misses: misses) }
            if misses != 3 { try await bot.nextDay() }
        }
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        try await bot.play(2, name: "Bob", misses: 0)
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        try await bot.play(3, name: "Carol", misses: 6)
        let week = try await bot.text("/leaderboard week", in: -1, group: true)
        #expect(
            week == """
                <b>Leaderboard · this week (since 2026-11-16)</b>
                🥇 Alice — 12 pts 🔥1 👑2
                   3/3 won · avg 3.0 · missed 1
                🥈 Bob — 6 pts 🔥1
                   1/1 won · avg 1.0
                3. Carol — 0 pts
                   0/1 won
                <i>Points: 7 − guesses for a win, +1 in hard mode, 0 for a loss or a missed day.</i>
                """)
        let month = try await bot.text("/leaderboard month", in: -1, group: true)
        // Alice's crowns are Monday's and Tuesday's: Thursday's results are not all in yet.
        #expect(month.hasPrefix("<b>Leaderboard · this month (since 2026-11-01)</b>\n🥇 Alice — 12 pts 🔥1 👑2\n"))
        #expect(try await bot.text("/leaderboard fortnight", in: -1, group: true).hasPrefix("I don't know the period"))
    }

    @Test("A missed day shows once it is over and stays, whatever days a member east of the group has played ahead")
    func missedDayHoldsStill() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // 12:00 UTC, puzzle 320
        try await bot.group(-1)
        // Alice in Tokyo is nine hours ahead of the group; Bob in Los Angeles never plays, so each word waits for
        // his day to end, at 08:00 UTC the next day.
        for (user, name, zone) in [(1, "Alice", "Asia/Tokyo"), (2, "Bob", "America/Los_Angeles")]
            as [(Int64, String, String)]
        {
            try await bot.store.write {
                try await $0.save(
                    Player(id: UserID(user), displayName: name, language: .english, timeZone: zone, rolloverHour: 0))
            }
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        let (engine, store) = (bot.engine, bot.store)
        let hour = { (hours: Double) in EngineHarness.monday.addingTimeInterval(hours * 3600) }
        // Monday, Wednesday and Thursday at 21:00 in Tokyo; Friday's puzzle at 01:00 there, Thursday 16:00 UTC.
        for (puzzle, at) in [(320, 0.0), (322, 48), (323, 72), (324, 76)] {
            bot.now = hour(at)
            let now = bot.now
            _ = try await store.write { try await engine.closeDays(at: now, in: $0) }
            try await bot.send(try bot.answer(puzzle: PuzzleNumber(puzzle)), from: 1, name: "Alice")
        }
        var seen: [String] = []
        // Thursday 20:00 UTC (Wednesday is over, Thursday is not), then Friday 12:00 and Saturday 12:00.
        for at in [80.0, 96, 120] {
            bot.now = hour(at)
            let now = bot.now
            _ = try await store.write { try await engine.closeDays(at: now, in: $0) }
            try await store.markSent(try await store.pendingMessages(limit: 100, now: now).map(\.id))
            seen.append(try await bot.text("/leaderboard week", name: "Alice", in: -1, group: true))
        }
        for board in seen {
            #expect(board.contains("🥇 Alice — 24 pts") && board.contains("4/4 won · avg 1.0 · missed 1"), "\(board)")
        }
    }

    @Test("Tessera's boards list who played its puzzle: a member who only pasted Wordle results is not on them")
    func boardsListWhoPlayed() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 6)
        // Bob only pastes the original's results: on the official board, never on Tessera's.
        try await bot.send("Wordle 1,976 X/6", from: 2, name: "Bob", in: -1, group: true)
        for period in ["week", "month", "all"] {
            let board = try await bot.text("/leaderboard \(period)", in: -1, group: true)
            #expect(board.contains("Alice") && !board.contains("Bob"), "\(period): \(board)")
        }
        #expect(try await bot.text("/leaderboard official week", in: -1, group: true).contains("Bob"))
    }

    @Test("All time ranks a shrunk average: one lucky game does not beat a steady player")
    func allTime() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        for day in 0..<5 {
            try await bot.play(1, name: "Alice", misses: 2)
            if day < 4 { try await bot.nextDay() }
        }
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        try await bot.play(2, name: "Bob", misses: 0)
        let board = try await bot.text("/leaderboard all", in: -1, group: true)
        let lines = board.split(separator: "\n")
        #expect(lines[1] == "🥇 Alice — 3.3 per game 🔥5", "\(board)")
        #expect(lines[2] == "   5/5 won · avg 3.0")
        #expect(lines[3] == "🥈 Bob — 3.3 per game 🔥1")
        #expect(lines.dropFirst().dropLast(2).allSatisfy { $0.count <= 32 }, "each fits a phone screen: \(board)")
        #expect(lines.last == "🔥 Day 4 together", "Alice's four closed days: \(board)")
        let first = try await bot.store.write { try await $0.standing(of: UserID(1), in: ChatID(-1), board: .tessera) }
        let second = try await bot.store.write { try await $0.standing(of: UserID(2), in: ChatID(-1), board: .tessera) }
        #expect(
            AllTimeRanking.score(try #require(first), over: PuzzleNumber(bot.puzzle.rawValue - 1), playedAfter: 1)
                > AllTimeRanking.score(
                    try #require(second), over: PuzzleNumber(bot.puzzle.rawValue - 1), playedAfter: 1))
    }

    @Test("All time counts missed days as games worth nothing: one lucky game and a missed day trail steady play")
    func allTimeCountsMissedDays() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Bob wins in one on the first day only; Alice wins in three on all three days.
        for day in 0..<3 {
            if day == 0 { try await bot.play(2, name: "Bob", misses: 0) }
            try await bot.play(1, name: "Alice", misses: 2)
            if day < 2 { try await bot.nextDay() }
        }
        let lines = try await bot.text("/leaderboard all", in: -1, group: true).split(separator: "\n")
        // Alice: (12 + 30) / 13 = 3.23. Bob missed a closed day (today is still open): (6 + 30) / 12 = 3.0;
        // counting his one game alone, he would lead with (6 + 30) / 11 = 3.27.
        #expect(lines[1].hasPrefix("🥇 Alice") && lines[3].hasPrefix("🥈 Bob"), "\(lines)")
    }

    @Test("The member who asks sees their own line on today's board, even below the cut")
    func ownLineOnTodaysBoard() async throws {
        let bot = try EngineHarness()
        for user in 1...25 as ClosedRange<Int64> {
            let name = String(format: "P%02d", user)
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
            try await bot.play(user, name: name, misses: user < 24 ? 0 : 1)
        }
        let board = try await bot.text("/leaderboard", from: 24, name: "P24", in: -1, group: true)
        let lines = board.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(3)) == ["… and 3 more", "24. P24 — 2/6", "… and 1 more"], "\(lines.suffix(4))")
        let other = try await bot.text("/leaderboard", from: 1, name: "P01", in: -1, group: true)
        #expect(!other.contains("P24") && other.hasSuffix("… and 5 more"))
    }

    @Test("/leaderboard yesterday shows the last day that closed, titled as yesterday's, final once its word is out")
    func yesterday() async throws {
        var bot = try EngineHarness()
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 1)
        // Bob is in Los Angeles and has not played: his day of 326 goes on after the group's.
        try await bot.store.write {
            try await $0.save(
                Player(
                    id: UserID(2), displayName: "Bob", language: .english, timeZone: "America/Los_Angeles",
                    rolloverHour: 0))
        }
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        let engine = bot.engine
        bot.now += 12 * 3600 + 60
        let midnight = bot.now
        _ = try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) }
        let summary = try await bot.store.pendingMessages(limit: 10, now: midnight)
        try await bot.store.markSent(summary.map(\.id))
        let yesterday = try await bot.text("/leaderboard yesterday", in: -1, group: true)
        #expect(
            yesterday == "<b>Leaderboard · puzzle 326 · yesterday · late results still count</b>\n🥇 Alice — 2/6",
            "\(yesterday)")
        #expect(try await bot.text("/leaderboard", in: -1, group: true).hasPrefix("No results for puzzle 327"))
        // 08:01 UTC: Bob's day is over, the word is out, and the board is final.
        let over = midnight + 8 * 3600
        _ = try await bot.store.write { try await engine.closeDays(at: over, in: $0) }
        bot.now = over
        let final = try await bot.send("/leaderboard yesterday", in: -1, group: true).last?.html ?? ""
        #expect(final == "<b>Leaderboard · puzzle 326 · yesterday · final</b>\n🥇 Alice — 2/6", "\(final)")
        try await bot.group(-2, language: .spanish)
        #expect(
            try await bot.text("/leaderboard ayer", in: -2, group: true).hasPrefix(
                "Todavía no hay resultados del reto 326"))
    }
}
