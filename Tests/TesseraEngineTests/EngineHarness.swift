import Foundation
import Logging
import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraTesting
import Testing

/// A bot engine on an in-memory SQLite store, driven like a chat: send a message, read the replies.
///
/// Each message is applied as the daemon applies a batch (``BotEngine/apply(_:from:after:loadingAhead:at:to:)``),
/// on the path of the test's ``EnginePath``: every test of a suite with ``Trait/onBothPaths`` runs once on each.
struct EngineHarness {
    static let secretText = "engine test secret"
    let store: any GameStore
    let engine: BotEngine
    let path: EnginePath
    /// 2026-11-22 12:00 UTC: puzzle 326.
    var now = Date(timeIntervalSince1970: 1_795_348_800)

    init(configure: (inout EngineConfiguration) -> Void = { _ in }) throws {
        var configuration = EngineConfiguration()
        configure(&configuration)
        guard let path = EnginePath.current else { throw EnginePath.NotChosen() }
        self.path = path
        store = try TestStore.make()
        engine = BotEngine(
            configuration: configuration,
            secret: try #require(ScheduleSecret(Self.secretText)),
            logger: Logger(label: "test")
        )
    }

    private init(store: any GameStore, engine: BotEngine, path: EnginePath, now: Date) {
        self.store = store
        self.engine = engine
        self.path = path
        self.now = now
    }

    /// A new engine on this harness's store, as after a restart; `configure` sets it up.
    func restarted(configure: (inout EngineConfiguration) -> Void = { _ in }) throws -> EngineHarness {
        var configuration = EngineConfiguration()
        configure(&configuration)
        let engine = BotEngine(
            configuration: configuration, secret: try #require(ScheduleSecret(Self.secretText)),
            logger: Logger(label: "test"))
        return EngineHarness(store: store, engine: engine, path: path, now: now)
    }

    /// Monday 2026-11-16 12:00 UTC: puzzle 320, the start of the week many tests play.
    static let monday = Date(timeIntervalSince1970: 1_795_348_800 - 6 * 86_400)

    var puzzle: PuzzleNumber { DailySchedule.tessera.puzzle(at: now, rollover: .utc) }

    func answer(_ language: Language = .english, puzzle: PuzzleNumber? = nil) throws -> String {
        let list = language.wordList
        let schedule = AnswerSchedule(wordList: list, secret: try #require(ScheduleSecret(Self.secretText)))
        return list.display(schedule.answer(for: puzzle ?? self.puzzle)).lowercased()
    }

    /// A group set up earlier with these settings (a change made now would wait for the next puzzle).
    func group(_ chat: Int64, timeZone: String = "UTC", rolloverHour: Int = 0, language: Language = .english)
        async throws
    {
        func group(closed: PuzzleNumber) -> Group {
            Group(
                chat: ChatID(chat), timeZone: timeZone, rolloverHour: rolloverHour, language: language,
                lastClosedPuzzle: closed)
        }
        let setUp = group(closed: group(closed: PuzzleNumber(0)).puzzleToClose(at: now, schedule: .tessera))
        try await store.write { try await $0.save(setUp) }
    }

    /// Moves a day on and closes the days due then, as the daemon does every few seconds; what closing posts is
    /// taken as sent, so that the next message's replies are its own.
    mutating func nextDay() async throws {
        now += 86_400
        let (engine, now) = (self.engine, self.now)
        _ = try await store.write { try await engine.closeDays(at: now, in: $0) }
        try await store.markSent(try await store.pendingMessages(limit: 100, now: now).map(\.id))
    }

    /// Works out the analyses waiting, as the runtime's analysis service does, each off the cooperative pool;
    /// what that posts is taken as sent and returned.
    func analyseWaitingGames(analyst: GameAnalyst = GameAnalyst()) async throws -> [OutgoingMessage] {
        let (engine, now) = (self.engine, self.now)
        let jobs = try await store.write { try await engine.analysisJobs(on: nil, limit: 100, in: $0) }
        for job in jobs {
            let outcome = try await offThePool { engine.analyse(job, kept: nil, with: analyst) }
            _ = try await store.write { try await engine.finish(job, outcome, in: $0) }
        }
        let pending = try await store.pendingMessages(limit: 100, now: now)
        try await store.markSent(pending.map(\.id))
        return pending.map(\.message)
    }

    /// An allowed word that is not today's answer.
    func wrongWord() throws -> String {
        try answer() == "crane" ? "slate" : "crane"
    }

    /// Applies messages as one batch, as the daemon does, on this harness's ``path``; their replies stay queued.
    func apply(_ messages: [ChatMessage]) async throws {
        let now = self.now
        let position = try await store.position(of: "test")
        let batch = ReceivedBatch(messages: messages, nextPosition: String((position.flatMap { Int($0) } ?? 0) + 1))
        let outcomes = try await engine.apply(
            batch, from: "test", after: position, loadingAhead: path == .loadedAtOnce, at: { now }, to: store)
        if outcomes?.contains(where: \.givenUp) != false { throw EnginePath.GaveUp(path: path) }
    }

    @discardableResult
    func send(
        _ text: String,
        from user: Int64 = 1,
        name: String = "Alice",
        in chat: Int64? = nil,
        group: Bool = false,
        admin: Bool? = nil,
        botMayDelete: Bool? = nil,
        topic: Int64? = nil,
        edited: Bool = false,
        button: String? = nil,
        appLanguage: String? = nil,
        event: ChatEvent? = nil
    ) async throws -> [OutgoingMessage] {
        var message = ChatMessage(
            chat: ChatID(chat ?? user),
            chatKind: group ? .group : .direct,
            sender: UserID(user),
            senderName: name,
            text: text,
            messageID: MessageID(7),
            thread: topic.map(MessageID.init),
            senderIsAdministrator: admin,
            isEdited: edited,
            button: button,
            senderLanguage: appLanguage,
            event: event
        )
        message.botMayDeleteMessages = botMayDelete
        try await apply([message.readingCommands()])
        let pending = try await store.pendingMessages(limit: 100, now: now)
        try await store.markSent(pending.map(\.id))
        // As the runtime's sender does: a player's data is gathered at sending, in a read-only snapshot.
        var sent: [OutgoingMessage] = []
        for message in pending.map(\.message) {
            guard case .postPlayerData = message.action else {
                sent.append(message)
                continue
            }
            let (store, engine) = (self.store, self.engine)
            if let gathered = try await store.read({ try await engine.gatherPlayerData(message, at: now, in: $0) }) {
                sent.append(gathered)
            }
        }
        return sent
    }

    func text(
        _ text: String, from user: Int64 = 1, name: String = "Alice", in chat: Int64? = nil, group: Bool = false,
        admin: Bool? = nil, edited: Bool = false, button: String? = nil, appLanguage: String? = nil
    ) async throws -> String {
        try await send(
            text, from: user, name: name, in: chat, group: group, admin: admin, edited: edited, button: button,
            appLanguage: appLanguage
        ).map(\.html)
            .joined(separator: "\n---\n")
    }

    /// Plays the day's puzzle to the end in a direct chat: `misses` wrong guesses, then the answer (or six
    /// wrong guesses when `misses` is 6).
    func play(_ user: Int64, name: String, misses: Int, language: Language = .english) async throws {
        let answer = try self.answer(language)
        let list = language.wordList
        let wrong = list.answers.lazy.map { list.letters($0) }.filter { $0 != answer }.prefix(misses)
        for word in wrong { try await send(word, from: user, name: name) }
        if misses < 6 { try await send(answer, from: user, name: name) }
    }
}

/// The two ways the daemon applies a batch's messages, each run by every engine test (``Trait/onBothPaths``).
enum EnginePath: String, CaseIterable, Sendable {
    /// What the messages read loaded at once and what they change written at once: every batch's way.
    case loadedAtOnce = "loaded at once"
    /// Each message on the store in a savepoint: a batch whose chats moved, or whose writing at once failed.
    case oneAtATime = "one at a time"

    @TaskLocal static var current: EnginePath?

    struct NotChosen: Error, CustomStringConvertible {
        var description: String {
            "An EngineHarness runs on both batch paths: give the test's suite the trait .onBothPaths"
        }
    }

    struct GaveUp: Error, CustomStringConvertible {
        let path: EnginePath
        var description: String { "The engine gave up on the message (\(path.rawValue)); its error is in the log" }
    }
}

/// Runs each test of a suite twice, once on each ``EnginePath``: one body, both paths.
struct OnBothPaths: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> OnBothPaths? { test.isSuite ? nil : self }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        for path in EnginePath.allCases {
            try await EnginePath.$current.withValue(path) { try await function() }
        }
    }
}

extension Trait where Self == OnBothPaths {
    /// Each test runs on both of the daemon's batch paths (``EnginePath``).
    static var onBothPaths: Self { OnBothPaths() }
}
