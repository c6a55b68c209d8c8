import Foundation
public import TesseraCore

/// What a batch of updates will read, declared before it runs: a store across a network fetches it all in one
/// statement (``GameStore/processBatch(transport:from:to:loading:_:)``) instead of a round trip a read.
///
/// It covers what a guess, a command or a group's message commonly reads; a message that needs anything else is
/// handled on the store itself (``BatchWork``), so the declaration is about speed, never about what is correct.
public struct BatchNeeds: Sendable, Hashable {
    /// Players by id, each with the groups whose board they are on (``GameStoreTransaction/groups(of:)``).
    public var players: Set<UserID> = []
    /// The puzzles whose daily games of ``players`` are read, in every language: those open somewhere now.
    public var puzzles: ClosedRange<PuzzleNumber>?
    public var groups: Set<ChatID> = []
    /// Chats whose waiting messages are counted (``GameStoreTransaction/pendingCount(in:)``).
    public var pendingCounts: Set<ChatID> = []
    /// Replay guards' keys (``GameStoreTransaction/isReplayGuarded(_:)``).
    public var replayKeys: Set<String> = []
    /// The periods whose totals of the players on their groups' own boards are read: what counting a finished
    /// game there reads (``GroupStorage/totals(of:in:board:periods:)``).
    public var periods: Set<PeriodKey> = []

    public init() {}

    public var isEmpty: Bool { players.isEmpty && groups.isEmpty && pendingCounts.isEmpty && replayKeys.isEmpty }

    /// What this and `other` need.
    public mutating func formUnion(_ other: BatchNeeds) {
        players.formUnion(other.players)
        groups.formUnion(other.groups)
        pendingCounts.formUnion(other.pendingCounts)
        replayKeys.formUnion(other.replayKeys)
        periods.formUnion(other.periods)
        if let theirs = other.puzzles {
            puzzles =
                puzzles.map { min($0.lowerBound, theirs.lowerBound)...max($0.upperBound, theirs.upperBound) }
                ?? theirs
        }
    }

    /// What all of `needs` need.
    public static func union(_ needs: some Sequence<BatchNeeds>) -> BatchNeeds {
        needs.reduce(into: BatchNeeds()) { $0.formUnion($1) }
    }
}

/// What a batch's messages will read: each message's needs, in order, and all of them together, which the store
/// loads (``BotEngine/plan(for:at:)``). A batch handled one message at a time on the store needs nothing.
public struct BatchPlan: Sendable {
    public let messages: [BatchNeeds]
    public let needs: BatchNeeds

    public init(messages: [BatchNeeds]) {
        self.messages = messages
        self.needs = .union(messages)
    }

    /// Each of `count` messages handled on the store itself.
    public static func onStore(_ count: Int) -> BatchPlan {
        BatchPlan(messages: Array(repeating: BatchNeeds(), count: count))
    }
}

/// A player's daily game of a puzzle in a language: the key of ``StoredGame``.
public struct GameKey: Sendable, Hashable {
    public let player: UserID
    public let language: Language
    public let puzzle: PuzzleNumber

    public init(player: UserID, language: Language, puzzle: PuzzleNumber) {
        self.player = player
        self.language = language
        self.puzzle = puzzle
    }
}

extension StoredGame {
    public var key: GameKey { GameKey(player: player, language: language, puzzle: puzzle) }
}

/// A member's totals over a period on one of their group's boards.
public struct TotalsKey: Sendable, Hashable {
    public let player: UserID
    public let chat: ChatID
    public let period: PeriodKey

    public init(player: UserID, chat: ChatID, period: PeriodKey) {
        self.player = player
        self.chat = chat
        self.period = period
    }
}

/// What a store found for a batch's ``BatchNeeds``: what it has of each, nothing for what it has not.
public struct BatchValues: Sendable {
    public var players: [UserID: Player] = [:]
    /// The daily games found for the players and puzzles asked for.
    public var games: [GameKey: StoredGame] = [:]
    /// The groups asked for and those the players are members of.
    public var groups: [ChatID: Group] = [:]
    /// The chats of the groups each player is a member of.
    public var memberships: [UserID: [ChatID]] = [:]
    /// How many messages wait for each chat asked for that has any.
    public var pendingCounts: [ChatID: Int] = [:]
    /// The keys asked for that are stored.
    public var replayGuarded: Set<String> = []
    /// The players' totals on their groups' own boards over the periods asked for, those they have.
    public var totals: [TotalsKey: BoardTotals] = [:]

    public init() {}
}

/// Writing a batch's changes at once failed for a reason that trying again does not remove (a value the database
/// refuses): the receive service then handles the batch's messages one at a time, so that the one at fault is
/// skipped alone. Stores throw it from ``BatchStorage/apply(_:)`` and from writing a batch's changes in
/// ``GameStore/processBatch(transport:from:to:loading:_:)``; a failure that may go away is thrown as it is.
public struct BatchWriteFailure: Error, CustomStringConvertible {
    public let error: any Error

    public init(error: any Error) { self.error = error }

    public var description: String { "Writing a batch's changes at once failed: \(error)" }
}

/// What a batch changed, written by the store in one statement together with the transport's new position.
public struct BatchChanges: Sendable {
    /// Players saved, each as it was last saved.
    public var players: [UserID: Player] = [:]
    /// Daily games saved, each as it was last saved.
    public var games: [GameKey: StoredGame] = [:]
    /// Analyses asked for of games saved in this batch; true: to be shown to the player when ready
    /// (``GameStoreTransaction/requestAnalysis(of:language:puzzle:show:)``).
    public var analyses: [GameKey: Bool] = [:]
    public var groups: [ChatID: Group] = [:]
    /// Replies, in the order they were queued.
    public var messages: [OutgoingMessage] = []
    /// Chats that talked to the bot (``GameStoreTransaction/noteActivity(in:)``).
    public var activeChats: Set<ChatID> = []
    /// Results counted on groups' own boards, in order, each with the totals it makes
    /// (``GroupStorage/record(_:totals:)``).
    public var results: [(result: BoardResult, totals: [PeriodKey: BoardTotals])] = []

    public init() {}

    public var isEmpty: Bool {
        players.isEmpty && games.isEmpty && groups.isEmpty && messages.isEmpty && activeChats.isEmpty
            && results.isEmpty
    }
}
