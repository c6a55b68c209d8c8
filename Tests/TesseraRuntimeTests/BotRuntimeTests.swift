import Foundation
import Logging
import ServiceLifecycle
import TesseraCore
import TesseraEngine
import TesseraRuntime
import TesseraSQLite
import TesseraTesting
import Testing

/// The bot's services together in their group, on the test kit: a scripted platform, a store that fails on
/// demand and a manual clock, all in process. Nothing here sleeps to synchronise: tests await the kit's events,
/// or the clock's sleepers.
@Suite("The bot runtime")
struct BotRuntimeTests {
    let clock: ManualClock
    let transport: ScriptedTransport
    let store: FaultyStore
    let logs = LogRecorder()

    init() throws {
        clock = ManualClock()
        transport = ScriptedTransport(clock: clock)
        store = FaultyStore(try SQLiteGameStore.inMemory())
    }

    /// The bot on the scripted platform: its services in one group. Retries at once unless a test says
    /// otherwise: most count attempts, not time.
    func service(_ configure: (inout BotRuntime.Configuration) -> Void = { _ in }) throws
        -> ServiceGroup
    {
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        configure(&configuration)
        let engineConfiguration = EngineConfiguration()
        let clock = self.clock
        let engine = BotEngine(
            configuration: engineConfiguration, secret: try #require(ScheduleSecret(Self.secret)),
            logger: logs.logger())
        return BotRuntime(
            store: store, configuration: configuration, clock: clock, now: { clock.date }, jitter: { 1 },
            logger: logs.logger()
        ).serviceGroup(platforms: [(transport, engine)])
    }

    static let secret = "service test secret"

    /// Lets one outbox interval pass once the service's ticker waits on it: the sender then looks at the outbox,
    /// as every process does that often.
    func lookAtOutbox() async throws {
        let interval = BotRuntime.Configuration().outboxInterval
        try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
        clock.advance(by: interval)
    }

    /// A message to the bot: in the sender's direct chat, or in a group.
    static func message(
        _ text: String, from user: Int64, name: String? = nil, group: Int64? = nil
    ) -> ChatMessage {
        ChatMessage(
            chat: ChatID(group ?? user), chatKind: group == nil ? .direct : .group, sender: UserID(user),
            senderName: name ?? "P\(user)", text: text
        ).readingCommands()
    }

    static func help(chat: Int64 = 7) -> ChatMessage {
        message("/help", from: chat)
    }

    /// The store's events for batches: storing and flushing them, not the heartbeat's, the day closer's or
    /// the sender's, whose timing is the service's own business.
    var batchEvents: [String] {
        store.events.all.filter { $0.hasPrefix("processBatch") || $0 == "flush" }
    }

    @Test("A batch is flushed to disk before the next poll acknowledges it", .timeLimit(.minutes(1)))
    func flushBeforeAcknowledging() async throws {
        transport.push(ReceivedBatch(messages: [], nextPosition: "2"))
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "receive(after: 2)")
        }
        #expect(batchEvents == ["processBatch(next: 2)", "flush"])
        #expect(transport.events.all == ["receive(after: nil)", "receive(after: 2)"])
    }

    @Test(
        "A message another sender took over before it was sent is left to that sender, with the rest of its chat",
        .timeLimit(.minutes(1)))
    func messageTakenByAnotherSender() async throws {
        try await store.write { transaction in
            try await transaction.enqueue(
                ["first", "second"].map { OutgoingMessage(chat: ChatID(9), chatKind: .direct, html: $0) })
            try await transaction.enqueue([OutgoingMessage(chat: ChatID(8), chatKind: .direct, html: "other chat")])
        }
        let first = try #require(try await store.base.pendingMessages(limit: 10, now: .distantFuture).first)
        #expect(first.message.html == "first")
        store.takeOnHold(first.id)
        // One chat at a time, in order: chat 9's turn is over when chat 8 is sent.
        let service = try service { $0.concurrentChats = 1 }
        try await withRunningBot(service) {
            try await lookAtOutbox()
            try await transport.events.wait(for: "send(8)")
            #expect(store.events.all.contains("hold(\(first.id)) refused"))
            #expect(!transport.events.all.contains("send(9)"), "neither of chat 9's messages was sent by this sender")
            let left = try await store.base.pendingMessages(limit: 10, now: .distantFuture)
            #expect(left.filter { $0.message.chat == ChatID(9) }.map(\.message.html) == ["first", "second"])
        }
    }

    @Test(
        "Answers to inline queries go out at once, not at a chat's pace, with no 'slow down' and no player made",
        .timeLimit(.minutes(1)))
    func inlineAnswersAtOnce() async throws {
        // A player typing after the bot's name: a query a keystroke, each to be answered before it expires.
        let queries = (1...25).map { index in
            ChatMessage(
                chat: ChatID(7), chatKind: .direct, sender: UserID(7), senderName: "Ann", text: "",
                event: .query(id: "q\(index)"))
        }
        transport.push(ReceivedBatch(messages: queries, nextPosition: "2"))
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "send(7)", count: 25)
            let answers = transport.sent
            #expect(answers.count == 25)
            #expect(answers.allSatisfy { if case .answerQuery = $0.action { true } else { false } })
            #expect(Set(transport.sendTimes).count == 1, "all in one pass: a chat's pace would take 22 s more")
            #expect(try await store.base.write { try await $0.player(UserID(7)) } == nil, "nothing stored for a query")
        }
    }

    @Test(
        "A send that lasts keeps its message held, renewed every third of the hold, and lets it go after",
        .timeLimit(.minutes(1)))
    func holdRenewedWhileSending() async throws {
        try await store.write {
            try await $0.enqueue([OutgoingMessage(chat: ChatID(9), chatKind: .direct, html: "slow")])
        }
        let id = try #require(try await store.base.pendingMessages(limit: 10, now: .distantFuture).first?.id)
        transport.slowSends(by: .seconds(10))
        let service = try service { $0.sendHold = .seconds(9) }
        let start = clock.now
        try await withRunningBot(service) {
            // The renewals' loop sleeps from the start too, but starts beside the outbox's: asleep first, or its
            // three seconds would count from the look at one.
            try await clock.sleeper(dueAt: start.advanced(by: .seconds(3)))
            // The outbox is looked at after a second; the send then lasts ten.
            try await lookAtOutbox()
            #expect(start.duration(to: clock.now) == .seconds(1))
            try await transport.events.wait(for: "send started(9)")
            #expect(store.events.all.filter { $0 == "hold(\(id))" }.count == 1)
            func advance(to seconds: Int) async throws {
                let due = start.advanced(by: .seconds(seconds))
                try await clock.sleeper(dueAt: due)
                clock.advance(by: clock.now.duration(to: due))
            }
            // Renewed at 3, 6 and 9 s, while the send lasts.
            for (renewal, seconds) in [3, 6, 9].enumerated() {
                try await advance(to: seconds)
                try await store.events.wait(for: "hold(\(id))", count: 2 + renewal)
            }
            try await advance(to: 11)
            // Removed from the outbox, it is no longer being sent: the renewal at 12 s has nothing to hold.
            try await store.events.wait(for: "markSent")
            try await advance(to: 12)
            try await advance(to: 15)
            #expect(store.events.all.filter { $0 == "hold(\(id))" }.count == 4)
        }
    }

    @Test(
        "A standby sends what is queued, but neither receives, closes days nor beats until it leads; losing the lead stops it",
        .timeLimit(.minutes(1)))
    func standingBy() async throws {
        try await store.write {
            try await $0.enqueue([OutgoingMessage(chat: ChatID(9), chatKind: .direct, html: "queued")])
        }
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        let leadership = ScriptedLeadership()
        let service = try service { $0.leadership = leadership }
        try await withRunningBot(service) {
            try await lookAtOutbox()
            try await transport.events.wait(for: "send(9)")
            try await leadership.events.wait(for: "whileLeading")
            #expect(!transport.events.all.contains { $0.hasPrefix("receive") }, "standing by, it does not poll")
            #expect(batchEvents.isEmpty)
            let heartbeat = Heartbeat.settingKey(for: "scripted")
            #expect(
                !store.settingsWritten.contains { $0.key == heartbeat }, "the heartbeat status reads is the leader's")

            leadership.grant()
            try await transport.events.wait(for: "receive(after: 2)")
            #expect(store.settingsWritten.contains { $0.key == heartbeat })
            #expect(batchEvents.first == "processBatch(next: 2)")
            leadership.revoke()
            try await leadership.events.wait(for: "revoked")
            let polls = transport.events.all.filter { $0.hasPrefix("receive") }.count
            leadership.grant()
            // Leading again, it receives from the stored position.
            try await transport.events.wait(for: "receive(after: 2)", count: 2)
            #expect(transport.events.all.filter { $0.hasPrefix("receive") }.count == polls + 1)
        }
    }

    // MARK: - Failures are never silent

    @Test(
        "A storage failure that goes away is retried after a backoff on the service's clock: stored once, one warning",
        .timeLimit(.minutes(1)))
    func transientStorageFailure() async throws {
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        store.fail(.processBatch, with: FaultyStore.InjectedFailure.transient)
        store.fail(.processBatch, with: FaultyStore.InjectedFailure.transient)
        let service = try service {
            $0.initialBackoff = .seconds(3)
            $0.maximumBackoff = .seconds(30)
        }
        try await withRunningBot(service) {
            // Asleep in its backoff, it retries only when the clock moves: three seconds, then six.
            let start = clock.now
            try await clock.sleeper(dueAt: start.advanced(by: .seconds(3)))
            #expect(batchEvents == ["processBatch failed"])
            clock.advance(by: .seconds(3))
            try await clock.sleeper(dueAt: start.advanced(by: .seconds(9)))
            #expect(batchEvents == ["processBatch failed", "processBatch failed"])
            clock.advance(by: .seconds(6))
            try await transport.events.wait(for: "receive(after: 2)")
            try await transport.events.wait(for: "send(7)")
        }
        #expect(batchEvents == ["processBatch failed", "processBatch failed", "processBatch(next: 2)", "flush"])
        #expect(try await store.position(of: "scripted") == "2")
        let warnings = logs.lines(at: .warning).map(\.message)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Storage failed while storing a batch"), "\(warnings)")
        #expect(logs.lines(at: .notice).contains { $0.message == "Storage works again" })
        #expect(transport.sent.map(\.chat) == [ChatID(7)], "the batch's reply, once")
    }

    @Test(
        "A batch whose write at once is refused is handled again a message at a time: stored once, one warning",
        .timeLimit(.minutes(1)))
    func refusedBatchWrite() async throws {
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        store.fail(.processBatch, with: BatchWriteFailure(error: FaultyStore.InjectedFailure.fatal))
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "receive(after: 2)")
            try await transport.events.wait(for: "send(7)")
        }
        #expect(batchEvents == ["processBatch failed", "processBatch(next: 2)", "flush"])
        #expect(try await store.position(of: "scripted") == "2")
        let warnings = logs.lines(at: .warning).map(\.message)
        #expect(warnings == ["A batch could not be handled at once; its messages are handled one at a time"])
        #expect(transport.sent.map(\.chat) == [ChatID(7)], "the batch's reply, once")
    }

    @Test(
        "A message the engine cannot handle is given up alone: the batch is stored, acknowledged and never read again",
        .timeLimit(.minutes(1)))
    func messageGivenUp() async throws {
        // A Matrix account in a group of another platform: the store refuses to make it a member, in every way the
        // batch meets it (at once, and on the store in a savepoint), and nothing traps.
        var stranger = Self.message("/join", from: 0, group: -5)
        stranger.sender = UserID(.matrix, "@stranger:example.org")
        transport.push(ReceivedBatch(messages: [Self.help(chat: 6), stranger, Self.help(chat: 7)], nextPosition: "2"))
        // Then a batch whose reading at once is refused: handled again a message at a time.
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "receive(after: 2)")
            try await transport.events.wait(for: "send(7)")
            store.fail(.processBatch, with: FaultyStore.InjectedFailure.fatal)
            transport.push(ReceivedBatch(messages: [stranger, Self.help(chat: 8)], nextPosition: "3"))
            try await transport.events.wait(for: "receive(after: 3)")
            try await transport.events.wait(for: "send(8)")
        }
        #expect(try await store.position(of: "scripted") == "3", "both batches acknowledged")
        // Chats 6 and 7 are sent to side by side, in either order.
        let sent = transport.sent.map(\.chat)
        #expect(sent.count == 3 && Set(sent.prefix(2)) == [ChatID(6), ChatID(7)], "every other message answered once")
        #expect(sent.last == ChatID(8))
        let givenUp = logs.lines(at: .error).filter { $0.message.hasPrefix("Gave up on a message") }
        #expect(givenUp.count == 2, "\(logs.lines(at: .error).map(\.message))")
        for line in givenUp {
            #expect(line.metadata.contains("user.id=matrix:@stranger:example.org"), "\(line.metadata)")
            #expect(line.metadata.contains("error.type=StoreMisuse"), "\(line.metadata)")
            #expect(!line.metadata.contains("/join"), "never the message's text: \(line.metadata)")
        }
    }

    @Test(
        "An unrecoverable storage failure ends every loop, loudly, and the service throws it", .timeLimit(.minutes(1)))
    func fatalStorageFailure() async throws {
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        // Refused at once and again a message at a time: the transaction itself fails, not one message.
        store.fail(.processBatch, with: FaultyStore.InjectedFailure.fatal, times: 2)
        // Before the fix the other loops kept running beside the dead receiver and run() never returned.
        await #expect(throws: FaultyStore.InjectedFailure.self) { try await service().run() }
        #expect(batchEvents == ["processBatch failed", "processBatch failed"])
        #expect(try await store.position(of: "scripted") == nil)
        let critical = logs.lines(at: .critical).map(\.message)
        #expect(critical.count == 1 && critical[0].hasPrefix("Stopping:"), "\(critical)")
    }

    @Test(
        "A batch applied already, by another process or an earlier try, is skipped; receiving goes on from what is stored",
        .timeLimit(.minutes(1)))
    func batchAppliedAlready() async throws {
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "receive(after: nil)")
            // While this service polls, another process applies the same updates and moves the position on.
            try await store.processBatch(transport: "scripted", from: nil, to: "5") { transaction in
                try await transaction.enqueue([
                    OutgoingMessage(chat: ChatID(5), chatKind: .direct, html: "applied there")
                ])
            }
            transport.push(
                ReceivedBatch(messages: [Self.help(chat: 5)], nextPosition: "5"),
                ReceivedBatch(messages: [Self.help(chat: 6)], nextPosition: "6"))
            try await transport.events.wait(for: "receive(after: 6)")
            try await transport.events.wait(for: "send(6)")
        }
        #expect(
            batchEvents.filter { $0.hasPrefix("processBatch") } == [
                "processBatch(next: 5)", "processBatch(skipped)", "processBatch(next: 6)",
            ])
        #expect(try await store.position(of: "scripted") == "6")
        // The other process's reply is sent (this service shares its outbox); the help to chat 5 is not doubled.
        #expect(transport.sent.filter { $0.chat == ChatID(5) }.map(\.html) == ["applied there"])
        #expect(transport.sent.filter { $0.chat == ChatID(6) }.count == 1)
        #expect(logs.lines(at: .notice).filter { $0.message == "Skipped a batch that was applied already" }.count == 1)
        #expect(
            transport.events.all.filter { $0.hasPrefix("receive") }.prefix(3) == [
                "receive(after: nil)", "receive(after: 5)", "receive(after: 6)",
            ])
    }

    @Test(
        "Shutting down while the platform fails ends at the group's deadline; the reply stays queued",
        .timeLimit(.minutes(1)))
    func shutdownWhilePlatformFails() async throws {
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        transport.fail(.send, with: .transient("sendMessage: 503 Service Unavailable"))
        // Without a deadline the sender would sit out this backoff. The deadline is the service group's, on the
        // continuous clock: short here.
        let group = try service {
            $0.initialBackoff = .seconds(600)
            $0.maximumBackoff = .seconds(600)
            $0.shutdownDeadline = .milliseconds(100)
        }
        try await withRunningBot(group, stopping: .gracefully) {
            try await transport.events.wait(for: "send failed(7)")
        }
        #expect(try await store.pendingMessages(limit: 10, now: Date()).count == 1)
        #expect(logs.lines(at: .warning).contains { $0.message.hasPrefix("Stopping before the work in hand was done") })
        #expect(logs.lines(at: .critical).isEmpty)
    }

    @Test("A heartbeat is written from the start and records the last successful poll", .timeLimit(.minutes(1)))
    func heartbeat() async throws {
        let heartbeatWrite = "setSetting(\(Heartbeat.settingKey(for: "scripted")))"
        try await withRunningBot(try service()) {
            // Nothing to receive yet: the first poll waits, and the heartbeat is written meanwhile.
            try await store.events.wait(for: heartbeatWrite)
            transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
            try await transport.events.wait(for: "receive(after: 2)")
            // Written again at the first poll, then every interval.
            try await store.events.wait(for: heartbeatWrite, count: 2)
            let interval = BotRuntime.Configuration().healthInterval
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            clock.advance(by: interval)
            try await store.events.wait(for: heartbeatWrite, count: 3)
        }
        let written = store.settingsWritten.filter { $0.key == Heartbeat.settingKey(for: "scripted") }
        let first = try Heartbeat(decoding: try #require(written.first?.value))
        #expect(first.lastPoll == nil, "the first heartbeat is written before the first poll")
        let heartbeat = try Heartbeat(decoding: try #require(written.last?.value))
        #expect(heartbeat.transport == "scripted")
        let poll = try #require(heartbeat.lastPoll)
        #expect(heartbeat.started <= poll && poll <= heartbeat.written)
    }

    @Test(
        "A chat that keeps failing while others work waits on its own and is given up after its attempts",
        .timeLimit(.minutes(1)))
    func oneFailingChat() async throws {
        transport.push(ReceivedBatch(messages: [Self.help(chat: 7), Self.help(chat: 8)], nextPosition: "2"))
        transport.fail(.send, chat: ChatID(7), with: .transient("sendMessage: 500 Internal Server Error"))
        let service = try service {
            $0.maximumAttempts = 3
            $0.rateLimits[.scripted] = .unlimited
        }
        try await withRunningBot(service) {
            // Chat 8's reply is sent, and chat 7's is removed when given up.
            try await transport.events.wait(for: "send(8)")
            try await transport.events.wait(for: "send failed(7)", count: 3)
            try await store.events.wait(for: "markSent", count: 2)
        }
        #expect(transport.attempts.filter { $0.chat == ChatID(7) }.count == 3)
        #expect(transport.sent.map(\.chat) == [ChatID(8)])
        #expect(try await store.pendingMessages(limit: 10, now: Date()).isEmpty)
        let errors = logs.lines(at: .error).map(\.message)
        #expect(errors.count == 1 && errors[0].hasPrefix("Gave up a message after 3 failed attempts"), "\(errors)")
        #expect(logs.lines(at: .warning).isEmpty, "no global pause: sending works")
    }

    @Test(
        "After a crash in the middle of posting, a summary is not posted again and a reply is",
        .timeLimit(.minutes(1)),
        arguments: [true, false])
    func crashWhilePosting(atMostOnce: Bool) async throws {
        let message = OutgoingMessage(
            chat: ChatID(-100), chatKind: .group, html: "The word was…", atMostOnce: atMostOnce)
        try await store.write { try await $0.enqueue([message]) }
        // The message goes out, then the process dies before it is marked sent.
        store.fail(.markSent, with: FaultyStore.InjectedFailure.fatal)
        let first = try service()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await first.run() }
            try await clock.sleeper(dueAt: clock.now.advanced(by: .seconds(1)))
            clock.advance(by: .seconds(1))
            await #expect(throws: (any Error).self, "the injected crash ends the process") {
                try await group.waitForAll()
            }
        }
        #expect(transport.sent.map(\.html) == ["The word was…"])

        // The restart: the same database, a new process.
        let restarted = BotRuntimeTests(sharing: store.base)
        try await withRunningBot(try restarted.service()) {
            try await restarted.clock.sleeper(dueAt: restarted.clock.now.advanced(by: .seconds(1)))
            restarted.clock.advance(by: .seconds(1))
            if atMostOnce {
                try await restarted.clock.sleeper(dueAt: restarted.clock.now.advanced(by: .seconds(1)))
                #expect(restarted.transport.sent.isEmpty, "a group never sees its summary twice")
                #expect(
                    restarted.logs.lines(at: .warning).contains {
                        $0.message.hasPrefix("The bot stopped while posting")
                    })
            } else {
                try await restarted.transport.events.wait(for: "send(-100)")
                #expect(restarted.transport.sent.map(\.html) == ["The word was…"], "a reply is sent at least once")
            }
        }
    }

    // MARK: - The platform's failures

    @Test(
        "A failed poll is made again at the same position after a growing backoff, never spun on; one warning",
        .timeLimit(.minutes(1)))
    func failedPolls() async throws {
        // A 409 (another poller), a 502 and a dropped connection all reach the service as transient.
        transport.fail(.receive, with: .transient("getUpdates: 409 Conflict"), times: 3)
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        let service = try service {
            $0.initialBackoff = .seconds(1)
            $0.maximumBackoff = .seconds(30)
            // Sends are woken by the receiver; no timer shares the backoff's instants.
            $0.outboxInterval = .seconds(1_000)
        }
        try await withRunningBot(service) {
            var due = clock.now
            for (failures, pause) in [1, 2, 4].enumerated() {
                due = due.advanced(by: .seconds(pause))
                try await clock.sleeper(dueAt: due)
                #expect(transport.events.all.filter { $0.hasPrefix("receive") }.count == failures + 1)
                clock.advance(by: .seconds(pause))
            }
            try await transport.events.wait(for: "send(7)")
        }
        #expect(
            Array(transport.events.all.filter { $0.hasPrefix("receive") }.prefix(4))
                == Array(repeating: "receive(after: nil)", count: 4))
        let warnings = logs.lines(at: .warning).map(\.message)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Failure while receiving"), "\(warnings)")
        #expect(logs.lines(at: .notice).contains { $0.message == "The platform works again" })
    }

    @Test(
        "With no limits of its own, the service keeps to the platform's: a second reply waits its turn",
        .timeLimit(.minutes(1)))
    func platformRateLimits() async throws {
        var oneASecond = PlatformTraits.scripted.rateLimits
        oneASecond.perChat = RateLimits.Limit(burst: 1, perSecond: 1)
        let strict = ScriptedTransport(traits: PlatformTraits(rateLimits: oneASecond), clock: clock)
        let engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret(Self.secret)), logger: logs.logger())
        let service = BotRuntime(
            store: store, configuration: .onManualClock, clock: clock, now: { [clock] in clock.date }, jitter: { 1 },
            logger: logs.logger()
        ).serviceGroup(platforms: [(strict, engine)])
        strict.push(ReceivedBatch(messages: [Self.help(), Self.help()], nextPosition: "2"))
        try await withRunningBot(service) {
            try await strict.events.wait(for: "send(7)")
            // Telegram's burst of three would send both at once; this platform allows one a second.
            let start = clock.now
            try await clock.sleeper(dueAt: start.advanced(by: .seconds(1)))
            #expect(strict.sent.count == 1)
            clock.advance(by: .seconds(1))
            try await strict.events.wait(for: "send(7)", count: 2)
            #expect(strict.sendTimes == [start, start.advanced(by: .seconds(1))])
        }
    }

    @Test(
        "A direct reply goes out in the first pass while 50 groups with full backlogs take the limits",
        .timeLimit(.minutes(1)))
    func directRepliesFirst() async throws {
        try await store.write { transaction in
            for group in 1...50 {
                try await transaction.enqueue(
                    (1...30).map { OutgoingMessage(chat: ChatID(-Int64(group)), chatKind: .group, html: "g\($0)") })
            }
            try await transaction.enqueue([OutgoingMessage(chat: ChatID(7), chatKind: .direct, html: "help")])
        }
        // Another player's /help rings the sender; the clock then stands still: sent at all, the reply to 7 went
        // out in that first pass, within the overall limit's 30 tokens.
        let start = clock.now
        transport.push(ReceivedBatch(messages: [Self.help(chat: 8)], nextPosition: "2"))
        try await withRunningBot(try service()) {
            try await transport.events.wait(for: "send(7)")
        }
        let index = try #require(transport.sent.firstIndex { $0.chat == ChatID(7) })
        #expect(index < 30, "\(index) messages went first")
        #expect(transport.sendTimes[index] == start)
    }

    @Test(
        "/export is queued without the player's data, which the sender gathers in a read beside the writer",
        .timeLimit(.minutes(1)))
    func exportGatheredAtSending() async throws {
        transport.push(ReceivedBatch(messages: [Self.message("/start", from: 7)], nextPosition: "2"))
        transport.push(ReceivedBatch(messages: [Self.message("/export", from: 7)], nextPosition: "3"))
        try await withRunningBot(try service()) {
            try await store.events.wait(for: "read")
            var sends = 1
            while true {
                try await transport.events.wait(for: "send(7)", count: sends)
                if transport.sent.contains(where: { $0.document != nil }) { break }
                sends += 1
            }
        }
        let export = try #require(transport.sent.first { $0.document != nil })
        #expect(export.action == .post, "the transport gets a plain post")
        let document = try #require(export.document)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(document.contents)) as? [String: Any])
        #expect((json["player"] as? [String: Any])?["name"] as? String == "P7")
    }

    @Test(
        "A 429 holds the chat for retry_after on the service's clock; then its reply is sent, once",
        .timeLimit(.minutes(1)))
    func rateLimited() async throws {
        transport.fail(.send, chat: ChatID(7), with: .rateLimited(retryAfter: .seconds(2), chat: ChatID(7)), times: 1)
        transport.push(ReceivedBatch(messages: [Self.help()], nextPosition: "2"))
        try await withRunningBot(try service()) {
            try await store.events.wait(for: "postpone")
            // The outbox is looked at every second; the look at one second finds the chat still held.
            let start = clock.now
            for second in 1...2 {
                try await clock.sleeper(dueAt: start.advanced(by: .seconds(second)))
                clock.advance(by: .seconds(1))
            }
            try await transport.events.wait(for: "send(7)")
            #expect(transport.sendTimes == [start.advanced(by: .seconds(2))])
        }
        #expect(transport.attempts.count == 2)
    }

    @Test(
        "A chat that blocked the bot is marked inactive until it writes again; a moved group's reply follows it",
        .timeLimit(.minutes(1)))
    func blockedAndMoved() async throws {
        transport.fail(
            .send, chat: ChatID(9), with: .chatUnavailable(ChatID(9), reason: "Forbidden: bot was blocked by the user"),
            times: 1)
        transport.fail(.send, chat: ChatID(-777), with: .chatMigrated(from: ChatID(-777), to: ChatID(-1_000_777)))
        transport.push(ReceivedBatch(messages: [Self.help(chat: 9)], nextPosition: "2"))
        try await withRunningBot(try service()) {
            // Marked inactive in the store (what that does, every store's suite checks: Tests/TesseraStoreTests).
            try await store.events.wait(for: "deactivateChat(9)")

            transport.push(
                ReceivedBatch(
                    messages: [Self.message("/leaderboard", from: 9, group: -777), Self.help(chat: 9)],
                    nextPosition: "3"))
            try await transport.events.wait(for: "send(-1000777)")
            try await transport.events.wait(for: "send(9)")
        }
        #expect(transport.sent.first { $0.chat == ChatID(-1_000_777) }?.html.hasPrefix("No results") == true)
        #expect(transport.attempts.filter { $0.chat == ChatID(9) }.count == 2, "the blocked chat's reply is dropped")
    }

    // MARK: - Closing days

    @Test(
        "Each group's day closes at its own rollover, on the service's clock: one summary, and one missed while down",
        .timeLimit(.minutes(1)))
    func summariesAcrossRollovers() async throws {
        // The clock starts at 12:00 UTC on puzzle 326's day: 21:00 in Tokyo, where group -200 has its day.
        try await store.write {
            try await $0.save(
                Group(
                    chat: ChatID(-200), timeZone: "Asia/Tokyo", rolloverHour: 0, language: .english,
                    lastClosedPuzzle: PuzzleNumber(325)))
        }
        transport.makeAdministrator(UserID(1), of: ChatID(-200))
        let list = Language.english.wordList
        let answer = list.display(
            AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(Self.secret))).answer(
                for: PuzzleNumber(326))
        ).lowercased()
        transport.push(
            ReceivedBatch(
                messages: [
                    Self.message("/settings timezone Asia/Tokyo", from: 1, name: "Ann", group: -200),
                    Self.message("/join", from: 1, name: "Ann", group: -100),
                    Self.message("/join", from: 1, name: "Ann", group: -200),
                    Self.message(answer, from: 1, name: "Ann"),
                ], nextPosition: "2"))
        func summaries(_ chat: Int64, in transport: ScriptedTransport) -> [String] {
            transport.sent.filter { $0.chat == ChatID(chat) && $0.html.contains("done with puzzle 326") }.map(\.html)
        }
        let interval = BotRuntime.Configuration().dayCheckInterval
        try await withRunningBot(try service { $0.rateLimits[.scripted] = .unlimited }) {
            // The replies: to the settings and each /join in its group, to the guess in the direct chat.
            try await transport.events.wait(for: "send(-200)", count: 2)
            try await transport.events.wait(for: "send(-100)")
            try await transport.events.wait(for: "send(1)")
            // Three hours and a minute on, past midnight in Tokyo: the day closer's next look posts Tokyo's only.
            let checked = store.events.all.filter { $0 == "write" }.count
            clock.advance(by: .seconds(3 * 3600 + 60) - interval)
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            clock.advance(by: interval)
            try await transport.events.wait(for: "send(-200)", count: 3)
            try await store.events.wait(for: "write", count: checked + 1)
            #expect(summaries(-200, in: transport).count == 1)
            // Ann, first met in the Tokyo group, is on Tokyo's day too: it is over, so the word is in the summary.
            #expect(summaries(-200, in: transport).first?.contains("<spoiler>\(answer.uppercased())</spoiler>") == true)
            #expect(summaries(-100, in: transport).isEmpty, "the UTC group's day is still open")
        }

        // Down across the UTC rollover: on start the missed summary is posted, and Tokyo's is not posted again.
        let restarted = BotRuntimeTests(sharing: store.base, clock: ManualClock(startingAt: clock.date + 12 * 3600))
        try await withRunningBot(try restarted.service { $0.rateLimits[.scripted] = .unlimited }) {
            try await restarted.transport.events.wait(for: "send(-100)")
            // The next look closes nothing more.
            let writes = restarted.store.events.all.filter { $0 == "write" }.count
            try await restarted.clock.sleeper(dueAt: restarted.clock.now.advanced(by: interval))
            restarted.clock.advance(by: interval)
            try await restarted.store.events.wait(for: "write", count: writes + 1)
        }
        let utc = summaries(-100, in: restarted.transport)
        #expect(utc.count == 1 && utc[0].contains("👑 1/6: Ann"), "\(utc)")
        #expect(summaries(-200, in: restarted.transport).isEmpty)
        #expect(utc[0].contains("<spoiler>\(answer.uppercased())</spoiler>"), "every member's day is over")
        #expect(restarted.transport.sent.allSatisfy { $0.chat != ChatID(-200) }, "nothing more for Tokyo")
    }

    /// Another process on the same database.
    init(sharing base: any GameStore, clock: ManualClock = ManualClock()) {
        self.clock = clock
        transport = ScriptedTransport(clock: clock)
        store = FaultyStore(base)
    }
}
