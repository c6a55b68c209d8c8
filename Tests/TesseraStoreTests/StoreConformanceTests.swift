import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraTestSupport
import TesseraTesting
import Testing

#if PostgreSQL
    import TesseraPostgres
#endif

/// What every store promises the engine (``GameStore``), checked on each store the same way: SQLite and
/// PostgreSQL cannot drift apart.
@Suite("Every store behaves the same")
struct StoreConformanceTests {
    static func player(_ id: Int64, _ name: String) -> Player {
        Player(id: UserID(id), displayName: name, language: .english, timeZone: "UTC", rolloverHour: 0)
    }

    /// Players `ids`, named P1, P2…, each on group -1's board from puzzle 1 but `outsider`.
    static func savePlayers(
        _ ids: ClosedRange<Int64>, except outsider: Int64? = nil, in transaction: any GameStoreTransaction
    ) async throws {
        for id in ids {
            try await transaction.save(player(id, "P\(id)"))
            if id != outsider {
                _ = try await transaction.addMember(UserID(id), to: ChatID(-1), joinedPuzzle: PuzzleNumber(1))
            }
        }
    }

    /// The engine whose rules (points, streaks, totals) the stores keep.
    static func engine() throws -> BotEngine {
        BotEngine(
            configuration: EngineConfiguration(), secret: try #require(ScheduleSecret("conformance")),
            logger: Logger(label: "test"))
    }

    /// Players P1 to P4 on group -1's board (P4 joining on puzzle 12), then `plays` (player, puzzle, guesses;
    /// nil for a loss; P2 always in hard mode; each finished half a second into its day) counted by the engine
    /// over `periods` of the puzzle, then P3 leaves the board.
    static func fourMembers(
        playing plays: [(Int64, Int, Int?)], periods: (Int) -> [PeriodKey] = { _ in [.all] },
        in transaction: any GameStoreTransaction
    ) async throws {
        let engine = try engine()
        for id in 1...4 as ClosedRange<Int64> {
            try await transaction.save(player(id, "P\(id)"))
            _ = try await transaction.addMember(
                UserID(id), to: ChatID(-1), joinedPuzzle: PuzzleNumber(id == 4 ? 12 : 1))
        }
        for (id, puzzle, guesses) in plays {
            let result = BoardResult(
                chat: ChatID(-1), puzzle: PuzzleNumber(puzzle), player: UserID(id), language: .english,
                guesses: guesses, hardMode: id == 2,
                finishedAt: Date(timeIntervalSince1970: Double(puzzle) * 86_400 + 0.5))
            #expect(try await engine.count(result, periods: periods(puzzle), store: transaction))
        }
        #expect(try await transaction.removeMember(UserID(3), from: ChatID(-1)))
    }

    static func message(_ chat: Int64, _ text: String) -> OutgoingMessage {
        OutgoingMessage(chat: ChatID(chat), chatKind: chat < 0 ? .group : .direct, html: text)
    }

    @Test(
        "A text comes back as it was written: empty, beyond ASCII, or holding what a statement's placeholders look like",
        arguments: StoreKind.all)
    func textsRoundTrip(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let names = ["", "Zoë 🌵 Ñandú", "who? $1 ?, ?", String(repeating: "é", count: 300)]
            try await store.write { transaction in
                for (index, name) in names.enumerated() {
                    try await transaction.save(Self.player(Int64(index + 1), name))
                }
            }
            let read = try await store.write { transaction in
                var read: [String?] = []
                for index in names.indices {
                    read.append(try await transaction.player(UserID(Int64(index + 1)))?.displayName)
                }
                return read
            }
            #expect(read == names)
        }
    }

    @Test(
        "A batch's effects and position commit together or not at all; one applied already is skipped whole",
        arguments: StoreKind.all)
    func batches(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            struct Interrupted: Error {}
            await #expect(throws: Interrupted.self) {
                try await store.processBatch(transport: "scripted", from: nil, to: "1") { transaction in
                    try await transaction.enqueue([Self.message(1, "lost")])
                    throw Interrupted()
                }
            }
            #expect(try await store.position(of: "scripted") == nil)
            #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).isEmpty)

            let applied = try await store.processBatch(transport: "scripted", from: nil, to: "s72_5") { transaction in
                try await transaction.enqueue([Self.message(1, "once")])
                return "applied"
            }
            #expect(applied == "applied")
            let again = try await store.processBatch(transport: "scripted", from: nil, to: "s72_5") { transaction in
                try await transaction.enqueue([Self.message(1, "twice")])
                return "applied"
            }
            #expect(again == nil, "applied already: nothing runs")
            #expect(try await store.position(of: "scripted") == "s72_5")
            #expect(try await store.position(of: "other") == nil, "positions are per transport")
            #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).map(\.message.html) == ["once"])
        }
    }

    @Test(
        "Fifty groups at their backlog cap leave room for a direct reply in the next pass of the sender",
        arguments: StoreKind.all)
    func directRepliesPastGroupBacklogs(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                for round in 1...30 {
                    try await transaction.enqueue((1...50).map { Self.message(-Int64($0), "group \($0) #\(round)") })
                }
                try await transaction.enqueue([Self.message(7, "your board")])
            }
            let pending = try await store.pendingMessages(limit: 200, now: Date())
            #expect(pending.contains { $0.message.html == "your board" }, "read in the first pass")
            let groups = pending.filter { $0.message.chatKind == .group }
            #expect(groups.count == 200, "the groups' own window is full")
            #expect(Dictionary(grouping: groups, by: \.message.chat).values.allSatisfy { $0.count <= 5 })
            #expect(pending.last?.message.html == "your board", "chats in the order of their oldest message")
        }
    }

    @Test(
        "A player's pasted results come from every group's official board, and nobody else's", arguments: StoreKind.all)
    func officialResults(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let engine = try Self.engine()
            try await store.write { transaction in
                for id in [1, 2] as [Int64] { try await transaction.save(Self.player(id, "P\(id)")) }
                let pastes: [(player: Int64, chat: Int64, board: BoardKind, puzzle: Int, guesses: Int?)] = [
                    (1, -1, .official, 1_981, nil), (1, -1, .official, 1_982, 3), (1, -2, .official, 1_982, 3),
                    (1, -1, .tessera, 326, 4), (2, -1, .official, 1_982, 2),
                ]
                for paste in pastes {
                    _ = try await transaction.addMember(
                        UserID(paste.player), to: ChatID(paste.chat), joinedPuzzle: PuzzleNumber(1))
                    let result = BoardResult(
                        chat: ChatID(paste.chat), board: paste.board, puzzle: PuzzleNumber(paste.puzzle),
                        player: UserID(paste.player), language: .english, guesses: paste.guesses, hardMode: false,
                        finishedAt: Date())
                    #expect(try await engine.count(result, periods: [.all], store: transaction))
                }
            }
            let results = try await store.write { try await $0.officialResults(of: UserID(1)) }
            #expect(
                results.sorted { $0.puzzle < $1.puzzle }
                    == [
                        PlayedGame(puzzle: PuzzleNumber(1_981), result: .lost),
                        PlayedGame(puzzle: PuzzleNumber(1_982), result: .won(guesses: 3)),
                        PlayedGame(puzzle: PuzzleNumber(1_982), result: .won(guesses: 3)),
                    ])
            #expect(try await store.write { try await $0.officialResults(of: UserID(3)) }.isEmpty)
        }
    }

    @Test("A player who follows a group's day is found by that group, and keeps it", arguments: StoreKind.all)
    func followers(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                var ana = Self.player(1, "Ana")
                ana.followsGroup = ChatID(-1)
                try await transaction.save(ana)
                try await transaction.save(Self.player(2, "Ben"))
            }
            try await store.write { transaction in
                #expect(try await transaction.followers(of: ChatID(-1)).map(\.displayName) == ["Ana"])
                #expect(try await transaction.followers(of: ChatID(-2)).isEmpty)
                var ana = try #require(try await transaction.player(UserID(1)))
                #expect(ana.followsGroup == ChatID(-1))
                ana.followsGroup = nil
                try await transaction.save(ana)
                #expect(try await transaction.followers(of: ChatID(-1)).isEmpty)
            }
        }
    }

    @Test(
        "Players are read by their ids at once: only those stored, an account spelled as a number or not",
        arguments: StoreKind.all)
    func playersByID(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await transaction.save(Self.player(1, "Ana"))
                try await transaction.save(Self.player(2, "Ben"))
                var matrix = Player(
                    id: UserID(.matrix, "@cat:example.org"), displayName: "Cat", language: .english, timeZone: "UTC",
                    rolloverHour: 0)
                matrix.namedInNudges = false
                try await transaction.save(matrix)
            }
            try await store.write { transaction in
                let ids = [UserID(2), UserID(3), UserID(.matrix, "@cat:example.org"), UserID(1)]
                let read = try await transaction.players(ids)
                #expect(read.map(\.displayName).sorted() == ["Ana", "Ben", "Cat"], "the unknown one is left out")
                #expect(read.first { $0.displayName == "Cat" }?.namedInNudges == false)
                #expect(try await transaction.players([]).isEmpty)
            }
        }
    }

    @Test(
        "A queued message comes back as queued: its effect, its flags, a member's tag, a board's table, a file",
        arguments: StoreKind.all)
    func queuedMessages(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            var win = OutgoingMessage(
                chat: ChatID(7), chatKind: .direct, html: "Splendid", thread: MessageID(3),
                buttons: [[.copy("Copy", copying: "Tessera 1 2/6").styled(.success)]], atMostOnce: true, silent: true,
                live: "board:en:1", repostsLive: true)
            win.effect = .celebration
            let tag = OutgoingMessage(
                chat: ChatID(-1), chatKind: .group, html: "", atMostOnce: true,
                action: .tagMember(UserID(7), tag: "Champion"))
            let board = OutgoingMessage(
                chat: ChatID(-1), chatKind: .group,
                layout: .board(
                    title: "Week", header: ["#", "Player"],
                    rows: [RichLayout.Row(cells: ["🥇", "Ann"], line: "🥇 Ann — 35 pts"), .note("… and 2 more")],
                    note: "Points"),
                atMostOnce: true, silent: true)
            #expect(board.rich != nil)
            // Every byte value, a quote and a backslash among them: the batch's JSON carries the file as text.
            let export = OutgoingMessage(
                chat: ChatID(7), chatKind: .direct, html: "Your data",
                document: .init(fileName: "tessera-data.json", contents: Array(0...255) + Array("\"\\".utf8)))
            let queued = [win, export, tag, board]
            try await store.write { transaction in try await transaction.enqueue(queued) }
            let pending = try await store.pendingMessages(limit: 10, now: Date())
            #expect(pending.map(\.message) == queued)
        }
    }

    @Test("A message that fails is undone alone: its savepoint, not the batch", arguments: StoreKind.all)
    func savepoints(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            struct Failed: Error {}
            try await store.write { transaction in
                try await transaction.save(Self.player(1, "Ada"))
                let group = Group(
                    chat: ChatID(-5), timeZone: "UTC", rolloverHour: 0, language: .english,
                    lastClosedPuzzle: PuzzleNumber(1))
                let engine = try Self.engine()
                func bobsResult() -> BoardResult {
                    BoardResult(
                        chat: ChatID(-5), puzzle: PuzzleNumber(2), player: UserID(2), language: .english,
                        guesses: 3, hardMode: false, finishedAt: Date(timeIntervalSince1970: 2 * 86_400))
                }
                await #expect(throws: Failed.self) {
                    try await transaction.isolated {
                        try await transaction.save(Self.player(2, "Bob"))
                        try await transaction.enqueue([Self.message(2, "undone")])
                        try await transaction.save(group)
                        _ = try await transaction.addMember(UserID(2), to: ChatID(-5), joinedPuzzle: PuzzleNumber(1))
                        #expect(try await engine.count(bobsResult(), periods: [.all], store: transaction))
                        throw Failed()
                    }
                }
                // A player the undone part stored is unknown again, though the next one stored may take its row id.
                try await transaction.save(Self.player(3, "Cy"))
                await #expect(throws: StoreMisuse.self) {
                    _ = try await engine.count(bobsResult(), periods: [.all], store: transaction)
                }
                // What the undone part created is gone, ids and all: the same group is stored again afresh.
                try await transaction.isolated {
                    try await transaction.enqueue([Self.message(1, "kept")])
                    try await transaction.save(group)
                }
            }
            try await store.write { (transaction) async throws -> Void in
                #expect(try await transaction.player(UserID(1))?.displayName == "Ada")
                #expect(try await transaction.player(UserID(2)) == nil)
                #expect(try await transaction.group(ChatID(-5)) != nil)
            }
            #expect(try await store.pendingMessages(limit: 10, now: .distantFuture).map(\.message.html) == ["kept"])
        }
    }

    @Test(
        "A chat's postponed message holds back the chat's later ones: a board's older version never follows a newer",
        arguments: StoreKind.all)
    func postponedHoldsItsChat(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await transaction.enqueue([Self.message(4, "board 1/6"), Self.message(4, "board 2/6")])
                try await transaction.enqueue([Self.message(5, "other")])
            }
            let now = Date()
            let first = try #require(try await store.pendingMessages(limit: 100, now: now).first)
            #expect(first.message.html == "board 1/6")
            // Its send failed: it waits, and so does what follows it in its chat; other chats do not.
            try await store.postpone(first.id, until: now + 30)
            #expect(try await store.pendingMessages(limit: 100, now: now).map(\.message.html) == ["other"])
            #expect(
                try await store.pendingMessages(limit: 100, now: now + 31).map(\.message.html) == [
                    "board 1/6", "board 2/6", "other",
                ])
        }
    }

    @Test(
        "The outbox: oldest first, a few of each chat, postponed, claimed, sent, and dropped with its chat",
        arguments: StoreKind.all)
    func outbox(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await transaction.enqueue((1...7).map { Self.message(-1, "flood \($0)") })
                try await transaction.enqueue([Self.message(2, "quiet"), Self.message(3, "later")])
            }
            let now = Date()
            var pending = try await store.pendingMessages(limit: 100, now: now)
            #expect(pending.map(\.message.html) == (1...5).map { "flood \($0)" } + ["quiet", "later"])
            #expect(Set(pending.map(\.key)).count == pending.count, "every message has a key of its own")
            #expect(try await store.write { try await $0.pendingCount(in: ChatID(-1)) } == 7)

            let later = try #require(pending.last)
            try await store.postpone(later.id, until: now + 30)
            try await store.claim(pending[5].id)
            try await store.markSent(
                Array(pending.prefix(2).map(\.id)),
                posted: [PostedLiveMessage(chat: ChatID(-1), key: "board", messageID: MessageID(77))])
            pending = try await store.pendingMessages(limit: 100, now: now)
            #expect(pending.map(\.message.html) == (3...7).map { "flood \($0)" }, "claimed and postponed wait")
            #expect(try await store.pendingMessages(limit: 100, now: now + 31).map(\.message.html).last == "later")
            #expect(try await store.recordFailedAttempt(pending[0].id) == 1)
            #expect(try await store.recordFailedAttempt(pending[0].id) == 2)

            #expect(try await store.outboxSize(platform: .scripted) == 7, "claimed and postponed are in the outbox")
            #expect(try await store.outboxSize(platform: .matrix) == 0)
            #expect(try await store.dropClaimed(platform: .scripted) == 1, "a claim that outlived its sender")
            #expect(try await store.outboxSize(platform: .scripted) == 6)
            try await store.write { transaction in
                try await transaction.save(
                    Group(
                        chat: ChatID(-1), timeZone: "UTC", rolloverHour: 0, language: .english,
                        lastClosedPuzzle: PuzzleNumber(1)))
            }
            try await store.deactivateChat(ChatID(-1))
            #expect(try await store.pendingMessages(limit: 100, now: now + 31).map(\.message.html) == ["later"])
            #expect(
                try await store.write { try await $0.activeGroups(on: nil) }.isEmpty, "a group that removed the bot")
            try await store.write { try await $0.noteActivity(in: ChatID(-1)) }
            #expect(
                try await store.write { try await $0.activeGroups(on: nil) }.map(\.chat) == [ChatID(-1)],
                "active again once it writes")
            // Each platform's service closes its own groups' days.
            try await store.write { transaction in
                try await transaction.save(
                    Group(
                        chat: ChatID(.matrix, "!room:example.org"), timeZone: "UTC", rolloverHour: 0,
                        language: .english, lastClosedPuzzle: PuzzleNumber(1)))
            }
            #expect(try await store.write { try await $0.activeGroups(on: .scripted) }.map(\.chat) == [ChatID(-1)])
            #expect(
                try await store.write { try await $0.activeGroups(on: .matrix) }.map(\.chat)
                    == [ChatID(.matrix, "!room:example.org")])
            #expect(try await store.write { try await $0.activeGroups(on: nil) }.count == 2)

            // A live message's platform id comes with the next version of it.
            var board = Self.message(5, "board 1/6")
            board.live = "board"
            let firstVersion = board
            try await store.write { try await $0.enqueue([firstVersion]) }
            let first = try #require(try await store.pendingMessages(limit: 1, now: now, platform: .scripted).first)
            #expect(first.livePost == nil)
            try await store.markSent(
                [first.id], posted: [PostedLiveMessage(chat: ChatID(5), key: "board", messageID: MessageID(9))])
            board.html = "board 2/6"
            let secondVersion = board
            try await store.write { try await $0.enqueue([secondVersion]) }
            #expect(try await store.pendingMessages(limit: 1, now: now).first?.livePost == MessageID(9))
        }
    }

    @Test(
        "/forgetme deletes a player's settings, games, memberships, results and totals, and no one else's",
        arguments: StoreKind.all)
    func forgetting(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let engine = try Self.engine()
            let puzzle = PuzzleNumber(300)
            try await store.write { transaction in
                for (id, name) in [(1, "Ada"), (2, "Bob")] as [(Int64, String)] {
                    var player = Self.player(id, name)
                    player.directChat = ChatID(id)
                    try await transaction.save(player)
                    try await transaction.save(
                        StoredGame(
                            player: UserID(id), language: .english, puzzle: puzzle, hardMode: false,
                            guesses: ["crane"], result: .won(guesses: 1), finishedAt: Date()))
                    #expect(try await transaction.addMember(UserID(id), to: ChatID(-1), joinedPuzzle: puzzle))
                    let result = BoardResult(
                        chat: ChatID(-1), puzzle: puzzle, player: UserID(id), language: .english, guesses: 1,
                        hardMode: false, finishedAt: Date())
                    #expect(
                        try await engine.count(
                            result, periods: [.all, PeriodKey(rawValue: "week:x")], store: transaction))
                }
                try await transaction.guardReplay("key", until: puzzle)
            }
            let forgotten = try await store.write { try await $0.forget(UserID(1)) }
            #expect(forgotten)
            try await store.write { (transaction) async throws -> Void in
                #expect(try await transaction.player(UserID(1)) == nil)
                #expect(try await transaction.data(of: UserID(1)) == nil)
                #expect(try await transaction.forget(UserID(1)) == false, "nothing left to forget")
                #expect(
                    try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all).map(\.name) == [
                        "Bob"
                    ])
                let bob = try #require(try await transaction.data(of: UserID(2)))
                #expect(bob.games.count == 1 && bob.memberships.count == 1 && bob.results.count == 1)
                #expect(bob.memberships.map(\.chat) == [ChatID(-1)] && bob.memberships.map(\.joinedPuzzle) == [puzzle])
                let counted = try #require(bob.results.first)
                #expect(
                    counted.chat == ChatID(-1) && counted.board == .tessera && counted.puzzle == puzzle
                        && counted.player == UserID(2) && counted.language == .english && counted.guesses == 1
                        && !counted.hardMode && counted.streakBefore == 0, "a result exported as it was counted")
                #expect(try await transaction.isReplayGuarded("key"), "the guard is kept by key alone")
                #expect(bob.games.map(\.guesses) == [["crane"]], "the other player's game stays")
                #expect(
                    try await transaction.memberDays(
                        in: ChatID(-1), withoutResultFor: puzzle.next, orOfficial: PuzzleNumber(0)
                    ).map(\.timeZone) == [
                        "UTC"
                    ])
                #expect(
                    try await transaction.dayMembers(in: ChatID(-1), board: .tessera, puzzle: puzzle).map(\.player) == [
                        UserID(2)
                    ])
            }
        }
    }

    @Test(
        "Board totals are the engine's: counted once, read back in standings, results and a member's totals",
        arguments: StoreKind.all)
    func boards(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let engine = try Self.engine()
            try await store.write { transaction in
                try await Self.savePlayers(1...3, in: transaction)
                // P1 wins 10, 11 and 12; P2 wins 10 and loses 11; P3 plays nothing.
                let plays: [(Int64, Int, Int?)] = [(1, 10, 3), (1, 11, 2), (1, 12, 4), (2, 10, 6), (2, 11, nil)]
                for (id, puzzle, guesses) in plays {
                    let result = BoardResult(
                        chat: ChatID(-1), puzzle: PuzzleNumber(puzzle), player: UserID(id), language: .english,
                        guesses: guesses, hardMode: id == 2, finishedAt: Date(timeIntervalSince1970: Double(puzzle)))
                    #expect(try await engine.count(result, periods: [.all], store: transaction))
                    #expect(
                        try await engine.count(result, periods: [.all], store: transaction) == false,
                        "a second result for a puzzle is refused")
                }
            }
            try await store.write { transaction in
                let standings = try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all)
                    .sorted { $0.name < $1.name }
                #expect(standings.map(\.name) == ["P1", "P2", "P3"])
                #expect(standings.map(\.points) == [4 + 5 + 3, 2, 0])
                #expect(standings.map(\.played) == [3, 2, 0])
                #expect(standings.map(\.wins) == [3, 1, 0])
                #expect(standings.map(\.streak) == [3, 0, 0])
                #expect(standings.map(\.lastPuzzle) == [PuzzleNumber(12), PuzzleNumber(11), nil])
                let results = try await transaction.results(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(11))
                #expect(results.map(\.name).sorted() == ["P1", "P2"])
                #expect(results.first { $0.name == "P1" }?.result.streakBefore == 1)
                let totals = try await transaction.totals(
                    of: UserID(1), in: ChatID(-1), board: .tessera, periods: [.all, PeriodKey(rawValue: "week:none")])
                #expect(Array(totals.keys) == [.all])
                #expect(totals[.all]?.winningGuesses == 9)
                let outcomes = try await transaction.outcomes(
                    of: UserID(2), in: ChatID(-1), board: .tessera, through: PuzzleNumber(12))
                #expect(outcomes.map(\.puzzle) == [PuzzleNumber(11), PuzzleNumber(10)])
                #expect(outcomes.map(\.won) == [false, true])
                #expect(try await transaction.standing(of: UserID(1), in: ChatID(-1), board: .official) == nil)
                // One player's result, member or not: what a paste of the same puzzle is checked against.
                let lost = try await transaction.result(
                    of: UserID(2), in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(11))
                #expect(
                    lost?.guesses == nil && lost?.hardMode == true && lost?.streakBefore == 1,
                    "\(String(describing: lost))")
                #expect(lost?.chat == ChatID(-1) && lost?.finishedAt == Date(timeIntervalSince1970: 11))
                #expect(try await transaction.removeMember(UserID(2), from: ChatID(-1)))
                #expect(
                    try await transaction.result(
                        of: UserID(2), in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(11))
                        == lost, "the result stays after its player leaves")
                for (id, board, puzzle) in [(3, BoardKind.tessera, 11), (1, .official, 11), (1, .tessera, 13)] {
                    #expect(
                        try await transaction.result(
                            of: UserID(Int64(id)), in: ChatID(-1), board: board, puzzle: PuzzleNumber(puzzle)) == nil)
                }
            }
        }
    }

    @Test(
        "A period's board: every member, with nothing where they have no total, the latest streak, and who left with the days they played",
        arguments: StoreKind.all)
    func periodBoards(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                // Week a is puzzles 10 and 11, week b is 12 and 13. P1 wins every day; P2 wins 10 and loses 12.
                try await Self.fourMembers(
                    playing: [(1, 10, 3), (1, 11, 2), (1, 12, 4), (1, 13, 1), (2, 10, 6), (2, 12, nil), (3, 11, 5)],
                    periods: { [.all, PeriodKey(rawValue: $0 < 12 ? "a" : "b")] }, in: transaction)
            }
            try await store.write { transaction in
                let week = try await transaction.standings(
                    in: ChatID(-1), board: .tessera, period: PeriodKey(rawValue: "b")
                )
                .sorted { $0.name < $1.name }
                #expect(week.map(\.name) == ["P1", "P2", "P4"], "everyone on the board, and only they")
                #expect(week.map(\.points) == [3 + 6, 0, 0])
                #expect(week.map(\.played) == [2, 1, 0])
                #expect(week.map(\.wins) == [2, 0, 0])
                #expect(week.map(\.winningGuesses) == [5, 0, 0])
                #expect(week.map(\.streak) == [4, 0, 0], "the streak of the latest result, whichever week")
                #expect(week.map(\.lastPuzzle) == [PuzzleNumber(13), PuzzleNumber(12), nil])
                #expect(week.map(\.joinedPuzzle) == [PuzzleNumber(1), PuzzleNumber(1), PuzzleNumber(12)])
                let earlier = try await transaction.standings(
                    in: ChatID(-1), board: .tessera, period: PeriodKey(rawValue: "a")
                )
                .sorted { $0.name < $1.name }
                // P3 played 11 and left: the week keeps the day, marked as no longer a member's.
                #expect(earlier.map(\.name) == ["P1", "P2", "P3", "P4"])
                #expect(earlier.map(\.points) == [4 + 5, 1 + 1, 2, 0])
                #expect(earlier.map(\.streak) == [4, 0, 1, 0], "the latest streak, not the week's")
                #expect(earlier.map(\.isMember) == [true, true, false, true])
                #expect(week.allSatisfy { $0.isMember }, "a week they did not play in does not list them")
                #expect(
                    try await transaction.standings(in: ChatID(-1), board: .official, period: PeriodKey(rawValue: "b"))
                        .map(\.points) == [
                            0, 0, 0,
                        ])

                let day = try await transaction.results(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(12))
                    .sorted { $0.name < $1.name }
                #expect(day.map(\.name) == ["P1", "P2"])
                #expect(day.map(\.result.player) == [UserID(1), UserID(2)])
                #expect(day.map(\.result.guesses) == [4, nil])
                #expect(day.map(\.result.hardMode) == [false, true])
                #expect(day.map(\.result.streakBefore) == [2, 0], "P2 missed 11")
                #expect(day.map(\.result.language) == [.english, .english])
                let finished: Double = 12 * 86_400 + 0.5
                #expect(day.map(\.result.finishedAt.timeIntervalSince1970) == [finished, finished])
                #expect(
                    try await transaction.results(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(11))
                        .map(\.name) == ["P1"], "not of one who left")
                #expect(
                    try await transaction.results(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(14)).isEmpty)
                #expect(
                    try await transaction.results(in: ChatID(-2), board: .tessera, puzzle: PuzzleNumber(12)).isEmpty)
            }
        }
    }

    @Test(
        "A player comes back as saved, every preference included, and a cleared one stays cleared",
        arguments: StoreKind.all)
    func players(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let player = Player(
                id: UserID(7), displayName: "Lucía", language: .spanish, playingLanguage: .english,
                timeZone: "Europe/Madrid", rolloverHour: 6, pendingTimeZone: "America/New_York",
                pendingFrom: PuzzleNumber(12), prefersHardMode: true, reminders: true,
                remindedPuzzle: PuzzleNumber(11), namedInNudges: false, messageEffects: false, directChat: ChatID(7))
            for saved in [player, cleared(player)] {
                try await store.write { transaction in try await transaction.save(saved) }
                #expect(try await store.write { transaction in try await transaction.player(UserID(7)) } == saved)
            }
            func cleared(_ player: Player) -> Player {
                var player = player
                player.playingLanguage = nil
                player.pendingTimeZone = nil
                player.pendingFrom = nil
                return player
            }
        }
    }

    @Test(
        "The rest of the store's calls behave alike: a player's groups, reminders, replay guards, a moved chat, a retry",
        arguments: StoreKind.all)
    func remainingCalls(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                for id in 1...2 as ClosedRange<Int64> { try await transaction.save(Self.player(id, "P\(id)")) }
                var reminded = Self.player(3, "P3")
                reminded.reminders = true
                try await transaction.save(reminded)
                for chat in [-1, -2] as [Int64] {
                    try await transaction.save(
                        Group(
                            chat: ChatID(chat), timeZone: "UTC", rolloverHour: 0, language: .english,
                            lastClosedPuzzle: PuzzleNumber(1)))
                }
                for (player, chat) in [(1, -1), (1, -2), (2, -1)] as [(Int64, Int64)] {
                    _ = try await transaction.addMember(UserID(player), to: ChatID(chat), joinedPuzzle: PuzzleNumber(2))
                }
            }
            try await store.write { transaction in
                #expect(Set(try await transaction.groups(of: UserID(1)).map(\.chat)) == [ChatID(-1), ChatID(-2)])
                #expect(try await transaction.groups(of: UserID(3)).isEmpty)
                #expect(try await transaction.playersWithReminders().map(\.id) == [UserID(3)])
                try await transaction.guardReplay("old", until: PuzzleNumber(5))
                try await transaction.guardReplay("new", until: PuzzleNumber(9))
                try await transaction.removeReplayGuards(before: PuzzleNumber(6))
                #expect(try await transaction.isReplayGuarded("old") == false)
                #expect(try await transaction.isReplayGuarded("new"))
                // A group that became a supergroup keeps its members under its new id.
                try await transaction.moveChat(from: ChatID(-2), to: ChatID(-1002))
                #expect(
                    try await transaction.memberDays(
                        in: ChatID(-2), withoutResultFor: PuzzleNumber(2), orOfficial: PuzzleNumber(0)
                    )
                    .isEmpty)
                #expect(
                    try await transaction.memberDays(
                        in: ChatID(-1002), withoutResultFor: PuzzleNumber(2), orOfficial: PuzzleNumber(0)
                    ).count == 1)
            }
            // A message whose sending failed is pending again once unclaimed.
            try await store.write { try await $0.enqueue([Self.message(5, "retry me")]) }
            let pending = { try await store.pendingMessages(limit: 10, now: .distantFuture, platform: nil) }
            let entry = try #require(try await pending().first)
            try await store.claim(entry.id)
            #expect(try await pending().isEmpty)
            try await store.unclaim(entry.id)
            #expect(try await pending().map(\.id) == [entry.id])
        }
    }

    @Test(
        "Records (crowns, ties shared; best streak) over days on one board and group, crowns of some players, first results",
        arguments: StoreKind.all)
    func records(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let engine = try Self.engine()
            try await store.write { transaction in
                for id in 1...4 as ClosedRange<Int64> {
                    try await transaction.save(Self.player(id, "P\(id)"))
                    _ = try await transaction.addMember(UserID(id), to: ChatID(-1), joinedPuzzle: PuzzleNumber(1))
                }
                _ = try await transaction.addMember(UserID(1), to: ChatID(-2), joinedPuzzle: PuzzleNumber(1))
                // Puzzle 1: P1 and P2 tie in 3. Puzzle 2: P2 in 2, P3 loses. Puzzle 3: only losses. Puzzle 4: P3.
                let days: [(Int64, Int, Int?)] = [
                    (1, 1, 3), (2, 1, 3), (3, 1, 5), (2, 2, 2), (1, 2, 4), (3, 2, nil), (1, 3, nil), (3, 4, 1),
                ]
                for (player, puzzle, guesses) in days {
                    let result = BoardResult(
                        chat: ChatID(-1), puzzle: PuzzleNumber(puzzle), player: UserID(player), language: .english,
                        guesses: guesses, hardMode: false, finishedAt: Date())
                    // All time's totals carry the streak each result starts from.
                    #expect(try await engine.count(result, periods: [.all], store: transaction))
                }
                // Another group's and another board's results are not this board's.
                for (chat, board) in [(ChatID(-2), BoardKind.tessera), (ChatID(-1), .official)] {
                    let elsewhere = BoardResult(
                        chat: chat, board: board, puzzle: PuzzleNumber(2), player: UserID(1), language: .english,
                        guesses: 1, hardMode: false, finishedAt: Date())
                    #expect(try await engine.count(elsewhere, periods: [], store: transaction))
                }
            }
            let read = { (chat: Int64, first: Int, last: Int) in
                try await store.write { transaction in
                    try await transaction.records(
                        in: ChatID(chat), board: .tessera, from: PuzzleNumber(first), through: PuzzleNumber(last))
                }
            }
            let record = { (crowns: Int, bestStreak: Int) in BoardRecord(crowns: crowns, bestStreak: bestStreak) }
            #expect(
                try await read(-1, 1, 3) == [UserID(1): record(1, 2), UserID(2): record(2, 2), UserID(3): record(0, 1)])
            #expect(
                try await read(-1, 1, 4) == [UserID(1): record(1, 2), UserID(2): record(2, 2), UserID(3): record(1, 1)])
            #expect(
                try await read(-1, 3, 3) == [UserID(1): record(0, 0)],
                "a day nobody won has no crown, and a loss no streak")
            #expect(
                try await read(-1, 2, 2) == [
                    UserID(1): record(0, 2), UserID(2): record(1, 2), UserID(3): record(0, 0),
                ],
                "a streak counts the wins before the first day")
            #expect(try await read(-9, 1, 4) == [:], "a group the store has never seen")
            // The crowns of the lines a board shows: the same counts, for the players asked about only.
            let crowns = { (players: [Int64], first: Int, last: Int) in
                try await store.write { transaction in
                    try await transaction.crowns(
                        of: players.map(UserID.init), in: ChatID(-1), board: .tessera, from: PuzzleNumber(first),
                        through: PuzzleNumber(last))
                }
            }
            #expect(try await crowns([1, 2, 3, 4], 1, 4) == [UserID(1): 1, UserID(2): 2, UserID(3): 1])
            #expect(try await crowns([2, 4], 1, 4) == [UserID(2): 2], "only those asked about, with a crown")
            #expect(try await crowns([1, 2, 3], 3, 3) == [:], "a day nobody won has no crown")
            #expect(try await crowns([], 1, 4) == [:])
            // The other boards' first results of a day, each with its count, in one read.
            try await store.write { transaction in
                for (player, minutes) in [(1, 61), (2, 41), (3, 41), (4, nil)] as [(Int64, Int?)] {
                    let mini = BoardResult(
                        chat: ChatID(-1), board: .mini, puzzle: PuzzleNumber(9), player: UserID(player),
                        language: .english, guesses: minutes, hardMode: false,
                        finishedAt: Date(timeIntervalSince1970: Double(100 - player)))
                    _ = try await engine.count(mini, periods: [], store: transaction)
                }
            }
            let first = try await store.write { transaction in
                try await transaction.firstResults(
                    in: ChatID(-1),
                    of: [
                        BoardDay(.mini, PuzzleNumber(9)), BoardDay(.strands, PuzzleNumber(9)),
                        BoardDay(.tessera, PuzzleNumber(2)),
                    ],
                    limit: 2)
            }
            let mini = first[.mini].map { ($0.count, $0.results.map(\.result.player).sorted { $0.value < $1.value }) }
            #expect(mini?.0 == 4 && mini?.1 == [UserID(2), UserID(3)], "fewest first, ties by the finish: \(first)")
            #expect(first[.strands] == nil)
            #expect(first[.tessera]?.count == 3 && first[.tessera]?.results.count == 2)
        }
    }

    @Test("A member's new name and day show on every board they are on at once", arguments: StoreKind.all)
    func renamedMembers(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let engine = try Self.engine()
            try await store.write { transaction in
                for (id, chat) in [(1, -1), (1, -2), (2, -1)] as [(Int64, Int64)] {
                    try await transaction.save(Self.player(id, "P\(id)"))
                    _ = try await transaction.addMember(UserID(id), to: ChatID(chat), joinedPuzzle: PuzzleNumber(1))
                }
                let result = BoardResult(
                    chat: ChatID(-1), puzzle: PuzzleNumber(3), player: UserID(1), language: .english, guesses: 4,
                    hardMode: false, finishedAt: Date())
                #expect(try await engine.count(result, periods: [.all], store: transaction))
                // P2 pasted the original game's puzzle 1,000 in the first group.
                let pasted = BoardResult(
                    chat: ChatID(-1), board: .official, puzzle: PuzzleNumber(1000), player: UserID(2),
                    language: .english, guesses: 3, hardMode: false, finishedAt: Date())
                #expect(try await engine.count(pasted, periods: [.all], store: transaction))
                try await transaction.save(
                    StoredGame(
                        player: UserID(1), language: .english, puzzle: PuzzleNumber(4), hardMode: false,
                        guesses: ["crane"]))
            }
            try await store.write { transaction in
                var renamed = try #require(try await transaction.player(UserID(1)))
                renamed.displayName = "Ada"
                renamed.timeZone = "Asia/Tokyo"
                renamed.rolloverHour = 5
                // A zone change still pending travels with the member too: their day may end on either zone.
                renamed.pendingTimeZone = "America/Los_Angeles"
                renamed.pendingFrom = PuzzleNumber(5)
                try await transaction.save(renamed)
                for chat in [ChatID(-1), ChatID(-2)] {
                    let names = try await transaction.standings(in: chat, board: .tessera, period: .all).map(\.name)
                    #expect(names.contains("Ada") && !names.contains("P1"))
                    let days = { (puzzle: Int, official: Int) in
                        try await transaction.memberDays(
                            in: chat, withoutResultFor: PuzzleNumber(puzzle), orOfficial: PuzzleNumber(official)
                        ).map {
                            "\($0.timeZone) \($0.rolloverHour) \($0.pendingTimeZone ?? "-") \($0.pendingFrom?.rawValue ?? 0)"
                        }.sorted()
                    }
                    // P2's paste of the same date's Wordle there: done with the day too.
                    #expect(try await days(4, 1000) == ["Asia/Tokyo 5 America/Los_Angeles 5"])
                    #expect(
                        try await days(4, 999)
                            == (chat == ChatID(-1)
                                ? ["Asia/Tokyo 5 America/Los_Angeles 5", "UTC 0 - 0"]
                                : ["Asia/Tokyo 5 America/Los_Angeles 5"]))
                    // Ada's result for puzzle 3 on the first group's board: her day no longer holds its word there.
                    #expect(
                        try await days(3, 999)
                            == (chat == ChatID(-1) ? ["UTC 0 - 0"] : ["Asia/Tokyo 5 America/Los_Angeles 5"]))
                    let day = try await transaction.dayMembers(in: chat, board: .tessera, puzzle: PuzzleNumber(3))
                        .first { $0.player == UserID(1) }
                    #expect(day?.name == "Ada")
                    #expect(
                        day?.day
                            == MemberDay(
                                timeZone: "Asia/Tokyo", rolloverHour: 5, pendingTimeZone: "America/Los_Angeles",
                                pendingFrom: PuzzleNumber(5)))
                }
                #expect(
                    try await transaction.results(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(3)).map(\.name)
                        == ["Ada"])
                #expect(
                    try await transaction.unfinished(in: ChatID(-1), language: .english, puzzle: PuzzleNumber(4)).map(
                        \.name)
                        == ["Ada"])
            }
        }
    }

    @Test(
        "A closed day for its summary: every member, their result of the day if any, and their all-time streak",
        arguments: StoreKind.all)
    func closedDays(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                // P1 wins 10 and 11; P2 wins 10 and loses 11.
                try await Self.fourMembers(
                    playing: [(1, 10, 3), (1, 11, 2), (2, 10, 6), (2, 11, nil), (3, 11, 5)], in: transaction)
                var tokyo = try #require(try await transaction.player(UserID(2)))
                tokyo.timeZone = "Asia/Tokyo"
                tokyo.rolloverHour = 5
                try await transaction.save(tokyo)
            }
            try await store.write { transaction in
                let day = try await transaction.dayMembers(in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(11))
                    .sorted { $0.name < $1.name }
                #expect(day.map(\.name) == ["P1", "P2", "P4"], "the members, and only they")
                #expect(day.map(\.player) == [UserID(1), UserID(2), UserID(4)])
                #expect(day.map(\.joinedPuzzle) == [PuzzleNumber(1), PuzzleNumber(1), PuzzleNumber(12)])
                #expect(day.map { "\($0.day.timeZone) \($0.day.rolloverHour)" } == ["UTC 0", "Asia/Tokyo 5", "UTC 0"])
                #expect(day.allSatisfy { $0.day.pendingTimeZone == nil })
                #expect(day.map(\.result?.guesses) == [2, nil, nil])
                #expect(day.map { $0.result == nil } == [false, false, true])
                #expect(day.map(\.result?.hardMode) == [false, true, nil])
                #expect(day.map(\.result?.streakBefore) == [1, 1, nil])
                #expect(day.map(\.result?.puzzle) == [PuzzleNumber(11), PuzzleNumber(11), nil])
                let finished: Double = 11 * 86_400 + 0.5
                #expect(day.compactMap(\.result?.finishedAt.timeIntervalSince1970) == [finished, finished])
                #expect(day.map(\.streak) == [2, 0, 0])
                #expect(day.map(\.lastPuzzle) == [PuzzleNumber(11), PuzzleNumber(11), nil])
                let earlier = try await transaction.dayMembers(
                    in: ChatID(-1), board: .tessera, puzzle: PuzzleNumber(9))
                #expect(earlier.count == 3 && earlier.allSatisfy { $0.result == nil })
                #expect(
                    try await transaction.dayMembers(in: ChatID(-9), board: .tessera, puzzle: PuzzleNumber(11))
                        .isEmpty)
            }
        }
    }

    @Test(
        "Who of a group played a puzzle in a language: members with guesses in it, not others", arguments: StoreKind.all
    )
    func membersPlayingALanguage(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await Self.savePlayers(1...5, except: 5, in: transaction)
                // P1 won in Spanish, P2 is one guess in, P3 opened it without guessing, P4 played English and
                // another day's Spanish, P5 played Spanish but is not a member.
                let games: [(Int64, Language, Int, [String], GameResult?)] = [
                    (1, .spanish, 5, ["perro"], .won(guesses: 1)), (2, .spanish, 5, ["gatos"], nil),
                    (3, .spanish, 5, [], nil), (4, .english, 5, ["crane"], nil), (4, .spanish, 6, ["perro"], nil),
                    (5, .spanish, 5, ["perro"], nil),
                ]
                for (id, language, puzzle, guesses, result) in games {
                    try await transaction.save(
                        StoredGame(
                            player: UserID(id), language: language, puzzle: PuzzleNumber(puzzle), hardMode: false,
                            guesses: guesses, result: result, finishedAt: result == nil ? nil : Date()))
                }
            }
            try await store.write { transaction in
                let spanish = try await transaction.members(in: ChatID(-1), playing: .spanish, puzzle: PuzzleNumber(5))
                #expect(spanish == [UserID(1), UserID(2)])
                #expect(
                    try await transaction.members(in: ChatID(-2), playing: .spanish, puzzle: PuzzleNumber(5)).isEmpty,
                    "an unknown chat")
            }
        }
    }

    @Test("Games still being played in a group: its members', with their guesses so far", arguments: StoreKind.all)
    func unfinishedGames(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await Self.savePlayers(1...4, except: 4, in: transaction)
                #expect(
                    try await transaction.unfinished(in: ChatID(-1), language: .english, puzzle: PuzzleNumber(5))
                        .isEmpty)
                // P1 is two guesses in, P2 has won, P3 opened the puzzle without guessing, P4 is not a member.
                let games: [(Int64, [String], GameResult?)] = [
                    (1, ["crane", "slate"], nil), (2, ["crane"], .won(guesses: 1)), (3, [], nil), (4, ["crane"], nil),
                ]
                for (id, guesses, result) in games {
                    try await transaction.save(
                        StoredGame(
                            player: UserID(id), language: .english, puzzle: PuzzleNumber(5), hardMode: false,
                            guesses: guesses, result: result, finishedAt: result == nil ? nil : Date()))
                }
            }
            try await store.write { transaction in
                let playing = try await transaction.unfinished(
                    in: ChatID(-1), language: .english, puzzle: PuzzleNumber(5))
                #expect(playing.map(\.name) == ["P1"])
                #expect(playing.map(\.guesses) == [2])
            }
        }
    }

    @Test(
        "Misuse is refused alike by every store, writing nothing: a stranger's game, a member of another platform",
        arguments: StoreKind.all)
    func misuse(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let game = StoredGame(player: UserID(1), language: .english, puzzle: PuzzleNumber(1), hardMode: false)
            await #expect {
                try await store.write { try await $0.save(game) }
            } throws: { error in
                guard case .unknownPlayer(UserID(1)) = error as? StoreMisuse else { return false }
                return "\(error)".contains("This is a bug")
            }
            let matrix = UserID(.matrix, "@ada:example.org")
            await #expect {
                try await store.write { transaction in
                    try await transaction.save(
                        Player(id: matrix, displayName: "Ada", language: .english, timeZone: "UTC", rolloverHour: 0))
                    _ = try await transaction.addMember(matrix, to: ChatID(-1), joinedPuzzle: PuzzleNumber(1))
                }
            } throws: { error in
                guard case .memberOfAnotherPlatform = error as? StoreMisuse else { return false }
                return true
            }
            try await store.write { (transaction) async throws -> Void in
                #expect(try await transaction.player(matrix) == nil, "the whole transaction is undone")
                #expect(try await transaction.standings(in: ChatID(-1), board: .tessera, period: .all).isEmpty)
            }
        }
    }

    @Test(
        "Opening a database again changes nothing: migrations run once, and what was stored stays",
        arguments: StoreKind.all.filter { $0 != .sqliteInMemory })
    func reopening(_ kind: StoreKind) async throws {
        try await kind.withDatabase { database in
            try await database.open { store in
                #expect(try await store.setting("first", keepingIfAbsent: "one") == "one")
                #expect(try await store.setting("first", keepingIfAbsent: "two") == "one", "the first value kept stays")
                try await store.setSetting("kept", "yes")
                try await store.write { try await $0.save(Self.player(1, "Ada")) }
            }
            let (kept, name) = try await database.open { store in
                (try await store.setting("kept"), try await store.write { try await $0.player(UserID(1)) }?.displayName)
            }
            #expect(kept == "yes" && name == "Ada")
        }
    }

    @Test(
        "Analyses: asked for once a game is finished, waiting ones shown-first then oldest, stored once, forgotten with the player",
        arguments: StoreKind.all)
    func analyses(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let matrixPlayer = UserID(.matrix, "@ana:example.org")
            try await store.write { transaction in
                try await transaction.save(Self.player(1, "P1"))
                try await transaction.save(
                    Player(id: matrixPlayer, displayName: "Ana", language: .english, timeZone: "UTC", rolloverHour: 0))
                for (player, puzzle) in [(UserID(1), 10), (UserID(1), 11), (UserID(1), 12), (matrixPlayer, 10)] {
                    try await transaction.save(
                        StoredGame(
                            player: player, language: .english, puzzle: PuzzleNumber(puzzle), hardMode: puzzle == 11,
                            guesses: ["crane", "slate"], result: .won(guesses: 2),
                            finishedAt: Date(timeIntervalSince1970: Double(puzzle) * 86_400)))
                }
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .english, puzzle: PuzzleNumber(10)) == nil)
                for puzzle in [12, 10, 11] {
                    try await transaction.requestAnalysis(
                        of: UserID(1), language: .english, puzzle: PuzzleNumber(puzzle), show: puzzle == 12)
                }
                try await transaction.requestAnalysis(
                    of: matrixPlayer, language: .english, puzzle: PuzzleNumber(10), show: false)
                // Asking again never takes back a wish to see it; no game, nothing to ask for.
                try await transaction.requestAnalysis(
                    of: UserID(1), language: .english, puzzle: PuzzleNumber(12), show: false)
                try await transaction.requestAnalysis(
                    of: UserID(1), language: .spanish, puzzle: PuzzleNumber(12), show: true)
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .spanish, puzzle: PuzzleNumber(12)) == nil)
            }
            try await store.write { transaction in
                let waiting = try await transaction.pendingAnalyses(on: .scripted, limit: 10)
                try #require(waiting.map(\.puzzle.rawValue) == [12, 10, 11], "the one a player waits for first")
                #expect(
                    waiting[2].hardMode && waiting[2].guesses == ["crane", "slate"] && waiting[2].player == UserID(1))
                #expect(try await transaction.pendingAnalyses(on: .scripted, limit: 1).count == 1)
                #expect(try await transaction.pendingAnalyses(on: nil, limit: 10).count == 4)
                #expect(try await transaction.pendingAnalyses(on: .matrix, limit: 10).map(\.player) == [matrixPlayer])
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .english, puzzle: PuzzleNumber(12))
                        == .pending(show: true))

                #expect(
                    try await transaction.saveAnalysis(
                        #"{"skill":1}"#, of: UserID(1), language: .english, puzzle: PuzzleNumber(12)))
                #expect(
                    try await !transaction.saveAnalysis(
                        #"{"skill":2}"#, of: UserID(1), language: .english, puzzle: PuzzleNumber(12)), "once")
                #expect(
                    try await !transaction.saveAnalysis(
                        nil, of: UserID(1), language: .english, puzzle: PuzzleNumber(11)))
                #expect(
                    try await !transaction.saveAnalysis(
                        "{}", of: UserID(1), language: .english, puzzle: PuzzleNumber(13)))
                #expect(
                    try await transaction.saveAnalysis(
                        #"{"skill":3}"#, of: UserID(1), language: .english, puzzle: PuzzleNumber(10)) == false)
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .english, puzzle: PuzzleNumber(12))
                        == .done(json: #"{"skill":1}"#))
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .english, puzzle: PuzzleNumber(11))
                        == .unavailable)
                // Asking for a stored one changes nothing.
                try await transaction.requestAnalysis(
                    of: UserID(1), language: .english, puzzle: PuzzleNumber(12), show: true)
                #expect(
                    try await transaction.analysis(of: UserID(1), language: .english, puzzle: PuzzleNumber(12))
                        == .done(json: #"{"skill":1}"#))
                #expect(try await transaction.pendingAnalyses(on: .scripted, limit: 10).isEmpty)

                #expect(
                    try await transaction.recentAnalyses(of: UserID(1), language: .english, limit: 5)
                        == [#"{"skill":1}"#, #"{"skill":3}"#], "newest puzzle first, unavailable left out")
                #expect(try await transaction.recentAnalyses(of: UserID(1), language: .english, limit: 1).count == 1)
                #expect(
                    try await transaction.analyses(
                        of: [UserID(1), matrixPlayer, UserID(9)], language: .english, puzzle: PuzzleNumber(10))
                        == [UserID(1): #"{"skill":3}"#], "only stored ones")
                #expect(try await transaction.forget(UserID(1)))
                #expect(try await transaction.recentAnalyses(of: UserID(1), language: .english, limit: 5).isEmpty)
                #expect(try await transaction.pendingAnalyses(on: nil, limit: 10).map(\.player) == [matrixPlayer])
            }
        }
    }

    @Test(
        "A read is a snapshot beside the writer: it sees what was committed, runs while a write is open, and changes nothing",
        arguments: StoreKind.all)
    func readsBesideTheWriter(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.write { transaction in
                try await transaction.save(Self.player(1, "P1"))
                try await transaction.save(
                    StoredGame(
                        player: UserID(1), language: .english, puzzle: PuzzleNumber(5), hardMode: false,
                        guesses: ["cigar"], result: .won(guesses: 1), finishedAt: Date(timeIntervalSince1970: 60)))
                try await transaction.requestAnalysis(
                    of: UserID(1), language: .english, puzzle: PuzzleNumber(5), show: false)
                _ = try await transaction.saveAnalysis("{}", of: UserID(1), language: .english, puzzle: PuzzleNumber(5))
            }
            let read = try await store.read { transaction in
                (try await transaction.data(of: UserID(1))?.games.count, try await transaction.analyses(of: UserID(1)))
            }
            #expect(read.0 == 1)
            #expect(read.1 == [DailyGameKey(language: .english, puzzle: PuzzleNumber(5)): "{}"])
            await #expect(throws: (any Error).self, "a read changes nothing") {
                try await store.read { try await $0.save(Self.player(2, "P2")) }
            }
            #expect(try await store.write { try await $0.player(UserID(2)) } == nil)
            // In a file or on a server, a read does not wait for a write held open (in memory there is one
            // connection, taken in turn).
            guard kind != .sqliteInMemory else { return }
            let (opened, open) = AsyncStream.makeStream(of: Void.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            async let writing: Void = store.write { transaction in
                try await transaction.save(Self.player(3, "P3"))
                open.yield()
                for await _ in released { break }
            }
            for await _ in opened { break }
            let seen = try await store.read { try await $0.player(UserID(3)) }
            #expect(seen == nil, "the open write is not seen, and did not hold the read up")
            release.yield()
            try await writing
            #expect(try await store.read { try await $0.player(UserID(3)) } != nil)
        }
    }

    @Test(
        "Practice games: kept apart, the latest, counted since an instant, analysed like daily games, forgotten",
        arguments: StoreKind.all)
    func practiceGames(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let matrixPlayer = UserID(.matrix, "@ana:example.org")
            @Sendable func game(_ player: UserID, _ number: Int, kind: PracticeGame.Kind = .practice) -> PracticeGame {
                PracticeGame(
                    player: player, number: number, kind: kind, language: number == 2 ? .spanish : .english,
                    answer: "cigar", hardMode: number == 3, guesses: ["crane", "cigar"], result: .won(guesses: 2),
                    startedAt: Date(timeIntervalSince1970: Double(number) * 3_600),
                    finishedAt: Date(timeIntervalSince1970: Double(number) * 3_600 + 60), hasFocus: number == 3)
            }
            try await store.write { transaction in
                var player = Self.player(1, "P1")
                player.practiceInPlay = true
                try await transaction.save(player)
                #expect(try await transaction.player(UserID(1))?.practiceInPlay == true)
                try await transaction.save(
                    Player(id: matrixPlayer, displayName: "Ana", language: .english, timeZone: "UTC", rolloverHour: 0))
                #expect(try await transaction.player(matrixPlayer)?.practiceInPlay == false)
                #expect(try await transaction.latestPracticeGame(of: UserID(1)) == nil)
                for number in [1, 2] { try await transaction.save(game(UserID(1), number)) }
                try await transaction.save(game(UserID(1), 3, kind: .archive(PuzzleNumber(312))))
                try await transaction.save(game(matrixPlayer, 1))
                var open = PracticeGame(
                    player: UserID(1), number: 4, kind: .practice, language: .english, answer: "cigar",
                    hardMode: false, startedAt: Date(timeIntervalSince1970: 4 * 3_600))
                try await transaction.save(open)
                open.guesses = ["crane"]
                open.result = .lost
                open.abandoned = true
                open.hasFocus = false
                open.finishedAt = Date(timeIntervalSince1970: 5 * 3_600)
                try await transaction.save(open)
                #expect(try await transaction.latestPracticeGame(of: UserID(1)) == open)
                // Given up before any guess: not counted at all.
                var empty = PracticeGame(
                    player: UserID(1), number: 5, kind: .practice, language: .english, answer: "cigar",
                    hardMode: false, startedAt: Date(timeIntervalSince1970: 6 * 3_600))
                empty.result = .lost
                empty.abandoned = true
                empty.hasFocus = false
                try await transaction.save(empty)
                #expect(
                    try await transaction.data(of: UserID(1))?.practiceGames
                        == [
                            game(UserID(1), 1), game(UserID(1), 2),
                            game(UserID(1), 3, kind: .archive(PuzzleNumber(312))), open, empty,
                        ])
                #expect(try await transaction.practiceGame(of: UserID(1), number: 4) == open)
                #expect(try await transaction.practiceGame(of: UserID(1), number: 6) == nil)
                // Read as counts: games 1 and 3 won in 2, game 4 given up after a guess, game 5 before any (not
                // counted); game 2 is Spanish; game 3 is puzzle 312's.
                #expect(
                    try await transaction.practiceResults(of: UserID(1), language: .english)
                        == PracticeResults(finished: [.won(guesses: 2): 2], givenUp: 1))
                #expect(
                    try await transaction.practiceResults(of: UserID(1), language: .spanish)
                        == PracticeResults(finished: [.won(guesses: 2): 1]))
                #expect(
                    try await transaction.archiveResults(of: UserID(1), language: .english) == [
                        PuzzleNumber(312): .won(guesses: 2)
                    ])
                #expect(try await transaction.archiveResults(of: UserID(1), language: .spanish).isEmpty)
                // Games started a day, counted under one-way keys.
                #expect(try await transaction.practiceStarts("day-a") == 0)
                try await transaction.countPracticeStart("day-a", until: PuzzleNumber(5))
                try await transaction.countPracticeStart("day-a", until: PuzzleNumber(5))
                try await transaction.countPracticeStart("day-b", until: PuzzleNumber(6))
                #expect(try await transaction.practiceStarts("day-a") == 2)
                #expect(try await transaction.finishedGames(of: UserID(1), language: .english).isEmpty, "apart")

                // Analyses, as for daily games: shown-first then oldest, stored once, newest first.
                #expect(try await transaction.practiceAnalysis(of: UserID(1), number: 1) == nil)
                for number in [3, 1, 2] {
                    try await transaction.requestPracticeAnalysis(of: UserID(1), number: number, show: number == 3)
                }
                try await transaction.requestPracticeAnalysis(of: matrixPlayer, number: 1, show: false)
                try await transaction.requestPracticeAnalysis(of: UserID(1), number: 3, show: false)
                try await transaction.requestPracticeAnalysis(of: UserID(1), number: 9, show: true)
                let waiting = try await transaction.pendingPracticeAnalyses(on: .scripted, limit: 10)
                #expect(waiting.map(\.number) == [3, 1, 2])
                #expect(waiting.first == game(UserID(1), 3, kind: .archive(PuzzleNumber(312))))
                #expect(
                    try await transaction.pendingPracticeAnalyses(on: .matrix, limit: 10).map(\.player) == [
                        matrixPlayer
                    ])
                #expect(try await transaction.pendingPracticeAnalyses(on: nil, limit: 2).count == 2)
                #expect(try await transaction.pendingAnalyses(on: nil, limit: 10).isEmpty, "no daily game waits")
                #expect(try await transaction.practiceAnalysis(of: UserID(1), number: 3) == .pending(show: true))

                #expect(try await transaction.savePracticeAnalysis(#"{"skill":1}"#, of: UserID(1), number: 3))
                #expect(try await !transaction.savePracticeAnalysis(#"{"skill":2}"#, of: UserID(1), number: 3), "once")
                #expect(try await !transaction.savePracticeAnalysis(#"{"skill":3}"#, of: UserID(1), number: 1))
                #expect(try await !transaction.savePracticeAnalysis(nil, of: UserID(1), number: 2))
                #expect(try await !transaction.savePracticeAnalysis("{}", of: UserID(1), number: 4), "none asked")
                #expect(
                    try await transaction.practiceAnalysis(of: UserID(1), number: 3) == .done(json: #"{"skill":1}"#))
                #expect(try await transaction.practiceAnalysis(of: UserID(1), number: 2) == .unavailable)
                #expect(try await transaction.practiceAnalysis(of: UserID(1), number: 4) == nil)
                #expect(
                    try await transaction.recentPracticeAnalyses(of: UserID(1), language: .english, limit: 5)
                        == [#"{"skill":1}"#, #"{"skill":3}"#], "newest first, other languages and unavailable left out")
                #expect(
                    try await transaction.recentPracticeAnalyses(of: UserID(1), language: .english, limit: 1).count == 1
                )
                #expect(try await transaction.recentAnalyses(of: UserID(1), language: .english, limit: 5).isEmpty)
                #expect(
                    try await transaction.practiceAnalyses(of: UserID(1)) == [3: #"{"skill":1}"#, 1: #"{"skill":3}"#],
                    "only those done")
                #expect(try await transaction.analyses(of: UserID(1)).isEmpty)

                #expect(try await transaction.forget(UserID(1)))
                #expect(try await transaction.data(of: UserID(1)) == nil)
                #expect(try await transaction.practiceStarts("day-a") == 2, "forgetting keeps the keyed counts")
                try await transaction.removeReplayGuards(before: PuzzleNumber(6))
                #expect(try await transaction.practiceStarts("day-a") == 0, "gone once its day closed everywhere")
                #expect(try await transaction.practiceStarts("day-b") == 1)
                #expect(try await transaction.practiceResults(of: UserID(1), language: .english).isEmpty)
                #expect(try await transaction.data(of: matrixPlayer)?.practiceGames.count == 1)
                #expect(
                    try await transaction.pendingPracticeAnalyses(on: nil, limit: 10).map(\.player) == [matrixPlayer])
            }
        }
    }
}
