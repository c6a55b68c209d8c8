import Foundation
import Logging
import MetricsTestKit
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import TesseraCore
import TesseraEngine
import TesseraSQLite
import TesseraTesting
import Testing

@testable import TesseraRuntime

/// Each of the runtime's services alone, on the manual clock: what it does, and that it ends on a graceful
/// shutdown (ServiceLifecycle's test kit) without the others.
@Suite("Each service alone", .timeLimit(.minutes(1)))
struct ServicesAloneTests {
    let clock = ManualClock()
    let transport: ScriptedTransport
    let store: FaultyStore
    let logs = LogRecorder()
    let activity: PlatformActivity
    let retrier: Retrier
    let engine: BotEngine
    let metrics = TestMetrics()
    let monitor: RuntimeMonitor

    init() throws {
        transport = ScriptedTransport(clock: clock)
        store = FaultyStore(try SQLiteGameStore.inMemory())
        monitor = RuntimeMonitor(store: store, started: clock.date, heartbeatInterval: .seconds(30))
        activity = PlatformActivity(
            transport: "scripted", platform: .telegram, started: clock.date,
            metrics: PlatformMetrics(platform: .telegram, factory: metrics))
        retrier = Retrier(
            store: store, transport: "scripted", initialBackoff: .zero, maximumBackoff: .zero,
            clock: ServiceClock(clock),
            jitter: { 1 }, logger: logs.logger())
        engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret("services alone secret")), logger: logs.logger()
        )
    }

    /// What the platform's services share, on the manual clock; `engine` for one of a test's own.
    func context(engine: BotEngine? = nil) -> PlatformContext {
        let clock = self.clock
        return PlatformContext(
            transport: transport, engine: engine ?? self.engine, store: store, activity: activity,
            clock: ServiceClock(clock), now: { clock.date }, retrier: retrier)
    }

    var heartbeat: HeartbeatService {
        HeartbeatService(context: context(), launcher: nil, monitor: monitor, interval: .seconds(30))
    }

    @Test("The heartbeat is written at once and every interval, with the platform's last poll")
    func heartbeatAlone() async throws {
        let key = Heartbeat.settingKey(for: "scripted")
        try await withRunningBot(heartbeat, stopping: .gracefully) {
            try await store.events.wait(for: "setSetting(\(key))")
            _ = activity.polled(at: clock.date + 5)
            try await clock.sleeper(dueAt: clock.now.advanced(by: .seconds(30)))
            clock.advance(by: .seconds(30))
            try await store.events.wait(for: "setSetting(\(key))", count: 2)
        }
        let written = store.settingsWritten.filter { $0.key == key }.map(\.value)
        #expect(written.count == 2)
        #expect(try Heartbeat(decoding: written[0]).lastPoll == nil)
        #expect(try Heartbeat(decoding: written[1]).lastPoll == clock.date - 25)
    }

    @Test("The day closer closes its own platform's groups only, at start and every interval")
    func dayCloserAlone() async throws {
        try await store.write { transaction in
            for chat in [ChatID(-1), ChatID(.matrix, "!room:example.org")] {
                try await transaction.save(
                    Group(
                        chat: chat, timeZone: "UTC", rolloverHour: 0, language: .english,
                        lastClosedPuzzle: PuzzleNumber(300)))
            }
        }
        let clock = self.clock
        let closer = DayCloser(context: context(), interval: .seconds(5))
        try await withRunningBot(closer, stopping: .gracefully) {
            try await store.events.wait(for: "write")
            try await clock.sleeper(dueAt: clock.now.advanced(by: .seconds(5)))
            clock.advance(by: .seconds(5))
            try await store.events.wait(for: "write", count: 2)
        }
        let groups = try await store.write { try await $0.activeGroups(on: nil) }
        let closed = Dictionary(uniqueKeysWithValues: groups.map { ($0.chat, $0.lastClosedPuzzle) })
        #expect(closed[ChatID(-1)] == PuzzleNumber(325), "the scripted group's days are closed up to yesterday")
        #expect(closed[ChatID(.matrix, "!room:example.org")] == PuzzleNumber(300), "Matrix's are left to Matrix")
    }

    @Test("The receiver applies a batch once, flushes it, rings the sender and beats at its first poll")
    func receiverAlone() async throws {
        transport.push(ReceivedBatch(messages: [BotRuntimeTests.help()], nextPosition: "2"))
        let receiver = ReceiveService(
            context: context(), heartbeat: heartbeat, commits: CommitMetrics(factory: metrics))
        try await withRunningBot(receiver, stopping: .gracefully) {
            try await transport.events.wait(for: "receive(after: 2)")
        }
        #expect(
            store.events.all.filter { $0.hasPrefix("processBatch") || $0 == "flush" } == [
                "processBatch(next: 2)", "flush",
            ])
        #expect(activity.outbox.hasRing, "the reply is the sender's to send")
        #expect(store.settingsWritten.contains { $0.key == Heartbeat.settingKey(for: "scripted") })
        #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).count == 1)
    }

    @Test("The sender sends when rung, and on a graceful shutdown sends what it may before it returns")
    func senderAlone() async throws {
        try await store.write {
            try await $0.enqueue([OutgoingMessage(chat: ChatID(9), chatKind: .direct, html: "queued")])
        }
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.outboxInterval = .seconds(1_000)
        let sender = SendService(
            context: context(), sentMessages: SentMessages(store: store), rateLimits: .unlimited,
            configuration: configuration)
        try await withRunningBot(sender, stopping: .gracefully) {
            activity.outbox.ring()
            try await transport.events.wait(for: "send(9)")
            try await store.write {
                try await $0.enqueue([OutgoingMessage(chat: ChatID(8), chatKind: .direct, html: "at the end")])
            }
        }
        // Not rung for the second: the drain at shutdown sent it.
        #expect(transport.sent.map(\.html) == ["queued", "at the end"])
        #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).isEmpty)
    }

    /// Run by ``AnalysisLanesTests``: the real solver at nice 19, as the lanes test is.
    func analysisServiceAlone() async throws {
        let secret = try #require(ScheduleSecret("services alone secret"))
        let list = Language.english.wordList
        let puzzle = PuzzleNumber(326)
        let answer = list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: puzzle)).lowercased()
        let guesses = answer == "salet" ? [answer] : ["salet", answer]
        let player = UserID(.scripted, "ana")
        let clock = self.clock
        try await store.write { transaction in
            var ana = Player(id: player, displayName: "Ana", language: .english, timeZone: "UTC", rolloverHour: 0)
            ana.directChat = ChatID(.scripted, "ana")
            try await transaction.save(ana)
            try await transaction.save(
                StoredGame(
                    player: player, language: .english, puzzle: puzzle, hardMode: false, guesses: guesses,
                    result: .won(guesses: guesses.count), finishedAt: clock.date))
            try await transaction.requestAnalysis(of: player, language: .english, puzzle: puzzle, show: true)
        }
        let service = AnalysisService(context: context(), interval: .seconds(1))
        try await withRunningBot(service, stopping: .gracefully) {
            // Done with the game, both lanes wait for the next interval.
            try await clock.sleepers(atLeast: 2)
        }
        let posted = try await store.pendingMessages(limit: 10, now: .distantFuture)
        #expect(posted.count == 1 && posted[0].message.chat == ChatID(.scripted, "ana"))
        #expect(posted.first?.message.html.hasPrefix("<b>🔍 Analysis · Tessera 326</b>") == true)
        #expect(activity.outbox.hasRing, "the analysis is the sender's to send")
        let stored = try await store.write { try await $0.analysis(of: player, language: .english, puzzle: puzzle) }
        guard case .done(let json)? = stored else {
            Issue.record("not stored: \(String(describing: stored))")
            return
        }
        #expect(try JSONDecoder().decode(AnalysisReport.self, from: Data(json.utf8)).turns.map(\.guess) == guesses)
        #expect(store.settingsWritten.isEmpty, "SALET's total is in the opening book: nothing to keep")
    }

    /// Run by ``AnalysisLanesTests``, whose time limit allows for a debug build's solver at nice 19 while the rest
    /// of the suite loads the cores.
    func knownLaneBesideSearch() async throws {
        let secret = try #require(ScheduleSecret("services alone secret"))
        let list = Language.english.wordList
        let puzzle = PuzzleNumber(326)
        let answer = list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: puzzle)).lowercased()
        let clock = self.clock
        func finish(_ name: String, _ guesses: [String]) async throws -> UserID {
            let player = UserID(.scripted, name)
            try await store.write { transaction in
                var stored = Player(id: player, displayName: name, language: .english, timeZone: "UTC", rolloverHour: 0)
                stored.directChat = ChatID(.scripted, name)
                try await transaction.save(stored)
                try await transaction.save(
                    StoredGame(
                        player: player, language: .english, puzzle: puzzle, hardMode: false, guesses: guesses,
                        result: .won(guesses: guesses.count), finishedAt: clock.date))
                try await transaction.requestAnalysis(of: player, language: .english, puzzle: puzzle, show: true)
            }
            return player
        }
        // FUFFY is in no book: its total is a search of minutes in a release build. Here its budget holds it to
        // about a second of a release build's work, still far more than SALET's game needs, and the rest of the
        // test suite keeps its cores.
        let eve = try await finish("eve", ["fuffy", answer])
        var configuration = EngineConfiguration()
        configuration.analysisBudget = Solver.Budget(steps: 100_000_000, firstGuessSteps: 200_000_000)
        let bounded = BotEngine(configuration: configuration, secret: secret, logger: logs.logger())
        let service = AnalysisService(context: context(engine: bounded), interval: .seconds(1))
        try await withRunningBot(service, stopping: .gracefully) {
            // The known lane finds nothing to do and waits; the search lane has Eve's game.
            try await clock.sleepers(atLeast: 1)
            let ana = try await finish("ana", answer == "salet" ? ["salet"] : ["salet", answer])
            clock.advance(by: .seconds(1))
            #expect(await activity.outbox.waitForRing(), "Ana's analysis was not posted")
            let posted = try await store.pendingMessages(limit: 10, now: .distantFuture)
            #expect(posted.map(\.message.chat) == [ChatID(.scripted, "ana")])
            let anas = try await store.write { try await $0.analysis(of: ana, language: .english, puzzle: puzzle) }
            let eves = try await store.write { try await $0.analysis(of: eve, language: .english, puzzle: puzzle) }
            guard case .done? = anas, case .pending? = eves else {
                Issue.record("Ana's: \(String(describing: anas)), Eve's: \(String(describing: eves))")
                return
            }
        }
    }

    @Test("Work on a thread of its own returns its result; a cancelled wait ends at once and asks the work to stop")
    func ownThread() async throws {
        #expect(try await onOwnThread { stop in stop.isRequested ? 0 : 6 * 7 } == 42)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let stopSeen = Mutex(false)
        let waiting = Task {
            try await onOwnThread { stop in
                gate.wait()
                stopSeen.withLock { $0 = stop.isRequested }
                finished.signal()
                return 1
            }
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        gate.signal()
        finished.wait()
        #expect(stopSeen.withLock { $0 }, "the work was not asked to stop")
    }

    @Test("Leadership runs its services only while leading, and one that fails ends the others")
    func leadershipAlone() async throws {
        let leadership = ScriptedLeadership()
        let service = LeadershipService(role: "scripted", leadership: leadership, services: [heartbeat, Failing()])
        try await testGracefulShutdown { _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await leadership.events.wait(for: "whileLeading")
                #expect(store.settingsWritten.isEmpty, "standing by, it writes no heartbeat")
                leadership.grant()
                // The heartbeat, which would run forever, is cancelled: otherwise this would wait for it.
                await #expect(throws: Failing.Failure.self) { try await group.waitForAll() }
            }
        }
    }

    /// A service that fails as soon as it runs.
    struct Failing: Service {
        struct Failure: Error {}
        func run() async throws { throw Failure() }
    }
}

/// The analysis service's lanes with the real solver: its threads run at nice 19, so while the rest of the suite
/// keeps the cores busy a debug build's analysis can take minutes; the bound says how long is too long.
@Suite("Analysis lanes", .timeLimit(.minutes(5)))
struct AnalysisLanesTests {
    let services: ServicesAloneTests

    init() throws { services = try ServicesAloneTests() }

    @Test("The analysis service works out a finished game's analysis, stores it, and posts it to a player who asked")
    func analysisServiceAlone() async throws { try await services.analysisServiceAlone() }

    @Test("A game whose opener the book knows is analysed while another game's opener is being searched")
    func knownLaneBesideSearch() async throws { try await services.knownLaneBesideSearch() }
}
