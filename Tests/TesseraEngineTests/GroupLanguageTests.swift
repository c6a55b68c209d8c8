import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// A group across languages and time zones: every member can play the group's puzzle, and their game counts
/// on their own day (docs/groups.md).
@Suite("Every member's game counts: a group across languages and time zones", .onBothPaths)
struct GroupLanguageTests {

    @Test(
        "Every member plays in their own language and counts: on the board with its language, crowned, and each word revealed"
    )
    func everyLanguageCounts() async throws {
        var bot = try EngineHarness()
        try await bot.group(-1)
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        let joined = try await bot.send("/join", from: 2, name: "Lucía", in: -1, group: true, appLanguage: "es")
        #expect(!joined.contains { $0.html.contains("Este grupo juega") }, "nothing to explain: \(joined.map(\.html))")
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 2)
        try await bot.play(2, name: "Lucía", misses: 0, language: .spanish)
        let share = try await bot.text("/share", from: 2, name: "Lucía", in: -1, group: true)
        #expect(share.hasPrefix("Tessera 326 1/6"), "her result, shared like anyone's: \(share)")
        let board = try await bot.text("/leaderboard", in: -1, group: true)
        #expect(board.contains("🥇 Lucía — 1/6 (Spanish)\n🥈 Alice — 3/6"), "\(board)")

        // Two days played together, whatever the languages; Carol, who never played, holds nobody back.
        _ = try await GroupTeamTests.nextDay(&bot)
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.play(2, name: "Lucía", misses: 3, language: .spanish)
        let posts = try await GroupTeamTests.nextDay(&bot)
        let post = try #require(posts.first, "\(posts)")
        #expect(post.contains("\n👑 2/6: Alice\n4/6: Lucía (Spanish)\n🔥 Day 2 together"), "\(post)")
        #expect(!post.contains("Missed"), "\(post)")
    }

    @Test(
        "The day's post reveals each played language's word, crowns the best whatever the language, and misses nobody")
    func summaryOfTwoLanguages() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.send("/join", from: 2, name: "Lucía", in: -1, group: true, appLanguage: "es")
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 2)
        try await bot.play(2, name: "Lucía", misses: 0, language: .spanish)
        let closing = bot.now + 12 * 3600 + 60
        let engine = bot.engine
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message.html)
        let english = try bot.answer(.english).uppercased()
        let spanish = try bot.answer(.spanish).uppercased()
        #expect(
            summary == """
                <b>🔓 Everyone here is done with puzzle 326.</b>
                The word was <spoiler>\(english)</spoiler>; in Spanish, <spoiler>\(spanish)</spoiler>.
                👑 1/6: Lucía (Spanish)
                3/6: Alice
                🔥 Day 1 together
                """, "Carol, who has not begun, is not missed")
    }

    @Test(
        "A group kept to one language says so once; another language's game is shared without a lecture and counts nowhere"
    )
    func oneLanguageOnly() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        let saved = try await bot.text("/settings language en only", in: -1, group: true, admin: true)
        #expect(saved == "✅ Language: English only: games in another language do not count here", "\(saved)")
        let joined = try await bot.send("/join", from: 2, name: "Lucía", in: -1, group: true, appLanguage: "es")
        let notice = try #require(joined.first { $0.html.contains("Este grupo juega") }, "\(joined.map(\.html))")
        #expect(notice.html.contains("el reto en <b>inglés</b>") && notice.html.contains("/play en"), "\(notice.html)")
        #expect(notice.buttons.joined().map(\.directChatStart) == ["play-en"])
        let again = try await bot.text("/join", from: 2, name: "Lucía", in: -1, group: true)
        #expect(!again.contains("Este grupo juega"), "said once: \(again)")

        // Her direct chat plays her own language's puzzle: shared, it is her result, without a word of rules.
        try await bot.play(2, name: "Lucía", misses: 1, language: .spanish)
        let share = try await bot.text("/share", from: 2, name: "Lucía", in: -1, group: true)
        #expect(share.hasPrefix("Tessera 326 2/6 · Español"), "\(share)")
        #expect(!(try await bot.text("/leaderboard", in: -1, group: true)).contains("Lucía"))

        // The group's play button opens the English puzzle, in her language.
        let start = try await bot.text("/start play-en", from: 2, name: "Lucía")
        #expect(start.contains("Tus palabras van al reto de hoy en <b>inglés</b>"), "\(start)")
        let board = try await bot.text(try bot.answer(.english), from: 2, name: "Lucía")
        #expect(board.hasPrefix("<b>Tessera 326</b> · 1/6 · en inglés"), "\(board)")
        #expect(try await bot.text("/share", from: 2, name: "Lucía", in: -1, group: true).hasPrefix("Tessera 326 1/6"))
        let standings = try await bot.text("/leaderboard", in: -1, group: true)
        #expect(standings.contains("Lucía — 1/6"), "\(standings)")

        // A junk choice changes nothing; /play es goes back to her own puzzle.
        #expect(try await bot.text("/play quizás", from: 2, name: "Lucía") == Language.spanish.texts.playUsage)
        #expect(try await bot.store.write { try await $0.player(UserID(2)) }?.playingLanguage == .english)
        #expect(try await bot.text("/play es", from: 2, name: "Lucía").contains("reto de hoy en <b>español</b>"))
        #expect(try await bot.store.write { try await $0.player(UserID(2)) }?.playingLanguage == nil)
        // `/play es` in a group chooses nothing there, and shows no letters: it is not deleted as a guess.
        let message = ChatMessage(
            chat: ChatID(-1), chatKind: .group, sender: UserID(2), senderName: "Lucía", text: "/play es"
        ).readingCommands()
        #expect(bot.engine.questions(for: message).isEmpty)
    }

    @Test("In a group kept to one language, a member who played another is neither missed nor on the board")
    func oneLanguageSummary() async throws {
        var bot = try EngineHarness()
        try await bot.group(-1)
        _ = try await bot.send("/settings language en only", in: -1, group: true, admin: true)
        for (user, name) in [(1, "Alice"), (3, "Carol")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.send("/join", from: 2, name: "Lucía", in: -1, group: true, appLanguage: "es")
        for language in [Language.english, .spanish] {
            try await bot.play(1, name: "Alice", misses: 2)
            try await bot.play(2, name: "Lucía", misses: 0, language: .spanish)
            if language == .english { try await bot.play(3, name: "Carol", misses: 1) }
            if language == .english { try await bot.nextDay() }
        }
        let closing = bot.now + 12 * 3600 + 60
        let engine = bot.engine
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message.html)
        #expect(!summary.contains("Lucía") && !summary.contains("Spanish"), "\(summary)")
        #expect(summary.contains("😴 Missed: Carol"), "Carol played yesterday and was expected: \(summary)")
    }

    @Test("Each platform's service closes its own groups' days, with its own traits: another's are left alone")
    func daysClosedByTheirPlatform() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        let (engine, midnight) = (bot.engine, bot.now + 12 * 3600 + 60)
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight, on: .matrix, in: $0) } == 0)
        let group = try #require(try await bot.store.write { try await $0.group(ChatID(-1)) })
        #expect(group.lastClosedPuzzle < bot.puzzle, "not closed by another platform's service")
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight, on: .scripted, in: $0) } == 1)
    }

    @Test("UTC−12 in a UTC+14 group: two days behind, the member's late game counts and the word waits for it")
    func farthestZones() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        try await bot.group(-1, timeZone: "Pacific/Kiritimati")
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.store.write {
            try await $0.save(
                Player(id: UserID(2), displayName: "Bob", language: .english, timeZone: "Etc/GMT+12", rolloverHour: 0))
        }
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        let puzzle = PuzzleNumber(321)
        try await bot.send(try bot.answer(puzzle: puzzle), from: 1, name: "Alice")

        let engine = bot.engine
        let hour = 3600.0
        // The group's day of 321 ends at 10:00 UTC on Tuesday; Bob's begins at 12:00 UTC that day.
        let groupEnds = EngineHarness.monday + 22 * hour + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: groupEnds, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: groupEnds).last?.message.html)
        // Bob's day of 321 ends at 12:00 UTC on Wednesday: 02:00 on Thursday in the group's zone, where the
        // summary is posted just after midnight on Wednesday.
        #expect(summary.contains("The word follows when Bob has played, or tomorrow at 02:00."), "\(summary)")
        #expect(!summary.contains("Missed"), "\(summary)")
        // A day later the group closes 322 and is on 323; Bob is still on 321 for two more hours.
        let nextDay = groupEnds + 24 * hour
        _ = try await bot.store.write { try await engine.closeDays(at: nextDay, in: $0) }
        bot.now = nextDay + hour
        let bob = try #require(try await bot.store.write { try await $0.player(UserID(2)) })
        #expect(bob.puzzle(at: bot.now, schedule: .tessera) == puzzle)
        let wrong = try bot.answer(puzzle: puzzle) == "crane" ? "slate" : "crane"
        try await bot.send(wrong, from: 2, name: "Bob")
        try await bot.send(try bot.answer(puzzle: puzzle), from: 2, name: "Bob")
        let week = try await bot.text("/leaderboard week", in: -1, group: true)
        #expect(week.contains("Bob"), "his 2/6 counts: \(week)")
        // Once Bob's day of 321 is over, its word comes with the final standings, his result among them.
        let bobsDayOver = nextDay + 2 * hour
        #expect(try await bot.store.write { try await engine.closeDays(at: bobsDayOver, in: $0) } == 1)
        let reveal = try #require(try await bot.store.pendingMessages(limit: 10, now: bobsDayOver).last?.message.html)
        #expect(
            reveal.contains("puzzle 321") && reveal.contains("\n👑 1/6: Alice\n2/6: Bob\n"),
            "\(reveal)"
        )
    }

    @Test(
        "Joining mid-day counts the day's game at once; a zone change mid-day keeps the day's result and moves the next"
    )
    func midDayChanges() async throws {
        var bot = try EngineHarness()
        try await bot.group(-1)
        // Alice finishes before she joins: her game counts as she joins.
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        #expect(try await bot.text("/leaderboard", in: -1, group: true).contains("Alice — 2/6"))
        // She moves to Tokyo: today's result stays, and her next puzzle is Tokyo's 327, counted on the group's 327.
        let moved = try await bot.text("/timezone Asia/Tokyo", from: 1, name: "Alice")
        #expect(moved.contains("puzzle 327"), "\(moved)")
        #expect(try await bot.text("/leaderboard", in: -1, group: true).contains("Alice — 2/6"))
        #expect(try await bot.text(try bot.answer(), from: 1, name: "Alice").contains("You have finished"))
        bot.now += 12 * 3600 + 60  // Midnight UTC: the group is on 327, Tokyo since 15:00 UTC.
        let (engine, midnight) = (bot.engine, bot.now)
        _ = try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) }
        try await bot.send(try bot.answer(puzzle: PuzzleNumber(327)), from: 1, name: "Alice")
        let today = try await bot.text("/leaderboard", in: -1, group: true)
        #expect(today.contains("puzzle 327") && today.contains("Alice — 1/6"), "\(today)")
    }
}

extension GroupLanguageTests {
    @Test(
        "In a group kept to one language, a switch is announced in both, from the next puzzle; a game of the old one counts on the switch day, and keeps its streak"
    )
    func languageSwitch() async throws {
        var bot = try EngineHarness()  // Sunday 12:00 UTC: puzzle 326.
        try await bot.group(-1)
        for (user, name) in [(1, "Ann"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        // A game started today: the change waits for the next puzzle, and nothing is announced yet.
        try await bot.send(try bot.wrongWord(), from: 2, name: "Bob")
        let saved = try await bot.send(
            "/settings language es only", from: 1, name: "Ann", in: -1, group: true, admin: true)
        #expect(saved.count == 1 && saved[0].html.contains("From puzzle 327"), "\(saved.map(\.html))")
        try await bot.play(1, name: "Ann", misses: 0)
        try await bot.play(2, name: "Bob", misses: 0)

        // Midnight: the summary, then the announcement, in the language the group read and in the new one.
        let engine = bot.engine
        bot.now += 12 * 3600 + 60
        let midnight = bot.now
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) } == 2)
        let posts = try await bot.store.pendingMessages(limit: 10, now: midnight).map(\.message)
        try await bot.store.markSent(try await bot.store.pendingMessages(limit: 10, now: midnight).map(\.id))
        let announcement = try #require(posts.last)
        #expect(
            announcement.html == """
                📣 From puzzle 327, this group plays the <b>Spanish</b> puzzle. On its first day, a game in English \
                still counts too.

                📣 Desde el reto 327, este grupo juega el reto en <b>español</b>. En su primer día, una partida en \
                inglés también cuenta.
                """)
        #expect(announcement.buttons.joined().map(\.directChatStart) == ["play-es"])

        // Puzzle 327: Bob plays English as every day, Ann Spanish. Both count; nobody's streak breaks.
        bot.now += 10 * 3600
        _ = try await bot.send("/play es", from: 1, name: "Ann")
        try await bot.play(1, name: "Ann", misses: 1, language: .spanish)
        try await bot.play(2, name: "Bob", misses: 2, language: .english)
        let board = try await bot.text("/leaderboard", from: 2, name: "Bob", in: -1, group: true)
        #expect(board.contains("Ann — 2/6") && board.contains("Bob — 3/6"), "\(board)")
        let closing = midnight + 86_400
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message.html)
        #expect(summary.contains(" · Rachas en marcha: Ann (2), Bob (2)"), "\(summary)")
        #expect(!summary.contains("Rachas rotas"), "\(summary)")
        // Bob's result is of the English word he played, and says so.
        #expect(summary.contains("\n3/6: Bob (inglés)\n"), "\(summary)")
        #expect(summary.contains("; en inglés, <spoiler>"), "both words: \(summary)")

        // Puzzle 328: Spanish only.
        bot.now = closing + 10 * 3600
        try await bot.play(2, name: "Bob", misses: 0, language: .english)
        #expect(try await !bot.text("/leaderboard", from: 2, name: "Bob", in: -1, group: true).contains("Bob —"))
    }

    @Test("A change to a group nobody has played today applies at once, and is announced at once")
    func changeAtOnce() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        let replies = try await bot.send("/settings timezone Europe/Madrid", in: -1, group: true, admin: true)
        #expect(
            replies.count == 2 && replies[0].html == "✅ Day: Europe/Madrid, new puzzle at 00:00",
            "\(replies.map(\.html))")
        #expect(
            replies[1].html
                == "📣 From puzzle 326, its day follows <b>Europe/Madrid</b>, with a new puzzle at 00:00.",
            "\(replies[1].html)")
    }
}
