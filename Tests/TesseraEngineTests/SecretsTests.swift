import Foundation
import Logging
import Synchronization
import TesseraTesting
import Testing

@testable import TesseraCore
@testable import TesseraEngine

@Suite("Secrets stay out of descriptions and logs")
struct SecretsTests {
    static let secretText = "correct horse battery staple, never logged"

    /// What would give the secret away: its text and each half of its key, in decimal and in hex.
    static func giveaways() throws -> [String] {
        let key = try #require(ScheduleSecret(secretText)).key
        return [secretText] + [key.k0, key.k1].flatMap { [String($0), String($0, radix: 16)] }
    }

    @Test("Descriptions, debug descriptions and dumps of the secret and the engine reveal nothing")
    func descriptions() throws {
        let secret = try #require(ScheduleSecret(Self.secretText))
        let engine = BotEngine(configuration: .init(), secret: secret, logger: Logger(label: "test"))
        let schedule = AnswerSchedule(wordList: Language.english.wordList, secret: secret)
        var texts: [String] = []
        for value in [secret, engine, schedule, secret.key] as [Any] {
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

    @Test(
        "A secret must be able to carry 128 bits: words and phrases are refused, random text passes",
        arguments: [
            ("tessera", false), ("correct horse battery", false), ("daemon test secret", false),
            (String(repeating: "ab", count: 40), false), ("0123456789abcdef0123456789abcde", false),
            ("0123456789abcdef0123456789abcdef", true), ("q2Vx8RbT1mZ0kLpYw3Nc7A", true),
            ("a schedule secret that must never be logged", true),
        ])
    func strength(text: String, strong: Bool) {
        #expect((ScheduleSecret.estimatedBits(of: text) >= ScheduleSecret.minimumBits) == strong, "\(text)")
    }

    @Test("Button tags come from a key of their own: no tag is made with the schedule's or the replay guards' key")
    func buttonTagKey() throws {
        let secret = try #require(ScheduleSecret(Self.secretText))
        let engine = BotEngine(configuration: .init(), secret: secret, logger: Logger(label: "test"))
        let message = ChatMessage(
            chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Ann", text: "/forgetme")
        let data = engine.privacy.buttonData(.confirm, for: message)
        let tag = try #require(data.split(separator: "~").last.map(String.init))
        #expect(tag.count == 16 && tag.allSatisfy(\.isHexDigit))
        #expect(tag != secret.tag(for: "forgetme:yes|\(message.chat)|\(message.sender)"), "not the replay guards' key")
        #expect(engine.privacy.verifiedButton(data, pressedIn: message) == .confirm)
        // Another secret's engine neither makes nor accepts it.
        let other = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret(Self.secretText + "!")),
            logger: Logger(label: "test"))
        #expect(other.privacy.verifiedButton(data, pressedIn: message) == nil)
    }
}
