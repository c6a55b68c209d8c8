import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// `tessera run` against a real Synapse, with real people in real rooms.
@Suite(
    "The Matrix daemon, end to end against Synapse", .serialized,
    .disabled(
        if: ProcessInfo.processInfo.environment["TESSERA_SKIP_MATRIX"] == "1",
        "TESSERA_SKIP_MATRIX=1: the tests against Synapse are switched off"))
struct MatrixDaemonTests {
    static func content(_ event: [String: Any]) -> [String: Any] { event["content"] as? [String: Any] ?? [:] }

    /// What a message shows: its content, or an edit's new content.
    static func shown(_ event: [String: Any]) -> [String: Any] {
        let content = content(event)
        return (content["m.new_content"] as? [String: Any]) ?? content
    }

    /// A notice from the bot whose formatted body (or, `plain`, its plain-text body) contains `text`, posted or
    /// in an edit's new content.
    static func notice(from bot: String, containing text: String, plain: Bool = false)
        -> @Sendable ([String: Any]) -> Bool
    {
        { event in
            guard event["sender"] as? String == bot else { return false }
            return (shown(event)[plain ? "body" : "formatted_body"] as? String)?.contains(text) == true
        }
    }

    static func joined(_ user: String) -> @Sendable ([String: Any]) -> Bool {
        { event in
            event["type"] as? String == "m.room.member" && event["state_key"] as? String == user
                && content(event)["membership"] as? String == "join"
        }
    }

    @Test(
        "A game in a direct room: the invite joined, one board edited in place, !analysis; a group shares without letters"
    )
    func directGameAndGroup() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let bob = try await synapse.register("bob")
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            let clock = try DaemonTests.clock(in: try TesseraProcess.temporaryDirectory())
            try await Self.withDaemon(synapse, bot: bot, environment: clock) {
                _ = try await synapse.waitForEvent(in: direct, as: alice, where: Self.joined(bot.userID))
                // A first guess the opening book knows, so the game's analysis takes a moment.
                let words = ["salet"] + (try DaemonTests.wrongWords(2)).filter { $0 != "salet" }.prefix(1)
                try await synapse.say(words[0], in: direct, as: alice)
                let board = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "· 1/6"))
                #expect(Self.content(board)["msgtype"] as? String == "m.notice")
                let boardID = try #require(board["event_id"] as? String)
                try await synapse.say(words[1], in: direct, as: alice)
                let edit = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "· 2/6"))
                let relation = Self.content(edit)["m.relates_to"] as? [String: Any]
                #expect(relation?["rel_type"] as? String == "m.replace" && relation?["event_id"] as? String == boardID)
                let answer = try DaemonTests.answer()
                try #require(answer != "salet")
                try await synapse.say(answer, in: direct, as: alice)
                let finished = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "· 3/6"))
                #expect((Self.content(finished)["body"] as? String ?? "").contains("!stats · !analysis"))
                // No buttons on Matrix: !analysis shows the finished game's analysis, in the direct room only.
                try await synapse.say("!analysis", in: direct, as: alice)
                // A debug build's solver, at the lowest priority while the rest of the suite runs: give it time.
                _ = try await synapse.waitForEvent(
                    in: direct, as: alice, timeout: .seconds(120),
                    where: Self.notice(from: bot.userID, containing: "🔍 Analysis · Tessera"))

                let group = try await synapse.createRoom(as: alice, inviting: [bot.userID, bob.userID])
                try await synapse.join(group, as: bob)
                _ = try await synapse.waitForEvent(in: group, as: bob, where: Self.joined(bot.userID))
                try await synapse.say("!share", in: group, as: alice)
                let shared = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "3/6"))
                let text = (Self.content(shared)["body"] as? String ?? "").lowercased()
                #expect(text.contains("🟩🟩🟩🟩🟩"), "the squares: \(text)")
                #expect(!(words + [answer]).contains { text.contains($0) }, "no letters of a guess in a group: \(text)")
                try await synapse.say("!analysis", in: group, as: alice)
                let pointer = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "!analysis there"))
                #expect(!(words + [answer]).contains { (Self.content(pointer)["body"] as? String ?? "").contains($0) })
                try await synapse.say("!leaderboard", in: group, as: bob)
                _ = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "alice"))
            }
        }
    }

    /// Runs `tessera run` on Matrix (and on the fake Bot API, given one) around `body`. Should `body` fail, the
    /// daemon is killed and the end of its log recorded; otherwise it must stop cleanly on SIGTERM.
    static func withDaemon(
        _ synapse: Synapse, bot: Synapse.Account, telegram: FakeTelegram? = nil, in directory: URL? = nil,
        environment: [String: String] = [:], _ body: () async throws -> Void
    ) async throws {
        let directory = try directory ?? TesseraProcess.temporaryDirectory()
        let log = directory.appendingPathComponent("daemon.log")
        // Debug lines say, after a failure, whether the bot stored the batch and sent its replies.
        let daemon = try Daemon(
            fake: telegram, matrix: (synapse, bot), database: directory.appendingPathComponent("tessera.sqlite").path,
            secret: DaemonTests.secret, environment: ["TESSERA_LOG_LEVEL": "debug"].merging(environment) { $1 },
            logFile: log)
        try daemon.start()
        do {
            try await body()
        } catch {
            await daemon.stop(SIGKILL)
            Issue.record("the daemon's log ends: \(tail(of: log))")
            throw error
        }
        #expect(await daemon.stop() == 0)
    }

    /// The last lines of a log, to read beside a failure.
    static func tail(of log: URL) -> String {
        do {
            return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").suffix(40).joined(
                separator: "\n")
        } catch {
            return "(\(log.path) cannot be read: \(error))"
        }
    }

    @Test("SIGKILL in the middle of 100 guesses: after a restart each guess is applied once and posted once")
    func crashSafety() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            var players: [(account: Synapse.Account, room: String)] = []
            for index in 0..<25 {
                let player = try await synapse.register("player\(index)")
                players.append((player, try await synapse.createRoom(as: player, inviting: [bot.userID], direct: true)))
            }
            let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path
            let log = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("daemon.log")
            let first = try Daemon(
                fake: nil, matrix: (synapse, bot), database: database, secret: DaemonTests.secret, logFile: log)
            try first.start()
            for (player, room) in players {
                _ = try await synapse.waitForEvent(in: room, as: player, where: Self.joined(bot.userID))
            }
            let words = try DaemonTests.wrongWords(4)
            for word in words {
                for (player, room) in players { try await synapse.say(word, in: room, as: player) }
            }
            // Killed while the guesses are being answered: some boards are posted, others not yet.
            _ = try await synapse.waitForEvent(
                in: players[0].room, as: players[0].account, where: Self.notice(from: bot.userID, containing: "· 1/6"))
            await first.stop(SIGKILL)
            let second = try Daemon(
                fake: nil, matrix: (synapse, bot), database: database, secret: DaemonTests.secret, logFile: log)
            try second.start()
            do {
                for (player, room) in players {
                    _ = try await synapse.waitForEvent(
                        in: room, as: player, where: Self.notice(from: bot.userID, containing: "· 4/6"))
                    // The welcome the invite got, then the board.
                    let events = try await synapse.events(in: room, as: player).filter {
                        $0["sender"] as? String == bot.userID && $0["type"] as? String == "m.room.message"
                            && !Self.notice(from: bot.userID, containing: "Welcome to")($0)
                    }
                    let posts = events.filter { Self.content($0)["m.new_content"] == nil }
                    #expect(posts.count == 1, "\(player.userID): one board, edited since: \(posts.count) posts")
                    let latest = try #require(events.last.map { Self.content($0) })
                    let board = ((latest["m.new_content"] as? [String: Any]) ?? latest)["body"] as? String ?? ""
                    for word in words {
                        let rows = board.components(separatedBy: word.uppercased()).count - 1
                        #expect(rows == 1, "\(player.userID) has \(word) \(rows) times: \(board)")
                    }
                }
            } catch {
                await second.stop(SIGKILL)
                Issue.record("the daemon's log ends: \(Self.tail(of: log))")
                throw error
            }
            #expect(await second.stop() == 0)
        }
    }

    @Test("An encrypted room, which the bot cannot read, gets one plain notice saying where to play instead")
    func encryptedRoom() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let room = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true, encrypted: true)
            try await Self.withDaemon(synapse, bot: bot) {
                _ = try await synapse.waitForEvent(in: room, as: alice, where: Self.joined(bot.userID))
                // What an encrypting client sends: ciphertext the bot has no keys for.
                let ciphertext: [String: Any] = [
                    "algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEn…", "device_id": "ALICEPHONE",
                    "sender_key": "c2VuZGVy", "session_id": "c2Vzc2lvbg",
                ]
                try await synapse.send("m.room.encrypted", ciphertext, in: room, as: alice)
                try await synapse.send("m.room.encrypted", ciphertext, in: room, as: alice)
                try await synapse.say("crane", in: room, as: alice)
                // The plain guess after them is answered, so both encrypted ones were seen by then.
                _ = try await synapse.waitForEvent(
                    in: room, as: alice, where: Self.notice(from: bot.userID, containing: "CRANE"))
                let notices = try await synapse.events(in: room, as: alice).filter {
                    $0["sender"] as? String == bot.userID && Self.content($0)["msgtype"] as? String == "m.notice"
                }
                let told = notices.filter { (Self.content($0)["body"] as? String)?.contains("encrypted") == true }
                #expect(told.count == 1, "one notice for two encrypted messages: \(notices.count) notices")
                #expect((Self.content(told[0])["body"] as? String)?.contains("without encryption") == true)
            }
        }
    }

    @Test("Group settings: a member is refused, the room's creator (above every power level) changes them")
    func settingsByPowerLevel() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let (people, group) = try await synapse.group(of: ["alice", "bob"], inviting: bot)
            let (alice, bob) = (people[0], people[1])
            try await Self.withDaemon(synapse, bot: bot) {
                _ = try await synapse.waitForEvent(in: group, as: bob, where: Self.joined(bot.userID))
                try await synapse.say("!settings rollover 6", in: group, as: bob)
                _ = try await synapse.waitForEvent(
                    in: group, as: bob,
                    where: Self.notice(from: bot.userID, containing: "only this group's administrators"))
                try await synapse.say("!settings rollover 6", in: group, as: alice)
                _ = try await synapse.waitForEvent(
                    in: group, as: alice,
                    where: Self.notice(from: bot.userID, containing: "✅ Day: UTC, new puzzle at 06:00"))
            }
        }
    }

    /// A group's day on Matrix at noon UTC: the bot, Alice with a direct room and a group room, Bob in the group
    /// (a room of the bot and one person is direct, so a group has two), a clock file and the day's answer.
    struct GroupDay {
        let bot: Synapse.Account, alice: Synapse.Account, bob: Synapse.Account
        let direct: String, group: String
        let directory: URL, clock: ClockFile, answer: String

        /// Once the bot is in both rooms: Alice solves the day in her direct room and joins the group's board.
        func aliceSolvesAndJoins(on synapse: Synapse) async throws {
            _ = try await synapse.waitForEvent(in: direct, as: alice, where: MatrixDaemonTests.joined(bot.userID))
            _ = try await synapse.waitForEvent(in: group, as: bob, where: MatrixDaemonTests.joined(bot.userID))
            try await synapse.say(answer, in: direct, as: alice)
            _ = try await synapse.waitForEvent(
                in: direct, as: alice, where: MatrixDaemonTests.notice(from: bot.userID, containing: "· 1/6"))
            try await synapse.say("!join", in: group, as: alice)
        }
    }

    static func groupDay(on synapse: Synapse) async throws -> GroupDay {
        let bot = try await synapse.register("tessera")
        let alice = try await synapse.register("alice")
        let bob = try await synapse.register("bob")
        let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
        let group = try await synapse.createRoom(as: alice, inviting: [bot.userID, bob.userID])
        try await synapse.join(group, as: bob)
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        let noon = try clock.set("2026-11-22T12:00:00Z")
        let answer = try LiveBoardDaemonTests.answer(DailySchedule.tessera.puzzle(at: noon, rollover: .utc).rawValue)
        return GroupDay(
            bot: bot, alice: alice, bob: bob, direct: direct, group: group, directory: directory, clock: clock,
            answer: answer.lowercased())
    }

    @Test("A group's day closes in the room: one summary, the word behind a spoiler that notifications never show")
    func dailySummary() async throws {
        try await Synapse.with { synapse in
            let day = try await Self.groupDay(on: synapse)
            let (bot, bob, group) = (day.bot, day.bob, day.group)
            let (directory, clock, answer) = (day.directory, day.clock, day.answer)
            try await Self.withDaemon(
                synapse, bot: bot, in: directory, environment: clock.environment
            ) {
                try await day.aliceSolvesAndJoins(on: synapse)
                try await synapse.say("!join", in: group, as: bob)
                try await synapse.say("!leaderboard", in: group, as: bob)
                _ = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "alice"))
                try clock.set("2026-11-23T00:00:30Z")
                let summary = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "data-mx-spoiler"))
                let body = Self.content(summary)["body"] as? String ?? ""
                #expect(body.contains("[spoiler]"), "\(body)")
                #expect(!body.lowercased().contains(answer), "the plain body never shows the word: \(body)")
                let formatted = Self.content(summary)["formatted_body"] as? String ?? ""
                #expect(formatted.contains("<span data-mx-spoiler>") && formatted.lowercased().contains(answer))
                let summaries = try await synapse.events(in: group, as: bob).filter {
                    $0["sender"] as? String == bot.userID
                        && (Self.content($0)["formatted_body"] as? String)?.contains("data-mx-spoiler") == true
                }
                #expect(summaries.count == 1)
            }
        }
    }

    @Test("!play in a group opens a direct room with the player, who is invited and plays there")
    func playOpensDirectRoom() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let (people, group) = try await synapse.group(of: ["alice", "bob"], inviting: bot)
            let bob = people[1]
            try await Self.withDaemon(synapse, bot: bot) {
                _ = try await synapse.waitForEvent(in: group, as: bob, where: Self.joined(bot.userID))
                try await synapse.say("!play", in: group, as: bob)
                let invited = try await synapse.waitForEvent(
                    in: group, as: bob,
                    where: Self.notice(from: bot.userID, containing: "invited you to a private chat"))
                let (direct, isDirect) = try await synapse.waitForInvite(to: bob, from: bot.userID)
                #expect(isDirect)
                try await synapse.join(direct, as: bob)
                let welcome = try await synapse.waitForEvent(
                    in: direct, as: bob, where: Self.notice(from: bot.userID, containing: "Welcome to"))
                let first = welcome["event_id"] as? String
                let word = try DaemonTests.wrongWords(1)[0]
                try await synapse.say(word, in: direct, as: bob)
                _ = try await synapse.waitForEvent(
                    in: direct, as: bob, where: Self.notice(from: bot.userID, containing: "· 1/6"))
                // Asked again, and with a guess: the same room, not a second one, and no second welcome.
                for asked in ["!play", "!guess crane"] {
                    try await synapse.say(asked, in: group, as: bob)
                }
                let firstAnswer = invited["event_id"] as? String
                let answered = { @Sendable (event: [String: Any]) -> Bool in
                    Self.notice(from: bot.userID, containing: "invited you to a private chat")(event)
                        && event["event_id"] as? String != firstAnswer
                }
                _ = try await synapse.waitForEvent(in: group, as: bob, where: answered)
                // The board's edit after the word above comes after both: the room has had every reply by then.
                try await synapse.say(try DaemonTests.wrongWords(2)[1], in: direct, as: bob)
                _ = try await synapse.waitForEvent(
                    in: direct, as: bob, where: Self.notice(from: bot.userID, containing: "· 2/6"))
                let welcomes = try await synapse.events(in: direct, as: bob).filter(
                    Self.notice(from: bot.userID, containing: "Welcome to"))
                #expect(welcomes.map { $0["event_id"] as? String } == [first], "welcomed once")
                // And no invite to another room is waiting for Bob.
                await #expect(throws: Synapse.NotSeen.self, "no invite to another room is waiting for Bob") {
                    try await synapse.waitForInvite(to: bob, from: bot.userID, timeout: .seconds(1))
                }
            }
        }
    }

    @Test("Invited, the bot speaks first, as on Telegram: a group's setup steps, an encrypted room's notice, a welcome")
    func invitations() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            try await Self.withDaemon(synapse, bot: bot) {
                // A group of three: with two, a room is a direct chat.
                let (people, group) = try await synapse.group(of: ["alice", "bob"], inviting: bot)
                let alice = people[0]
                _ = try await synapse.waitForEvent(
                    in: group, as: alice, where: Self.notice(from: bot.userID, containing: "settings timezone"))
                let secret = try await synapse.createRoom(as: alice, inviting: [bot.userID], encrypted: true)
                let notice = try await synapse.waitForEvent(
                    in: secret, as: alice,
                    where: { event in
                        event["sender"] as? String == bot.userID
                            && (Self.content(event)["body"] as? String)?.contains("encrypted") == true
                    })
                #expect((Self.content(notice)["body"] as? String)?.contains("without encryption") == true)
                let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
                _ = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "Welcome to"))
                // Asked to play from the group, the bot uses the direct room it was welcomed in, and says no more.
                try await synapse.say("!play", in: group, as: alice)
                _ = try await synapse.waitForEvent(
                    in: group, as: alice,
                    where: Self.notice(from: bot.userID, containing: "invited you to a private chat"))
                try await synapse.say(try DaemonTests.wrongWords(1)[0], in: direct, as: alice)
                _ = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "· 1/6"))
                let welcomes = try await synapse.events(in: direct, as: alice).filter(
                    Self.notice(from: bot.userID, containing: "Welcome to"))
                #expect(welcomes.count == 1, "welcomed once")
            }
        }
    }

    @Test("A real 429 from the homeserver: the replies wait as it says, and every guess reaches the board once")
    func rateLimitedByTheHomeserver() async throws {
        try await Synapse.with { synapse in
            let admin = try await synapse.registerAdministrator("admin")
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            try await Self.withDaemon(synapse, bot: bot) {
                _ = try await synapse.waitForEvent(in: direct, as: alice, where: Self.joined(bot.userID))
                // One message a second, and no burst beyond one: the bot's replies meet 429s.
                try await synapse.overrideRateLimit(of: bot.userID, perSecond: 1, burst: 1, as: admin)
                let words = try DaemonTests.wrongWords(5)
                for word in words { try await synapse.say(word, in: direct, as: alice) }
                let latest = try await synapse.waitForEvent(
                    in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "· 5/6"))
                let shown = (Self.content(latest)["m.new_content"] as? [String: Any]) ?? Self.content(latest)
                let board = shown["body"] as? String ?? ""
                for word in words {
                    #expect(board.components(separatedBy: word.uppercased()).count - 1 == 1, "\(word): \(board)")
                }
                // The welcome the invite got, then one board, edited.
                let posts = try await synapse.events(in: direct, as: alice).filter {
                    $0["sender"] as? String == bot.userID && $0["type"] as? String == "m.room.message"
                        && Self.content($0)["m.new_content"] == nil
                        && !Self.notice(from: bot.userID, containing: "Welcome to")($0)
                }
                #expect(posts.count == 1, "one board, edited: \(posts.count) posts")
            }
        }
    }

    @Test("Telegram and Matrix from one process and one database: a player on each, both answered")
    func bothPlatforms() async throws {
        try await Synapse.with { synapse in
            let fake = try await FakeTelegram.start()
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            do {
                try await Self.withDaemon(synapse, bot: bot, telegram: fake) {
                    _ = try await synapse.waitForEvent(in: direct, as: alice, where: Self.joined(bot.userID))
                    try await fake.push([FakeTelegram.message("/stats", from: 7, name: "Tom")])
                    try await synapse.say("!stats", in: direct, as: alice)
                    _ = try await synapse.waitForEvent(
                        in: direct, as: alice, where: Self.notice(from: bot.userID, containing: "Statistics"))
                    let sent = try await fake.waitForSent { $0.contains { $0.text.contains("Statistics") } }
                    #expect(sent.filter { $0.text.contains("Statistics") }.count == 1)
                }
            } catch {
                await fake.stop()
                throw error
            }
            await fake.stop()
        }
    }

    @Test(
        "A group on Telegram and one on Matrix across a rollover: each summary posted once, by its own platform",
        arguments: DaemonDatabase.all)
    func summariesOnEachPlatform(_ database: DaemonDatabase) async throws {
        try await Synapse.with { synapse in
            let fake = try await FakeTelegram.start()
            let day = try await Self.groupDay(on: synapse)
            let (bot, alice, bob, group) = (day.bot, day.alice, day.bob, day.group)
            let (directory, clock, answer) = (day.directory, day.clock, day.answer)
            let (location, environment) = try await database.make()
            let shared = environment.merging(clock.environment) { $1 }
            // On SQLite one process serves both; on PostgreSQL one process leads Telegram and another Matrix.
            let logs = (0..<2).map { directory.appendingPathComponent("daemon\($0).log") }
            let daemons =
                database == .sqlite
                ? [
                    try Daemon(
                        fake: fake, matrix: (synapse, bot), database: location, environment: shared, logFile: logs[0])
                ]
                : [
                    try Daemon(fake: fake, database: location, environment: shared, logFile: logs[0]),
                    try Daemon(
                        fake: nil, matrix: (synapse, bot), database: location, environment: shared, logFile: logs[1]),
                ]
            for daemon in daemons { try daemon.start() }
            do {
                try await fake.push([
                    FakeTelegram.message("/join", from: 7, name: "Tom", chat: -1, messageID: 1),
                    FakeTelegram.message(answer, from: 7, name: "Tom", messageID: 2),
                ])
                try await day.aliceSolvesAndJoins(on: synapse)
                try await synapse.say("!leaderboard", in: group, as: alice)
                _ = try await synapse.waitForEvent(
                    in: group, as: bob, where: Self.notice(from: bot.userID, containing: "alice"))
                try await fake.waitForSent { $0.contains { $0.chat == 7 && $0.text.contains("1/6") } }

                try clock.set("2026-11-23T00:00:30Z")
                let over = "Everyone here is done with puzzle 326"
                let telegram = try await fake.waitForSent { $0.contains { $0.chat == -1 && $0.text.contains(over) } }
                    .filter { $0.text.contains(over) }
                _ = try await synapse.waitForEvent(
                    in: group, as: alice, where: Self.notice(from: bot.userID, containing: over))
                for daemon in daemons { #expect(await daemon.stop() == 0) }

                // Telegram's in its HTML, to the Telegram group only; Matrix's with Matrix's spoiler, in the room.
                #expect(telegram.map(\.chat) == [-1])
                #expect(telegram.first?.parseMode == "HTML" && telegram.first?.text.contains("<tg-spoiler>") == true)
                #expect(try await fake.sent().filter { $0.text.contains(over) }.count == 1, "posted once")
                let matrix = try await synapse.events(in: group, as: bob).filter {
                    $0["sender"] as? String == bot.userID
                        && (Self.content($0)["formatted_body"] as? String)?.contains(over) == true
                }
                #expect(matrix.count == 1, "posted once")
                #expect((Self.content(matrix[0])["formatted_body"] as? String)?.contains("data-mx-spoiler") == true)
            } catch {
                for daemon in daemons { await daemon.stop(SIGKILL) }
                await fake.stop()
                for log in logs.prefix(daemons.count) { Issue.record("a daemon's log ends: \(Self.tail(of: log))") }
                throw error
            }
            await fake.stop()
        }
    }
}
