import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// Issue 11 through the real daemon and the fake Bot API: live boards, sharing, deleted guesses, and a group
/// whose members live in other zones than the group's, across two rollovers.
@Suite("Live boards and group days through the daemon", .serialized)
struct LiveBoardDaemonTests {
    static let environment = GroupDaemonTests.environment

    /// The answer of a puzzle under the daemon tests' secret.
    static func answer(_ puzzle: Int) throws -> String {
        let list = Language.english.wordList
        let secret = try #require(ScheduleSecret(DaemonTests.secret))
        return list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: PuzzleNumber(puzzle)))
    }

    /// Allowed words that are not the answer of `puzzle`.
    static func wrongWords(_ count: Int, puzzle: Int) throws -> [String] {
        let list = Language.english.wordList
        let answer = try self.answer(puzzle)
        return Array(list.answers.lazy.map { list.display($0) }.filter { $0 != answer }.prefix(count))
    }

    @Test("A six-guess game is one board and five edits; Share answers the inline query; group guesses go; greeting")
    func liveBoardShareAndDeletion() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = directory.appendingPathComponent("now")
        try String(GroupDaemonTests.noon).write(to: clock, atomically: true, encoding: .utf8)
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path, secret: DaemonTests.secret,
            environment: Self.environment.merging(["TESSERA_CLOCK_FILE": clock.path]) { $1 })
        try running.start()
        let answer = try Self.answer(326)
        let guesses = try Self.wrongWords(5, puzzle: 326) + [answer]
        // One guess at a time, as a person plays: each waits for the board to show it.
        for (index, word) in guesses.enumerated() {
            try await fake.push([
                FakeTelegram.message(word.lowercased(), from: 8, name: "Eve", messageID: Int64(index + 1))
            ])
            try await fake.waitForSent { sent in sent.contains { $0.chat == 8 && $0.text.contains("· \(index + 1)/6") }
            }
        }
        let sentToEve = try await fake.waitForSent { $0.contains { $0.chat == 8 && $0.photo != nil } }
            .filter { $0.chat == 8 }
        let boards = sentToEve.filter { $0.photo == nil }
        let edits = try await fake.edits().filter { $0.chat == 8 }
        #expect(boards.count == 1, "one message for the whole game")
        // The game over: its result card below the board, captioned with the share text, the win celebrated on it
        // with Telegram's 🎉 effect.
        let card = try #require(sentToEve.last)
        #expect(sentToEve.count == 2 && card.photo?.uploaded == true)
        #expect(card.photo.map { ($0.width, $0.height) } ?? (0, 0) == (700, 902))
        #expect(card.text.hasPrefix("Tessera 326 6/6\n\n") && !card.text.contains(answer))
        #expect(card.effect == "5046509860389126442" && card.replyTo == 6)
        #expect(edits.count == 5 && edits.allSatisfy { $0.messageID == boards.first?.messageID })
        let board = try #require(boards.first)
        #expect(board.text.contains("Solved in 6/6") && board.text.contains("⏳ Next puzzle in 12 h 0 min"))
        #expect(
            board.inlineQueries == ["share"]
                && board.buttons.map(\.text) == ["📤 Share", "📋 Copy", "📊 Stats", "🔍 Analysis"])

        // Share: Telegram sends the inline query the button opens; the answer is the spoiler-free result.
        try await fake.push([FakeTelegram.inlineQuery("share", id: "iq-1", from: 8, name: "Eve")])
        let shared = try #require(try await fake.wait(for: fake.inlineAnswers) { !$0.isEmpty }.first)
        #expect(shared.id == "iq-1" && shared.texts.count == 1)
        #expect(shared.texts.first?.hasPrefix("Tessera 326 6/6\n\n") == true)
        #expect(shared.texts.first?.contains(answer) == false, "no letters")
        #expect(board.copies == shared.texts, "Copy holds the same result, checked by the fake against Bot API 10.1")
        // Stats, pressed under the board: the chart, as the original draws it, captioned with the figures.
        try await fake.push([FakeTelegram.press("stats", from: 8, name: "Eve", messageID: board.messageID)])
        let stats = try await fake.waitForSent {
            $0.contains { $0.chat == 8 && $0.text.hasPrefix("<b>Statistics</b>") }
        }
        .filter { $0.chat == 8 && $0.text.hasPrefix("<b>Statistics</b>") }
        #expect(stats.count == 1 && stats[0].photo.map { ($0.width, $0.height) } ?? (0, 0) == (700, 688))

        // A group where the bot is an administrator with the right to delete: a revealing /guess goes.
        try await fake.allowDeleting(in: -70)
        try await fake.push([
            FakeTelegram.message("/guess@TesseraBot crane", from: 9, name: "Zed", chat: -70, messageID: 50),
            FakeTelegram.message("/guess@TesseraBot slate", from: 10, name: "Yan", chat: -70, messageID: 51),
        ])
        let group = try await fake.waitForSent { $0.filter { $0.chat == -70 }.count >= 2 }.filter { $0.chat == -70 }
        #expect(try await fake.wait(for: fake.deleted) { $0.count >= 2 }.map(\.messageID) == [50, 51])
        #expect(group.first?.text.hasPrefix("🧹 I deleted that guess") == true)
        #expect(group.filter { $0.text.contains("🧹") }.count == 1, "why is said once")
        #expect(group.allSatisfy { !$0.text.lowercased().contains("crane") && !$0.text.lowercased().contains("slate") })

        // Added to a group (my_chat_member): one greeting, with the privacy-mode hint (the fake's bot has it on).
        try await fake.push([FakeTelegram.added(to: -71, by: 9, name: "Zed")])
        let greeting = try await fake.waitForSent { $0.contains { $0.chat == -71 } }.filter { $0.chat == -71 }
        #expect(greeting.count == 1 && greeting[0].text.hasPrefix("👋 Hello!"))
        #expect(greeting[0].text.contains("I can only see commands here"))
        #expect(try await fake.undocumentedParameters() == [], "every parameter sent is documented")
        await running.stop()
        await fake.stop()
    }

    @Test(
        "Analysis: the button under a finished board, /analysis only in private, /stats's averages, and the reveal's line"
    )
    func analysisInTheChat() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        try clock.set("2026-11-22T12:00:00Z")
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path, secret: DaemonTests.secret,
            environment: Self.environment.merging(clock.environment) { $1 })
        try running.start()
        let answer = try Self.answer(326)
        try await fake.push([FakeTelegram.message("/join", from: 8, name: "Eve", chat: -72, messageID: 1)])
        // A first guess the opening book knows, then the answer: analysed in a moment, off the reply path.
        let guesses = answer == "SALET" ? [answer] : ["salet", answer.lowercased()]
        for (index, word) in guesses.enumerated() {
            try await fake.push([FakeTelegram.message(word, from: 8, name: "Eve", messageID: Int64(index + 2))])
            try await fake.waitForSent { $0.contains { $0.chat == 8 && $0.text.contains("· \(index + 1)/6") } }
        }
        let board = try #require(try await fake.sent().first { $0.chat == 8 })
        #expect(board.buttons.last?.text == "🔍 Analysis")
        try await fake.push([
            FakeTelegram.press("analysis en 326", from: 8, name: "Eve", messageID: board.messageID)
        ])
        // Pressed while it is being worked out, the button promises it; either way the analysis comes.
        let analysis = try #require(
            try await fake.waitForSent(timeout: .seconds(120)) {
                $0.contains { $0.chat == 8 && $0.text.hasPrefix("<b>🔍 Analysis · Tessera 326</b>") }
            }.last { $0.chat == 8 && $0.text.hasPrefix("<b>🔍 Analysis") })
        #expect(analysis.text.contains("1. ") && analysis.text.contains("<code>SALET</code>"))
        #expect(analysis.text.contains("2,300 → "), "puzzle 326 is played with the first answer edition")
        #expect(analysis.text.contains("🤖 From your first word, the bot plays <code>SALET</code>"))

        try await fake.push([
            FakeTelegram.message("/analysis@TesseraBot", from: 8, name: "Eve", chat: -72, messageID: 20),
            FakeTelegram.message("/stats", from: 8, name: "Eve", messageID: 21),
        ])
        let replies = try await fake.waitForSent {
            $0.contains { $0.chat == -72 && $0.text.contains("private chat") }
                && $0.contains { $0.chat == 8 && $0.text.hasPrefix("<b>Statistics</b>") }
        }
        #expect(replies.filter { $0.chat == -72 }.allSatisfy { !$0.text.uppercased().contains(answer) })
        let stats = try #require(replies.last { $0.chat == 8 && $0.text.hasPrefix("<b>Statistics</b>") })
        #expect(stats.text.contains("on average over your last analysed game"), "\(stats.text)")

        // Zed finishes too, in as many guesses: the group has two games to compare.
        try await fake.push([FakeTelegram.message("/join", from: 9, name: "Zed", chat: -72, messageID: 30)])
        for (index, word) in guesses.enumerated() {
            try await fake.push([FakeTelegram.message(word, from: 9, name: "Zed", messageID: Int64(index + 31))])
            try await fake.waitForSent { $0.contains { $0.chat == 9 && $0.text.contains("· \(index + 1)/6") } }
        }

        // Midnight: the group's day closes with the word, and beside it (or edited into the same post, once Zed's
        // analysis is done) the day's most skilful: Eve, who finished first of two equal games. No luck score.
        try clock.set("2026-11-23T00:01:00Z")
        let done = "Everyone here is done with puzzle"
        let posts = try await fake.waitForSent(timeout: .seconds(120)) {
            $0.contains { $0.chat == -72 && $0.text.contains(done) }
        }.filter { $0.chat == -72 }
        let summary = try #require(posts.last { $0.text.contains(done) })
        #expect(summary.text.contains("<tg-spoiler>\(answer)</tg-spoiler>"))
        // The analysis runs at the lowest priority: on a busy machine it may take a while.
        let versions = try await fake.wait(
            timeout: .seconds(120),
            for: {
                [summary.text]
                    + (try await fake.edits()).filter { $0.chat == -72 && $0.messageID == summary.messageID }.map(
                        \.text)
            }, until: { $0.contains { $0.contains("🎯") } })
        let line = try #require(versions.last { $0.contains("🎯") })
        #expect(line.contains("\n🎯 Most skilful: Eve (skill ") && !line.contains("uck"), "\(line)")
        let groupPosts = try await fake.sent().filter { $0.chat == -72 && $0.replyTo == nil }
        #expect(groupPosts.filter { $0.text.contains(done) }.count == 1, "one post, edited in place")
        #expect(try await fake.undocumentedParameters() == [], "every parameter sent is documented")
        await running.stop()
        await fake.stop()
    }

    @Test("A group in one zone, members in three others, two rollovers: no post shows a word a member can still play")
    func membersInOtherZones() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        func set(_ utc: String) throws -> Date { try clock.set(utc) }
        var now = try set("2026-11-22T12:00:00Z")
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path, secret: DaemonTests.secret,
            environment: Self.environment.merging(clock.environment) { $1 })
        try running.start()
        let group: Int64 = -80
        let members: [(id: Int64, name: String, zone: String)] = [
            (21, "Ann", "America/Los_Angeles"), (22, "Ben", "Asia/Tokyo"), (23, "Cy", "America/New_York"),
        ]
        try await fake.setAdministrators(of: group, [24])
        var messageID: Int64 = 0
        func say(_ text: String, from user: Int64, name: String, in chat: Int64? = nil) async throws {
            messageID += 1
            try await fake.push([FakeTelegram.message(text, from: user, name: name, chat: chat, messageID: messageID)])
            let id = messageID
            try await fake.waitForSent { $0.contains { $0.replyTo == id } }
        }
        // Everyone's zone and the group's Europe/Madrid take effect from the next puzzle.
        for member in members {
            try await say("/timezone \(member.zone)", from: member.id, name: member.name)
            messageID += 1
            try await fake.push([
                FakeTelegram.message("/join", from: member.id, name: member.name, chat: group, messageID: messageID)
            ])
        }
        try await say("/settings timezone Europe/Madrid", from: 24, name: "Admin", in: group)

        /// No message in the group shows the word of a puzzle a member, or the group, can still play.
        func checkNoSpoilers() async throws {
            let zones = members.map(\.zone) + ["Europe/Madrid", "Pacific/Auckland"]
            let open = Set(
                zones.map { zone in
                    DailySchedule.tessera.puzzle(
                        at: now, rollover: DayRollover(timeZone: TimeZone(identifier: zone) ?? .gmt) ?? .utc
                    ).rawValue
                })
            for message in try await fake.sent() where message.chat == group {
                for puzzle in open {
                    #expect(
                        !message.text.contains(try Self.answer(puzzle)), "puzzle \(puzzle) is open: \(message.text)")
                }
            }
        }
        /// Guesses in a member's direct chat, each once its board shows the one before.
        func play(_ member: Int, puzzle: Int, _ words: [String]) async throws {
            let (user, name) = (members[member].id, members[member].name)
            for word in words {
                messageID += 1
                try await fake.push([
                    FakeTelegram.message(word.lowercased(), from: user, name: name, messageID: messageID)
                ])
                try await fake.waitForSent { sent in
                    sent.contains {
                        $0.chat == user && $0.text.hasPrefix("<b>Tessera \(puzzle)</b>")
                            && $0.text.contains("<code>\(word)</code>")
                    }
                }
            }
        }

        // Nov 23, 12:00 UTC: everyone is on puzzle 327 in their own zone.
        now = try set("2026-11-23T12:00:00Z")
        try await play(0, puzzle: 327, [try Self.answer(327)])
        try await play(1, puzzle: 327, try Self.wrongWords(1, puzzle: 327) + [try Self.answer(327)])
        try await play(2, puzzle: 327, try Self.wrongWords(1, puzzle: 327))
        // The group's day closer (every few seconds) has closed 326 and moved the group to Madrid.
        for _ in 0..<200 {
            try await say("/settings", from: 24, name: "Admin", in: group)
            if try await fake.sent().last(where: { $0.chat == group })?.text.contains("Day: Europe/Madrid") == true {
                break
            }
        }
        // A zone change mid-day waits for the next puzzle: Auckland is already on Nov 24, and 327 must not close.
        try await say("/settings timezone Pacific/Auckland", from: 24, name: "Admin", in: group)
        #expect(try await fake.sent().last { $0.chat == group }?.text.contains("Day: Europe/Madrid") == true)
        try await checkNoSpoilers()

        // 23:30 UTC: Madrid's midnight closes 327 in the group; Ann (Los Angeles) and Cy (New York) still play it.
        now = try set("2026-11-23T23:30:00Z")
        let summary = try await fake.waitForSent {
            $0.contains { $0.chat == group && $0.text.contains("Puzzle 327 so far") }
        }
        .first { $0.chat == group && $0.text.contains("Puzzle 327 so far") }
        #expect(summary?.silent == true)
        #expect(summary?.text.contains("🔒 The word follows when ") == true, "\(summary?.text ?? "")")
        try await checkNoSpoilers()

        // Nov 24, 08:30 UTC: midnight in Los Angeles, the last member's day of 327 is over: the word, hidden.
        now = try set("2026-11-24T08:30:00Z")
        let word327 = try Self.answer(327)
        let reveal = try await fake.waitForSent { $0.contains { $0.chat == group && $0.text.contains("🔓") } }
            .first { $0.chat == group && $0.text.contains("🔓") }
        #expect(reveal?.text.contains("<tg-spoiler>\(word327)</tg-spoiler>") == true, "\(reveal?.text ?? "")")
        try await checkNoSpoilers()

        // Puzzle 328, on Auckland's day now: Ben wins it, Ann makes one guess.
        try await play(1, puzzle: 328, [try Self.answer(328)])
        try await play(0, puzzle: 328, try Self.wrongWords(1, puzzle: 328))
        // Nov 24, 11:30 UTC: Auckland's midnight closes 328; Ann and Cy can still play it.
        now = try set("2026-11-24T11:30:00Z")
        try await fake.waitForSent { $0.contains { $0.chat == group && $0.text.contains("Puzzle 328 so far") } }
        try await checkNoSpoilers()
        // Nov 25, 08:30 UTC: Los Angeles is past 328 too.
        now = try set("2026-11-25T08:30:00Z")
        let reveals = try await fake.waitForSent { $0.filter { $0.chat == group && $0.text.contains("🔓") }.count == 2 }
            .filter { $0.chat == group && $0.text.contains("🔓") }
        #expect(reveals.last?.text.contains("<tg-spoiler>\(try Self.answer(328))</tg-spoiler>") == true)
        try await checkNoSpoilers()
        await running.stop()
        await fake.stop()
    }
}
