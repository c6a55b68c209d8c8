import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// A family's group across four time zones and two languages, played over two rollovers through the real
/// daemon, the fake Bot API and the daemon's clock file (docs/groups.md).
@Suite("A family group across time zones and languages, through the daemon", .serialized)
struct FamilyGroupDaemonTests {
    static func answer(_ language: Language, _ puzzle: Int) throws -> String {
        let list = language.wordList
        let secret = try #require(ScheduleSecret(DaemonTests.secret))
        return list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: PuzzleNumber(puzzle)))
            .lowercased()
    }

    /// Allowed words that are not the answer of `puzzle` in `language`.
    static func wrong(_ count: Int, _ language: Language, _ puzzle: Int) throws -> [String] {
        let answer = try Self.answer(language, puzzle)
        let list = language.wordList
        return Array(list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(count))
    }

    /// The players: Lucía in Madrid, whose Telegram is in Spanish and who administers the group; Ben in New
    /// York, Cleo in Los Angeles and Dai in Tokyo; Pat, who only pastes the original game's results.
    enum Member: Int64, FamilyMember {
        case lucía = 1
        case ben, cleo, dai, pat

        var name: String { "\(self)".capitalized }
        var appLanguage: String { self == .lucía ? "es" : "en" }
    }

    @Test(
        "Madrid, New York, Los Angeles and Tokyo: every member's game counts on their own day, in their own language"
    )
    func family() async throws {
        // 09:00 in Madrid: puzzle 326 for everyone.
        let family = try await FamilyChat<Member>(at: "2026-11-22T08:00:00Z", administrator: .lucía)
        let (fake, clock) = (family.fake, family.clock)
        /// Plays words in the direct chat and waits for the board to show them all.
        func play(_ words: [String], as member: Member, puzzle: Int) async throws -> String {
            for word in words { try await family.send(word, from: member) }
            let title = "<b>Tessera \(puzzle)</b> · \(words.count)/6"
            let board = try await fake.waitForSent { sent in
                sent.contains { $0.chat == member.rawValue && $0.text.hasPrefix(title) }
            }
            return try #require(board.last { $0.chat == member.rawValue && $0.text.hasPrefix(title) }?.text)
        }
        /// Waits for the bot's next unprompted post in the group containing `text`.
        func post(containing text: String) async throws -> String {
            let posts = try await fake.waitForSent(timeout: .seconds(30)) { sent in
                sent.contains { $0.chat == -1 && $0.silent && $0.text.contains(text) }
            }
            return try #require(posts.last { $0.chat == -1 && $0.silent && $0.text.contains(text) }?.text)
        }

        // Puzzle 326. A new group's setup applies at once; a value a setting does not take changes nothing.
        let zone = try await family.reply(to: "/settings timezone Europe/Madrid", from: .lucía, inGroup: true).text
        #expect(zone == "✅ Day: Europe/Madrid, new puzzle at 00:00", "one line, applied at once: \(zone)")
        let junk = try await family.reply(to: "/settings rollover 25", from: .lucía, inGroup: true).text
        #expect(junk.hasPrefix("I did not understand that setting") && junk.contains("rollover"), "\(junk)")
        #expect(try await family.reply(to: "/settings", from: .ben, inGroup: true).text.contains("new puzzle at 00:00"))

        // Everyone joins, each with a reaction: Lucía plays in Spanish, and nothing needs explaining.
        let joinID = try await family.send("/join", from: .lucía, inGroup: true)
        for member in [Member.ben, .cleo, .dai] { try await family.send("/join", from: member, inGroup: true) }
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 4 }
        #expect(try await fake.sent().allSatisfy { $0.replyTo != joinID }, "a reaction, not a lecture")
        for (member, zone) in [(Member.ben, "America/New_York"), (.cleo, "America/Los_Angeles"), (.dai, "Asia/Tokyo")] {
            #expect(try await family.reply(to: "/timezone \(zone)", from: member).text.hasPrefix("From puzzle 327 on"))
        }
        // Lucía was first met before the group moved to Madrid, on its old zone: she moves too.
        #expect(try await family.reply(to: "/timezone Europe/Madrid", from: .lucía).text.contains("327"))
        #expect(try await family.reply(to: "/hard maybe", from: .ben).text == "Use /hard on or /hard off.")
        #expect(try await family.reply(to: "/remind maybe", from: .ben).text == "Use /remind on or /remind off.")

        // Puzzle 327, 10:00 UTC. Lucía's own chat plays the Spanish puzzle, and it counts in the group.
        try clock.set("2026-11-23T10:00:00Z")
        _ = try await play(try Self.wrong(3, .spanish, 327) + [try Self.answer(.spanish, 327)], as: .lucía, puzzle: 327)
        let spanishShare = try await family.reply(to: "/share", from: .lucía, inGroup: true).text
        #expect(spanishShare.hasPrefix("Tessera 327 4/6 · Español"), "\(spanishShare)")
        let daiBoard = try await play(
            try Self.wrong(4, .english, 327) + [try Self.answer(.english, 327)], as: .dai, puzzle: 327)
        // Pat only pastes the original game's result of the day (Wordle 1,983 on 2026-11-23).
        let pasted = try await family.send("Wordle 1,983 X/6", from: .pat, inGroup: true)
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 5 }
        #expect(try await fake.reactions().contains { $0.messageID == pasted && $0.emoji == "👌" })
        // With results today, a change waits for the next puzzle.
        let later = try await family.reply(to: "/settings rollover 6", from: .lucía, inGroup: true).text
        #expect(later.contains("From puzzle 328"), "\(later)")
        _ = try await family.reply(to: "/settings rollover 0", from: .lucía, inGroup: true)

        // Midnight in Madrid closes the group's 327: New York and Los Angeles are still in their day.
        try clock.set("2026-11-23T23:00:30Z")
        let summary = try await post(containing: "Puzzle 327 so far")
        #expect(summary.contains("🔒 The word follows when Ben and Cleo have played, or at 09:00."), "\(summary)")
        // Pat pasted the original game's result of the same date: she did not miss the day.
        #expect(summary.contains("📋 Wordle 1,983, pasted: Pat X/6") && !summary.contains("Missed"), "\(summary)")
        #expect(summary.contains("\n4/6: Lucía (Spanish)\n5/6: Dai\n"), "nobody crowned yet: \(summary)")
        for language in [Language.english, .spanish] {
            #expect(!summary.uppercased().contains(try Self.answer(language, 327).uppercased()), "the words wait")
        }

        // 21:00 in New York: Ben solves it in 3, the best of the day, and it counts as if he had finished first.
        try clock.set("2026-11-24T02:00:00Z")
        _ = try await play(try Self.wrong(2, .english, 327) + [try Self.answer(.english, 327)], as: .ben, puzzle: 327)
        #expect(
            try await family.reply(to: "/share", from: .ben, inGroup: true).text.hasPrefix("Tessera 327 3/6\n"), "no *")
        let yesterday = try await family.reply(to: "/leaderboard yesterday", from: .ben, inGroup: true).text
        #expect(yesterday.contains("🥇 | Ben | 3/6"), "\(yesterday)")

        // Dai forwards his finished board into the group: its letters are deleted like a guess, and why is said.
        try await fake.allowDeleting(in: -1)
        let forwarded = daiBoard.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        let forwardID = try await family.send(forwarded, from: .dai, inGroup: true)
        let deleted = { (all: [(chat: Int64, messageID: Int64)]) in all.contains { $0 == (-1, forwardID) } }
        _ = try await fake.wait(for: { try await fake.deleted() }, until: deleted)
        _ = try await fake.waitForSent { $0.contains { $0.chat == -1 && $0.text.hasPrefix("🧹 I deleted that guess") } }

        // Once Los Angeles' day is over, the word comes with the final standings, Ben's late game first.
        try clock.set("2026-11-24T08:00:30Z")
        let reveal = try await post(containing: "Everyone here is done with puzzle 327.")
        #expect(reveal.contains("\n👑 3/6: Ben\n4/6: Lucía (Spanish)\n5/6: Dai\n"), "\(reveal)")
        #expect(reveal.contains("; in Spanish, <tg-spoiler>"), "each word once its players are done: \(reveal)")

        // Puzzle 328: Dai plays; Lucía plays in Spanish again.
        try clock.set("2026-11-24T10:00:00Z")
        _ = try await play(try Self.wrong(1, .english, 328) + [try Self.answer(.english, 328)], as: .dai, puzzle: 328)
        _ = try await play([try Self.answer(.spanish, 328)], as: .lucía, puzzle: 328)

        // The second rollover: Lucía is on the board in Spanish, and nobody whose day is open is missing; Pat,
        // who pasted yesterday, did not today.
        try clock.set("2026-11-24T23:00:30Z")
        let second = try await post(containing: "Puzzle 328 so far")
        #expect(second.contains("\n1/6: Lucía (Spanish)\n2/6: Dai"), "\(second)")
        #expect(second.contains("🔒 The word follows when Ben and Cleo have played, or at 09:00."), "\(second)")
        #expect(!second.contains("Missed"), "who missed the day is said once, in its final post: \(second)")

        // The week: Ben's late 3/6 is worth its 4 points; Pat, who only pasted, is on the official board alone.
        let week = try await family.reply(to: "/leaderboard week", from: .ben, inGroup: true).text
        #expect(week.contains("Ben") && !week.contains("Pat") && !week.contains("Cleo"), "\(week)")
        let benLine = week.components(separatedBy: "\n").first { $0.contains("Ben") } ?? ""
        #expect(benLine.contains("4 pts") && !benLine.contains("missed"), "\(benLine)")
        #expect(!(try await family.reply(to: "/leaderboard all", from: .ben, inGroup: true).text.contains("Pat")))
        #expect(
            try await family.reply(to: "/leaderboard official week", from: .pat, inGroup: true).text.contains("Pat"))
        // Midnight in Los Angeles ends 328 for everyone: Pat, who pasted yesterday, missed it.
        try clock.set("2026-11-25T08:00:30Z")
        let secondFinal = try await post(containing: "Everyone here is done with puzzle 328.")
        #expect(secondFinal.contains("😴 Missed: ") && secondFinal.contains("Pat"), "\(secondFinal)")
        #expect(await family.stop() == 0)
    }
}
