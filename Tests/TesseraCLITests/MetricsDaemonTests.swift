import Foundation
import TesseraTestSupport
import Testing

/// The operator's listener of a real `tessera run` (issue 27), scraped as Prometheus would, with the exposition
/// checked by the Prometheus client's parser and by promtool, and probed as an orchestrator would.
@Suite("Metrics and health of the daemon", .timeLimit(.minutes(3)))
struct MetricsDaemonTests {
    /// A daemon against the fake Bot API with its listener on a free port, read from its log.
    func withListener(
        on store: DaemonDatabase = .sqlite, environment extra: [String: String] = [:],
        _ body: (FakeTelegram, Daemon, MetricsScrape) async throws -> Void
    ) async throws {
        let fake = try await FakeTelegram.start()
        let database = try await store.make()
        let log = try TesseraProcess.temporaryDirectory().appendingPathComponent("daemon.log")
        let daemon = try Daemon(
            fake: fake, database: database.location,
            environment: database.environment.merging(
                ["TESSERA_METRICS_LISTEN": "127.0.0.1:0"].merging(extra) {
                    $1
                }
            ) { $1 },
            logFile: log)
        try daemon.start()
        defer { if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) } }
        let said = "Metrics and health listening on http://127.0.0.1:"
        try await LogWatch.wait(for: said, in: log)
        let text = try String(contentsOf: log, encoding: .utf8)
        let port = try #require(
            text.components(separatedBy: said).dropFirst().first.map { $0.prefix { $0.isNumber } }.flatMap { Int($0) })
        try await body(fake, daemon, MetricsScrape(baseURL: "http://127.0.0.1:\(port)"))
        #expect(await daemon.stop(SIGTERM) == 0)
        await fake.stop()
    }

    @Test(
        "Guesses move the counters, a failed send counts by cause, the exposition parses and passes promtool",
        arguments: DaemonDatabase.all)
    func counters(_ store: DaemonDatabase) async throws {
        try await withListener(on: store) { fake, _, metrics in
            // Sending fails once (a 502), then works: counted as transient, and sent on the retry.
            try await fake.fail("sendMessage", status: 502, count: 1)
            let words = try DaemonTests.wrongWords(2)
            try await fake.push(FakeTelegram.rounds(of: words, players: 3))
            try await fake.expectEachGuessOnce(players: 3, words: words)
            // Not a word: received, answered, not a guess.
            try await fake.push([FakeTelegram.message("zzzzz", from: 9, messageID: 9)])
            _ = try await fake.waitForSent { sent in sent.contains { $0.chat == 9 } }
            // The fake records a reply before it answers, and the daemon counts it sent after the answer:
            // scrape once the outbox has drained, so that every count below is settled.
            let scraped = try await fake.wait(for: { try await metrics.get("/metrics") }) {
                $0.status == 200
                    && ((try? MetricsScrape.parse($0.body))?.contains {
                        $0.name == "tessera_outbox_messages" && $0.value == 0
                    } ?? false)
            }
            #expect(scraped.status == 200)
            #expect(scraped.contentType == "text/plain; version=0.0.4; charset=utf-8")
            let samples = try MetricsScrape.parse(scraped.body)
            func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
                samples.first { $0.name == name && $0.labels == labels }?.value
            }
            let telegram = ["platform": "telegram"]
            #expect(value("tessera_updates_received_total", telegram) == 7)
            #expect(value("tessera_guesses_total", telegram.merging(["language": "en"]) { $1 }) == 6)
            #expect(value("tessera_guesses_total", telegram.merging(["language": "es"]) { $1 }) == 0)
            let posts = try await fake.sent().count
            let edits = try await fake.edits().count
            #expect(value("tessera_messages_sent_total", telegram.merging(["kind": "post"]) { $1 }) == Double(posts))
            #expect(value("tessera_messages_sent_total", telegram.merging(["kind": "edit"]) { $1 }) == Double(edits))
            #expect(value("tessera_send_failures_total", telegram.merging(["cause": "transient"]) { $1 }) == 1)
            #expect(value("tessera_send_failures_total", telegram.merging(["cause": "fatal"]) { $1 }) == 0)
            #expect(value("tessera_leader", telegram) == 1)
            #expect(value("tessera_outbox_messages", telegram) == 0)
            #expect(value("tessera_build_info", ["version": "0.27.0"]) == 1)
            #expect((value("tessera_commit_duration_seconds_count") ?? 0) >= 1)
            #expect((value("tessera_poll_duration_seconds_count", telegram) ?? 0) >= 1)
            let lastPoll = try #require(value("tessera_last_poll_timestamp_seconds", telegram))
            #expect(abs(lastPoll - Date().timeIntervalSince1970) < 60)
            #expect(samples.allSatisfy { !$0.help.isEmpty }, "every metric says what it means")
            // Label values are fixed words: nothing a user, a chat or a word says.
            let allowed: [String: Set<String>] = [
                "platform": ["telegram"], "language": ["en", "es"], "kind": ["post", "edit", "reaction", "delete"],
                "cause": [
                    "transient", "rateLimited", "chatUnavailable", "chatMigrated", "messageRejected", "editRefused",
                    "fatal",
                ],
                "version": ["0.27.0"],
            ]
            for sample in samples {
                for (label, labelValue) in sample.labels where label != "le" {
                    #expect(allowed[label]?.contains(labelValue) == true, "\(sample.name): \(label)=\(labelValue)")
                }
            }
            for private_ in words + ["zzzzz", "P1", "Player"] {
                #expect(!scraped.body.lowercased().contains(private_.lowercased()), "\(private_) in the metrics")
            }
            let promtool = try MetricsScrape.promtool(scraped.body)
            #expect(promtool.status == 0, "promtool check metrics: \(promtool.said)")
            #expect(try await metrics.get("/nothing").status == 404)
        }
    }

    @Test("The outbox gauge follows the outbox: it holds the replies while Telegram does not answer, then drains")
    func outboxGauge() async throws {
        try await withListener { fake, _, metrics in
            try await fake.hold("sendMessage")
            try await fake.push((1...4).map { FakeTelegram.message("/help", from: Int64($0), messageID: Int64($0)) })
            func outbox() async throws -> Double? {
                try MetricsScrape.parse(try await metrics.get("/metrics").body).first {
                    $0.name == "tessera_outbox_messages"
                }?.value
            }
            #expect(try await fake.wait(for: { try await outbox() }, until: { $0 == 4 }) == 4)
            try await fake.release("sendMessage")
            _ = try await fake.waitForSent { $0.count >= 4 }
            #expect(try await fake.wait(for: { try await outbox() }, until: { $0 == 0 }) == 0)
        }
    }

    @Test("/healthz: 200 while polls come back, 503 with the reason while the Bot API is held, 200 once released")
    func health() async throws {
        // Short polls and a short limit, so that a stall shows in seconds.
        let quick = ["TESSERA_TELEGRAM_POLL_SECONDS": "1", "TESSERA_METRICS_STALE_AFTER": "17"]
        try await withListener(environment: quick) { fake, _, metrics in
            let healthy = try await fake.wait(
                for: { try await metrics.get("/healthz") }, until: { $0.status == 200 && $0.body.hasPrefix("Healthy") })
            #expect(healthy.body.hasPrefix("Healthy: tessera run (telegram) on "), "\(healthy.body)")
            #expect(healthy.contentType == "text/plain; charset=utf-8")
            try await fake.hold("getUpdates")
            let stalled = try await fake.wait(timeout: .seconds(60), for: { try await metrics.get("/healthz") }) {
                $0.status == 503
            }
            #expect(stalled.body.hasPrefix("Stalled: tessera run (telegram) on "), "\(stalled.body)")
            #expect(stalled.body.contains("Running but not receiving: no poll has come back for over 17 s"))
            try await fake.release("getUpdates")
            _ = try await fake.wait(timeout: .seconds(60), for: { try await metrics.get("/healthz") }) {
                $0.status == 200
            }
        }
    }

    @Test("A listen address another process holds stops the bot with one line naming it")
    func addressInUse() async throws {
        try await withListener { fake, _, metrics in
            let taken = try #require(metrics.baseURL.split(separator: "//").last.map(String.init))
            let database = try TesseraProcess.temporaryDirectory().appendingPathComponent("second.sqlite").path
            let second = try Daemon(fake: fake, database: database, environment: ["TESSERA_METRICS_LISTEN": taken])
            try second.start()
            let (status, log) = await second.exit(within: 20)
            #expect(status == 1)
            #expect(log.contains("Error: The metrics listener on \(taken) stopped:"), "\(log)")
            #expect(log.contains("choose another metrics.listen (TESSERA_METRICS_LISTEN)"))
        }
    }
}
