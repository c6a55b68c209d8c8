#if PostgreSQL
    import Foundation
    import TesseraCore
    import TesseraTestSupport
    import Testing

    /// Several `tessera run` processes on one PostgreSQL database: one leads, the others stand by and take over.
    @Suite(
        "Failover on PostgreSQL", .serialized, .disabled(if: PostgreSQLServer.isSkipped, "TESSERA_SKIP_POSTGRES=1"))
    struct FailoverTests {
        @Test("kill -9 of the leader in the middle of 300 guesses: the standby takes over, each guess applied once")
        func leaderKilled() async throws {
            let fake = try await FakeTelegram.start()
            let (database, databaseEnvironment) = try await DaemonDatabase.postgres.make()
            let environment = databaseEnvironment.merging(["TESSERA_TELEGRAM_RATE_LIMITS": "off"]) { $1 }
            let words = try DaemonTests.wrongWords(3)
            let players = 100
            let leader = try Daemon(
                fake: fake, database: database, secret: DaemonTests.secret, environment: environment)
            try leader.start()
            // The first to start leads: it polls before the standby exists.
            try await fake.waitForStats { ($0["getUpdates"] ?? 0) > 0 }
            let standbyLog = try TesseraProcess.temporaryDirectory().appendingPathComponent("standby.log")
            let standby = try Daemon(
                fake: fake, database: database, secret: DaemonTests.secret, environment: environment,
                logFile: standbyLog)
            try standby.start()
            try await LogWatch.wait(for: "Standing by: another process leads", in: standbyLog)
            // The heartbeat is the leader's: a standby, which does not poll, does not make the whole look stuck.
            let before = try await TesseraProcess.run(
                ["status", "--database", database], environment: databaseEnvironment)
            // Healthy, or starting while the leader's first long poll is out: either way, not stuck.
            #expect(
                before.status == 0
                    && (before.standardOutput.hasPrefix("Healthy: ") || before.standardOutput.hasPrefix("Starting: ")),
                "\(before)")
            #expect(before.standardOutput.contains("Led by "), "\(before)")
            #expect(before.standardOutput.contains("pid \(leader.process.processIdentifier) "), "\(before)")

            let updates = FakeTelegram.rounds(of: words, players: players)
            try await fake.push(updates)
            try await fake.waitForSent { $0.count >= 60 }
            let polls = try await fake.stats()["getUpdates"] ?? 0
            let killed = ContinuousClock.now
            await leader.stop(SIGKILL)
            try await fake.waitForStats(timeout: .seconds(15)) { ($0["getUpdates"] ?? 0) > polls }
            let takeover = ContinuousClock.now - killed
            print("Takeover: the standby polled \(takeover) after the leader was killed")
            #expect(takeover < .seconds(10), "the standby takes over within 10 s")

            try await fake.expectEachGuessOnce(players: players, words: words)
            let status = try await TesseraProcess.run(
                ["status", "--database", database], environment: databaseEnvironment)
            #expect(status.standardOutput.contains("Led by "), "\(status)")
            #expect(status.standardOutput.contains("pid \(standby.process.processIdentifier) "), "\(status)")
            await standby.stop(SIGKILL)
            await fake.stop()
        }

        @Test(
            "The leader cut off from the database in the middle of 300 guesses: it stops, the standby takes over within 10 s, each guess applied once"
        )
        func leaderCutOff() async throws {
            let fake = try await FakeTelegram.start()
            let (database, databaseEnvironment) = try await DaemonDatabase.postgres.make()
            let environment = databaseEnvironment.merging(["TESSERA_TELEGRAM_RATE_LIMITS": "off"]) { $1 }
            let words = try DaemonTests.wrongWords(3)
            let players = 100
            let logs = try TesseraProcess.temporaryDirectory()
            // The leader reaches the database through the address the cut drops; the platform it still reaches, as
            // when only the database's network fails.
            let leaderLog = logs.appendingPathComponent("leader.log")
            let leader = try Daemon(
                fake: fake, database: database.replacingOccurrences(of: "@127.0.0.1:", with: "@\(NetworkCut.address):"),
                secret: DaemonTests.secret, environment: environment, logFile: leaderLog)
            try leader.start()
            try await LogWatch.wait(for: "Leading", in: leaderLog)
            let standbyLog = logs.appendingPathComponent("standby.log")
            let standby = try Daemon(
                fake: fake, database: database, secret: DaemonTests.secret, environment: environment,
                logFile: standbyLog)
            try standby.start()
            try await LogWatch.wait(for: "Standing by: another process leads", in: standbyLog)

            let updates = FakeTelegram.rounds(of: words, players: players)
            try await fake.push(updates)
            try await fake.waitForSent { $0.count >= 60 }
            try NetworkCut.cut()
            // Undone however the test ends: the next cut and the suite start from no rules.
            defer { try? NetworkCut.restore() }
            let cut = ContinuousClock.now
            try await LogWatch.wait(for: "Leading", in: standbyLog, timeout: .seconds(15))
            let takeover = ContinuousClock.now - cut
            print("Takeover: the standby led \(takeover) after the leader was cut off")
            #expect(takeover < .seconds(10), "the standby takes over within 10 s")
            // The old leader noticed by itself, and stopped receiving.
            try await LogWatch.wait(for: "Lost the lead", in: leaderLog, timeout: .seconds(5))

            try await fake.expectEachGuessOnce(players: players, words: words)
            try NetworkCut.restore()
            await leader.stop(SIGKILL)
            await standby.stop(SIGKILL)
            await fake.stop()
        }
    }
#endif
