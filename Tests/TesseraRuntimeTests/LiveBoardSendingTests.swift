import Foundation
import Logging
import ServiceLifecycle
import TesseraCore
import TesseraEngine
import TesseraRuntime
import TesseraSQLite
import TesseraTesting
import Testing

/// What the sender does with live boards: edits a game's one message in place, posts it anew when an edit is
/// refused or a re-post is asked for, and deletes guesses typed in groups where it may.
/// Three minutes a test, not one: alone each takes under a second, but in the whole suite on two cores it waits
/// its turn behind the engine's tests (which run on both batch paths) and took 75–87 s from its start.
@Suite("Sending live boards")
struct LiveBoardSendingTests {
    @Test("A six-guess game is one board message and five edits; a refused edit posts it anew", .timeLimit(.minutes(3)))
    func oneMessagePerGame() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock)
        let store = try SQLiteGameStore.inMemory()
        let secret = try #require(ScheduleSecret("live board secret"))
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let service = BotRuntime(
            store: store, configuration: .onManualClock, clock: clock, now: { clock.date }, jitter: { 1 }, logger: quiet
        )
        .serviceGroup(platforms: [(transport, BotEngine(configuration: .init(), secret: secret, logger: quiet))])
        let list = Language.english.wordList
        let puzzle = DailySchedule.tessera.puzzle(at: clock.date, rollover: .utc)
        let answer = list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: puzzle)).lowercased()
        let wrong = list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(5)
        try await withRunningBot(service) {
            var position: Int64 = 1
            func guess(_ word: String) async {
                // A second between guesses, as a person types: within the chat's rate limit.
                clock.advance(by: .seconds(1))
                transport.push(
                    ReceivedBatch(
                        messages: [
                            ChatMessage(
                                chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Eve", text: word,
                                messageID: MessageID(position))
                        ], nextPosition: String(position + 1)))
                position += 1
            }
            for (index, word) in wrong.enumerated() {
                await guess(word)
                if index == 0 {
                    try await transport.events.wait(for: "send(5)")
                } else {
                    try await transport.events.wait(for: "edit(5)", count: index)
                }
            }
            await guess(answer)
            try await transport.events.wait(for: "edit(5)", count: 5)
            #expect(transport.sent.count == 1, "one message for the whole game")
            #expect(transport.edits.count == 5 && Set(transport.edits.map(\.post)) == [transport.postIDs[0]])
            #expect(transport.edits.last?.message.html.contains("Solved in 6/6") == true)

            // The board message is gone (deleted by the player): the next version is posted anew and edited after.
            transport.fail(.edit, with: .editRefused("Bad Request: message to edit not found"), times: 1)
            transport.push(
                ReceivedBatch(
                    messages: [
                        ChatMessage(
                            chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Eve", text: "/hard",
                            messageID: MessageID(position)
                        ).readingCommands(),
                        ChatMessage(
                            chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Eve", text: "/board",
                            messageID: MessageID(position + 1)
                        ).readingCommands(),
                    ], nextPosition: String(position + 2)))
            clock.advance(by: .seconds(1))
            try await transport.events.wait(for: "send(5)", count: 2)
            clock.advance(by: .seconds(1))
            try await transport.events.wait(for: "send(5)", count: 3)
            #expect(transport.sent.last?.live == "board:en:\(puzzle)" && transport.postIDs.count == 3)
        }
    }

    @Test(
        "A re-posted board is sent even with a newer version queued, and later guesses edit it after a failure",
        .timeLimit(.minutes(3)))
    func repostSurvivesFailure() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock)
        let secret = try #require(ScheduleSecret("live board secret"))
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.rateLimits[.scripted] = .unlimited
        configuration.initialBackoff = .zero
        configuration.maximumBackoff = .zero
        let service = BotRuntime(
            store: try SQLiteGameStore.inMemory(), configuration: configuration, clock: clock, now: { clock.date },
            jitter: { 1 }, logger: quiet
        ).serviceGroup(platforms: [(transport, BotEngine(configuration: .init(), secret: secret, logger: quiet))])
        let list = Language.english.wordList
        let answer = list.display(
            AnswerSchedule(wordList: list, secret: secret).answer(
                for: DailySchedule.tessera.puzzle(at: clock.date, rollover: .utc))
        ).lowercased()
        let words = Array(list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(2))
        func message(_ text: String, _ id: Int64) -> ChatMessage {
            ChatMessage(
                chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Eve", text: text,
                messageID: MessageID(id)
            )
            .readingCommands()
        }
        try await withRunningBot(service) {
            transport.push(ReceivedBatch(messages: [message(words[0], 1)], nextPosition: "2"))
            try await transport.events.wait(for: "send(5)")
            // Asked again, then a guess, in one batch: the re-post's send fails once, so both wait for the next pass.
            transport.fail(.send, chat: ChatID(5), with: .transient("timed out"), times: 1)
            transport.push(ReceivedBatch(messages: [message("/board", 2), message(words[1], 3)], nextPosition: "4"))
            try await transport.events.wait(for: "send failed(5)")
            clock.advance(by: .seconds(1))
            try await transport.events.wait(for: "edit(5)")
            #expect(transport.sent.count == 2, "the first board, and the re-post")
            #expect(transport.edits.map(\.post) == [transport.postIDs[1]], "the guess edits the re-posted board")
            #expect(transport.edits.last?.message.html.contains("· 2/6") == true)
        }
    }

    @Test(
        "A board's first post is sent under its own key even with newer versions queued; they edit it",
        .timeLimit(.minutes(3)))
    func firstPostIsNotSkipped() async throws {
        // As after a crash between a post and its record: three versions queued, none known to be posted. The
        // first may be on the platform already; sent again under its key, Matrix answers with that message.
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock)
        let store = try SQLiteGameStore.inMemory()
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.rateLimits[.scripted] = .unlimited
        try await store.write { transaction in
            try await transaction.enqueue(
                (1...3).map {
                    OutgoingMessage(chat: ChatID(5), chatKind: .direct, html: "board \($0)", live: "board:en:330")
                })
        }
        let first = try #require(try await store.pendingMessages(limit: 10, now: .distantFuture).first)
        let engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret("first post")), logger: quiet)
        let service = BotRuntime(
            store: store, configuration: configuration, clock: clock, now: { clock.date }, jitter: { 1 }, logger: quiet
        ).serviceGroup(platforms: [(transport, engine)])
        try await withRunningBot(service) {
            // A poll that moves the position on rings the sender, as any received batch does.
            transport.push(ReceivedBatch(messages: [], nextPosition: "2"))
            try await transport.events.wait(for: "send(5)")
            try #require(transport.sent.map(\.html) == ["board 1"], "the first version is posted, not skipped")
            #expect(transport.attemptKeys == [first.key])
            try await transport.events.wait(for: "edit(5)")
            #expect(
                transport.edits.map(\.post) == [transport.postIDs[0]] && transport.edits.last?.message.html == "board 3"
            )
        }
    }

    @Test(
        "The service asks whether the bot may delete before a revealing /guess, and deletes it where it may",
        .timeLimit(.minutes(3)))
    func serviceAsksBeforeDeleting() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(clock: clock)
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var configuration = BotRuntime.Configuration.onManualClock
        configuration.rateLimits[.scripted] = .unlimited
        let engine = BotEngine(
            configuration: .init(), secret: try #require(ScheduleSecret("delete secret")), logger: quiet)
        let service = BotRuntime(
            store: try SQLiteGameStore.inMemory(), configuration: configuration, clock: clock, now: { clock.date },
            jitter: { 1 }, logger: quiet
        ).serviceGroup(platforms: [(transport, engine)])
        transport.allowDeleting(in: ChatID(-8))
        func guess(in group: Int64, _ id: Int64) -> ChatMessage {
            ChatMessage(
                chat: ChatID(group), chatKind: .group, sender: UserID(5), senderName: "Eve", text: "/guess crane",
                messageID: MessageID(id)
            ).readingCommands()
        }
        transport.push(ReceivedBatch(messages: [guess(in: -8, 1), guess(in: -9, 2)], nextPosition: "3"))
        try await withRunningBot(service) {
            try await transport.events.wait(for: "send(-8)", count: 2)
            try await transport.events.wait(for: "send(-9)")
            #expect(transport.sent.filter { $0.chat == ChatID(-8) }.map(\.action) == [.delete, .post])
            #expect(transport.sent.filter { $0.chat == ChatID(-9) }.map(\.action) == [.post], "no right, no deletion")
        }
    }
    @Test(
        "A picture the platform refuses: its text goes alone at once, once, with one warning, and the next picture is tried again",
        .timeLimit(.minutes(3)))
    func refusedPicture() async throws {
        let clock = ManualClock()
        var traits = PlatformTraits.scripted
        traits.pictures = true
        let transport = ScriptedTransport(traits: traits, clock: clock)
        var configuration = EngineConfiguration()
        configuration.platform = traits
        let store = try SQLiteGameStore.inMemory()
        let secret = try #require(ScheduleSecret("live board secret"))
        let logs = LogRecorder()
        let logger = logs.logger()
        let service = BotRuntime(
            store: store, configuration: .onManualClock, clock: clock, now: { clock.date }, jitter: { 1 },
            logger: logger
        )
        .serviceGroup(platforms: [(transport, BotEngine(configuration: configuration, secret: secret, logger: logger))])
        let list = Language.english.wordList
        let puzzle = DailySchedule.tessera.puzzle(at: clock.date, rollover: .utc)
        let answer = list.display(AnswerSchedule(wordList: list, secret: secret).answer(for: puzzle)).lowercased()
        try await withRunningBot(service) {
            func say(_ text: String, _ number: Int64) {
                transport.push(
                    ReceivedBatch(
                        messages: [
                            ChatMessage(
                                chat: ChatID(5), chatKind: .direct, sender: UserID(5), senderName: "Eve", text: text,
                                messageID: MessageID(number)
                            ).readingCommands()
                        ], nextPosition: String(number + 1)))
            }
            say(answer, 1)
            try await transport.events.wait(for: "send(5)")
            // The card waits its turn in the chat's rate limit; then the platform refuses its picture.
            transport.fail(.send, with: .pictureRefused("Bad Request: PHOTO_INVALID_DIMENSIONS"), times: 1)
            clock.advance(by: .seconds(1))
            try await transport.events.wait(for: "send(5)", count: 2)
            say("/stats", 2)
            clock.advance(by: .seconds(1))
            try await transport.events.wait(for: "send(5)", count: 3)
            // The board, the card's caption without its picture, then the chart with its picture: tried again.
            #expect(transport.sent.map { $0.picture != nil } == [false, false, true])
            #expect(transport.sent[1].html.hasPrefix("Tessera \(puzzle.grouped) 1/6"))
            #expect(
                transport.attempts.filter { $0.html == transport.sent[1].html }.map { $0.picture != nil }
                    == [true, false], "the card, then its text")
            #expect(logs.lines.filter { $0.level == .warning && $0.message.contains("refused a picture") }.count == 1)
        }
    }
}
