public import Foundation
public import TesseraCore

/// What the engine needs from storage, inside one transaction: everything one update reads and changes,
/// committed together with the replies it queues (and, by the caller, the transport's position), or not at all.
/// Its roles are apart, each in one protocol: what one message reads and changes of its own, play, analyses,
/// groups and their boards, players' own data, and batches.
///
/// Every call is `async`, so a store whose database answers over the network can implement it; a store's
/// blocking work still runs on its own threads, never on the cooperative pool.
public protocol GameStoreTransaction: MessageStorage, PlayStorage, AnalysisStorage, GroupStorage,
    PlayerDataStorage, BatchStorage
{}

extension GameStoreTransaction {
    public var whole: any GameStoreTransaction { self }
    public var reads: any StoreReads { self }
}

/// Everything stored that a feature reads beyond its message's own values, and nothing it could write: the
/// read-only slices of the store, each in one protocol.
public typealias StoreReads = BoardReads & HistoryReads & AnalysisReads & PlayerDataReads

/// What one message reads of its own: its sender and their games of the open puzzles, the group it comes from
/// and the sender's groups with their totals there, its replay keys and its chat's backlog. A batch loads these
/// for all its messages at once (``BatchWork``). This is what a feature sees of the store (``Turn``): reads,
/// never writes; anything else it reads is its slice of ``StoreReads`` (``Feature/Reads``).
public protocol MessageReads: Sendable {
    func player(_ id: UserID) async throws -> Player?
    func game(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredGame?
    /// Whether a forgotten player's game is remembered under this key (``PlayerDataStorage/guardReplay(_:until:)``).
    func isReplayGuarded(_ key: String) async throws -> Bool
    func group(_ chat: ChatID) async throws -> Group?
    /// The groups whose board a player is on.
    func groups(of player: UserID) async throws -> [Group]
    /// A member's totals on a board over each of `periods` (keys of ``BoardPeriod``) that they have any in.
    func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) async throws
        -> [PeriodKey: BoardTotals]
    /// How many messages to a chat wait in the outbox.
    func pendingCount(in chat: ChatID) async throws -> Int
}

/// What one message reads and changes of its own (``MessageReads``, and the writes a batch collects for all its
/// messages at once: ``BatchWork``); anything else a message changes is on ``whole``, the store itself. Only
/// the engine's one apply step writes (``BotEngine/apply(_:at:in:)``).
public protocol MessageStorage: MessageReads {
    /// The store itself, for what a message changes beyond its own values. On a batch's loaded values
    /// (``BatchWork``) this throws, and the message is handled again on the store, in a savepoint.
    var whole: any GameStoreTransaction { get throws }
    /// What a message reads beyond its own values: the boards, histories and analyses (``StoreReads``), of which
    /// a feature sees its slice (``Feature/Reads``). On a batch's loaded values (``BatchWork``) this throws, and
    /// the message is handled again on the store, in a savepoint.
    var reads: any StoreReads { get throws }

    func save(_ player: Player) async throws
    func save(_ game: StoredGame) async throws
    /// Asks for a finished game's analysis, unless it has one; `show`: post it to the player when it is ready.
    func requestAnalysis(of player: UserID, language: Language, puzzle: PuzzleNumber, show: Bool) async throws
    func save(_ group: Group) async throws
    /// Stores a result on its group's board and the totals it makes, as the engine computed them (keys of
    /// ``BoardPeriod``); false, changing nothing, when the player already has a result for that puzzle there.
    func record(_ result: BoardResult, totals: [PeriodKey: BoardTotals]) async throws -> Bool
    /// Queues replies in the durable outbox; they are sent after the transaction commits.
    func enqueue(_ messages: [OutgoingMessage]) async throws
    /// Notes that a chat is talking to the bot, so a chat marked inactive becomes active again.
    func noteActivity(in chat: ChatID) async throws

    /// Runs `body` so that, when it throws, only its own changes are undone (a savepoint).
    func isolated(_ body: () async throws -> Void) async throws
}

/// A player's history: their finished daily games, practice and archive games (a player and their open games:
/// ``MessageReads``). Practice and archive games (``PracticeGame``) are apart from the daily games, so no board
/// reads them.
public protocol HistoryReads: Sendable {
    /// Every finished game of a player in a language, any order.
    func finishedGames(of player: UserID, language: Language) async throws -> [PlayedGame]
    /// A player's practice game with the highest number: the one being played, or the last one played.
    func latestPracticeGame(of player: UserID) async throws -> PracticeGame?
    /// A player's practice game by its number.
    func practiceGame(of player: UserID, number: Int) async throws -> PracticeGame?
    /// How many of a player's practice and archive games in a language ended with each result, and how many
    /// they gave up after a guess (one given up before any guess is not counted): a few rows, however long the
    /// history.
    func practiceResults(of player: UserID, language: Language) async throws -> PracticeResults
    /// The archive puzzles a player finished in a language, with their results: at most one a past puzzle.
    func archiveResults(of player: UserID, language: Language) async throws -> [PuzzleNumber: GameResult]
    /// How many practice and archive games were started under a one-way key (a player's day): kept by the key
    /// alone, as the replay guards are, so that `/forgetme` does not give the day's games back.
    func practiceStarts(_ key: String) async throws -> Int
}

/// Play's writes (``HistoryReads``), and reminders.
public protocol PlayStorage: HistoryReads {
    /// Stores a practice game, new or changed (by player and number).
    func save(_ game: PracticeGame) async throws
    /// Counts one more game started under a key, kept until `puzzle` has closed everywhere.
    func countPracticeStart(_ key: String, until puzzle: PuzzleNumber) async throws

    /// The players who asked for streak reminders; claimed until the transaction ends, as
    /// ``GroupStorage/activeGroups(on:)`` claims groups, so that no reminder is queued twice.
    func playersWithReminders() async throws -> [Player]
}

/// Analyses of finished games, as players read them.
public protocol AnalysisReads: Sendable {
    /// Where a game's analysis is; nil when none was asked for (or there is no such game).
    func analysis(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredAnalysis?
    /// The JSON of a player's latest analysed games in a language, newest puzzle first, at most `limit`.
    func recentAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String]
    /// The JSON of the analyses of some players' games of a puzzle, for those that have one.
    func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) async throws -> [UserID: String]
    /// As ``analysis(of:language:puzzle:)``, for a practice game.
    func practiceAnalysis(of player: UserID, number: Int) async throws -> StoredAnalysis?
    /// The JSON of a player's latest analysed practice games in a language, newest first, at most `limit`.
    func recentPracticeAnalyses(of player: UserID, language: Language, limit: Int) async throws -> [String]
}

/// Analyses asked for, made and stored (``BotEngine/analysisJobs(on:limit:in:)``).
public protocol AnalysisStorage: AnalysisReads {
    /// Games waiting for their analysis, of one platform's players or of every platform's: those a player waits
    /// to see first, then the earliest finished.
    func pendingAnalyses(on platform: Platform?, limit: Int) async throws -> [StoredGame]
    /// Stores a game's analysis as ``AnalysisReport`` JSON, or nil when the game cannot be analysed; returns
    /// whether the player asked to be shown it. Nothing changes, and it returns false, when the game no longer
    /// waits for one (analysed already, or forgotten).
    func saveAnalysis(_ json: String?, of player: UserID, language: Language, puzzle: PuzzleNumber) async throws
        -> Bool
    /// As ``MessageStorage/requestAnalysis(of:language:puzzle:show:)``, for a finished practice game.
    func requestPracticeAnalysis(of player: UserID, number: Int, show: Bool) async throws
    /// As ``pendingAnalyses(on:limit:)``, for practice games.
    func pendingPracticeAnalyses(on platform: Platform?, limit: Int) async throws -> [PracticeGame]
    /// As ``saveAnalysis(_:of:language:puzzle:)``, for a practice game.
    func savePracticeAnalysis(_ json: String?, of player: UserID, number: Int) async throws -> Bool
}

/// A group's boards as features read them: results, standings, streaks, crowns and members.
public protocol BoardReads: Sendable {
    /// Whether a member won each puzzle they have a result for on a board, up to `puzzle`, newest first.
    func outcomes(of player: UserID, in chat: ChatID, board: BoardKind, through puzzle: PuzzleNumber) async throws
        -> [(puzzle: PuzzleNumber, won: Bool)]
    /// A player's result for a puzzle on a board, member or not: what was counted for them there.
    func result(of player: UserID, in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws
        -> BoardResult?
    /// The original game's results a player pasted, from the official board of every group they pasted in: one
    /// or more a puzzle (the same paste counts in each group), any order.
    func officialResults(of player: UserID) async throws -> [PlayedGame]
    /// A member's all-time standing on a board, if they have any result there.
    func standing(of player: UserID, in chat: ChatID, board: BoardKind) async throws -> Standing?
    /// Every member of a board with their totals over a period (zero when they have none) and their streak.
    func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) async throws -> [Standing]
    /// The players who follow a group's day (``Player/followsGroup``).
    func followers(of chat: ChatID) async throws -> [Player]
    /// The stored players among `ids`, in any order, in one read: a few of a group's members
    /// (the nudge's candidates), never a whole large group.
    func players(_ ids: [UserID]) async throws -> [Player]
    /// The days of a group's board members who have no result for `puzzle` on its own (Tessera) board, nor one of
    /// `official` (the original game's puzzle of the same date) on the official board: each distinct zone,
    /// rollover hour and pending zone among them. A member with either result is done with the day.
    func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
        async throws -> [MemberDay]
    /// The results counted for one puzzle on a board, of its current members.
    func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [(
        name: String, result: BoardResult
    )]
    /// Each day's first results (`days`: a board and its puzzle, every board once) in finishing order: a win before
    /// a loss, fewer guesses (the board's measure) first, then the earlier finish, then the name; at most `limit`
    /// of each (listed in any order), with how many results it has. One read, however many results: the
    /// summary's line a game.
    func firstResults(in chat: ChatID, of days: [BoardDay], limit: Int) async throws -> [BoardKind: FirstResults]
    /// Every member of a board, each with their zone and rollover hour, their result for `puzzle` if they have one,
    /// and their all-time streak: a closed day, for its summary, in one read of the board.
    func dayMembers(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [DayMember]
    /// What the members of a board with a result over some days did in them (``BoardRecord``): their crowns and
    /// their best streak, in one pass over the days' results.
    func records(in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber)
        async throws -> [UserID: BoardRecord]
    /// The crowns of some players over some days (``BoardRecord/crowns``), for the lines a board shows: each day's
    /// best found in the index, then only these players' results; a player without one is left out.
    func crowns(
        of players: [UserID], in chat: ChatID, board: BoardKind, from first: PuzzleNumber,
        through last: PuzzleNumber
    ) async throws -> [UserID: Int]
    /// Members of a chat with a game of a puzzle in a language, started or finished: in a summary, who played
    /// another language's puzzle than the group's.
    func members(in chat: ChatID, playing language: Language, puzzle: PuzzleNumber) async throws -> Set<UserID>
    /// The games of some players that their results for a puzzle on a chat's own board count (the result's
    /// language): a group's day card draws their colours. A few players (``DayCard/maximumBoards``), in one read.
    func countedGames(of players: [UserID], in chat: ChatID, puzzle: PuzzleNumber) async throws
        -> [UserID: StoredGame]
    /// Members with an unfinished game of a puzzle: their names and guesses so far.
    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) async throws -> [(
        name: String, guesses: Int
    )]
}

/// Groups and their boards: what changes them, and the groups a time-driven step works through.
public protocol GroupStorage: BoardReads {
    /// Groups the bot may post in (never marked inactive), for closing their days: those of one platform, whose
    /// service closes them with its own traits, or of every platform when nil.
    ///
    /// Where several processes share the store, each group returned is claimed until the transaction ends, and
    /// one that another transaction has claimed is left out: two processes never close one group's day, and the
    /// one that comes second finds it closed.
    func activeGroups(on platform: Platform?) async throws -> [Group]
    /// Puts a player on a group's board; false if they were on it already.
    func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) async throws -> Bool
    /// Takes a player off a group's board (their counted results stay stored); false if they were not on it.
    func removeMember(_ player: UserID, from chat: ChatID) async throws -> Bool
    /// Moves a chat's memberships and queued messages to its new id (a group that became a supergroup).
    func moveChat(from old: ChatID, to new: ChatID) async throws
}

/// What is stored about a player as a person, as `/export` and `/forgetme` read it.
public protocol PlayerDataReads: Sendable {
    /// Everything stored about a player, for `/export`; nil if nothing is.
    func data(of player: UserID) async throws -> PlayerData?
    /// Every finished analysis of a player's daily games, in one read.
    func analyses(of player: UserID) async throws -> [DailyGameKey: String]
    /// Every finished analysis of a player's practice games, by number, in one read.
    func practiceAnalyses(of player: UserID) async throws -> [Int: String]
    /// The groups whose stored team names a player among its champions (``GroupTeam/champions``), whether or
    /// not they are still on its board: what `/forgetme` must clear.
    func groups(crowning player: UserID) async throws -> [Group]
}

/// What `/forgetme` deletes, and what stays of a player once forgotten.
public protocol PlayerDataStorage: PlayerDataReads {
    /// Deletes everything stored about a player: settings, games, memberships, board results and totals;
    /// false if nothing was stored.
    func forget(_ player: UserID) async throws -> Bool

    /// Remembers, by a one-way key only, that a forgotten player had a game of a puzzle still open somewhere.
    func guardReplay(_ key: String, until puzzle: PuzzleNumber) async throws
    /// Drops the keys of puzzles before `puzzle`, replay guards and practice counts: closed everywhere, those
    /// days can be played no more.
    func removeReplayGuards(before puzzle: PuzzleNumber) async throws
}

/// A batch of updates read and written at once (``BatchWork``).
public protocol BatchStorage: Sendable {
    /// Reads what a batch declared it needs, in as few statements as the store can.
    func load(_ needs: BatchNeeds) async throws -> BatchValues
    /// Writes what a batch changed, in as few statements as the store can.
    func apply(_ changes: BatchChanges) async throws
}

/// Storage for the bot: players, games, memberships, the outbox and transport positions.
///
/// Implementations run blocking work on their own threads or queues, never on the cooperative pool.
public protocol GameStore: Sendable {
    /// Runs `body` in one write transaction and commits it durably before returning.
    ///
    /// The transaction stays open while `body` suspends, holding the store's writer: `body` uses only the
    /// transaction it is given, never the store itself, which would wait for that writer for ever.
    func write<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) async throws -> Result) async throws
        -> Result

    /// Runs `body` in a read-only snapshot of the store, beside the writer: a long read (`/export`) holds up no
    /// write. A change made in it fails.
    func read<Result: Sendable>(_ body: @Sendable (any GameStoreTransaction) async throws -> Result) async throws
        -> Result

    /// Where a transport is to receive from next (its opaque position, ``ChatTransport/receive(after:)``), if
    /// it has processed anything.
    func position(of transport: String) async throws -> String?

    /// Processes a batch of updates exactly once: `body` runs in one transaction that moves the transport's
    /// position from `position` to `nextPosition`, so either the batch's effects and the new position are both
    /// stored or neither is. When the stored position is no longer `position` (the batch was applied already,
    /// by an earlier try or another process), nothing runs and this returns nil. The commit may not be on disk
    /// yet when this returns: ``flush()`` before acknowledging the batch to the platform.
    ///
    /// `needs` declares what the batch reads: the store loads it with the position, and `body` gets it; the
    /// changes `body` returns are written with the new position. A store across a network does each in one
    /// statement, so a batch costs a few round trips whatever its size.
    func processBatch<Result: Sendable>(
        transport: String,
        from position: String?,
        to nextPosition: String,
        loading needs: BatchNeeds,
        _ body: @Sendable (any GameStoreTransaction, BatchValues) async throws -> (Result, BatchChanges)
    ) async throws -> Result?

    /// Waits until everything committed so far would survive a power cut.
    func flush() async throws

    /// Messages waiting to be sent whose `notBefore` has passed: the oldest few of each chat, chats in the order
    /// of their oldest message, so that one flooded chat never hides the others' messages. With a platform,
    /// only its chats' messages: each platform's sender takes its own.
    func pendingMessages(limit: Int, now: Date, platform: Platform?) async throws -> [OutboxEntry]
    /// Removes sent messages from the outbox, all in one write, and remembers which platform message shows
    /// each live message posted among them, for later versions to edit.
    func markSent(_ ids: [Int64], posted: [PostedLiveMessage]) async throws
    /// Takes messages that ``pendingMessages(limit:now:platform:)`` returned, to send now, or keeps those being
    /// sent, for `duration`; returns those this sender holds. One missing was taken by another sender since, its
    /// lease having run out while this one waited; that sender sends it and the rest of its chat. A store only
    /// one process sends from has no other sender: it holds them all.
    func hold(_ ids: [Int64], for duration: Duration) async throws -> Set<Int64>
    /// Marks an at-most-once message as being sent, durably, before it is sent; it is no longer pending.
    func claim(_ id: Int64) async throws
    /// Makes a claimed message pending again: sending it failed, so it was not posted.
    func unclaim(_ id: Int64) async throws
    /// Removes a platform's messages claimed by a process that stopped while sending them (they may have been
    /// posted), and returns how many there were.
    func dropClaimed(platform: Platform) async throws -> Int
    /// How many of a platform's messages are in the outbox, due or postponed (`tessera_outbox_messages`).
    func outboxSize(platform: Platform) async throws -> Int
    /// Counts a failed attempt to send a message; returns its attempts so far.
    func recordFailedAttempt(_ id: Int64) async throws -> Int
    /// Puts a message back to be retried after a delay (the platform asked to slow down).
    func postpone(_ id: Int64, until: Date) async throws
    /// Marks a chat the bot may no longer post in (blocked, kicked) and drops its queued messages; its data is
    /// kept, and it becomes active again when someone writes from it.
    func deactivateChat(_ chat: ChatID) async throws

    /// A value kept across restarts, such as the schedule secret.
    func setting(_ key: String) async throws -> String?
    func setSetting(_ key: String, _ value: String) async throws
    /// The value kept under `key`, keeping `value` first when there is none, in one step: processes starting
    /// together on one database agree on it (the schedule secret: one word a day for everyone).
    func setting(_ key: String, keepingIfAbsent value: String) async throws -> String

    /// Throws when the storage can no longer be trusted, such as a database file deleted or replaced while the
    /// bot runs (writes would go nowhere anyone reads); the bot then stops so that its supervisor restarts it.
    func verifyStorage() async throws

    /// Whether a failure of this store may go away by itself (the database busy or locked, the disk full, an
    /// I/O error), so the same work is tried again; any other failure stops the bot.
    func isTransient(_ error: any Error) -> Bool
}

extension GameStore {
    /// Processes a batch that reads and writes through its transaction alone (``processBatch(transport:from:to:loading:_:)``).
    public func processBatch<Result: Sendable>(
        transport: String, from position: String?, to nextPosition: String,
        _ body: @Sendable (any GameStoreTransaction) async throws -> Result
    ) async throws -> Result? {
        try await processBatch(transport: transport, from: position, to: nextPosition, loading: BatchNeeds()) {
            transaction, _ in (try await body(transaction), BatchChanges())
        }
    }

    /// Removes sent messages from the outbox.
    public func markSent(_ ids: [Int64]) async throws { try await markSent(ids, posted: []) }

    /// Messages of every platform waiting to be sent.
    public func pendingMessages(limit: Int, now: Date) async throws -> [OutboxEntry] {
        try await pendingMessages(limit: limit, now: now, platform: nil)
    }
}

/// A store used as no store may be: a bug in Tessera, whichever store caught it, not the database's fault.
/// Nothing is written.
public enum StoreMisuse: Error, CustomStringConvertible {
    /// A game or result of a player written before the player.
    case unknownPlayer(UserID)
    /// A player put on the board of another platform's group.
    case memberOfAnotherPlatform(UserID, ChatID)
    /// A transaction used after it had ended (outside the body it was given to).
    case transactionEnded

    public var description: String {
        let what =
            switch self {
            case .unknownPlayer(let player):
                "Tessera tried to store a game or result of player \(player) before the player"
            case .memberOfAnotherPlatform(let player, let chat):
                "Tessera tried to put player \(player) on the board of \(chat), a group of another platform"
            case .transactionEnded:
                "Tessera used a database transaction after it had ended"
            }
        return what + "; nothing was written. This is a bug: please report it with the log."
    }
}
