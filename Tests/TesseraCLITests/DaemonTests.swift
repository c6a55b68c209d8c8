import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraSQLite
import TesseraTestSupport
import Testing

/// The real `tessera run` process against the fake Bot API on loopback.
@Suite("The Telegram daemon, end to end", .serialized)
struct DaemonTests {
    static let secret = "daemon test secret 3f9a61c2e8b04d57"

    /// The day of the tests that play it: a daemon given ``clock(in:)`` reads this time, not the system's, so
    /// that a test running across midnight UTC plays one puzzle.
    static let day = "2026-11-22T12:00:00Z"
    static let puzzle = PuzzleNumber(326)

    /// A clock file set to ``day``, and the environment that makes a daemon read it.
    static func clock(in directory: URL) throws -> [String: String] {
        let clock = ClockFile(in: directory)
        try clock.set(day)
        return clock.environment
    }

    /// The answer of ``puzzle``, in lower case.
    static func answer() throws -> String {
        let list = Language.english.wordList
        return list.display(
            AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(secret))).answer(for: puzzle)
        ).lowercased()
    }

    /// Allowed words that are not the answer of ``puzzle``, in a fixed order.
    static func wrongWords(_ count: Int) throws -> [String] {
        let list = Language.english.wordList
        let answer = AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(secret))).answer(for: puzzle)
        let words = list.answers.filter { $0 != answer }.map { list.letters($0) }
        return Array(words.prefix(count))
    }

    /// `playing`: the daemon reads ``day`` from a clock file, for a test that plays its puzzle. Tests of
    /// liveness (heartbeats, `tessera status`) keep the system's time, which `tessera status` compares with.
    func withDaemon(
        on store: DaemonDatabase = .sqlite, playing: Bool = false,
        _ body: (FakeTelegram, Daemon, (location: String, environment: [String: String])) async throws -> Void
    ) async throws {
        let fake = try await FakeTelegram.start()
        let database = try await store.make()
        let clock = playing ? try Self.clock(in: try TesseraProcess.temporaryDirectory()) : [:]
        let daemon = try Daemon(
            fake: fake, database: database.location, secret: Self.secret,
            environment: database.environment.merging(clock) { $1 })
        try daemon.start()
        do {
            try await body(fake, daemon, database)
        } catch {
            await daemon.stop(SIGKILL)
            await fake.stop()
            throw error
        }
        if daemon.process.isRunning { await daemon.stop(SIGKILL) }
        await fake.stop()
    }

    @Test("Many players and groups, every command, hostile input: one clear reply each, no spoilers in groups")
    func everyCommand() async throws {
        try await withDaemon(playing: true) { fake, _, _ in
            let words = try Self.wrongWords(40)
            var updates: [[String: Any]] = []
            for player in 1...20 {
                updates.append(
                    FakeTelegram.message(
                        words[player], from: Int64(player), name: "P\(player)", messageID: Int64(player)))
            }
            let commands = [
                "/start", "/help", "/board", "/hard", "/stats", "/share", "/leaderboard", "/timezone",
                "/timezone Europe/Madrid", "/language", "/language es", "/guess",
            ]
            // Each from a player of their own, so no chat waits on its rate limit (tested in process).
            for (index, command) in commands.enumerated() {
                updates.append(
                    FakeTelegram.message(
                        command, from: Int64(100 + index), name: "Cmd", messageID: Int64(100 + index)))
            }
            let hostile = ["", String(repeating: "ab ", count: 4000), "🟩🟩🟩🟩🟩", "\u{200F}crane\u{200E}", "<b>&amp;</b>"]
            for (index, text) in hostile.enumerated() {
                updates.append(
                    FakeTelegram.message(
                        text, from: Int64(200 + index), name: "<i>Mallory & co</i>", messageID: Int64(200 + index)))
            }
            for player in 1...5 {
                updates.append(
                    FakeTelegram.message(
                        "/join@TesseraBot", from: Int64(player), name: "P\(player)", chat: -500,
                        messageID: Int64(300 + player)))
            }
            // A guess in the group is not taken: the reply links to the private chat and never shows the word.
            updates.append(
                FakeTelegram.message("/guess@TesseraBot \(words[21])", from: 6, name: "P6", chat: -500, messageID: 398))
            updates.append(FakeTelegram.message("/guess@OtherBot crane", from: 1, chat: -500, messageID: 399))
            updates.append(FakeTelegram.message("/leaderboard@TesseraBot", from: 1, chat: -500, messageID: 400))
            try await fake.push(updates)
            // Joins are acknowledged with a reaction each, not a message.
            let expected = 20 + commands.count + hostile.count + 1 + 1
            let sent = try await fake.waitForSent { $0.count >= expected }
            #expect(sent.count == expected)
            let replied = Set(sent.compactMap(\.replyTo))
            for player in 1...20 {
                // A guess is answered by the game's board: one message of its own, showing the word guessed.
                let boards = sent.filter { $0.chat == Int64(player) }
                #expect(
                    boards.count == 1 && boards[0].text.contains("<code>\(words[player].uppercased())</code>"),
                    "player \(player)'s guess is answered by their board")
            }
            #expect(!replied.contains(399), "a command for another bot is ignored")
            #expect(try await fake.undocumentedParameters() == [], "every parameter sent is documented")
            for message in sent where message.chat == -500 {
                for word in words {
                    #expect(!message.text.lowercased().contains(word), "a group saw letters: \(message.text)")
                }
            }
            let leaderboard = try #require(sent.first { $0.replyTo == 400 })
            #expect(leaderboard.text.contains("Leaderboard"))
            // Players 1-5 guessed once in private, then joined the group's board.
            #expect(leaderboard.text.components(separatedBy: "playing (1/6)").count - 1 == 5)
            let joins = try await fake.reactions().filter { $0.chat == -500 }
            #expect(joins.map(\.messageID).sorted() == Array(301...305) && joins.allSatisfy { $0.emoji == "👌" })
            let link = try #require(
                sent.first { $0.chat == -500 && $0.links.contains("https://t.me/TesseraBot?start=play-en") })
            #expect(link.replyTo == nil, "the link does not quote the guess")
            #expect(sent.allSatisfy { !$0.text.contains("<i>Mallory") }, "names are escaped")
            #expect(try await fake.stats()["max_timeout_seen"] == 50, "long polls ask for the Bot API's 50 s maximum")
        }
    }

    /// Every line of a JSON log is one object with the documented keys, its time RFC 3339 with fractions.
    static func expectJSONLines(_ log: String) {
        let lines = log.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(
                object?["level"] is String && object?["label"] is String && object?["message"] is String
                    && object?["metadata"] is [String: Any], "not a log object: \(line)")
            let time = object?["time"] as? String ?? ""
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/) != nil, "\(time)")
        }
    }

    @Test(
        "A wrong token stops the daemon with a message that says so, without showing the token, in either log format",
        arguments: ["text", "json"])
    func wrongToken(format: String) async throws {
        let fake = try await FakeTelegram.start()
        let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let daemon = try Daemon(
            fake: fake, database: database, token: "111:not-the-token", environment: ["TESSERA_LOG_FORMAT": format])
        try daemon.start()
        let (status, log) = await daemon.exit(within: 20)
        await fake.stop()
        #expect(status != nil && status != 0)
        #expect(log.contains("Telegram refused the bot token"))
        #expect(!log.contains("not-the-token"))
        if format == "json" { Self.expectJSONLines(log) }
    }

    @Test(
        "At trace level the daemon logs neither the token nor the schedule secret, in either log format",
        arguments: ["text", "json"])
    func noSecretsInTraceLogs(format: String) async throws {
        let fake = try await FakeTelegram.start()
        let folder = try TesseraProcess.temporaryDirectory()
        let secret = "a schedule secret that must never be logged"
        let logFile = folder.appendingPathComponent("trace.log")
        let daemon = try Daemon(
            fake: fake, database: folder.appendingPathComponent("t.sqlite").path, secret: secret,
            environment: ["TESSERA_LOG_LEVEL": "trace", "TESSERA_LOG_FORMAT": format], logFile: logFile)
        try daemon.start()
        try await fake.push([FakeTelegram.message("crane", from: 1, messageID: 1)])
        try await fake.waitForSent { $0.count >= 1 }
        let status = await daemon.stop(SIGTERM)
        await fake.stop()
        #expect(status == 0)
        let log = try String(contentsOf: logFile, encoding: .utf8)
        #expect(log.contains("trace") || log.contains("debug"), "the log is not verbose: \(log.prefix(300))")
        #expect(!log.contains(fake.token.split(separator: ":").last.map(String.init) ?? fake.token))
        #expect(!log.contains(secret))
        #expect(!log.contains("SipHash(k0"))
        if format == "json" { Self.expectJSONLines(log) }
    }

    @Test("A second daemon on the same database refuses to start and names the first")
    func oneDaemonPerDatabase() async throws {
        try await withDaemon { fake, first, database in
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 1)])
            try await fake.waitForSent { $0.count >= 1 }
            let second = try Daemon(fake: fake, database: database.location, secret: Self.secret)
            try second.start()
            let (status, log) = await second.exit(within: 20)
            #expect(status != nil && status != 0)
            #expect(log.contains("is in use by another tessera (pid \(first.process.processIdentifier) on "), "\(log)")
            #expect(first.process.isRunning)
        }
    }

    @Test("tessera status says a running daemon is healthy", arguments: DaemonDatabase.all)
    func statusOfRunningDaemon(_ store: DaemonDatabase) async throws {
        try await withDaemon(on: store) { fake, _, database in
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 1)])
            try await fake.waitForSent { $0.count >= 1 }
            let output = try await TesseraProcess.run(
                ["status", "--database", database.location], environment: database.environment)
            #expect(output.status == 0)
            #expect(
                output.standardOutput.hasPrefix("Healthy: tessera run (telegram) on \(database.location)"), "\(output)")
        }
    }

    @Test("tessera status says a stopped daemon (kill -STOP) is stalled, with its pid, and healthy once continued")
    func statusOfStoppedDaemon() async throws {
        try await withDaemon { fake, daemon, database in
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 1)])
            try await fake.waitForSent { $0.count >= 1 }
            let pid = daemon.process.processIdentifier
            kill(pid, SIGSTOP)
            // Its heartbeat ages while it is stopped: asked with a short limit until it is older than that.
            let status = ["status", "--database", database.location, "--stale-after", "1"]
            let stalled = try await fake.wait(for: { try await TesseraProcess.run(status) }) { output in
                output.standardError.contains("Running but stalled")
            }
            #expect(stalled.status == 1)
            #expect(stalled.standardError.hasPrefix("Error: Running but stalled: pid \(pid) on "), "\(stalled)")
            #expect(stalled.standardError.contains("kill -CONT \(pid)"))
            kill(pid, SIGCONT)
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 2)])
            try await fake.waitForSent { $0.count >= 2 }
            #expect(daemon.process.isRunning)
        }
    }

    @Test("SIGTERM: polling stops, the outbox is drained, the process exits cleanly")
    func gracefulShutdown() async throws {
        try await withDaemon { fake, daemon, _ in
            try await fake.push((1...10).map { FakeTelegram.message("/help", from: Int64($0), messageID: Int64($0)) })
            try await fake.waitForSent { $0.count >= 1 }
            let status = await daemon.stop(SIGTERM)
            #expect(status == 0)
            #expect(try await fake.sent().count == 10)
        }
    }

    @Test("SIGTERM while Telegram refuses every send: stopped within the deadline, the replies kept for the next start")
    func shutdownWithQueuedReplies() async throws {
        let fake = try await FakeTelegram.start()
        let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path
        let first = try Daemon(fake: fake, database: database)
        try first.start()
        try await fake.fail("sendMessage", status: 502, count: 1_000)
        try await fake.push((1...3).map { FakeTelegram.message("/help", from: Int64($0), messageID: Int64($0)) })
        try await fake.waitForStats { ($0["calls.sendMessage"] ?? 0) >= 1 }
        let start = ContinuousClock.now
        let status = await first.stop(SIGTERM)
        let took = start.duration(to: .now)
        #expect(status == 0)
        // The group's 7 s deadline, then the process ends: before `docker stop` (10 s) would kill it. On the
        // 2-core CI machine under the suite's load, ending took 1.7 s once.
        #expect(took < .seconds(10), "\(took)")
        #expect(try await fake.sent().isEmpty)
        await fake.stop()

        // The next start sends them, to a platform that works again.
        let working = try await FakeTelegram.start()
        let second = try Daemon(fake: working, database: database)
        try second.start()
        let sent = try await working.waitForSent { $0.count >= 3 }
        #expect(Set(sent.map(\.chat)) == [1, 2, 3])
        #expect(await second.stop(SIGTERM) == 0)
        await working.stop()
    }

    @Test("SIGTERM while the platform cannot be reached yet: the startup, inside the group, ends at once")
    func shutdownWhileConnecting() async throws {
        let fake = try await FakeTelegram.start()
        try await fake.hold("getMe")
        let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path
        let daemon = try Daemon(fake: fake, database: database)
        try daemon.start()
        try await fake.waitForStats { ($0["calls.getMe"] ?? 0) >= 1 }
        let start = ContinuousClock.now
        #expect(await daemon.stop(SIGTERM) == 0)
        #expect(start.duration(to: .now) < .seconds(8))
        await fake.stop()
    }

    @Test("A daemon restarted after SIGKILL is not locked out by its predecessor's long poll")
    func restartDuringLongPoll() async throws {
        let fake = try await FakeTelegram.start()
        let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path
        let first = try Daemon(fake: fake, database: database)
        try first.start()
        try await fake.push([FakeTelegram.message("/help", from: 5, messageID: 1)])
        try await fake.waitForSent { $0.contains { $0.replyTo == 1 } }
        // The first daemon waits in a 50 s long poll that nobody will read once it is killed.
        try await fake.waitForStats { $0["polls_waiting"] == 1 }
        await first.stop(SIGKILL)
        let second = try Daemon(fake: fake, database: database)
        try second.start()
        // The second daemon's poll ends the dead one's and is the one waiting now.
        let counters = try await fake.waitForStats { $0["conflicts"] == 1 && $0["polls_waiting"] == 1 }
        #expect(counters["conflicts"] == 1 && counters["polls_waiting"] == 1, "\(counters)")
        try await fake.push([FakeTelegram.message("/help", from: 5, messageID: 2)])
        let sent = try await fake.waitForSent(timeout: .seconds(10)) { $0.contains { $0.replyTo == 2 } }
        #expect(sent.filter { $0.replyTo == 2 }.count == 1)
        // Only the dead poll was refused; the new daemon's polls were never turned away.
        #expect(try await fake.stats()["conflicts"] == 1)
        await second.stop(SIGKILL)
        await fake.stop()
    }

    @Test(
        "SIGKILL in the middle of a load: every guess is applied exactly once and every board shows it",
        arguments: DaemonDatabase.all)
    func crashSafety(_ store: DaemonDatabase) async throws {
        let fake = try await FakeTelegram.start()
        let (database, databaseEnvironment) = try await store.make()
        let words = try Self.wrongWords(3)
        let players = 60
        let updates = FakeTelegram.rounds(of: words, players: players)
        // Without rate limits (tested in process), the load is over sooner.
        let environment = databaseEnvironment.merging(["TESSERA_TELEGRAM_RATE_LIMITS": "off"]) { $1 }
            .merging(try Self.clock(in: try TesseraProcess.temporaryDirectory())) { $1 }
        let first = try Daemon(fake: fake, database: database, secret: Self.secret, environment: environment)
        try first.start()
        try await fake.push(updates)
        try await fake.waitForSent { $0.count >= 40 }
        await first.stop(SIGKILL)
        let second = try Daemon(fake: fake, database: database, secret: Self.secret, environment: environment)
        try second.start()
        // Each player's board is one message edited after each guess; the latest shows every guess once.
        try await fake.expectEachGuessOnce(players: players, words: words)
        await second.stop(SIGKILL)
        await fake.stop()
    }
}
