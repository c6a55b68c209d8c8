import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Group boards and settings", .onBothPaths)
struct GroupTests {
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

    @Test("/settings NAME VALUE is read into one change, or refused with what the setting takes")
    func settingChanges() {
        let read: [(String, Result<GroupSettingChange, GroupSettingChange.Refusal>)] = [
            ("timezone Asia/Tokyo", .success(.timeZone("Asia/Tokyo"))),
            ("timezone Mars/Olympus", .failure(.unknownTimeZone("Mars/Olympus"))),
            ("rollover 6", .success(.rolloverHour(6))),
            ("rollover 24", .failure(.usage(setting: "rollover"))),
            ("language Español", .success(.language(.spanish, only: false))),
            ("language es only", .success(.language(.spanish, only: true))),
            ("language en solo", .success(.language(.english, only: true))),
            ("language xx", .failure(.unknownLanguage("xx"))),
            ("hard on", .success(.hardModeRequired(true))),
            ("hard maybe", .failure(.usage(setting: "hard"))),
            ("summary off", .success(.summary(enabled: false))),
            ("summary 21", .success(.summaryHour(21))),
            ("summary rollover", .success(.summaryHour(nil))),
            ("summary sometimes", .failure(.usage(setting: "summary"))),
            ("topic here", .success(.topic(here: true))),
            ("TOPIC none", .success(.topic(here: false))),
            ("colour blue", .failure(.usage(setting: "colour"))),
        ]
        for (argument, expected) in read {
            #expect(GroupSettingChange.read(argument) == expected, "\(argument)")
        }
    }

    /// Monday 2026-11-16 12:00 UTC: puzzle 320.
    static let monday = Date(timeIntervalSince1970: 1_795_348_800 - 6 * 86_400)

    @Test(
        "Only administrators change a group's settings, from its next puzzle once it has results; its language rules there"
    )
    func settings() async throws {
        var bot = try EngineHarness()
        // Eve's result today: from now on a change of the group's day waits for its next puzzle.
        try await bot.send("/join", from: 5, name: "Eve", in: -100, group: true)
        try await bot.play(5, name: "Eve", misses: 0)
        let view = try await bot.text("/settings", in: -100, group: true)
        #expect(view.contains("Day: UTC, new puzzle at 00:00") && view.contains("Daily summary: at the new puzzle"))
        #expect(
            try await bot.text("/settings language es", in: -100, group: true, admin: false)
                == "Sorry, only this group's administrators can change its settings.")
        #expect(try await bot.text("/settings language es", in: -100, group: true).hasPrefix("I could not check"))
        // Today's puzzle keeps its language: the change waits for the next one, which the group's day closing starts.
        let saved = try await bot.text("/settings language es", in: -100, group: true, admin: true)
        #expect(
            saved.hasPrefix("✅ Language: English") && saved.contains("\nFrom puzzle 327") && saved.contains("Spanish"),
            "\(saved)")
        #expect(try await bot.text("/help", in: -100, group: true).hasPrefix("<b>Tessera in this group</b>"))
        let engine = bot.engine
        bot.now += 12 * 3600 + 60
        let midnight = bot.now
        _ = try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) }
        // The summary of Eve's day went out first.
        let help = try await bot.send("/help", in: -100, group: true).last?.html ?? ""
        #expect(help.hasPrefix("<b>Tessera en este grupo</b>"), "\(help)")
        #expect(try await bot.text("/help").hasPrefix("<b>Commands</b>"), "a direct chat keeps the player's language")

        let changes = [
            ("timezone asia/tokyo", "Asia/Tokyo"), ("rollover 6", "nuevo reto a las 06:00"),
            ("summary 9", "Resumen diario: a las 09:00"), ("hard on", "Modo difícil obligatorio: sí"),
            ("summary off", "Resumen diario: desactivado"),
        ]
        for (command, shown) in changes {
            let reply = try await bot.text("/settings \(command)", in: -100, group: true, admin: true)
            #expect(reply.contains(shown), "\(command): \(reply)")
        }
        let topic = try await bot.send("/settings topic here", in: -100, group: true, admin: true, topic: 55)
        #expect(topic.first?.html.contains("el tema 55") == true)
        #expect(topic.first?.thread == MessageID(55), "a reply stays in the topic it answers")
        for bad in ["rollover 24", "summary sometimes", "colour blue", "topic there"] {
            #expect(
                try await bot.text("/settings \(bad)", in: -100, group: true, admin: true).hasPrefix("No he entendido"))
        }
        #expect(
            try await bot.text("/settings timezone Mars/Olympus", in: -100, group: true, admin: true).contains(
                "Mars/Olympus"))
        #expect(try await bot.text("/settings").hasPrefix("That command is for groups"))

        let message = { (text: String, kind: ChatMessage.ChatKind) in
            ChatMessage(chat: ChatID(-100), chatKind: kind, sender: UserID(1), senderName: "A", text: text)
                .readingCommands()
        }
        #expect(bot.engine.questions(for: message("/settings hard on", .group)) == [.senderIsAdministrator])
        #expect(bot.engine.questions(for: message("/settings", .group)).isEmpty, "showing needs no check")
        #expect(bot.engine.questions(for: message("/settings hard on", .direct)).isEmpty)
    }

    @Test("A group with no results on its open days is set up at once: its day, rollover and language apply now")
    func immediateSetup() async throws {
        let bot = try EngineHarness()
        try await bot.send("/join", from: 5, name: "Eve", in: -7, group: true)
        let replies = try await bot.send("/settings language es", in: -7, group: true, admin: true).map(\.html)
        let saved = replies.first ?? ""
        #expect(
            saved.hasPrefix("✅ Idioma: español") && !saved.contains("Desde el reto"), "in the new language: \(saved)")
        // The group is told, in the language it read and the new one.
        #expect(
            replies.dropFirst().first?.hasPrefix(
                "📣 From puzzle 326, this group's posts are in <b>Spanish</b>, and everyone still plays in their own")
                == true, "\(replies)")
        #expect(try await bot.text("/help", in: -7, group: true).hasPrefix("<b>Tessera en este grupo</b>"))
        let zone = try #require(
            try await bot.send("/settings timezone asia/tokyo", in: -7, group: true, admin: true).first?.html)
        #expect(zone.contains("Asia/Tokyo") && !zone.contains("Desde el reto"), "\(zone)")
        let group = try #require(try await bot.store.write { try await $0.group(ChatID(-7)) })
        #expect(group.timeZone == "Asia/Tokyo" && group.language == .spanish && group.pending == nil)
        // A junk value gets the usage of that one setting, and changes nothing.
        let junk = try await bot.text("/settings rollover 25", in: -7, group: true, admin: true)
        #expect(junk == "No he entendido ese ajuste. Usa:\n/settings rollover 0–23")
        #expect(try await bot.store.write { try await $0.group(ChatID(-7)) } == group)
    }

    @Test("Replies fit the place: /board and /play in a group point to the private chat, junk changes nothing")
    func repliesFitThePlace() async throws {
        let bot = try EngineHarness()
        let board = try await bot.text("/board", in: -1, group: true)
        #expect(board.hasPrefix("Guesses are made in our private chat") && board.hasSuffix("once you /join it."))
        try await bot.send("/join", in: -1, group: true)
        let play = try await bot.text("/play", in: -1, group: true)
        #expect(play.hasSuffix("Your result counts on this group's board."), "\(play)")
        // A player first met in the group follows its day, and is told on their first private reply.
        #expect(try await bot.text("/hard maybe").hasPrefix("Use /hard on or /hard off.\n\n🕰️ Your day follows"))
        #expect(try await bot.store.write { try await $0.player(UserID(1)) }?.prefersHardMode == false)
        #expect(try await bot.text("/hard on").hasPrefix("Hard mode is on"))
    }

    @Test("One result per player and puzzle counts on every board the player is on; /join counts it late; /leave")
    func membership() async throws {
        let bot = try EngineHarness()
        for chat in [-1, -2, -3] as [Int64] {
            #expect(try await bot.text("/join", in: chat, group: true).hasPrefix("Alice joined this group's board"))
        }
        #expect(try await bot.text("/join", in: -1, group: true).hasPrefix("Alice, you are already"))
        try await bot.play(1, name: "Alice", misses: 2)
        // Bob finished before joining: his result counts when he joins.
        try await bot.play(2, name: "Bob", misses: 0)
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        #expect(
            try await bot.text("/leaderboard", in: -1, group: true)
                == "<b>Leaderboard · puzzle 326</b>\n🥇 Bob — 1/6\n🥈 Alice — 3/6")
        for chat in [-2, -3] as [Int64] {
            #expect(try await bot.text("/leaderboard", in: chat, group: true).hasSuffix("\n🥇 Alice — 3/6"))
        }
        #expect(try await bot.text("/leave", in: -3, group: true).hasPrefix("Alice has left"))
        #expect(try await bot.text("/leave", in: -3, group: true).hasPrefix("You are not on this group's board"))
        #expect(try await bot.text("/leaderboard", in: -3, group: true).hasPrefix("No results"))
        #expect(try await bot.text("/join").hasPrefix("That command is for groups"))

        // The store keeps the first result of a puzzle and refuses a second.
        let result = BoardResult(
            chat: ChatID(-1), puzzle: bot.puzzle, player: UserID(1), language: .english, guesses: 1,
            hardMode: false, finishedAt: bot.now, streakBefore: 0)
        let recorded = try await bot.store.write {
            try await $0.record(result, totals: [.all: BoardTotals(points: 6, played: 1, wins: 1, winningGuesses: 1)])
        }
        #expect(recorded == false)
        #expect(try await bot.text("/leaderboard", in: -1, group: true).hasSuffix("🥈 Alice — 3/6"))
    }

    @Test("After /leave, the days played stay on the week's, the month's and the season's boards; all time is members'")
    func historyAfterLeaving() async throws {
        var bot = try EngineHarness()
        bot.now = Self.monday
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
        bot.now = Self.monday
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
        bot.now = Self.monday  // 12:00 UTC, puzzle 320
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
        let hour = { (hours: Double) in Self.monday.addingTimeInterval(hours * 3600) }
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
        bot.now = Self.monday
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
        bot.now = Self.monday
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
        bot.now = Self.monday
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

    @Test("A player first met in a group starts on that group's day; one met in private on the default")
    func newPlayersStartOnTheGroupsDay() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1, timeZone: "Asia/Tokyo", rolloverHour: 6)
        try await bot.send("/join", from: 9, name: "Kei", in: -1, group: true)
        let zone = try await bot.text("/timezone", from: 9, name: "Kei")
        #expect(zone.contains("Asia/Tokyo") && zone.contains("06:00"), "\(zone)")
        #expect(try await bot.text("/timezone", from: 8, name: "Ana").contains("UTC"))
    }

    @Test("Added to a group, the bot greets once with setup steps, and says when it cannot see pastes")
    func greeting() async throws {
        let bot = try EngineHarness()
        func added(_ chat: Int64, seesEveryMessage: Bool) async throws -> [OutgoingMessage] {
            let message = ChatMessage(
                chat: ChatID(chat), chatKind: .group, sender: UserID(1), senderName: "Ana", text: "",
                event: .added(seesEveryMessage: seesEveryMessage))
            try await bot.apply([message])
            let pending = try await bot.store.pendingMessages(limit: 10, now: bot.now)
            try await bot.store.markSent(pending.map(\.id))
            return pending.map(\.message)
        }
        let hidden = try await added(-1, seesEveryMessage: false)
        #expect(hidden.count == 1 && hidden[0].replyTo == nil)
        #expect(hidden[0].html.hasPrefix("👋 Hello!") && hidden[0].html.contains("/settings timezone"))
        #expect(hidden[0].html.contains("privacy mode") && hidden[0].html.contains("<b>Tessera in this group</b>"))
        let seeing = try await added(-2, seesEveryMessage: true)
        #expect(seeing.count == 1 && !seeing[0].html.contains("privacy mode"))
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

    @Test("/start and /help in a group show what the group can do, not how to guess in private")
    func groupHelp() async throws {
        let bot = try EngineHarness()
        for command in ["/start", "/help@TesseraBot"] {
            let help = try await bot.text(command, in: -1, group: true)
            #expect(help.hasPrefix("<b>Tessera in this group</b>") && help.contains("/play"), "\(help)")
            #expect(!help.contains("Send a word") && !help.contains("/guess") && !help.contains("/forgetme"))
        }
        #expect(try await bot.text("/help").contains("/guess WORD"), "the private help is unchanged")
        #expect(try await bot.text("/start").hasPrefix("<b>Welcome to Tessera!</b>"), "and so is the welcome")
        #expect(try await bot.text("/start play").hasPrefix("<b>Welcome to Tessera!</b>"), "from the group's link")
    }

    @Test("A zone change mid-day waits for the next puzzle: it never closes the day being played")
    func zoneChangeWaits() async throws {
        var bot = try EngineHarness()
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 0)
        // Noon UTC is already tomorrow at UTC+14: applied at once, this would close today and post its word.
        let saved = try await bot.text("/settings timezone Pacific/Kiritimati", in: -1, group: true, admin: true)
        #expect(saved.hasPrefix("✅ Day: UTC") && saved.contains("\nFrom puzzle 327"), "\(saved)")
        let engine = bot.engine
        let now = bot.now
        #expect(try await bot.store.write { try await engine.closeDays(at: now + 60, in: $0) } == 0)
        // At UTC midnight today closes as it would have; from then on the group is on UTC+14.
        bot.now += 12 * 3600 + 60
        let midnight = bot.now
        // The summary, then the group is told.
        #expect(try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) } == 2)
        let told = try await bot.store.pendingMessages(limit: 10, now: midnight).last?.message.html
        #expect(
            told
                == "📣 From puzzle 327, its day follows <b>Pacific/Kiritimati</b>, with a new puzzle at 00:00.")
        #expect(try await bot.text("/settings", in: -1, group: true).contains("Day: Pacific/Kiritimati"))
    }

    @Test("A language change mid-day waits too: the day's summary is in the language it was played in, grids and all")
    func languageChangeWaits() async throws {
        var bot = try EngineHarness()
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 1)
        let saved = try await bot.text("/settings language es", in: -1, group: true, admin: true)
        #expect(saved.contains("Language: English") && saved.contains("From puzzle 327"), "\(saved)")
        // Today's board is still the English one: Alice's English game is on it.
        #expect(try await bot.text("/leaderboard", in: -1, group: true).contains("🥇 Alice — 2/6"))
        let engine = bot.engine
        bot.now += 12 * 3600 + 60
        let midnight = bot.now
        _ = try await bot.store.write { try await engine.closeDays(at: midnight, in: $0) }
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: midnight).first?.message.html)
        let word = try bot.answer(.english, puzzle: PuzzleNumber(326)).uppercased()
        #expect(
            summary.hasPrefix("<b>🔓 Everyone here is done with puzzle 326.</b>"), "in English, as played: \(summary)")
        #expect(summary.contains("<spoiler>\(word)</spoiler>"), "the English word: \(summary)")
        #expect(summary.contains("\n👑 2/6: Alice\n"), "her result, in the language she played")
        #expect(try await bot.text("/settings", in: -1, group: true).contains("Idioma: español"))
    }

    @Test("A group that requires hard mode counts only hard-mode games")
    func hardModeRequired() async throws {
        let bot = try EngineHarness()
        try await bot.send("/settings hard on", in: -1, group: true, admin: true)
        try await bot.send("/join", from: 1, name: "Alice", in: -1, group: true)
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.send("/hard", from: 2, name: "Bob")
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        try await bot.play(2, name: "Bob", misses: 1)
        try await bot.send("/join", from: 3, name: "Carol", in: -1, group: true)
        try await bot.play(3, name: "Carol", misses: 0)
        #expect(
            try await bot.text("/leaderboard", in: -1, group: true)
                == "<b>Leaderboard · puzzle 326</b>\n🥇 Bob — 2/6*")
    }

    @Test("A group's day: its own zone, never back past a closed day; results of puzzles open nowhere are refused")
    func groupDay() throws {
        let schedule = DailySchedule.tessera
        let noon = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22 12:00 UTC, puzzle 326
        var group = Group(
            chat: ChatID(-1), timeZone: "Pacific/Kiritimati", rolloverHour: 0, language: .english,
            lastClosedPuzzle: PuzzleNumber(326))
        #expect(group.puzzle(at: noon, schedule: schedule) == PuzzleNumber(327), "UTC+14 is a day ahead")
        #expect(group.puzzleToClose(at: noon, schedule: schedule) == PuzzleNumber(326))
        group.timeZone = "Pacific/Pago_Pago"  // UTC−11: still 2026-11-22 there, but 326 has closed here
        #expect(group.puzzle(at: noon, schedule: schedule) == PuzzleNumber(327))
        #expect(!group.accepts(PuzzleNumber(326), at: noon, schedule: schedule), "closed: its word may be out")
        #expect(group.accepts(PuzzleNumber(327), at: noon, schedule: schedule))
        #expect(!group.accepts(PuzzleNumber(328), at: noon, schedule: schedule), "not open anywhere yet")
        group.summaryHour = 9
        group.timeZone = "UTC"
        group.lastClosedPuzzle = PuzzleNumber(324)
        let early = Date(timeIntervalSince1970: 1_795_348_800 - 5 * 3600)  // 07:00: 326's summary is at 09:00
        #expect(group.puzzleToClose(at: early, schedule: schedule) == PuzzleNumber(325))
        #expect(group.puzzleToClose(at: noon, schedule: schedule) == PuzzleNumber(326))
        #expect(!group.accepts(PuzzleNumber(324), at: noon, schedule: schedule), "more than a day old")
    }

    @Test(
        "A summary hour after the rollover sums up that day on its own date, and the day goes on to its end; one before it, the day's last hours"
    )
    func summaryHour() throws {
        let schedule = DailySchedule.tessera
        let sunday = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00 UTC, puzzle 326
        let hour = { (hours: Double) in sunday.addingTimeInterval(hours * 3600) }
        var group = Group(
            chat: ChatID(-1), timeZone: "Europe/Madrid", rolloverHour: 0, language: .english, summaryHour: 21,
            lastClosedPuzzle: PuzzleNumber(325))
        // Madrid is UTC+1 in November: 21:00 there is 20:00 UTC, on Sunday itself.
        #expect(group.summaryTime(of: PuzzleNumber(326), schedule: schedule) == hour(20))
        #expect(group.puzzleToClose(at: hour(19.9), schedule: schedule) == PuzzleNumber(325))
        #expect(group.puzzleToClose(at: hour(20), schedule: schedule) == PuzzleNumber(326))
        group.lastClosedPuzzle = PuzzleNumber(326)
        #expect(group.puzzle(at: hour(22.5), schedule: schedule) == PuzzleNumber(326), "Sunday until midnight")
        #expect(group.puzzle(at: hour(23), schedule: schedule) == PuzzleNumber(327))
        #expect(group.accepts(PuzzleNumber(326), at: hour(22.5), schedule: schedule), "a late result still counts")
        // On the 23-hour day of the change to summer time (28 March 2027 in Madrid) it is still 21:00 local.
        let march = schedule.puzzle(on: CivilDate(year: 2027, month: 3, day: 28)!)
        #expect(
            group.summaryTime(of: march, schedule: schedule)
                == Date(timeIntervalSince1970: 1_806_260_400))  // 2027-03-28 19:00 UTC
        // With the new puzzle at 06:00, a summary at 03:00 comes in the day's last hours, on the next date.
        group.rolloverHour = 6
        group.summaryHour = 3
        group.lastClosedPuzzle = PuzzleNumber(325)
        #expect(group.summaryTime(of: PuzzleNumber(326), schedule: schedule) == hour(26))
        #expect(group.puzzle(at: hour(26), schedule: schedule) == PuzzleNumber(326), "until 06:00")
        // By default it comes with the new puzzle.
        group.summaryHour = nil
        #expect(group.summaryTime(of: PuzzleNumber(326), schedule: schedule) == hour(29))
    }

    @Test("The summary of a closed day: the word, winners, grids, streaks kept and broken, who missed; once")
    func summary() async throws {
        var bot = try EngineHarness()
        bot.now = Self.monday
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
        let closing = Self.monday + 2.5 * 86_400  // Thursday 00:00 UTC: Wednesday's puzzle 322 closes
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
        bot.now = Self.monday
        // Bob is first met in a Los Angeles group, so his day is Los Angeles'; the board's group is on UTC.
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        try await bot.send("/join", from: 2, name: "Bob", in: -2, group: true)
        for (user, name) in [(1, "Alice"), (2, "Bob")] as [(Int64, String)] {
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
        }
        try await bot.play(1, name: "Alice", misses: 0)
        let engine = bot.engine
        let word = try bot.answer(puzzle: bot.puzzle).uppercased()
        let midnight = Self.monday + 12 * 3600  // Monday 12:00 UTC + 12 h: the UTC group's day closes.
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
        bot.now = Self.monday  // 12:00 UTC, puzzle 320
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
        let thursday = Self.monday + 60 * 3600  // 00:00 UTC: the summary, the word waiting for Bob and Carol
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
        bot.now = Self.monday  // 12:00 UTC: puzzle 320.
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
        let midnight = Self.monday + 12 * 3600
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
        bot.now = Self.monday
        try await bot.group(-2, timeZone: "America/Los_Angeles")
        try await bot.send("/join", from: 2, name: "Bob", in: -2, group: true)
        try await bot.send("/join", from: 2, name: "Bob", in: -1, group: true)
        let engine = bot.engine
        let midnight = Self.monday + 12 * 3600
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
        bot.now = Self.monday  // 12:00 UTC, 21:00 in Tokyo: puzzle 320 in both.
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
        let closing = Self.monday + 86_400 + 3 * 3600 + 60
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
        let over = Self.monday + 2 * 86_400 - 4 * 3600 + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: over, in: $0) } == 1)
        let reveal = try #require(try await bot.store.pendingMessages(limit: 10, now: over).last?.message)
        #expect(reveal.html.contains("<spoiler>\(word)</spoiler>"), "\(reveal.html)")
    }

    @Test("A large group's post stays short: one line a score, 20 names a list, and counts of the rest")
    func largeSummary() async throws {
        var bot = try EngineHarness()
        bot.now = Self.monday
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
        bot.now = Self.monday
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

extension GroupTests {
    @Test(
        "A member who never chose a zone follows the group where they were first met, also when its zone changes later"
    )
    func followersMoveWithTheGroup() async throws {
        var bot = try EngineHarness()  // Sunday 12:00 UTC: puzzle 326.
        // Ana adds the bot and sets the group up: the bot met her in the group, so her day moves with it, at once.
        try await bot.send("/join", from: 1, name: "Ana", in: -1, group: true)
        _ = try await bot.send(
            "/settings timezone Europe/Madrid", from: 1, name: "Ana", in: -1, group: true, admin: true)
        let ana = { try await bot.store.write { try await $0.player(UserID(1)) } }
        #expect(try await ana()?.timeZone == "Europe/Madrid")
        // Ben chose his own zone; Cy is met in the group later and follows it too.
        try await bot.send("/join", from: 2, name: "Ben", in: -1, group: true)
        _ = try await bot.send("/timezone America/New_York", from: 2, name: "Ben")
        try await bot.send("/join", from: 3, name: "Cy", in: -1, group: true)
        try await bot.play(3, name: "Cy", misses: 0)
        // With a result today, the group's move to Tokyo waits for puzzle 327, and carries Ana and Cy from then.
        _ = try await bot.send("/settings timezone Asia/Tokyo", from: 1, name: "Ana", in: -1, group: true, admin: true)
        for id in [1, 3] as [Int64] {
            let player = try #require(try await bot.store.write { try await $0.player(UserID(id)) })
            #expect(player.pendingTimeZone == "Asia/Tokyo" && player.pendingFrom == PuzzleNumber(327), "\(player)")
        }
        let ben = try #require(try await bot.store.write { try await $0.player(UserID(2)) })
        #expect(ben.followsGroup == nil && ben.pendingTimeZone == "America/New_York", "\(ben)")
        // The first private reply said which day Ana was on: Madrid's, after the move.
        let first = try await bot.text("/hard maybe", from: 1, name: "Ana")
        #expect(first.contains("🕰️ Your day follows <b>Asia/Tokyo</b>"), "the zone she is moving to: \(first)")
        bot.now += 86_400
        #expect(try await bot.text("/timezone", from: 1, name: "Ana").contains("<b>Asia/Tokyo</b>"))
    }
}

extension GroupTests {
    @Test(
        "The week ends with one post: podium, best streak, the days everyone played; on Monday the week board shows it"
    )
    func weekEnd() async throws {
        var bot = try EngineHarness()
        bot.now = Self.monday  // Monday 2026-11-16, puzzle 320.
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
        bot.now = Self.monday + 4 * 86_400  // Friday 2026-11-20, puzzle 324.
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
