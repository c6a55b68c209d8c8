import Foundation
import TesseraCore
import TesseraEngine
import TesseraTestSupport
import Testing

/// Groups through the real daemon and the fake Bot API, with the daemon's clock read from a file.
///
/// Outgoing rate limits are off here: these tests are about what reaches a group, and the limits, tested in
/// process on a manual clock, would only make them wait.
@Suite("Groups through the daemon", .serialized)
struct GroupDaemonTests {
    /// 2026-11-22 12:00 UTC: puzzle 326.
    static let noon = 1_795_348_800.0
    static let environment = ["TESSERA_TELEGRAM_RATE_LIMITS": "off"]

    @Test("Pasted Wordle results in every variant, duplicates and edits; one player's result on three boards")
    func pastesAndThreeGroups() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = directory.appendingPathComponent("now")
        try String(Self.noon).write(to: clock, atomically: true, encoding: .utf8)
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path,
            environment: Self.environment.merging(["TESSERA_CLOCK_FILE": clock.path]) { $1 })
        try running.start()
        let list = Language.english.wordList
        let answer = list.display(
            AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(DaemonTests.secret)))
                .answer(for: PuzzleNumber(326)))

        // Ann joins three groups and plays once, privately.
        try await fake.push(
            [-1, -2, -3].enumerated().map { index, chat in
                FakeTelegram.message("/join", from: 1, name: "Ann", chat: Int64(chat), messageID: Int64(index + 1))
            } + [FakeTelegram.message(answer.lowercased(), from: 1, name: "Ann", messageID: 4)])
        // The joins are acknowledged with reactions, the guess with its board.
        try await fake.waitForSent { $0.contains { $0.chat == 1 && $0.text.hasPrefix("<b>Tessera 326</b>") } }
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 3 }

        // Pastes in group -1 (message ids 10…); Wordle 1,982 is today's there.
        let pastes: [(id: Int64, user: Int64, text: String, edited: Bool)] = [
            (10, 2, "Wordle 1,982 3/6*\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛⬛🟨\n🟩🟩🟩🟩🟩", false),
            (11, 3, "yes!\nWordle 1.982 2/6\n\n🟧🟦⬜⬜⬜\n🟧🟧🟧🟧🟧\nbeat that", false),
            (
                12, 4,
                "Wordle 1982 4/6\n" + String(repeating: ":white_large_square:", count: 5) + "\n"
                    + String(repeating: ":yellow_square:", count: 5) + "\n"
                    + String(repeating: ":green_square:", count: 4) + ":black_large_square:\n"
                    + String(repeating: ":green_square:", count: 5), false
            ),
            (13, 5, "Wordle 1 981 X/6", false),
            (14, 2, "Wordle 1,982 1/6\n\n🟩🟩🟩🟩🟩", false),
            (10, 2, "Wordle 1,982 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩", true),
            (15, 6, "Wordle 1,990 3/6", false),
            (16, 7, "Quordle 1,982 6/9", false),
        ]
        try await fake.push(
            pastes.map { paste in
                FakeTelegram.message(
                    paste.text, from: paste.user, name: "P\(paste.user)", chat: -1, messageID: paste.id,
                    edited: paste.edited)
            })
        try await fake.push([
            FakeTelegram.message("/leaderboard official", from: 2, name: "P2", chat: -1, messageID: 20)
        ])
        let sent = try await fake.waitForSent { $0.contains { $0.replyTo == 20 } }
        func replies(to id: Int64) -> [String] { sent.filter { $0.chat == -1 && $0.replyTo == id }.map(\.text) }
        // Counted pastes and duplicates get a reaction, not a line; a text only when there is something to learn.
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 8 }
        let reactions = Dictionary(
            try await fake.reactions().filter { $0.chat == -1 }.map { ($0.messageID, $0.emoji ?? "") },
            uniquingKeysWith: { first, _ in first })
        #expect(reactions == [1: "👌", 10: "👌", 11: "👌", 12: "👌", 13: "👌", 14: "🤔"], "Ann's /join, then the pastes")
        #expect(replies(to: 10) == ["Edits do not count: the result as first posted stands."])
        #expect((11...14).allSatisfy { replies(to: $0).isEmpty })
        #expect(replies(to: 15).first?.contains("not out yet") == true)
        #expect(replies(to: 16).isEmpty, "another game's result is chat")
        #expect(
            replies(to: 20) == [
                "Official Wordle 1,982\n# | Player | Result\n🥇 | P3 | 2/6\n🥈 | P2 | 3/6*\n🥉 | P4 | 4/6"
            ])

        // The one game Ann played counts on all three boards.
        try await fake.push(
            [-1, -2, -3].enumerated().map { index, chat in
                FakeTelegram.message(
                    "/leaderboard", from: 1, name: "Ann", chat: Int64(chat), messageID: Int64(30 + index))
            })
        let boards = try await fake.waitForSent { Set($0.compactMap(\.replyTo)).isSuperset(of: 30...32) }
            .filter { (30...32).contains($0.replyTo ?? 0) }
        #expect(boards.count == 3)
        #expect(
            boards.allSatisfy { $0.text.contains("🥇 | Ann | 1/6") && $0.richHTML?.contains("<table>") == true },
            "\(boards.map(\.text))")
        await running.stop()
        await fake.stop()
    }

    @Test(
        "Members with hostile names: the day's post reaches Telegram as HTML, names escaped, the word behind a spoiler")
    func hostileNamesInTheSummary() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        try clock.set("2026-11-22T12:00:00Z")
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path,
            environment: Self.environment.merging(clock.environment) { $1 })
        try running.start()
        let answer = try LiveBoardDaemonTests.answer(326)
        // 25 members with long names, each ending in a markup character that a mark or joiner follows.
        let marks = ["<\u{303}", "&\u{301}", ">\u{303}", "<\u{200D}", "<\u{FE0F}"]
        let names = (1...25).map { "Member \($0) " + String(repeating: "ü", count: 70) + " " + marks[$0 % marks.count] }
        try await fake.push(
            names.enumerated().map { index, name in
                FakeTelegram.message("/join", from: Int64(index + 1), name: name, chat: -1, messageID: Int64(index + 1))
            })
        for (index, name) in names.enumerated() {
            try await fake.push([
                FakeTelegram.message(
                    answer.lowercased(), from: Int64(index + 1), name: name, messageID: Int64(100 + index))
            ])
        }
        try await fake.waitForSent { $0.filter { $0.text.contains("Solved in 1/6") }.count == names.count }
        try clock.set("2026-11-23T00:01:00Z")
        // One line of the 25 scores: twenty names and a count, whatever the names' length.
        let summary = try await fake.waitForSent(timeout: .seconds(30)) {
            $0.contains { $0.chat == -1 && $0.text.contains("done with puzzle 326") }
        }.filter { $0.chat == -1 && $0.silent }
        #expect(summary.count == 1, "\(summary.map(\.text.count))")
        #expect(summary.allSatisfy { $0.parseMode == "HTML" }, "not refused and resent as plain text")
        #expect(summary.contains { $0.text.contains(", … and 5 more") }, "\(summary.map(\.text))")
        #expect(summary.contains { $0.text.contains("<tg-spoiler>\(answer)</tg-spoiler>") })
        for part in summary {
            #expect(
                !part.text.replacingOccurrences(of: "<tg-spoiler>\(answer)</tg-spoiler>", with: "").contains(answer))
        }
        #expect(summary.contains { $0.text.contains("Member 1 ") && $0.text.contains("&amp;\u{301}") })
        await running.stop()
        await fake.stop()
    }

    @Test("/export sends a JSON document; /forgetme deletes after its button is pressed; menus in both languages")
    func privacy() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path, environment: Self.environment
        )
        try running.start()
        try await fake.push([
            FakeTelegram.message("/join", from: 1, name: "Ann", chat: -1, messageID: 1),
            FakeTelegram.message("crane", from: 1, name: "Ann", messageID: 2),
            FakeTelegram.message("/export", from: 1, name: "Ann", messageID: 3),
            FakeTelegram.message("/forgetme", from: 1, name: "Ann", messageID: 4),
        ])
        let sent = try await fake.waitForSent { sent in
            Set(sent.compactMap(\.replyTo)).isSuperset(of: 3...4)
                && sent.contains { $0.text.contains("<code>CRANE</code>") }
        }
        #expect(try await fake.waitForStats { $0["setMessageReaction"] == 1 }["setMessageReaction"] == 1, "/join")
        let export = try #require(sent.first { $0.replyTo == 3 })
        let document = try #require(export.document)
        #expect(document.name == "tessera-data-1.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.content.utf8)) as? [String: Any])
        #expect((json["player"] as? [String: Any])?["name"] as? String == "Ann")
        #expect((json["games"] as? [[String: Any]])?.first?["guesses"] as? [String] == ["crane"])

        let question = try #require(sent.first { $0.replyTo == 4 })
        let data = question.buttons.map(\.data)
        #expect(data.count == 2 && data[0].hasPrefix("forgetme:yes~") && data[1].hasPrefix("forgetme:no~"))
        let confirm = data[0]
        try await fake.push([FakeTelegram.press(confirm, from: 1, name: "Ann", messageID: question.messageID)])
        let done = try await fake.waitForSent { $0.contains { $0.text.hasPrefix("Done: everything") } }
        #expect(done.filter { $0.text.hasPrefix("Done: everything") }.map(\.chat) == [1])
        #expect(try await fake.answeredPresses() == ["query-1-\(question.messageID)-\(confirm)"])

        try await fake.push([
            FakeTelegram.message("/export", from: 1, name: "Ann", messageID: 5),
            FakeTelegram.message("/leaderboard", from: 2, name: "Bo", chat: -1, messageID: 6),
        ])
        let after = try await fake.waitForSent { Set($0.compactMap(\.replyTo)).isSuperset(of: 5...6) }
        let again = try #require(after.first { $0.replyTo == 5 }?.document)
        let fresh = try #require(try JSONSerialization.jsonObject(with: Data(again.content.utf8)) as? [String: Any])
        #expect((fresh["games"] as? [Any])?.isEmpty == true && (fresh["groups"] as? [Any])?.isEmpty == true)
        #expect(after.first { $0.replyTo == 6 }?.text.hasPrefix("No results for puzzle") == true)

        let menus = try await fake.commandMenus()
        #expect(Set(menus.keys) == ["", "en", "es"])
        #expect(menus["es"]?.contains("forgetme") == true && menus["es"] == menus["en"])
        await running.stop()
        await fake.stop()
    }
}
