import Testing

@testable import TesseraRuntime

/// The sender's wake-up: rings while it works are never lost, and many make one more pass, not many.
@Suite("The sender's doorbell", .timeLimit(.minutes(1)))
struct DoorbellTests {
    @Test("A ring before the wait is kept; rings while working make one more pass")
    func ringsAreKept() async {
        let doorbell = Doorbell()
        doorbell.ring()
        doorbell.ring()
        #expect(await doorbell.waitForRing())
        // Both rings came before the pass: one pass answers them.
        #expect(!doorbell.hasRing)
        let waiting = Task { await doorbell.waitForRing() }
        doorbell.ring()
        #expect(await waiting.value)
        #expect(!doorbell.hasRing)
    }

    @Test("Closing ends the wait, now and later")
    func closing() async {
        let doorbell = Doorbell()
        let waiting = Task { await doorbell.waitForRing() }
        doorbell.close()
        #expect(await waiting.value == false)
        doorbell.ring()
        #expect(await doorbell.waitForRing() == false)
    }

    @Test("Cancelling the waiting task ends its wait")
    func cancelling() async {
        let doorbell = Doorbell()
        let waiting = Task { await doorbell.waitForRing() }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}
