import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraSQLite
import TesseraTestSupport
import TesseraTesting
import Testing

#if PostgreSQL
    import TesseraPostgres
#endif

/// A batch read and written at once (``BatchWork``) does what handling its messages one by one does, on every store.
@Suite("Batches read and written at once")
struct BatchTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let secret = ScheduleSecret("batch tests secret 0b7c41d2")!
    static let engine = BotEngine(
        configuration: EngineConfiguration(), secret: secret, logger: Logger(label: "test"))

    /// A word of a language's list that is not the day's answer anywhere.
    static func wrongWord(_ language: Language, _ place: Int = 0) -> String {
        let list = language.wordList
        let schedule = AnswerSchedule(wordList: list, secret: secret)
        let today = DailySchedule.tessera.puzzle(at: now, rollover: .utc).rawValue
        let answers = Set((today - 3...today + 3).map { schedule.answer(for: PuzzleNumber($0)) })
        return list.letters(list.answers.filter { !answers.contains($0) }[place])
    }

    static func message(
        _ text: String, from user: Int64, name: String, in chat: Int64? = nil, language: String? = nil
    ) -> ChatMessage {
        ChatMessage(
            chat: ChatID(chat ?? user), chatKind: chat == nil ? .direct : .group, sender: UserID(user),
            senderName: name, text: text, messageID: MessageID(7), senderIsAdministrator: chat == nil ? nil : true,
            senderLanguage: language
        ).readingCommands()
    }

    /// Days of a family: players in English and Spanish, two groups, guesses (one a player's second in the same
    /// batch, a game finished on a group's board), words that are no guess, commands that read far more than a
    /// batch loads (`/stats`, `/leaderboard`, `/settings`), and a group joined in the middle of the batch.
    static func batches() -> [[ChatMessage]] {
        let (english, spanish) = (Language.english, Language.spanish)
        var first: [ChatMessage] = [
            message("/join", from: 1, name: "Ann", in: -10),
            message("/join", from: 2, name: "Ben", in: -10),
            message("/settings language es", from: 3, name: "Cat", in: -20),
            message("/join", from: 3, name: "Cat", in: -20),
            message("/start", from: 4, name: "Dan", language: "es"),
        ]
        for user in Int64(10)..<Int64(40) {
            first.append(message(wrongWord(english, Int(user) % 5), from: user, name: "P\(user)"))
        }
        var second: [ChatMessage] = [
            message(wrongWord(english, 0), from: 1, name: "Ann"),
            message(wrongWord(english, 1), from: 1, name: "Ann"),
            message("qqqqq", from: 2, name: "Ben"),
            message(wrongWord(spanish, 0), from: 4, name: "Dan", language: "es"),
            message("/stats", from: 10, name: "P10"),
            message("/leaderboard", from: 2, name: "Ben", in: -10),
            message(wrongWord(english, 2), from: 2, name: "Ben"),
            message("/join", from: 11, name: "P11", in: -10),
            message("/hard on", from: 12, name: "P12"),
        ]
        // Ann loses her game: counted on her group's board, its analysis asked for.
        for place in 2..<6 { second.append(message(wrongWord(english, place), from: 1, name: "Ann")) }
        for user in Int64(10)..<Int64(40) {
            second.append(message(wrongWord(english, 5 + Int(user) % 5), from: user, name: "P\(user)"))
        }
        second.append(message("/leaderboard", from: 1, name: "Ann", in: -10))
        return [first, second]
    }

    /// Applies a batch as the receive service does: loaded and written at once, or each message on the store.
    static func apply(_ messages: [ChatMessage], to store: any GameStore, position: Int, atOnce: Bool) async throws {
        let outcomes = try await engine.apply(
            ReceivedBatch(messages: messages, nextPosition: String(position + 1)), from: "test",
            after: position == 0 ? nil : String(position), loadingAhead: atOnce, at: { now }, to: store)
        #expect(outcomes?.count { !$0.givenUp } == messages.count)
    }

    /// What a family sees and what is stored after the batches: every queued reply, in order, and each player's
    /// record and games.
    static func outcome(of store: any GameStore) async throws -> [String] {
        var seen = try await store.pendingMessages(limit: 1000, now: now).map {
            "\($0.message.chat) \($0.message.html) \($0.message.buttons.flatMap { $0 }.map(\.text))"
        }
        seen += try await store.read { transaction in
            var stored: [String] = []
            for user in [1, 2, 3, 4] + Array(10..<40) {
                let player = try await transaction.player(UserID(Int64(user)))
                stored.append("\(String(describing: player))")
                for language in Language.allCases {
                    let puzzle = DailySchedule.tessera.puzzle(at: now, rollover: .utc)
                    let game = try await transaction.game(of: UserID(Int64(user)), language: language, puzzle: puzzle)
                    stored.append("\(String(describing: game))")
                    let analysis = try await transaction.analysis(
                        of: UserID(Int64(user)), language: language, puzzle: puzzle)
                    stored.append("\(String(describing: analysis))")
                }
            }
            for chat in [-10, -20] {
                stored.append("\(String(describing: try await transaction.group(ChatID(Int64(chat)))))")
            }
            return stored
        }
        return seen
    }

    @Test("A batch loaded and written at once leaves what its messages one by one leave", arguments: StoreKind.all)
    func sameAsOneByOne(_ kind: StoreKind) async throws {
        var outcomes: [[String]] = []
        for atOnce in [true, false] {
            outcomes.append(
                try await kind.withStore { store in
                    for (position, batch) in Self.batches().enumerated() {
                        try await Self.apply(batch, to: store, position: position, atOnce: atOnce)
                    }
                    return try await Self.outcome(of: store)
                })
        }
        #expect(outcomes[0].count > 100)
        #expect(outcomes[0] == outcomes[1])
        // The batch did what a family expects: Ann's lost game is on her group's board and waits for its analysis.
        #expect(outcomes[0].contains { $0.contains("pending(show: false)") })
        #expect(outcomes[0].contains { $0.hasPrefix("scripted:-10") && $0.contains("Ann") })
    }

    @Test("A message the batch cannot answer from what it loaded sees what the messages before it changed")
    func storeSeesEarlierChanges() async throws {
        let store = try SQLiteGameStore.inMemory()
        // Ann guesses, asks for her statistics (finished games: more than the batch loads), and guesses again: the
        // first guess is written before `/stats` runs on the store, and the second builds on it.
        let batch = [
            Self.message(Self.wrongWord(.english, 0), from: 1, name: "Ann"),
            Self.message("/stats", from: 1, name: "Ann"),
            Self.message(Self.wrongWord(.english, 1), from: 1, name: "Ann"),
        ]
        try await Self.apply(batch, to: store, position: 0, atOnce: true)
        let game = try await store.read {
            try await $0.game(
                of: UserID(1), language: .english, puzzle: DailySchedule.tessera.puzzle(at: Self.now, rollover: .utc))
        }
        #expect(game?.guesses == [Self.wrongWord(.english, 0), Self.wrongWord(.english, 1)])
        let replies = try await store.pendingMessages(limit: 10, now: Self.now).map(\.message.html)
        #expect(replies.count == 3)
    }

    @Test(
        "One read of a batch finds what a read at a time finds: players, games in two languages, groups, replies, guards",
        arguments: StoreKind.all)
    func loadIsEachRead(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            for (position, batch) in Self.batches().enumerated() {
                try await Self.apply(batch, to: store, position: position, atOnce: false)
            }
            let puzzle = DailySchedule.tessera.puzzle(at: Self.now, rollover: .utc)
            try await store.write { transaction in
                try await transaction.guardReplay("replay-key", until: puzzle)
                var needs = BatchNeeds()
                needs.players = Set(([1, 2, 3, 4, 5] + Array(10..<40)).map { UserID(Int64($0)) })
                needs.puzzles = PuzzleNumber(puzzle.rawValue - 1)...PuzzleNumber(puzzle.rawValue + 1)
                needs.groups = [ChatID(-10), ChatID(-20), ChatID(-30)]
                needs.pendingCounts = [ChatID(1), ChatID(10), ChatID(-10), ChatID(99)]
                needs.replayKeys = ["replay-key", "another key"]
                let values = try await transaction.load(needs)
                #expect(values.players.count == 34, "player 5 was never seen")
                for id in needs.players {
                    #expect(values.players[id] == (try await transaction.player(id)))
                    #expect(
                        values.memberships[id].map(Set.init) == Set(try await transaction.groups(of: id).map(\.chat)))
                    for language in Language.allCases {
                        for number in needs.puzzles!.lowerBound.rawValue...needs.puzzles!.upperBound.rawValue {
                            let key = GameKey(player: id, language: language, puzzle: PuzzleNumber(number))
                            #expect(
                                values.games[key]
                                    == (try await transaction.game(of: id, language: language, puzzle: key.puzzle)))
                        }
                    }
                }
                #expect(values.games.count > 30)
                #expect(values.games.keys.contains { $0.language == .spanish })
                for chat in needs.groups { #expect(values.groups[chat] == (try await transaction.group(chat))) }
                #expect(values.groups.count == 2)
                for chat in needs.pendingCounts {
                    #expect(values.pendingCounts[chat, default: 0] == (try await transaction.pendingCount(in: chat)))
                }
                #expect(values.pendingCounts[ChatID(1), default: 0] > 0)
                #expect(values.replayGuarded == ["replay-key"])
            }
        }
    }

    @Test(
        "A batch's write the database refuses fails as such (BatchWriteFailure) and writes nothing of it",
        arguments: StoreKind.all)
    func refusedWrite(_ kind: StoreKind) async throws {
        try await kind.withStore { store async throws in
            // A game of a player never stored: a bug's write, which no store takes.
            let game = StoredGame(
                player: UserID(999), language: .english, puzzle: PuzzleNumber(300), hardMode: false, guesses: ["crane"])
            var changes = BatchChanges()
            changes.games[game.key] = game
            changes.messages = [OutgoingMessage(chat: ChatID(1), chatKind: .direct, html: "never queued")]
            let refused = changes
            await #expect(throws: BatchWriteFailure.self) { try await store.write { try await $0.apply(refused) } }
            #expect(try await store.pendingMessages(limit: 10, now: Self.now).isEmpty)
        }
    }

    #if PostgreSQL
        @Test(
            "A batch of 50 guesses costs at most 6 round trips on PostgreSQL: new players or not, games ended on boards",
            .enabled(if: !PostgreSQLServer.isSkipped))
        func roundTrips() async throws {
            try await StoreKind.postgres.withStore { store in
                let postgres = try #require(store as? PostgresGameStore)
                for (position, round) in [0, 1, 2].enumerated() {
                    let batch = (Int64(100)..<Int64(150)).map {
                        Self.message(Self.wrongWord(.english, round), from: $0, name: "P\($0)")
                    }
                    let before = postgres.statementsSent
                    try await Self.apply(batch, to: store, position: position, atOnce: true)
                    #expect(postgres.statementsSent - before <= 6)
                    #expect(postgres.statementsSent - before >= 4)
                }
                #expect(try await store.pendingMessages(limit: 200, now: Self.now).count == 150)
                // Fifty members of a group play their six guesses: the sixth ends each game, counted on the group's
                // board in the same write.
                let members = Int64(200)..<Int64(250)
                try await Self.apply(
                    members.map { Self.message("/join", from: $0, name: "M\($0)", in: -50) }, to: store, position: 3,
                    atOnce: true)
                for round in 0..<6 {
                    let batch = members.map { Self.message(Self.wrongWord(.english, round), from: $0, name: "M\($0)") }
                    let before = postgres.statementsSent
                    try await Self.apply(batch, to: store, position: 4 + round, atOnce: true)
                    #expect(postgres.statementsSent - before <= 6, "guess \(round + 1)")
                }
                let standings = try await store.read {
                    try await $0.standings(in: ChatID(-50), board: .tessera, period: .all)
                }
                #expect(standings.count == 50 && standings.allSatisfy { $0.played == 1 && $0.points == 0 })
            }
        }
    #endif
}
