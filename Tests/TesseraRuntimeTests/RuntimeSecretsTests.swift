import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TesseraEngine
import TesseraRuntime
import TesseraSQLite
import TesseraTesting
import Testing

@testable import TesseraCore

@Suite("The running bot's logs keep the schedule secret")
struct RuntimeSecretsTests {
    static let secretText = "correct horse battery staple, never logged"

    /// What would give the secret away: its text and each half of its key, in decimal and in hex.
    func giveaways() throws -> [String] {
        let key = try #require(ScheduleSecret(Self.secretText)).key
        return [Self.secretText] + [key.k0, key.k1].flatMap { [String($0), String($0, radix: 16)] }
    }

    @Test("Running at trace level, nothing logged reveals the secret or its key", .timeLimit(.minutes(1)))
    func traceLogs() async throws {
        let logs = LogRecorder()
        let transport = ScriptedTransport()
        let engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret(Self.secretText)),
            logger: logs.logger(level: .trace))
        let message = ChatMessage(
            chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Ann", text: "crane")
        transport.push(ReceivedBatch(messages: [message], nextPosition: "2"))
        // The service group logs each service's description at debug level: the leak that was found.
        let group = BotRuntime(
            store: try SQLiteGameStore.inMemory(), configuration: .onManualClock, clock: ManualClock(), jitter: { 1 },
            logger: logs.logger(level: .trace)
        ).serviceGroup(platforms: [(transport, engine)])
        try await withRunningBot(group, stopping: .gracefully) {
            try await transport.events.wait(for: "receive(after: 2)")
        }
        let lines = logs.lines
        #expect(lines.contains { $0.metadata.contains("LeadershipService(scripted)") })
        for giveaway in try giveaways() {
            #expect(!lines.contains { $0.message.contains(giveaway) || $0.metadata.contains(giveaway) }, "\(giveaway)")
        }
    }
}
