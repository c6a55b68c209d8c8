import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// Practice games and the archive through the real daemon: on the fake Bot API (with a restart in the middle of a
/// practice game) and on Synapse, each with a share in a group and the day's limit.
@Suite("Practice and the archive through the daemon", .serialized)
struct PracticeDaemonTests {
    /// At most three new games a day, so that the limit is reached within the test.
    static let environment = GroupDaemonTests.environment.merging(["TESSERA_PRACTICE_GAMES_PER_DAY": "3"]) { $1 }

    /// The daemon tests' word of a past puzzle, in capitals.
    static func answer(_ puzzle: Int) throws -> String { try LiveBoardDaemonTests.answer(puzzle) }

    @Test(
        "Telegram: a practice game lost and shared, a restart mid-game, an archive game won, shares in a group, the limit"
    )
    func telegram() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = directory.appendingPathComponent("now")
        try String(GroupDaemonTests.noon).write(to: clock, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("tessera.sqlite").path
        func daemon() throws -> Daemon {
            let running = try Daemon(
                fake: fake, database: database, secret: DaemonTests.secret,
                environment: Self.environment.merging(["TESSERA_CLOCK_FILE": clock.path]) { $1 })
            try running.start()
            return running
        }
        var running = try daemon()
        var messageID: Int64 = 0
        func say(_ text: String, chat: Int64? = nil) async throws {
            messageID += 1
            try await fake.push([FakeTelegram.message(text, from: 8, name: "Eve", chat: chat, messageID: messageID)])
        }
        func reply(_ what: @escaping @Sendable (String) -> Bool, chat: Int64 = 8) async throws -> String {
            let sent = try await fake.waitForSent { $0.contains { $0.chat == chat && what($0.text) } }
            return try #require(sent.last { $0.chat == chat && what($0.text) }).text
        }

        // A practice game, lost: six words that are no day's answer (the practice word is drawn at random).
        try await say("/practice")
        _ = try await reply { $0.hasPrefix("<b>Practice</b> · 0/6") }
        let words = try LiveBoardDaemonTests.wrongWords(6, puzzle: 326)
        for (index, word) in words.enumerated() {
            try await say(word.lowercased())
            let board = try await fake.wait(for: fake.edits) { edits in
                edits.contains { $0.chat == 8 && $0.text.contains("· \(index + 1)/6") || $0.text.contains("Solved") }
            }
            if board.contains(where: { $0.text.contains("Solved") }) { break }
        }
        let finished = try #require(try await fake.edits().last { $0.chat == 8 })
        #expect(finished.text.hasPrefix("<b>Practice</b>"))
        try await say("/share")
        let practiceShare = try await reply { $0.hasPrefix("Tessera Practice ") }
        #expect(practiceShare.contains("/6\n\n"))

        // A second practice game, one guess in, then a restart: it goes on with the same word and guesses. The guess
        // is never an answer, so it cannot win the randomly drawn word (CRANE once did).
        let english = Language.english.wordList
        let guess = try #require(english.allowedGuesses.subtracting(english.answers).map(english.display).min())
        try await say("/practice")
        _ = try await reply { $0.contains("<b>Practice</b> · 0/6") }
        try await say(guess.lowercased())
        _ = try await reply { $0.hasPrefix("<b>Practice</b> · 1/6") }
        #expect(await running.stop() == 0)
        running = try daemon()
        try await say("/board")
        let continued = try await reply { $0.hasPrefix("<b>Practice</b> · 1/6") }
        #expect(continued.contains("<code>\(guess)</code>"), "\(continued)")

        // The archive: listed, then puzzle 312 played (giving the practice game up), won, and shared.
        try await say("/archive")
        let list = try await reply { $0.hasPrefix("<b>The archive</b>") }
        #expect(list.contains("\n324 · 2026-11-20\n") && !list.contains("325 ·"))
        try await say("/archive 312")
        let question = try await fake.waitForSent { $0.contains { $0.text.hasPrefix("You are still playing") } }
        let asked = try #require(question.last { $0.text.hasPrefix("You are still playing") })
        #expect(asked.buttons.map(\.data) == ["archive 312 new"])
        try await fake.push([FakeTelegram.press("archive 312 new", from: 8, name: "Eve", messageID: asked.messageID)])
        _ = try await reply { $0.hasPrefix("<b>Archive 312</b> · 0/6") }
        try await say(try Self.answer(312).lowercased())
        _ = try await reply { $0.hasPrefix("<b>Archive 312</b> · 1/6") }
        try await say("/share")
        let archiveShare = try await reply { $0.hasPrefix("Tessera 312 (archive)") }
        #expect(archiveShare == "Tessera 312 (archive) 1/6\n\n🟩🟩🟩🟩🟩")

        // Shared in a group: acknowledged with a reaction, not counted, and why said once.
        try await say("/join", chat: -70)
        let joined = messageID
        _ = try await fake.wait(for: fake.reactions) { $0.contains { $0.chat == -70 && $0.messageID == joined } }
        try await say(practiceShare, chat: -70)
        _ = try await reply({ $0.hasPrefix("That is a practice or archive result") }, chat: -70)
        try await say(archiveShare, chat: -70)
        let reactions = try await fake.wait(for: fake.reactions) { $0.filter { $0.chat == -70 }.count >= 3 }
        #expect(reactions.filter { $0.chat == -70 }.map(\.messageID) == [joined, messageID - 1, messageID])
        try await say("/leaderboard", chat: -70)
        _ = try await reply({ $0.hasPrefix("No results for puzzle 326 in this group yet") }, chat: -70)
        let why = try await fake.sent().filter { $0.chat == -70 && $0.text.hasPrefix("That is a practice") }
        #expect(why.count == 1)

        // Three games started today: a fourth waits for tomorrow, with the reason.
        try await say("/practice")
        let limit = try await reply { $0.hasPrefix("You have started 3 practice and archive games today") }
        #expect(limit.contains("More in 12 h 0 min"))
        #expect(await running.stop() == 0)
        await fake.stop()
    }

    @Test("Matrix: !practice, !archive N won, analysed and shared, typed confirmation, a share in a room, the limit")
    func matrix() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let bob = try await synapse.register("bob")
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            let clock = try DaemonTests.clock(in: try TesseraProcess.temporaryDirectory())
            try await MatrixDaemonTests.withDaemon(
                synapse, bot: bot, environment: Self.environment.merging(clock) { $1 }
            ) {
                _ = try await synapse.waitForEvent(
                    in: direct, as: alice, where: MatrixDaemonTests.joined(bot.userID))
                /// The bot's notice whose plain text contains `text`.
                func said(_ text: String, room: String? = nil, timeout: Duration = .seconds(60)) async throws
                    -> [String: Any]
                {
                    try await synapse.waitForEvent(
                        in: room ?? direct, as: alice, timeout: timeout, describing: "a notice saying \"\(text)\"",
                        where: MatrixDaemonTests.notice(from: bot.userID, containing: text, plain: true))
                }
                func body(_ event: [String: Any]) -> String { MatrixDaemonTests.shown(event)["body"] as? String ?? "" }
                try await synapse.say("!practice", in: direct, as: alice)
                _ = try await said("Practice · 0/6")
                // Never an answer, so it cannot win the randomly drawn word and leave nothing to give up.
                let list = Language.english.wordList
                let guess = try #require(list.allowedGuesses.subtracting(list.answers).map(list.display).min())
                try await synapse.say(guess.lowercased(), in: direct, as: alice)
                _ = try await said("Practice · 1/6")

                // Past puzzles are in the archive; a new game asks first, and is confirmed by typing.
                let past = DaemonTests.puzzle.rawValue - 20
                try await synapse.say("!archive \(past)", in: direct, as: alice)
                let question = try await said("You are still playing your practice game")
                #expect(body(question).contains("!archive \(past) new"), "in Matrix's prefix: \(body(question))")
                try await synapse.say("!archive \(past) new", in: direct, as: alice)
                _ = try await said("Archive \(past) · 0/6")
                // SALET first: the opening book knows it, so the analysis takes a moment, not a search.
                try await synapse.say("salet", in: direct, as: alice)
                _ = try await said("Archive \(past) · 1/6")
                try await synapse.say(try Self.answer(past).lowercased(), in: direct, as: alice)
                let won = try await said("Archive \(past) · 2/6")
                #expect(body(won).contains("!practice another · !archive · !share · !analysis · !play today's puzzle"))
                try await synapse.say("!share", in: direct, as: alice)
                let share = try await said("(archive) 2/6")
                let text = body(share)
                #expect(text.hasPrefix("Tessera \(past) (archive) 2/6\n\n") && text.hasSuffix("\n🟩🟩🟩🟩🟩"))
                // Analysed by the daemon's analysis service, as a daily game is.
                try await synapse.say("!analysis", in: direct, as: alice)
                // A debug build's solver, at the lowest priority while the rest of the suite runs: give it time.
                let analysis = body(try await said("🔍 Analysis · Archive \(past)", timeout: .seconds(120)))
                #expect(analysis.contains("1. ") && analysis.contains("SALET"), "\(analysis)")

                // In a room of three (two would be a direct chat): the reason once, and a reaction.
                let group = try await synapse.createRoom(as: alice, inviting: [bot.userID, bob.userID])
                try await synapse.join(group, as: bob)
                _ = try await synapse.waitForEvent(in: group, as: alice, where: MatrixDaemonTests.joined(bot.userID))
                try await synapse.say(text, in: group, as: alice)
                _ = try await said("That is a practice or archive result", room: group)
                let reaction = try await synapse.waitForEvent(in: group, as: alice) { event in
                    event["type"] as? String == "m.reaction" && event["sender"] as? String == bot.userID
                }
                #expect(reaction["type"] as? String == "m.reaction")

                try await synapse.say("!practice", in: direct, as: alice)
                _ = try await said("Practice · 0/6")
                try await synapse.say("!practice new", in: direct, as: alice)
                _ = try await said("You have started 3 practice and archive games today")
            }
        }
    }
}
