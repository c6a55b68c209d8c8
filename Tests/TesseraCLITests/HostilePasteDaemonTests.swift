import Foundation
import TesseraCore
import TesseraEngine
import TesseraTestSupport
import Testing

/// The fourth red team's paste through the daemon and the fake Bot API: it once trapped the process on every start
/// (the Mini's year as any integer), a crash loop for as long as the update stayed unacknowledged.
@Suite("A paste that once crashed the daemon for good")
struct HostilePasteDaemonTests {
    @Test("After the paste the bot answers the next message, and a restart does not read the paste again")
    func miniYearPaste() async throws {
        let fake = try await FakeTelegram.start()
        let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path
        let paste = "I solved the January 1, 30000000000000000 New York Times Mini Crossword in 0:22!"
        let first = try Daemon(fake: fake, database: database)
        try first.start()
        try await fake.push([
            FakeTelegram.message("/join@TesseraBot", from: 5, name: "Eve", chat: -500, messageID: 1),
            FakeTelegram.message(paste, from: 5, name: "Eve", chat: -500, messageID: 2),
            FakeTelegram.message("/help", from: 6, messageID: 3),
        ])
        try await fake.waitForSent { $0.contains { $0.replyTo == 3 } }
        #expect(first.process.isRunning, "the paste did not stop the daemon")
        #expect(await first.stop() == 0, "a graceful stop")
        let second = try Daemon(fake: fake, database: database)
        try second.start()
        try await fake.push([FakeTelegram.message("/help", from: 6, messageID: 4)])
        let sent = try await fake.waitForSent(timeout: .seconds(20)) { $0.contains { $0.replyTo == 4 } }
        #expect(sent.filter { $0.replyTo == 3 }.count == 1, "the batch with the paste was acknowledged once")
        #expect(sent.filter { $0.replyTo == 2 }.count <= 1, "the paste is not read again")
        #expect(second.process.isRunning)
        await second.stop(SIGKILL)
        await fake.stop()
    }

    @Test(
        "On Synapse too: after the paste the bot answers in the room, and a restart does not read it again",
        .disabled(
            if: ProcessInfo.processInfo.environment["TESSERA_SKIP_MATRIX"] == "1",
            "TESSERA_SKIP_MATRIX=1: the tests against Synapse are switched off"))
    func miniYearPasteOnMatrix() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let eve = try await synapse.register("eve")
            let room = try await synapse.createRoom(as: eve, inviting: [bot.userID], direct: false)
            let directory = try TesseraProcess.temporaryDirectory()
            let database = directory.appendingPathComponent("tessera.sqlite").path
            let log = directory.appendingPathComponent("daemon.log")
            func daemon() throws -> Daemon {
                try Daemon(
                    fake: nil, matrix: (synapse, bot), database: database, secret: DaemonTests.secret, logFile: log)
            }
            /// The bot's answer to the event `asked`.
            func answer(to asked: String) -> @Sendable ([String: Any]) -> Bool {
                { event in
                    let relation = MatrixDaemonTests.content(event)["m.relates_to"] as? [String: Any]
                    return event["sender"] as? String == bot.userID
                        && (relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == asked
                }
            }
            let first = try daemon()
            try first.start()
            _ = try await synapse.waitForEvent(in: room, as: eve, where: MatrixDaemonTests.joined(bot.userID))
            let pasted = try await synapse.say(Self.paste, in: room, as: eve)
            let asked = try await synapse.say("!help", in: room, as: eve)
            _ = try await synapse.waitForEvent(in: room, as: eve, where: answer(to: asked))
            #expect(first.process.isRunning, "the paste did not stop the daemon: \(MatrixDaemonTests.tail(of: log))")
            #expect(await first.stop() == 0)
            let second = try daemon()
            try second.start()
            let again = try await synapse.say("!help", in: room, as: eve)
            _ = try await synapse.waitForEvent(in: room, as: eve, where: answer(to: again))
            #expect(second.process.isRunning)
            #expect(await second.stop() == 0)
            let events = try await synapse.events(in: room, as: eve)
            #expect(events.filter(answer(to: asked)).count == 1, "the first help, answered once")
            #expect(events.filter(answer(to: pasted)).count <= 1, "the paste is not read again")
        }
    }

    static let paste = "I solved the January 1, 30000000000000000 New York Times Mini Crossword in 0:22!"
}
