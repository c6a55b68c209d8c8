import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// Groups through the real daemon and the fake Bot API, with the daemon's clock read from a file.
@Suite("Groups through the daemon", .serialized)
struct GroupDaemonTests {
    /// 2026-11-22 12:00 UTC: puzzle 326 in UTC, 21:00 in Tokyo.
    static let noon = 1_795_348_800.0

    @Test(
        "Groups in different zones get their summaries at their own rollover, once; one missed while down comes on start"
    )
    func summariesAcrossRollovers() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let database = directory.appendingPathComponent("tessera.sqlite").path
        let clock = directory.appendingPathComponent("now")
        func setClock(_ seconds: Double) throws {
            try String(seconds).write(to: clock, atomically: true, encoding: .utf8)
        }
        try setClock(Self.noon)
        let list = Language.english.wordList
        let answer = list.display(
            AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(DaemonTests.secret)))
                .answer(for: PuzzleNumber(326)))
        func daemon() throws -> Daemon {
            try Daemon(fake: fake, database: database, environment: ["TESSERA_CLOCK_FILE": clock.path])
        }

        var running = try daemon()
        try running.start()
        try await fake.setAdministrators(of: -200, [1])
        try await fake.push([
            FakeTelegram.message("/settings timezone Asia/Tokyo", from: 2, name: "Bea", chat: -200, messageID: 1),
            FakeTelegram.message("/settings timezone Asia/Tokyo", from: 1, name: "Ann", chat: -200, messageID: 2),
            FakeTelegram.message("/settings topic here", from: 1, name: "Ann", chat: -200, messageID: 3, topic: 77),
            FakeTelegram.message("/join", from: 1, name: "Ann", chat: -100, messageID: 4),
            FakeTelegram.message("/join", from: 1, name: "Ann", chat: -200, messageID: 5),
            FakeTelegram.message(answer.lowercased(), from: 1, name: "Ann", messageID: 6),
            FakeTelegram.message("/guess@TesseraBot \(answer)", from: 2, name: "Bea", chat: -200, messageID: 7),
        ])
        let replies = try await fake.waitForSent { Set($0.compactMap(\.replyTo)).isSuperset(of: 1...7) }
        #expect(replies.first { $0.replyTo == 1 }?.text.hasPrefix("Sorry, only this group's administrators") == true)
        #expect(replies.first { $0.replyTo == 2 }?.text.contains("Day: Asia/Tokyo") == true)
        #expect(replies.first { $0.replyTo == 3 }?.topic == 77, "the reply stays in its topic")

        func summaries(_ chat: Int64) async throws -> [FakeTelegram.SentMessage] {
            try await fake.sent().filter { $0.chat == chat && $0.text.contains("Puzzle 326 is over") }
        }
        // 15:00:30 UTC is just past midnight in Tokyo: only the Tokyo group's day has closed.
        try setClock(Self.noon + 3 * 3600 + 30)
        let tokyo = try await fake.waitForSent(timeout: .seconds(30)) { sent in
            sent.contains { $0.chat == -200 && $0.text.contains("Puzzle 326 is over") }
        }.filter { $0.chat == -200 && $0.text.contains("Puzzle 326 is over") }
        #expect(tokyo.count == 1)
        let summary = try #require(tokyo.first)
        #expect(summary.text.contains("The word was \(answer)"))
        #expect(summary.text.contains("🏆 Ann, Bea") || summary.text.contains("🏆 Bea, Ann"))
        #expect(summary.text.contains("🟩🟩🟩🟩🟩"))
        #expect(summary.topic == 77, "posted in the group's topic")
        #expect(try await summaries(-100).isEmpty, "the UTC group's day is still open")

        // Down across the UTC rollover; on start the missed summary is posted, the Tokyo one not again.
        #expect(await running.stop(SIGTERM) == 0)
        try setClock(Self.noon + 12 * 3600 + 300)
        running = try daemon()
        try running.start()
        let utc = try await fake.waitForSent(timeout: .seconds(30)) { sent in
            sent.contains { $0.chat == -100 && $0.text.contains("Puzzle 326 is over") }
        }.filter { $0.chat == -100 && $0.text.contains("Puzzle 326 is over") }
        #expect(utc.count == 1)
        #expect(utc.first?.text.contains("Ann 1/6") == true)
        #expect(utc.first?.text.contains("Bea") == false, "Bea is not on this group's board")
        try await Task.sleep(for: .seconds(6))  // another check of the days
        #expect(try await summaries(-200).count == 1)
        #expect(try await summaries(-100).count == 1)
        await running.stop(SIGKILL)
        await fake.stop()
    }
}
