import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// A family's November in one English group, through the real daemon, the fake Bot API and the clock file (issue
/// 55): Lucía in Madrid, the administrator, who plays in Spanish; Ben in New York, in hard mode, every evening; Dai,
/// in Tokyo, who moves to London on the 10th and leaves the board on the 27th; Pat, who only pastes the original
/// game's results; and Eva, who joins on the 15th. Each member's day is their own: every post is checked against it.
///
/// With `TESSERA_TRANSCRIPTS` set to a directory, the group's posts of the month are written to `month.txt` there,
/// as the family read them, with the counts the issue asks for.
@Suite("A family's month in one group, through the daemon", .serialized)
struct FamilyMonthDaemonTests {
    enum Member: Int64, CaseIterable, FamilyMember {
        case lucía = 1
        case ben, dai, pat, eva

        var name: String { "\(self)".capitalized }
        var appLanguage: String { self == .lucía ? "es" : "en" }
    }

    /// The days (of November) a member does not play: each is nudged for once, on their own evening.
    static let skipped: [Member: Set<Int>] = [.dai: [3, 20], .ben: [6, 22], .eva: [25]]
    static let (daiMoves, daiLeaves, evaJoins) = (10, 27, 15)

    /// Each member's wrong words before the answer on November `day`: their guesses are one more.
    static func misses(of member: Member, on day: Int) -> Int {
        switch member {
        case .lucía: 1 + day % 3
        case .ben: 1 + (day + 1) % 3
        case .dai: 1 + (day + 2) % 3
        case .eva: 2 + day % 2
        case .pat: 0
        }
    }

    static func plays(_ member: Member, on day: Int) -> Bool {
        guard !(skipped[member] ?? []).contains(day) else { return false }
        switch member {
        case .lucía, .ben: return true
        case .dai: return day < daiLeaves
        case .eva: return day >= evaJoins
        case .pat: return false
        }
    }

    @Test("November: everyone counted in their own language, nudged on their own evening, crowned when the day is in")
    func month() async throws {
        // Saturday 31 October, 13:00 in Madrid: the group is set up the day before the month begins.
        let family = try await FamilyChat<Member>(at: "2026-10-31T12:00:00Z", administrator: .lucía)
        let fake = family.fake
        try await fake.push([FakeTelegram.added(to: -1, by: Member.lucía.rawValue, name: "Lucía", languageCode: "es")])
        _ = try await family.post(containing: "👋")
        _ = try await family.reply(to: "/settings timezone Europe/Madrid", from: .lucía, inGroup: true)
        _ = try await family.post(containing: "📣")
        #expect(try await family.reply(to: "/settings nudge on", from: .lucía, inGroup: true).text.hasPrefix("✅"))
        _ = try await family.reply(to: "/start", from: .lucía)
        _ = try await family.reply(to: "/start", from: .ben)
        _ = try await family.reply(to: "/timezone America/New_York", from: .ben)
        _ = try await family.reply(to: "/hard on", from: .ben)
        _ = try await family.reply(to: "/start", from: .dai)
        _ = try await family.reply(to: "/timezone Asia/Tokyo", from: .dai)
        for member in [Member.lucía, .ben, .dai] { try await family.send("/join", from: member, inGroup: true) }
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 3 }

        func play(_ member: Member, _ day: Int) async throws {
            let (language, puzzle) = (member == .lucía ? Language.spanish : .english, 304 + day)
            try await family.play(
                try FamilyWeekDaemonTests.win(language, puzzle, misses: Self.misses(of: member, on: day)), as: member,
                puzzle: puzzle)
        }
        func date(_ day: Int, _ time: String) -> String {
            day <= 30 ? String(format: "2026-11-%02dT%@Z", day, time) : "2026-12-01T\(time)Z"
        }
        var nudges: [String] = []
        // The group's posts of each day of the month, from its first post on to the next day's.
        var postsPerDay: [Int] = []
        func groupPosts() async throws -> Int {
            try await fake.sent().filter { $0.chat == -1 && $0.replyTo == nil }.count
        }
        var postsBefore = try await groupPosts()
        for day in 1...30 {
            let puzzle = 304 + day
            let dai = day <= Self.daiMoves ? "Tokyo" : "London"
            try await family.at(date(day, "09:00:00"), "November \(day), 18:00 in Tokyo, 10:00 in Madrid")
            // A reaction on Telegram; the text, where there are none, says the days played stay.
            if day == Self.daiLeaves { try await family.send("/leave", from: .dai, inGroup: true) }
            if dai == "Tokyo" && Self.plays(.dai, on: day) { try await play(.dai, day) }
            if day == Self.daiMoves {
                // Played today in Tokyo: no day is replayed or skipped by the move.
                #expect(
                    try await family.reply(to: "/timezone Europe/London", from: .dai).text.contains("\(puzzle + 1)"))
            }
            try await family.at(date(day, "10:00:00"), "11:00 in Madrid")
            try await play(.lucía, day)
            try await family.send("Wordle 1,\(960 + day) 4/6", from: .pat, inGroup: true)
            if day == Self.evaJoins { try await family.send("/join", from: .eva, inGroup: true) }
            if Self.plays(.eva, on: day) { try await play(.eva, day) }
            if dai == "Tokyo" && !Self.plays(.dai, on: day) {
                try await family.at(date(day, "12:05:00"), "21:05 in Tokyo")
                nudges.append(try await family.post(containing: "⏳ Still to play").text)
            }
            if dai == "London" && day < Self.daiLeaves {
                try await family.at(date(day, "17:00:00"), "17:00 in London")
                if Self.plays(.dai, on: day) { try await play(.dai, day) }
            }
            if day >= Self.evaJoins && !Self.plays(.eva, on: day) {
                try await family.at(date(day, "20:05:00"), "21:05 in Madrid")
                nudges.append(try await family.post(containing: "⏳ Still to play").text)
            }
            if dai == "London" && day < Self.daiLeaves && !Self.plays(.dai, on: day) {
                try await family.at(date(day, "21:05:00"), "21:05 in London")
                nudges.append(try await family.post(containing: "⏳ Still to play").text)
            }
            try await family.at(date(day, "23:00:30"), "midnight in Madrid")
            _ = try await family.post(containing: "Puzzle \(puzzle) so far")
            if Self.plays(.ben, on: day) {
                try await family.at(date(day + 1, "01:00:00"), "20:00 in New York")
                try await play(.ben, day)
            } else {
                try await family.at(date(day + 1, "02:05:00"), "21:05 in New York")
                nudges.append(try await family.post(containing: "⏳ Still to play").text)
                try await family.at(date(day + 1, "05:00:30"), "midnight in New York")
            }
            _ = try await family.post(containing: "Everyone here is done with puzzle \(puzzle).")
            if day > 1 && day % 7 == 1 { _ = try await family.post(containing: "🏁") }
            if day == 30 { _ = try await family.post(containing: "November season") }
            let postsNow = try await groupPosts()
            postsPerDay.append(postsNow - postsBefore)
            postsBefore = postsNow
        }
        try await family.at("2026-12-01T09:00:00Z", "December 1, 10:00 in Madrid")

        // Every nudge named the one member whose own evening it was, and nobody else; never Pat.
        #expect(
            nudges == [
                "⏳ Still to play today: Dai", "⏳ Still to play today: Ben", "⏳ Still to play today: Dai",
                "⏳ Still to play today: Ben", "⏳ Still to play today: Eva",
            ], "\(nudges)")
        let posts = try await fake.sent().filter { $0.chat == -1 && $0.replyTo == nil }
        let edits = try await fake.edits().filter { $0.chat == -1 }
        #expect(posts.filter { $0.text.hasPrefix("⏳ Still to play") }.count == nudges.count, "no other nudge")
        // A day's posts as the family read them last: the final post as analyses edited it.
        func lastVersion(_ post: FakeTelegram.SentMessage) -> String {
            edits.last { $0.messageID == post.messageID }?.text ?? post.text
        }
        var counted: [Member: Int] = [:]
        for day in 1...30 {
            let puzzle = 304 + day
            let soFar = posts.filter { $0.text.contains("Puzzle \(puzzle) so far") }
            let final = posts.filter { $0.text.contains("Everyone here is done with puzzle \(puzzle).") }
            #expect(soFar.count == 1 && final.count == 1, "one post so far and one reveal for \(puzzle)")
            #expect(soFar.allSatisfy { !$0.text.contains("👑") }, "no crown before the day is in: \(soFar)")
            #expect(
                soFar.allSatisfy { !$0.text.contains("😴") && !$0.text.contains("Streaks") },
                "who missed the day and the streaks are said once, in the final post: \(soFar)")
            guard let post = final.first.map(lastVersion) else { continue }
            let lines = post.components(separatedBy: "\n")
            #expect(lines.count <= 12, "\(lines.count) lines: \(post)")
            let spanish = try FamilyGroupDaemonTests.answer(.spanish, puzzle).uppercased()
            #expect(post.contains("in Spanish, <tg-spoiler>\(spanish)</tg-spoiler>"), "as written: \(post)")
            let players = Member.allCases.filter { Self.plays($0, on: day) }
            let best = players.map { Self.misses(of: $0, on: day) }.min()
            for member in players {
                let line = lines.first { $0.contains("\(member.name)") && $0.contains("/6") }
                #expect(line != nil, "\(member.name) on the board of \(puzzle): \(post)")
                if line != nil { counted[member, default: 0] += 1 }
                if member == .lucía { #expect(line?.contains("Lucía (Spanish)") == true, "\(post)") }
                let crowned = Self.misses(of: member, on: day) == best
                #expect(line?.hasPrefix("👑") == crowned, "\(member.name) crowned \(crowned) on \(puzzle): \(post)")
            }
            #expect(!post.contains("Pat") || post.contains("📋"), "Pat only on the pasted line: \(post)")
            #expect(!post.contains("Missed") || (Self.skipped.values.contains { $0.contains(day) }), "\(post)")
        }
        // Dai left on the 27th; the days he played stay in the season.
        let season = try #require(posts.last { $0.text.contains("November season") }).text
        #expect(season.contains("Dai"), "\(season)")

        // The counts the issue asks for, under the month's posts.
        let lines = posts.map { $0.text.components(separatedBy: "\n").count }
        family.note(
            "Posts: \(posts.count) in the month's 30 days, \(postsPerDay.min() ?? 0)–\(postsPerDay.max() ?? 0) a day "
                + "(\(postsPerDay.map(String.init).joined(separator: " "))); edits: \(edits.count)",
            "Lines a post: \(lines.min() ?? 0)–\(lines.max() ?? 0), "
                + String(format: "%.1f on average", Double(lines.reduce(0, +)) / Double(max(1, lines.count))),
            "Nudges: "
                + Member.allCases.map { member in
                    "\(member.name) \(nudges.filter { $0.hasSuffix(": \(member.name)") }.count)"
                }.joined(separator: ", "),
            "Days on the day's board: "
                + Member.allCases.map { "\($0.name) \(counted[$0] ?? 0)" }
                .joined(separator: ", "))
        try family.writeTranscript(named: "month.txt")
        #expect(counted[.lucía] == 30, "the Spanish player counted every day")
        // A so-far post and a reveal each day, a nudge on a member's evening, the week's post on Mondays.
        #expect(postsPerDay.allSatisfy { $0 <= 4 }, "\(postsPerDay)")
        #expect(await family.stop() == 0)
    }
}
