import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("The week's post", .onBothPaths)
struct WeekEndTests {
    @Test(
        "The week ends with one post: podium, best streak, the days everyone played; on Monday the week board shows it"
    )
    func weekEnd() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // Monday 2026-11-16, puzzle 320.
        for (user, name) in [(1, "Ann"), (2, "Bob"), (4, "Dee")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Ann plays every day in 2, Dee in 3; Bob from Monday to Friday in 3; Cy only pastes Wordle, every day.
        for day in 0..<7 {
            try await bot.play(1, name: "Ann", misses: 1)
            try await bot.play(4, name: "Dee", misses: 2)
            if day < 5 { try await bot.play(2, name: "Bob", misses: 2) }
            try await bot.send("Wordle 1,\(976 + day) 4/6", from: 3, name: "Cy", in: -1, group: true)
            if day < 6 { try await bot.nextDay() }
        }
        let engine = bot.engine
        let closing = bot.now + 12 * 3600 + 60  // Monday 2026-11-23, 00:01 UTC.
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 2)
        let posts = try await bot.store.pendingMessages(limit: 10, now: closing).map(\.message)
        #expect(posts.first?.html.hasPrefix("<b>🔓 Everyone here is done with puzzle 326.</b>") == true)
        #expect(
            posts.last?.html == """
                <b>🏁 The week since Monday 16 November is over.</b>
                🥇 Ann — 35 pts 🏆
                🥈 Dee — 28 pts
                🥉 Bob — 20 pts
                🔥 Best streak: Ann, Dee (7)
                👪 Everyone played on 6 of 7 days.
                """,
            "Saturday, Bob missed; on Sunday he was not waited for, as its post said: \(posts.last?.html ?? "")")
        #expect(posts.last?.silent == true && posts.last?.atMostOnce == true)
        #expect(try await bot.store.write { try await engine.closeDays(at: closing + 60, in: $0) } == 0, "once")

        // Monday morning: until someone plays the new week, its board is the week that ended.
        bot.now = closing + 8 * 3600
        try await bot.store.markSent(try await bot.store.pendingMessages(limit: 10, now: closing).map(\.id))
        let monday = try await bot.text("/leaderboard week", from: 2, name: "Bob", in: -1, group: true)
        #expect(monday.hasPrefix("<b>Leaderboard · last week (since 2026-11-16)</b>\n🥇 Ann — 35 pts"), "\(monday)")
        try await bot.play(2, name: "Bob", misses: 0)
        let newWeek = try await bot.text("/leaderboard week", from: 2, name: "Bob", in: -1, group: true)
        #expect(newWeek.hasPrefix("<b>Leaderboard · this week (since 2026-11-23)</b>\n🥇 Bob — 6 pts"), "\(newWeek)")
    }

    @Test(
        "A board that began during the week counts the days played together from its first day, as the day posts do",
        arguments: [
            (Language.english, "👪 Everyone played on 3 of the 3 days since this board began."),
            (Language.spanish, "👪 Todos jugaron 3 de los 3 días desde que empezó esta clasificación."),
        ])
    func weekEndOfANewBoard(language: Language, line: String) async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday + 4 * 86_400  // Friday 2026-11-20, puzzle 324.
        if language == .spanish {
            _ = try await bot.send("/settings language es", from: 1, name: "Ann", in: -1, group: true, admin: true)
        }
        for (user, name) in [(1, "Ann"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
            if language == .spanish { _ = try await bot.send("/language es", from: user, name: name) }
        }
        // Ann plays from Friday, Bob from Saturday: he joined on Friday without playing, so nobody missed a day
        // (each day's post said "Day N together" too).
        for day in 0..<3 {
            try await bot.play(1, name: "Ann", misses: 1, language: language)
            if day > 0 { try await bot.play(2, name: "Bob", misses: 2, language: language) }
            if day < 2 { try await bot.nextDay() }
        }
        let engine = bot.engine
        let closing = bot.now + 12 * 3600 + 60  // Monday 2026-11-23, 00:01 UTC.
        _ = try await bot.store.write { try await engine.closeDays(at: closing, in: $0) }
        let week = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message.html)
        #expect(week.hasSuffix("\n" + line), "\(week)")
    }
}
