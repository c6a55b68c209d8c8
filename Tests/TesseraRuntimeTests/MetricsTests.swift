import Foundation
import Logging
import MetricsTestKit
import ServiceLifecycle
import TesseraCore
import TesseraEngine
import TesseraRuntime
import TesseraSQLite
import TesseraTesting
import Testing

/// The runtime's metrics and health (issue 27), counted into swift-metrics' test kit: the executable only
/// exports what is counted here.
@Suite("Metrics and health", .timeLimit(.minutes(1)))
struct MetricsTests {
    let clock = ManualClock()
    let transport: ScriptedTransport
    let store: FaultyStore
    let logs = LogRecorder()
    let metrics = TestMetrics()
    let runtime: BotRuntime
    let engine: BotEngine

    init() throws {
        transport = ScriptedTransport(clock: clock)
        store = FaultyStore(try SQLiteGameStore.inMemory())
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        configuration.metrics = metrics
        let clock = self.clock
        runtime = BotRuntime(
            store: store, configuration: configuration, clock: clock, now: { clock.date }, jitter: { 1 },
            logger: logs.logger())
        engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret("metrics test secret")), logger: logs.logger())
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) throws -> Int64 {
        try metrics.expectCounter(label, [("platform", "scripted")] + dimensions).totalValue
    }

    @Test("Updates, accepted guesses, sends by kind and failures by cause are counted; polls and commits timed")
    func counters() async throws {
        let word = try #require(Language.english.wordList.answers.first)
        let guess = Language.english.wordList.letters(word)
        transport.fail(.send, chat: ChatID(8), with: .messageRejected("Bad Request: can't parse entities"), times: 1)
        transport.push(
            ReceivedBatch(
                messages: [
                    BotRuntimeTests.message(guess, from: 7), BotRuntimeTests.message("zzzzz", from: 7),
                    BotRuntimeTests.help(chat: 8),
                ],
                nextPosition: "2"))
        let group = runtime.serviceGroup(platforms: [(transport, engine)])
        try await withRunningBot(group, stopping: .gracefully) {
            try await transport.events.wait(for: "receive(after: 2)")
            try await transport.events.wait(for: "send failed(8)")
            try await transport.events.wait(for: "send(7)", count: 2)
            #expect(try counter("tessera_updates_received_total", []) == 3)
            #expect(try counter("tessera_guesses_total", [("language", "en")]) == 1, "ZZZZZ is not a guess")
            #expect(try counter("tessera_guesses_total", [("language", "es")]) == 0)
            #expect(try metrics.expectTimer("tessera_commit_duration_seconds").values.count == 1)
            #expect(
                try metrics.expectTimer("tessera_poll_duration_seconds", [("platform", "scripted")]).values.count == 1)
            let lastPoll = try metrics.expectGauge("tessera_last_poll_timestamp_seconds", [("platform", "scripted")])
            #expect(lastPoll.lastValue == clock.date.timeIntervalSince1970)
            #expect(try metrics.expectGauge("tessera_leader", [("platform", "scripted")]).lastValue == 1)
        }
        // A send is counted after the transport returns, so the counts are read once the sender has stopped.
        #expect(try counter("tessera_messages_sent_total", [("kind", "post")]) == Int64(transport.sent.count))
        #expect(try counter("tessera_messages_sent_total", [("kind", "edit")]) == Int64(transport.edits.count))
        #expect(try counter("tessera_send_failures_total", [("cause", "messageRejected")]) == 1)
        #expect(try counter("tessera_send_failures_total", [("cause", "transient")]) == 0)
        #expect(try metrics.expectGauge("tessera_leader", [("platform", "scripted")]).lastValue == 0)
    }

    @Test("The outbox gauge follows the outbox each time it is read")
    func outboxGauge() async throws {
        _ = runtime.services(platforms: [(transport, engine)])
        let gauge = { try metrics.expectGauge("tessera_outbox_messages", [("platform", "scripted")]).lastValue }
        try await runtime.monitor.refreshGauges()
        #expect(try gauge() == 0)
        try await store.write { store in
            try await store.enqueue(
                (1...3).map { OutgoingMessage(chat: ChatID($0), chatKind: .direct, html: "queued \($0)") }
                    + [OutgoingMessage(chat: ChatID(.matrix, "!room:example.org"), chatKind: .group, html: "other")])
        }
        try await runtime.monitor.refreshGauges()
        #expect(try gauge() == 3, "Matrix's message is not the scripted platform's")
        let pending = try await store.pendingMessages(limit: 10, now: .distantFuture, platform: .scripted)
        try await store.markSent(pending.prefix(2).map(\.id))
        try await runtime.monitor.refreshGauges()
        #expect(try gauge() == 1)
    }

    @Test("Health: starting until the first poll, healthy after it, stalled once polls stop coming back")
    func health() async throws {
        let database = "/var/lib/tessera/tessera.sqlite"
        let start = clock.date
        func health(after seconds: TimeInterval) -> RuntimeMonitor.Health {
            runtime.monitor.health(at: start + seconds, staleAfter: 120, database: database)
        }
        #expect(health(after: 0).healthy)
        #expect(health(after: 0).text == "Starting: connecting to the platforms.")
        #expect(health(after: 300).healthy == false, "no platform connected in five minutes")

        let group = runtime.serviceGroup(platforms: [(transport, engine)])
        try await withRunningBot(group, stopping: .gracefully) {
            let heartbeat = "setSetting(\(Heartbeat.settingKey(for: "scripted")))"
            try await transport.events.wait(for: "receive(after: nil)")
            try await store.events.wait(for: heartbeat)
            let starting = health(after: 10)
            #expect(starting.healthy)
            #expect(starting.text.hasPrefix("Starting: tessera run (scripted) on \(database): started 10 s ago"))

            // Two minutes on, the heartbeat still beats but the first poll has not come back.
            let interval = BotRuntime.Configuration().healthInterval
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            clock.advance(by: .seconds(121))
            try await store.events.wait(for: heartbeat, count: 2)
            // Asleep again, the heartbeat has noted its write: what health reads.
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            let noFirstPoll = health(after: 121)
            #expect(!noFirstPoll.healthy)
            #expect(noFirstPoll.text.contains("its first poll has not come back in 2 min"), "\(noFirstPoll.text)")

            transport.push(ReceivedBatch(messages: [BotRuntimeTests.help()], nextPosition: "2"))
            try await transport.events.wait(for: "receive(after: 2)")
            let healthy = health(after: 130)
            #expect(healthy.healthy)
            #expect(
                healthy.text
                    == "Healthy: tessera run (scripted) on \(database): started 2 min ago, heartbeat 9 s ago, last poll "
                    + "9 s ago, last send never.",
                "\(healthy.text)")

            // No poll for over two minutes while the heartbeat goes on: not receiving.
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            clock.advance(by: .seconds(200))
            // The fourth: the receiver wrote the third at its first poll.
            try await store.events.wait(for: heartbeat, count: 4)
            try await clock.sleeper(dueAt: clock.now.advanced(by: interval))
            let stalled = health(after: 321)
            #expect(!stalled.healthy)
            #expect(stalled.text.hasPrefix("Stalled: tessera run (scripted)"))
            #expect(stalled.text.contains("no poll has come back for over 2 min"), "\(stalled.text)")
            // Nor a heartbeat: the database takes no writes, which is why nothing is received either.
            let stuck = health(after: 500)
            #expect(!stuck.healthy)
            #expect(stuck.text.contains("No heartbeat written for over 2 min: the database takes no writes"))
        }
        let standingBy = health(after: 200)
        #expect(standingBy.healthy, "a process that leads nothing has nothing to stall")
        #expect(standingBy.text.hasPrefix("Standing by: "))
    }
}
