import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// A family's group over forty days through the real daemon, the fake Bot API and the clock file: every day's
/// summary with its crown and the group's days together, one nudge at most a day naming the right members (each at most twice in seven days), the
/// weeks' and the season's posts (tables where the chat takes them, text where it refuses), the champion's tag
/// where the bot may set it and no call where it may not, and the confetti only for those who keep it.
@Suite("A group's forty days, through the daemon", .serialized)
struct FortyDaysDaemonTests {
    /// Ann, the administrator, plays every day in the morning; Ben in the morning on even days, late on odd days
    /// (after the nudge) and not on day 12; Cat every day, late on some, having said `/remind off` and
    /// `/settings effects off`.
    enum English: Int64, CaseIterable, FortyDaysMember {
        case ann = 1
        case ben, cat
        var name: String { "\(self)".capitalized }
        var appLanguage: String { "en" }
    }

    enum Spanish: Int64, CaseIterable, FortyDaysMember {
        case ann = 1
        case ben, cat
        var name: String { "\(self)".capitalized }
        var appLanguage: String { "es" }
    }

    /// Monday 2 November 2026, the first day: puzzle 306.
    static let firstDay = Date(timeIntervalSince1970: 1_793_577_600)
    static let firstPuzzle = 306
    static let days = 40
    static let benAway = 12

    /// How many guesses each member takes on a day, and when: nil for a member who does not play.
    static func plays(on day: Int) -> [(member: Int64, guesses: Int, late: Bool)] {
        var plays: [(member: Int64, guesses: Int, late: Bool)] = [(1, day % 3 + 1, false)]
        if day != benAway { plays.append((2, day % 2 + 1, day % 2 == 1)) }
        plays.append((3, 3, day % 5 == 4))
        return plays
    }

    @Test("Forty days in English: tables, the November season's post and the champion's tag", .timeLimit(.minutes(8)))
    func english() async throws {
        try await fortyDays(English.self, language: .english)
    }

    @Test(
        "Forty days in Spanish: a chat that refuses tables, four-week seasons, no right to tag", .timeLimit(.minutes(8))
    )
    func spanish() async throws {
        try await fortyDays(Spanish.self, language: .spanish)
    }

    func fortyDays<Member: FortyDaysMember>(_: Member.Type, language: Language) async throws {
        let english = language == .english
        let words = Words(english: english)
        // Set up the day before, so that every setting is in force from the first day.
        let family = try await FamilyChat<Member>(at: Self.iso(day: -1, "T08:00:00Z"), administrator: .ann)
        let fake = family.fake
        if english { try await fake.allowTagging(in: -1) } else { try await fake.refuseRichMessages(in: -1) }
        try await fake.push([
            FakeTelegram.added(to: -1, by: Member.ann.rawValue, name: "Ann", languageCode: language.rawValue)
        ])
        _ = try await family.post(containing: "👋")
        for member in Member.allCases { try await family.send("/join", from: member, inGroup: true) }
        _ = try await family.reply(to: "/settings nudge on", from: .ann, inGroup: true)
        if !english {
            _ = try await family.reply(to: "/settings language es", from: .ann, inGroup: true)
            _ = try await family.reply(to: "/settings season 4weeks", from: .ann, inGroup: true)
        }
        _ = try await family.reply(to: "/remind off", from: .cat)
        _ = try await family.reply(to: "/settings effects off", from: .cat)

        var nudges = 0
        var benNudged: [Int] = []
        var streaks: [Int: String] = [:]
        var points: [Int64: Int] = [:]
        var seasonPosts: [FakeTelegram.SentMessage] = []
        var weekPosts = 0
        for day in 0..<Self.days {
            let puzzle = Self.firstPuzzle + day
            let plays = Self.plays(on: day)
            try await family.at(Self.iso(day: day, "T10:00:00Z"), "day \(day), morning")
            for play in plays where !play.late {
                try await family.play(
                    try FamilyWeekDaemonTests.win(language, puzzle, misses: play.guesses - 1), as: Member(play.member),
                    puzzle: puzzle)
            }
            // The nudge names who has played in the last seven days and not yet today, never Cat.
            try await family.at(Self.iso(day: day, "T21:00:00Z"), "day \(day), three hours before the summary")
            // Ben, late on odd days, is named at most twice in seven days; Cat said /remind off.
            let benLate = day >= 1 && (day % 2 == 1 || day == Self.benAway)
            if benLate && benNudged.filter({ $0 > day - 7 }).count < 2 {
                benNudged.append(day)
                let nudge = try await family.post(containing: words.stillToPlay)
                #expect(nudge.text.hasPrefix("⏳ \(words.stillToPlay): Ben"), "day \(day): \(nudge.text)")
                #expect(!nudge.text.contains("Cat") && !nudge.text.contains("Ann"), "day \(day): \(nudge.text)")
                nudges += 1
            }
            try await family.at(Self.iso(day: day, "T22:45:00Z"), "day \(day), late")
            for play in plays where play.late {
                try await family.play(
                    try FamilyWeekDaemonTests.win(language, puzzle, misses: play.guesses - 1), as: Member(play.member),
                    puzzle: puzzle)
            }
            try await family.at(Self.iso(day: day + 1, "T00:00:30Z"), "day \(day) ends")
            let summary = try await family.post(containing: words.over(puzzle)).text
            // The crown: the fewest guesses of the day, shared.
            let best = plays.map(\.guesses).min() ?? 0
            let crowned = plays.filter { $0.guesses == best }.map { Member($0.member).name }
            let crownLine = summary.components(separatedBy: "\n").first { $0.hasPrefix("👑") } ?? ""
            for member in Member.allCases {
                #expect(
                    crownLine.contains(member.name) == crowned.contains(member.name), "day \(day): \(crownLine)")
            }
            streaks[day] =
                summary.components(separatedBy: "\n").first { $0.contains(words.togetherWord) }?
                .components(separatedBy: " · ")[0]
            for play in plays { points[play.member, default: 0] += 7 - play.guesses }
            #expect(
                try await Self.posts(fake, containing: words.stillToPlay) == nudges,
                "one nudge a day at most, day \(day)")

            // A Monday: the week that ended is summed up, or the season's post stands for both.
            let endsSeason = english ? day == 28 : day == 20
            if endsSeason {
                let season = try await family.post(containing: "🏁")
                seasonPosts.append(season)
                let champion = points.max { $0.value < $1.value }.map { Member($0.key).name } ?? ""
                #expect(season.text.contains("🏆 \(words.champion) \(champion)"), "\(season.text)")
                #expect((season.richHTML?.contains("<table>") ?? false) == english, "a table where the chat takes one")
                points = [:]
            } else if (day + 1) % 7 == 0 {
                let week = try await family.post(containing: "🏁")
                #expect(week.text.contains(english ? "🥇 | " : "🥇 "), "\(week.text)")
                #expect(english ? week.richHTML != nil : week.text.contains(" — "), "\(week.text)")
                weekPosts += 1
            }
        }
        // The group's days together: counted from the first day, ended once by Ben's absence, counted again.
        for day in 0..<Self.benAway {
            #expect(streaks[day] == "🔥 \(words.together(day + 1))", "day \(day): \(streaks[day] ?? "none")")
        }
        #expect(streaks[Self.benAway]?.hasPrefix("🌱") == true, "\(streaks[Self.benAway] ?? "none")")
        #expect(streaks.values.filter { $0.hasPrefix("🌱") }.count == 1, "said once: \(streaks)")
        let after = (Self.benAway + 2)..<Self.days
        let counts = after.compactMap { streaks[$0].flatMap { Int($0.filter(\.isNumber)) } }
        #expect(counts.count == after.count && zip(counts, counts.dropFirst()).allSatisfy { $1 == $0 + 1 })
        #expect(seasonPosts.count == 1 && weekPosts == (english ? 5 : 4), "\(weekPosts) week posts")

        // The tag: the champion, where the bot may set tags; nothing tried where it may not.
        let tags = try await fake.tags()
        if english {
            #expect(tags.map(\.user) == [Member.ben.rawValue] && tags.map(\.tag) == ["Champion"], "\(tags)")
        } else {
            let calls = try await fake.stats()["calls.setChatMemberTag"]
            #expect(tags.isEmpty && calls == nil, "nothing tried without the right")
        }
        // Confetti under each of Ann's forty wins; none for Cat, who turned it off.
        let sent = try await fake.sent()
        #expect(sent.filter { $0.chat == Member.ann.rawValue && $0.effect != nil }.count == Self.days)
        #expect(sent.filter { $0.chat == Member.cat.rawValue && $0.effect != nil }.isEmpty)
        #expect(try await fake.undocumentedParameters() == [])
        if english {
            // Ben, the champion, forgets himself: the tag he wears goes with him (issue 54).
            let question = try await family.reply(to: "/forgetme", from: .ben)
            let confirm = try #require(question.buttons.first?.data)
            try await fake.push([
                FakeTelegram.press(
                    confirm, from: Member.ben.rawValue, name: Member.ben.name, messageID: question.messageID)
            ])
            let untagged = try await fake.wait(
                for: { try await fake.tags() },
                until: { $0.contains { $0.user == Member.ben.rawValue && $0.tag == nil } })
            #expect(untagged.map(\.user) == [Member.ben.rawValue, Member.ben.rawValue], "\(untagged)")
        }
        family.note("—— tags set: \(try await fake.tags().map { "\($0.user): \($0.tag ?? "removed")" })")
        try family.writeTranscript(named: "forty-days-\(language.rawValue).txt")
        #expect(await family.stop() == 0)
    }

    /// The group's posts so far (not replies) containing `text`.
    static func posts(_ fake: FakeTelegram, containing text: String) async throws -> Int {
        try await fake.sent().filter { $0.chat == -1 && $0.replyTo == nil && $0.text.contains(text) }.count
    }

    /// A day's date and a time after it: `2026-11-02T10:00:00Z`.
    static func iso(day: Int, _ time: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: firstDay.addingTimeInterval(Double(day) * 86_400)) + time
    }

    /// The words the test looks for, in the group's language.
    struct Words {
        let english: Bool
        var stillToPlay: String { english ? "Still to play today" : "Aún por jugar hoy" }
        var champion: String { english ? "Champion:" : "Gana la temporada:" }
        func over(_ puzzle: Int) -> String {
            english ? "Everyone here is done with puzzle \(puzzle)." : "Todos aquí han terminado el reto \(puzzle)."
        }
        func together(_ days: Int) -> String { english ? "Day \(days) together" : "Día \(days) juntos" }
        var togetherWord: String { english ? "together" : "juntos" }
    }
}

/// Ann, Ben and Cat, in one language.
protocol FortyDaysMember: FamilyMember, CaseIterable, Hashable {
    static var ann: Self { get }
    static var ben: Self { get }
    static var cat: Self { get }
    init?(rawValue: Int64)
}

extension FortyDaysMember {
    init(_ id: Int64) { self = Self(rawValue: id) ?? .ann }
}
