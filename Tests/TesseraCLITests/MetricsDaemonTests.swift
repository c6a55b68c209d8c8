import Foundation
import TesseraCoreTesting
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
            let (scraped, parsed) = try await fake.wait(
                for: {
                    let scraped = try await metrics.get("/metrics")
                    return (scraped, try? await MetricsScrape.parse(scraped.body))
                }
            ) {
                $0.0.status == 200
                    && ($0.1?.contains { $0.name == "tessera_outbox_messages" && $0.value == 0 } ?? false)
            }
            #expect(scraped.status == 200)
            #expect(scraped.contentType == "text/plain; version=0.0.4; charset=utf-8")
            let samples = try #require(parsed)
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
                "platform": ["telegram"], "language": ["en", "es"],
                "kind": ["post", "picture", "edit", "reaction", "delete", "tag"],
                "cause": [
                    "transient", "rateLimited", "chatUnavailable", "chatMigrated", "messageRejected", "pictureRefused",
                    "editRefused", "fatal",
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
            let promtool = try await MetricsScrape.promtool(scraped.body)
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
                try await MetricsScrape.parse(try await metrics.get("/metrics").body).first {
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

    @Test("A listen address another process holds leaves the bot serving; its log and tessera status say why")
    func addressInUse() async throws {
        try await withListener { _, _, metrics in
            let taken = try #require(metrics.baseURL.split(separator: "//").last.map(String.init))
            let fake = try await FakeTelegram.start()
            let directory = try TesseraProcess.temporaryDirectory()
            let database = directory.appendingPathComponent("second.sqlite").path
            let log = directory.appendingPathComponent("second.log")
            let second = try Daemon(
                fake: fake, database: database, environment: ["TESSERA_METRICS_LISTEN": taken], logFile: log)
            try second.start()
            defer { if second.process.isRunning { kill(second.process.processIdentifier, SIGKILL) } }
            try await LogWatch.wait(for: "The metrics listener on \(taken) cannot serve:", in: log)
            let text = try String(contentsOf: log, encoding: .utf8)
            #expect(text.contains("choose another metrics.listen (TESSERA_METRICS_LISTEN)"), "\(text)")
            // The bot itself serves.
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 1)])
            try await fake.waitForSent { $0.count >= 1 }
            #expect(second.process.isRunning)
            let status = try await fake.wait(for: { try await TesseraProcess.run(["status", "--database", database]) })
            {
                $0.standardOutput.contains("metrics listener")
            }
            #expect(status.status == 0, "the bot serves: healthy, with the listener's trouble said")
            #expect(status.standardOutput.contains("But the metrics listener on \(taken) is down: "), "\(status)")
            #expect(await second.stop(SIGTERM) == 0)
            await fake.stop()
        }
    }

    @Test(
        "Connections held open, idle or with endless headers, neither stop the bot nor keep the listener from answering"
    )
    func heldConnections() async throws {
        try await withListener { fake, daemon, metrics in
            let port = try #require(metrics.baseURL.split(separator: ":").last.flatMap { Int($0) })
            // The daemon gets systemd's default of 1,024 descriptors, whatever this machine's is; this process
            // takes as many as it may, to hold the connections.
            let limit = try await ChildProcess.run(
                "/usr/bin/prlimit", ["--pid", "\(daemon.process.processIdentifier)", "--nofile=1024:1024"])
            #expect(limit.status == 0, "\(limit)")
            var own = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
            own.rlim_cur = own.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
            // 1,100 idle connections: more than systemd's default limit of 1,024 descriptors. The listener accepts
            // 64 at a time and ends each within seconds; the rest wait in the kernel's backlog, not in the bot.
            // Their connects do not wait: past the backlog the kernel keeps the client waiting, not the bot.
            let idle = try (0..<1_100).map { _ in try RawConnection(port: port, waiting: false) }
            // One sends headers without end, a kilobyte at a time, for longer than the listener lets it.
            let endless = try RawConnection(port: port)
            try endless.send("GET /metrics HTTP/1.1\r\nHost: x\r\n")
            for round in 0..<40 {
                do {
                    try endless.send("X-Filler-\(round): \(String(repeating: "a", count: 1_000))\r\n")
                } catch {
                    break  // closed by the listener: what this test wants
                }
            }
            // The bot answers meanwhile: the batch commits, the reply goes out.
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 1)])
            try await fake.waitForSent { $0.count >= 1 }
            // And the listener still answers a scrape, once it has closed the connections that wait.
            // A scrape waits its turn in the backlog, behind the idle connections: it is "not yet" until answered.
            let healthy = try await fake.wait(
                timeout: .seconds(90),
                for: { () async -> (status: Int, body: String, contentType: String?)? in
                    do {
                        return try await metrics.get("/healthz")
                    } catch {
                        return nil
                    }
                }, until: { $0?.status == 200 })
            #expect(healthy?.body.hasPrefix("Healthy") == true)
            #expect(await endless.isClosedByPeer(), "the listener kept reading a header of 40 kB")
            #expect(daemon.process.isRunning)
            try await fake.push([FakeTelegram.message("/help", from: 1, messageID: 2)])
            try await fake.waitForSent { $0.count >= 2 }
            withExtendedLifetime(idle) {}
        }
    }
}

/// A TCP connection to a loopback port, written to by hand: what a hostile client would hold open.
final class RawConnection: Sendable {
    let descriptor: Int32

    /// `waiting` false: the connect is started and not waited for.
    init(port: Int, waiting: Bool = true) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | (waiting ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 || (!waiting && errno == EINPROGRESS) else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw POSIXError(.init(rawValue: errno) ?? .EPIPE) }
    }

    /// Whether the other end closes within 15 s: the listener closes a connection at most 10 s after it accepted
    /// it. What it sends before (an error response) is read and dropped.
    func isClosedByPeer() async -> Bool {
        await offThePool { self.blockingIsClosedByPeer() }
    }

    private func blockingIsClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 15_000) == 1 else { return false }
            if recv(descriptor, &buffer, buffer.count, 0) <= 0 { return true }
        }
    }
}
