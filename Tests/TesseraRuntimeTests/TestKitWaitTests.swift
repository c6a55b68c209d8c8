import TesseraTesting
import Testing

/// The test kit's waits end: what never comes fails the test with what was awaited, not a silent hang.
@Suite("The test kit's bounded waits", .timeLimit(.minutes(1)))
struct TestKitWaitTests {
    @Test("An event that never comes: the wait says what it awaited and what happened instead")
    func eventNeverComes() async throws {
        let log = EventLog()
        log.record("flush")
        let error = try await #require(throws: WaitTimedOut.self) {
            try await log.wait(for: "markSent", within: .milliseconds(50))
        }
        #expect(error.description.contains("markSent ×1") && error.description.contains("[\"flush\"]"), "\(error)")
        // One that comes in time ends the wait, and a later event still wakes a new one.
        async let waiting: Void = log.wait(for: "markSent", count: 2)
        log.record("markSent")
        log.record("markSent")
        try await waiting
    }

    @Test("A sleeper that never sleeps: the wait names the sleep it awaited and the sleeps there are")
    func sleeperNeverComes() async throws {
        let clock = ManualClock()
        let error = try await #require(throws: WaitTimedOut.self) {
            try await clock.sleepers(atLeast: 1, within: .milliseconds(50))
        }
        #expect(
            error.description.contains("for a sleeping task") && error.description.contains("due at []"), "\(error)")
        let sleeping = Task { try await clock.sleep(for: .seconds(5)) }
        try await clock.sleeper(dueAt: clock.now.advanced(by: .seconds(5)))
        clock.advance(by: .seconds(5))
        try await sleeping.value
    }

    @Test("A wait cancelled, as a test's time limit cancels it, ends at once and says what it awaited")
    func cancelledWait() async throws {
        let log = EventLog()
        log.record("flush")
        let clock = ManualClock()
        let waits = [
            Task { try await log.wait(for: "markSent") },
            Task { try await clock.sleeper(dueAt: clock.now.advanced(by: .seconds(1))) },
        ]
        // Both are waiting (or will find themselves cancelled when they start): neither waits out its 120 s.
        for wait in waits { wait.cancel() }
        var said: [String] = []
        for wait in waits {
            let error = try await #require(throws: WaitCancelled.self) { try await wait.value }
            said.append(error.description)
        }
        #expect(said[0].contains("markSent ×1") && said[0].contains("[\"flush\"]"), "\(said[0])")
        #expect(said[1].contains("a sleeper due at 1.0 seconds") && said[1].contains("due at []"), "\(said[1])")
        // Cancelled, a wait leaves nothing behind: the next event wakes only a new one.
        async let waiting: Void = log.wait(for: "markSent")
        log.record("markSent")
        try await waiting
    }
}
