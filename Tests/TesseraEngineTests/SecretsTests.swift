import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TesseraEngine
import TesseraTesting
import Testing

@testable import TesseraCore

@Suite("Secrets stay out of descriptions and logs")
struct SecretsTests {
    static let secretText = "correct horse battery staple, never logged"

    /// What would give the secret away: its text and each half of its key, in decimal and in hex.
    static func giveaways() throws -> [String] {
        let key = try #require(ScheduleSecret(secretText)).key
        return [secretText] + [key.k0, key.k1].flatMap { [String($0), String($0, radix: 16)] }
    }

    @Test("Descriptions, debug descriptions and dumps of the secret, the engine and the service reveal nothing")
    func descriptions() throws {
        let secret = try #require(ScheduleSecret(Self.secretText))
        let engine = BotEngine(configuration: .init(), secret: secret, logger: Logger(label: "test"))
        let service = BotService(
            transport: ScriptedTransport(), store: try TestStore.make(), engine: engine,
            clock: ManualClock(), jitter: { 1 }, logger: Logger(label: "test"))
        let schedule = AnswerSchedule(wordList: Language.english.wordList, secret: secret)
        var texts: [String] = []
        for value in [secret, engine, service, schedule, secret.key] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            texts += [String(describing: value), String(reflecting: value), dumped]
        }
        for giveaway in try Self.giveaways() {
            #expect(!texts.contains { $0.contains(giveaway) }, "\(giveaway) shown")
        }
        // Nor the answer lists, which with the key would predict every answer.
        #expect(texts.allSatisfy { $0.count < 200 }, "\(texts.max { $0.count < $1.count } ?? "")")
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
        let service = BotService(
            transport: transport, store: try TestStore.make(), engine: engine, clock: ManualClock(),
            jitter: { 1 }, logger: logs.logger(level: .trace))
        // The service group logs each service's description at debug level: the leak that was found.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [service], logger: logs.logger(level: .trace)))
        let running = Task { try await group.run() }
        await transport.events.wait(for: "receive(after: 2)")
        await group.triggerGracefulShutdown()
        _ = await running.result
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0.metadata.contains("BotService(transport: scripted)") })
        for giveaway in try Self.giveaways() {
            #expect(!lines.contains { $0.message.contains(giveaway) || $0.metadata.contains(giveaway) }, "\(giveaway)")
        }
    }
}
