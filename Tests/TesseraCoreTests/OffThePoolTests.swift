import Foundation
import TesseraCoreTesting
import Testing

@Suite("Work off the cooperative pool")
struct OffThePoolTests {
    @Test("Work off the pool runs on a thread of its own, yet in the calling test: its expectations are the test's")
    func ownThreadSameTest() async throws {
        let caller = pthread_self()
        let (thread, test) = await offThePool { (pthread_self(), Test.current?.name) }
        #expect(pthread_equal(thread, caller) == 0, "the work ran on the caller's thread, a thread of the pool")
        #expect(test == Test.current?.name && test != nil)
        // Blocking work that waits on other blocking work: each on its own thread, so neither waits for a turn.
        let handOver = DispatchSemaphore(value: 0)
        async let waiting: Void = offThePool { handOver.wait() }
        await offThePool { handOver.signal() }
        await waiting
        // What the work throws is the caller's.
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await offThePool { throw Refused() } }
    }
}
