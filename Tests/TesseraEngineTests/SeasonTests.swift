import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// A group's seasons: a calendar month, or four weeks, ending in one post with the champion, who wears a tag.
@Suite("Seasons", .onBothPaths)
struct SeasonTests {
    /// Moves a day on, closes the days due then, and returns everything queued for the groups.
    static func nextDay(_ bot: inout EngineHarness) async throws -> [OutgoingMessage] {
        bot.now += 86_400
        return try await GroupTeamTests.check(bot, at: bot.now)
    }

    static func seasonPosts(_ messages: [OutgoingMessage]) -> [String] {
        messages.map(\.html).filter { $0.hasPrefix("<b>🏁") && !$0.contains("week") && !$0.contains("semana desde") }
    }

    static func tags(_ messages: [OutgoingMessage]) -> [String] {
        messages.compactMap { message in
            guard case .tagMember(let player, let tag) = message.action else { return nil }
            return "\(player.value):\(tag)"
        }
    }

    static func day(_ text: String) throws -> PuzzleNumber {
        let date = try #require(CivilDate(text))
        return DailySchedule.tessera.puzzle(on: date)
    }

    @Test("A season is a calendar month, or four weeks from a Monday that are the same for every group")
    func seasonDays() throws {
        let schedule = DailySchedule.tessera
        let november = try #require(Season(.month, containing: try Self.day("2026-11-16"), schedule: schedule))
        let (first, last) = (try Self.day("2026-11-01"), try Self.day("2026-11-30"))
        #expect(november.first == first && november.last == last)
        #expect(november.previous(schedule: schedule)?.first == (try Self.day("2026-10-01")))
        #expect(november.keys(schedule: schedule).map(\.rawValue) == ["month:2026-11"])
        let february = try #require(Season(.month, containing: try Self.day("2028-02-29"), schedule: schedule))
        #expect(february.last == (try Self.day("2028-02-29")), "a leap year's February")

        let weeks = try #require(Season(.fourWeeks, containing: try Self.day("2026-11-16"), schedule: schedule))
        let (monday, sunday) = (try Self.day("2026-10-26"), try Self.day("2026-11-22"))
        #expect(weeks.first == monday && weeks.last == sunday)
        #expect(schedule.day(of: weeks.first).weekday == 1, "from a Monday")
        #expect(Season(.fourWeeks, containing: weeks.last.next, schedule: schedule)?.first == weeks.last.next)
        #expect(weeks.keys(schedule: schedule).count == 4)
        #expect(Season(.off, containing: weeks.first, schedule: schedule) == nil)
    }

    @Test(
        "A month's season ends in one post: champion, podium with crowns, best streak, most improved; the champion wears the tag until another wins"
    )
    func monthSeason() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday - 21 * 86_400  // Monday 2026-10-26 12:00 UTC.
        let members = [(1, "Ann"), (2, "Ben"), (3, "Cat")] as [(Int64, String)]
        for (user, name) in members {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // October, six days: Ben wins in 2, Ann in 3, Cat in 5.
        var queued: [OutgoingMessage] = []
        for _ in 0..<6 {
            for (user, name) in members { try await bot.play(user, name: name, misses: [0, 2, 1, 4][Int(user)]) }
            queued = try await Self.nextDay(&bot)
        }
        var posts = Self.seasonPosts(queued)
        #expect(
            posts == [
                """
                <b>🏁 The October season is over.</b>
                🏆 Champion: Ben!

                🥇 Ben — 30 pts 👑6
                🥈 Ann — 24 pts
                🥉 Cat — 12 pts

                🔥 Best streak: Ann, Ben, Cat (6 wins in a row)

                🌱 A new season has begun: everyone starts again from 0.
                """
            ], "\(queued.map(\.html))")
        #expect(Self.tags(queued) == ["2:Champion"])

        // November: Ann wins in 1, Cat improves to 2, Ben slips to 4 and loses on the 10th.
        for day in 1...30 {
            if day == 16 {
                let board = try await bot.text("/leaderboard season", from: 3, name: "Cat", in: -1, group: true)
                #expect(
                    board.hasPrefix("<b>The November season · until Monday 30 November</b>\n🥇 Ann — 90 pts 🔥")
                        && board.contains(" 👑15\n"), "\(board)")
            }
            for (user, name) in members {
                try await bot.play(user, name: name, misses: user == 2 && day == 10 ? 6 : [0, 0, 3, 1][Int(user)])
            }
            queued = try await Self.nextDay(&bot)
            if day < 30 { #expect(Self.seasonPosts(queued).isEmpty && Self.tags(queued).isEmpty) }
        }
        posts = Self.seasonPosts(queued)
        #expect(posts.count == 1, "\(queued.map(\.html))")
        let november = try #require(posts.first)
        #expect(november.hasPrefix("<b>🏁 The November season is over.</b>\n🏆 Champion: Ann!\n\n🥇 Ann — 180 pts 👑30\n"))
        #expect(november.contains("\n🥈 Cat — 150 pts\n🥉 Ben — 87 pts\n"), "\(november)")
        #expect(november.contains("\n📈 Most improved: Cat (5.0 → 2.0 guesses a game)\n"), "\(november)")
        #expect(november.contains("\n🔥 Best streak: Ann, Cat (36 wins in a row)\n"), "wins before the season count")
        #expect(Self.tags(queued) == ["2:", "1:Champion"], "Ben's tag goes, Ann's comes")

        // Seasons turned off: the champion's tag is handed back, and no season ends any more.
        let off = try await bot.send("/settings season off", from: 1, name: "Ann", in: -1, group: true, admin: true)
        #expect(Self.tags(off) == ["1:"])
        #expect(off.first?.html == "✅ Seasons: off")
        let board = try await bot.text("/leaderboard season", from: 2, name: "Ben", in: -1, group: true)
        #expect(board.hasPrefix("This group plays without seasons"), "\(board)")
    }

    @Test("Four weeks' season in Spanish, with the most skilful by analysed games; no tags where there are none")
    func spanishFourWeeks() async throws {
        var bot = try EngineHarness { $0.platform = PlatformTraits(memberTags: false) }
        bot.now = EngineHarness.monday + 4 * 86_400  // Friday 2026-11-20: the season's last three days.
        try await bot.group(-2, language: .spanish)
        let saved = try await bot.text(
            "/settings season 4weeks", from: 1, name: "Lucía", in: -2, group: true, admin: true, appLanguage: "es")
        #expect(saved == "✅ Temporadas: cuatro semanas desde un lunes", "\(saved)")
        for (user, name) in [(1, "Lucía"), (2, "Pau")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -2, group: true, appLanguage: "es")
        }
        var queued: [OutgoingMessage] = []
        // One analyst for every day: its tables are built once.
        let analyst = GameAnalyst()
        for _ in 0..<3 {
            try await bot.play(1, name: "Lucía", misses: 2, language: .spanish)
            try await bot.play(2, name: "Pau", misses: 1, language: .spanish)
            _ = try await bot.analyseWaitingGames(analyst: analyst)
            queued = try await Self.nextDay(&bot)
        }
        let posts = Self.seasonPosts(queued)
        #expect(posts.count == 1, "\(queued.map(\.html))")
        let post = try #require(posts.first)
        #expect(
            post.hasPrefix(
                "<b>🏁 Terminó la temporada de las cuatro semanas desde el lunes 26 de octubre.</b>\n"
                    + "🏆 Gana la temporada: Pau\n\n🥇 Pau — 15 pts 👑3\n🥈 Lucía — 12 pts\n"), "\(post)")
        #expect(post.contains("\n🎯 Más habilidad: Pau (habilidad "), "\(post)")
        #expect(post.hasSuffix("\n\n🌱 Empieza una temporada nueva: todos vuelven a 0."))
        #expect(Self.tags(queued).isEmpty, "a platform without member tags is never asked")
        #expect(
            !queued.contains { $0.html.contains("Terminó la semana") },
            "the season's post stands for the week's that ends with it: \(queued.map(\.html))")
        try await bot.play(1, name: "Lucía", misses: 0, language: .spanish)
        let board = try await bot.text("/leaderboard temporada", from: 1, name: "Lucía", in: -2, group: true)
        #expect(
            board.hasPrefix("<b>La temporada de las cuatro semanas desde el lunes 23 de noviembre · hasta"), "\(board)")
    }

    @Test("A season played on one day has had its summary; a group with its summary off gets no season post")
    func quietSeasons() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday + 14 * 86_400  // Monday 2026-11-30, the month's last day.
        try await bot.send("/join", from: 1, name: "Ann", in: -1, group: true)
        try await bot.play(1, name: "Ann", misses: 1)
        var queued = try await Self.nextDay(&bot)
        #expect(Self.seasonPosts(queued).isEmpty && Self.tags(queued).isEmpty, "\(queued.map(\.html))")

        try await bot.send("/join", from: 1, name: "Ann", in: -2, group: true)
        try await bot.send("/settings summary off", from: 1, name: "Ann", in: -2, group: true, admin: true)
        for _ in 0..<31 {
            try await bot.play(1, name: "Ann", misses: 1)
            queued = try await Self.nextDay(&bot)
            #expect(!queued.contains { $0.chat == ChatID(-2) }, "\(queued.map(\.html))")
        }
    }
}
