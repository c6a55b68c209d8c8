import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// The group as a team: its run of days together, told in the day's post and under `/leaderboard`.
@Suite("The group as a team", .onBothPaths)
struct GroupTeamTests {
    /// Moves a day on, closes the days due then, and returns what the groups were posted.
    static func nextDay(_ bot: inout EngineHarness) async throws -> [String] {
        bot.now += 86_400
        let (engine, now) = (bot.engine, bot.now)
        _ = try await bot.store.write { try await engine.closeDays(at: now, in: $0) }
        let pending = try await bot.store.pendingMessages(limit: 100, now: now)
        try await bot.store.markSent(pending.map(\.id))
        return pending.map(\.message.html)
    }

    @Test(
        "The group streak: everyone who played the day before plays again; a miss ends it once, pastes count, leaving does not hold it back"
    )
    func groupStreak() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // Monday 2026-11-16 12:00 UTC, puzzle 320.
        for (user, name) in [(1, "Ann"), (2, "Ben")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // The group's run leads its line; the members' streaks follow it.
        let lines = { (posts: [String], mark: String) in
            posts.joined().components(separatedBy: "\n").filter { $0.hasPrefix(mark) }.map {
                $0.components(separatedBy: " · ")[0]
            }
        }
        let together = { (posts: [String]) in lines(posts, "🔥 Day") }
        let ended = { (posts: [String]) in lines(posts, "🌱") }

        // Monday: a run's first day, played together, is day 1; the best result has the crown, shared.
        try await bot.play(1, name: "Ann", misses: 1)
        try await bot.play(2, name: "Ben", misses: 1)
        var posts = try await Self.nextDay(&bot)
        #expect(posts.count == 1 && posts[0].contains("\n👑 2/6: Ann, Ben\n"), "\(posts)")
        #expect(together(posts) == ["🔥 Day 1 together"] && ended(posts).isEmpty)

        // Tuesday: Cat joins and plays too.
        try await bot.send("/join", from: 3, name: "Cat", in: -1, group: true)
        for (user, name) in [(1, "Ann"), (2, "Ben"), (3, "Cat")] as [(Int64, String)] {
            try await bot.play(user, name: name, misses: Int(user))
        }
        posts = try await Self.nextDay(&bot)
        #expect(together(posts) == ["🔥 Day 2 together"], "\(posts)")
        #expect(posts[0].contains("\n👑 2/6: Ann\n3/6: Ben\n4/6: Cat\n"))

        // Wednesday: Cat misses it; the run ends, and the post says so once.
        try await bot.play(1, name: "Ann", misses: 2)
        try await bot.play(2, name: "Ben", misses: 2)
        posts = try await Self.nextDay(&bot)
        #expect(
            ended(posts) == ["🌱 The group's 2 days together end here. Every run starts with one day."], "\(posts)")
        #expect(together(posts).isEmpty)

        // Thursday: Cat is not waited for after missing a day; the new run has its second day.
        try await bot.play(1, name: "Ann", misses: 0)
        try await bot.play(2, name: "Ben", misses: 3)
        posts = try await Self.nextDay(&bot)
        #expect(together(posts) == ["🔥 Day 2 together"] && ended(posts).isEmpty, "\(posts)")

        // Friday: Ben only pastes the original Wordle of the date: he played.
        try await bot.play(1, name: "Ann", misses: 4)
        let official = DailySchedule.wordle.puzzle(at: bot.now, rollover: .utc)
        try await bot.send("Wordle \(official.grouped) 3/6", from: 2, name: "Ben", in: -1, group: true)
        posts = try await Self.nextDay(&bot)
        #expect(together(posts) == ["🔥 Day 3 together"], "\(posts)")

        // Saturday: the run shows under the board, whoever asks; Ben leaves, and is not waited for.
        let board = try await bot.text("/leaderboard", from: 3, name: "Cat", in: -1, group: true)
        #expect(board.hasSuffix("\n\n🔥 Day 3 together"), "\(board)")
        let officialBoard = try await bot.text("/leaderboard official", from: 3, name: "Cat", in: -1, group: true)
        #expect(!officialBoard.contains("together"), "the official board is not the team's")
        try await bot.send("/leave", from: 2, name: "Ben", in: -1, group: true)
        try await bot.play(1, name: "Ann", misses: 1)
        posts = try await Self.nextDay(&bot)
        #expect(together(posts) == ["🔥 Day 4 together"], "\(posts)")

        // Sunday: nobody plays. No summary (only the week's post), and the run is over without a word.
        posts = try await Self.nextDay(&bot)
        #expect(posts.count == 1 && posts[0].hasPrefix("<b>🏁") && !posts[0].contains("together"), "\(posts)")
        let monday = try await bot.text("/leaderboard week", from: 1, name: "Ann", in: -1, group: true)
        #expect(!monday.contains("together"), "\(monday)")
        try await bot.play(1, name: "Ann", misses: 1)
        posts = try await Self.nextDay(&bot)
        #expect(together(posts) == ["🔥 Day 1 together"] && ended(posts).isEmpty, "a new run's first day: \(posts)")
    }

    @Test("A Spanish group's days together, in Spanish")
    func spanish() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.group(-2, language: .spanish)
        for (user, name) in [(1, "Lucía"), (2, "Pau")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -2, group: true, appLanguage: "es")
        }
        var posts: [String] = []
        for _ in 0..<2 {
            try await bot.play(1, name: "Lucía", misses: 1, language: .spanish)
            try await bot.play(2, name: "Pau", misses: 2, language: .spanish)
            posts = try await Self.nextDay(&bot)
        }
        #expect(
            posts.count == 1 && posts[0].contains("\n👑 2/6: Lucía\n3/6: Pau\n")
                && posts[0].contains("\n🔥 Día 2 juntos · "), "\(posts)")
        posts = try await Self.nextDay(&bot)
        #expect(!posts.contains { $0.hasPrefix("<b>El reto") })
        try await bot.play(1, name: "Lucía", misses: 1, language: .spanish)
        try await bot.play(2, name: "Pau", misses: 1, language: .spanish)
        posts = try await Self.nextDay(&bot)
        #expect(!posts.joined().contains("🌱"), "a day nobody played ends the run without a post")
    }

    @Test("A team's stored form reads back, and reads a form from before a field existed as its default")
    func stored() throws {
        let team = GroupTeam(
            streak: GroupStreak(days: 12, through: PuzzleNumber(330)), nudge: true, season: .fourWeeks,
            champions: [UserID(7)])
        #expect(GroupTeam(json: team.json) == team)
        #expect(GroupTeam(json: "{}") == GroupTeam())
        #expect(GroupTeam(json: #"{"nudge":true,"later":1}"#) == GroupTeam(nudge: true))
        #expect(GroupTeam(json: "not json") == nil)
    }
}

extension GroupTeamTests {
    /// Closes the days due at `now` and returns what the groups were posted.
    static func check(_ bot: EngineHarness, at now: Date) async throws -> [OutgoingMessage] {
        let engine = bot.engine
        _ = try await bot.store.write { try await engine.closeDays(at: now, in: $0) }
        let pending = try await bot.store.pendingMessages(limit: 100, now: now)
        try await bot.store.markSent(pending.map(\.id))
        return pending.map(\.message)
    }

    @Test(
        "The nudge: opt-in, once a day before the summary, naming who can still play and played lately, never who said /remind off"
    )
    func nudge() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // Monday 2026-11-16 12:00 UTC, puzzle 320; the group's day is UTC's.
        try await bot.store.write {
            try await $0.save(
                Player(id: UserID(5), displayName: "Eve", language: .english, timeZone: "Asia/Tokyo", rolloverHour: 0))
        }
        for (user, name) in [(1, "Ann"), (2, "Ben"), (3, "Cat"), (4, "Dee"), (5, "Eve"), (6, "Pat")]
            as [(Int64, String)]
        {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Monday: everyone but Cat plays; Pat pastes the original Wordle. Dee wants no reminders.
        for (user, name) in [(1, "Ann"), (2, "Ben"), (4, "Dee"), (5, "Eve")] as [(Int64, String)] {
            try await bot.play(user, name: name, misses: 2)
        }
        let official = DailySchedule.wordle.puzzle(at: bot.now, rollover: .utc)
        try await bot.send("Wordle \(official.grouped) 4/6", from: 6, name: "Pat", in: -1, group: true)
        try await bot.send("/remind off", from: 4, name: "Dee")
        let tuesday = EngineHarness.monday + 12 * 3600  // 00:00 UTC
        _ = try await Self.check(bot, at: tuesday + 60)

        // Tuesday: off by default, so no nudge at 21:00.
        bot.now = tuesday + 9 * 3600
        try await bot.play(1, name: "Ann", misses: 1)
        #expect(try await Self.check(bot, at: tuesday + 21 * 3600 + 5).isEmpty)
        // Wednesday, an administrator turns it on; the settings say so.
        let wednesday = tuesday + 86_400
        bot.now = wednesday + 8 * 3600
        _ = try await Self.check(bot, at: wednesday + 60)
        let saved = try await bot.text("/settings nudge on", from: 1, name: "Ann", in: -1, group: true, admin: true)
        #expect(saved == "✅ Nudge 3 hours before a member's own day ends: on", "one line, the one that changed")
        try await bot.play(1, name: "Ann", misses: 1)
        #expect(try await Self.check(bot, at: wednesday + 20 * 3600 + 59 * 60).isEmpty, "not before 21:00")
        // 21:00 UTC is 06:00 on Thursday in Tokyo: Eve cannot play Wednesday's puzzle any more. Ben played on
        // Monday; Pat only pastes the original's, and is never told to play this one; Cat never played; Dee
        // said /remind off.
        let nudges = try await Self.check(bot, at: wednesday + 21 * 3600 + 5)
        #expect(nudges.map(\.html) == ["⏳ Still to play today: Ben"], "\(nudges.map(\.html))")
        let nudge = try #require(nudges.first)
        #expect(nudge.silent && nudge.atMostOnce && nudge.chat == ChatID(-1))
        #expect(nudge.buttons.joined().map(\.directChatStart) == ["play-en"])
        #expect(nudge.buttons.joined().map(\.style) == [.success])
        #expect(try await Self.check(bot, at: wednesday + 21 * 3600 + 600).isEmpty, "once a day")

        // Thursday: everyone expected has played by 21:00; no post.
        let thursday = wednesday + 86_400
        bot.now = thursday + 10 * 3600
        _ = try await Self.check(bot, at: thursday + 60)
        for (user, name) in [(1, "Ann"), (2, "Ben")] as [(Int64, String)] {
            try await bot.play(user, name: name, misses: 1)
        }
        let pasted = DailySchedule.wordle.puzzle(at: bot.now, rollover: .utc)
        try await bot.send("Wordle \(pasted.grouped) 5/6", from: 6, name: "Pat", in: -1, group: true)
        #expect(try await Self.check(bot, at: thursday + 21 * 3600 + 5).isEmpty, "everyone expected played")

        // Friday: a group whose summary is off is never nudged.
        let friday = thursday + 86_400
        bot.now = friday + 8 * 3600
        _ = try await Self.check(bot, at: friday + 60)
        _ = try await bot.send("/settings summary off", from: 1, name: "Ann", in: -1, group: true, admin: true)
        #expect(try await Self.check(bot, at: friday + 21 * 3600 + 5).isEmpty)
    }

    /// A Madrid group with the nudge on, on Monday 2026-11-16 12:00 UTC (puzzle 320 in both zones): Ana, in
    /// Madrid, and a member of `name` in `zone`, each having played Monday's puzzle.
    static func nudgedGroup(with name: String, in zone: String) async throws -> EngineHarness {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.group(-1, timeZone: "Europe/Madrid")
        for (user, name, zone) in [(1, "Ana", "Europe/Madrid"), (2, name, zone)] as [(Int64, String, String)] {
            try await bot.store.write {
                try await $0.save(
                    Player(id: UserID(user), displayName: name, language: .english, timeZone: zone, rolloverHour: 0))
            }
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
            try await bot.play(user, name: name, misses: 1)
        }
        _ = try await bot.send("/settings nudge on", from: 1, name: "Ana", in: -1, group: true, admin: true)
        return bot
    }

    /// The nudges among posts.
    static func nudges(_ posts: [OutgoingMessage]) -> [String] {
        posts.map(\.html).filter { $0.hasPrefix("⏳ Still to play") }
    }

    @Test("The nudge fits each member's own day: New York is named at its evening, not Madrid's, at most twice a week")
    func nudgeOnEachMembersDay() async throws {
        var bot = try await Self.nudgedGroup(with: "Ben", in: "America/New_York")
        // Ana plays each morning; Ben has not played since Monday.
        for day in 1...3 {
            let noon = EngineHarness.monday + Double(day) * 86_400
            bot.now = noon
            try await bot.play(1, name: "Ana", misses: 2)
            // 21:00 in Madrid, three hours before the group's day ends: Ben's day has nine hours left.
            #expect(Self.nudges(try await Self.check(bot, at: noon + 8 * 3600 + 5)).isEmpty, "day \(day)")
            // 21:00 in New York: his day ends in three hours; named on two days of seven, then left alone.
            let evening = Self.nudges(try await Self.check(bot, at: noon + 14 * 3600 + 5))
            #expect(evening == (day <= Nudges.timesAWeek ? ["⏳ Still to play today: Ben"] : []), "day \(day)")
        }
    }

    @Test("A member moving west is nudged for the puzzle she is on, never for one her move put behind her")
    func nudgeAfterMovingWest() async throws {
        var bot = try await Self.nudgedGroup(with: "Kei", in: "Asia/Tokyo")
        // Tuesday 20:00 in Tokyo: Kei has not played 321 and moves to New York, from puzzle 322 on.
        let tuesday = EngineHarness.monday + 86_400 - 3600
        bot.now = tuesday
        try await bot.play(1, name: "Ana", misses: 2)
        #expect(try await bot.text("/timezone America/New_York", from: 2, name: "Kei").contains("322"))
        // 21:05 in Tokyo: her day of 321 ends at Tokyo's midnight, and she can still play it.
        #expect(Self.nudges(try await Self.check(bot, at: tuesday + 3600 + 300)) == ["⏳ Still to play today: Kei"])
        // Madrid's midnight: Kei's 321 ended with Tokyo's, so the day is over for everyone: the final post.
        let close = try await Self.check(bot, at: tuesday + 12 * 3600 + 300)
        #expect(close.contains { $0.html.contains("Everyone here is done with puzzle 321") }, "\(close.map(\.html))")
        // 21:05 in New York, still Tuesday there: she is on 322, which has a day to go; no nudge for 321.
        bot.now = tuesday + 15 * 3600 + 300
        #expect(Self.nudges(try await Self.check(bot, at: bot.now)).isEmpty)
        #expect(try await bot.text("/board", from: 2, name: "Kei").hasPrefix("No guesses yet today"))
        // Her day of 322 ends at New York's midnight on Wednesday: nudged then, on her own day.
        #expect(Self.nudges(try await Self.check(bot, at: bot.now + 86_400)) == ["⏳ Still to play today: Kei"])
    }

    @Test("/settings nudge takes on or off; the Spanish nudge")
    func nudgeSetting() async throws {
        #expect(GroupSettingChange.read("nudge on") == .success(.nudge(true)))
        #expect(GroupSettingChange.read("nudge off") == .success(.nudge(false)))
        #expect(GroupSettingChange.read("nudge maybe") == .failure(.usage(setting: "nudge")))
        #expect(
            Language.spanish.texts.nudge(Shortlist(["Lucía", "Pau"], more: 0)) == "⏳ Aún por jugar hoy: Lucía, Pau")
        let english = Language.english.texts
        #expect(english.nudge(Shortlist(["Ann"], more: 3)) == "⏳ Still to play today: Ann, " + english.more(3))
    }
}

extension GroupTeamTests {
    @Test("Crowns on the week and month boards: the days each member had the best result, ties sharing it")
    func crowns() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // Monday 2026-11-16.
        for (user, name) in [(1, "Ann"), (2, "Ben"), (3, "Cat")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // Ann's and Ben's misses each day: Monday Ann wins, Tuesday they tie, Wednesday Ben wins; Cat loses.
        for (ann, ben) in [(1, 2), (1, 1), (3, 0)] {
            try await bot.play(1, name: "Ann", misses: ann)
            try await bot.play(2, name: "Ben", misses: ben)
            try await bot.play(3, name: "Cat", misses: 6)
            _ = try await Self.nextDay(&bot)
        }
        // Thursday: Cat wins today, but today's crown is not given until its results are all in.
        try await bot.play(3, name: "Cat", misses: 0)
        for period in ["week", "month"] {
            let board = try await bot.text("/leaderboard \(period)", from: 3, name: "Cat", in: -1, group: true)
            let lines = board.components(separatedBy: "\n")
            #expect(lines.contains { $0.contains("Ann — ") && $0.hasSuffix(" 👑2") }, "\(period): \(board)")
            #expect(lines.contains { $0.contains("Ben — ") && $0.hasSuffix(" 👑2") }, "\(period): \(board)")
            #expect(!lines.contains { $0.contains("Cat — ") && $0.contains("👑") }, "\(period): \(board)")
        }
        let allTime = try await bot.text("/leaderboard all", from: 3, name: "Cat", in: -1, group: true)
        #expect(!allTime.contains("👑"), "all time ranks averages: \(allTime)")
    }
}
