import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Group boards: joining, settings and a group's day", .onBothPaths)
struct GroupBoardsTests {
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
