public import Foundation
public import TesseraCore

// The values a store keeps and gives back beside the models: analyses, queued replies, a player's data.

/// A player's daily game in a language: what its analysis is stored under.
public struct DailyGameKey: Sendable, Hashable {
    public let language: Language
    public let puzzle: PuzzleNumber

    public init(language: Language, puzzle: PuzzleNumber) {
        self.language = language
        self.puzzle = puzzle
    }
}

/// Where a finished game's analysis is.
public enum StoredAnalysis: Sendable, Hashable {
    /// Asked for, not worked out yet; `show`: the player asked to see it once it is.
    case pending(show: Bool)
    /// ``AnalysisReport`` JSON.
    case done(json: String)
    /// The game could not be analysed (a guess no longer on the lists).
    case unavailable
}

/// How a store keeps where a game's analysis is (``StoredAnalysis``): `analysis_state` of `game` and
/// `practice_game`, NULL when none was asked for, then these; every store's SQL names them through here.
public enum AnalysisState: Int, Sendable, CaseIterable {
    case pending = 0
    /// Pending, and the player asked to be shown it.
    case shown = 1
    case done = 2
    case unavailable = 3

    /// The state of a request: to be shown or not.
    public static func requested(show: Bool) -> AnalysisState { show ? .shown : .pending }

    /// The state of a finished analysis: its JSON, or none when the game cannot be analysed.
    public static func finished(_ json: String?) -> AnalysisState { json == nil ? .unavailable : .done }

    /// `(0, 1)`: the states of games waiting for their analysis, for an SQL `IN`.
    public static let waitingList = "(\(pending.rawValue), \(shown.rawValue))"

    /// A stored state and its JSON read back; nil when none was asked for. Throws ``DamagedColumn`` for a state this
    /// build does not know, or done without its JSON.
    public static func analysis(state code: Int?, json: String?) throws -> StoredAnalysis? {
        guard let code else { return nil }
        switch (AnalysisState(rawValue: code), json) {
        case (.pending, _): return .pending(show: false)
        case (.shown, _): return .pending(show: true)
        case (.done, let json?): return .done(json: json)
        case (.unavailable, _): return .unavailable
        default: throw DamagedColumn("analysis_state")
        }
    }
}

/// A queued reply.
public struct OutboxEntry: Sendable, Hashable {
    public let id: Int64
    public let message: OutgoingMessage
    /// For a live message (``OutgoingMessage/live``): the platform's id of the message that shows its key in
    /// the chat, to be edited; nil when none was posted yet.
    public let livePost: MessageID?
    /// Unique for ever, across databases too: the key the transport sends it with
    /// (``ChatTransport/send(_:key:)``), the same on every try.
    public let key: String

    public init(id: Int64, message: OutgoingMessage, livePost: MessageID? = nil, key: String) {
        self.id = id
        self.message = message
        self.livePost = livePost
        self.key = key
    }
}

extension OutboxEntry {
    /// How many of one chat's messages a read of the outbox returns (``GameStore/pendingMessages(limit:now:platform:)``):
    /// enough for a chat's burst, few enough that a flooded chat leaves room for every other. Every store keeps it.
    public static let pendingPerChat = 5

    /// Which of one chat kind's waiting messages a read of the outbox takes
    /// (``GameStore/pendingMessages(limit:now:platform:)``), offered oldest first: at most `limit`, at most
    /// ``OutboxEntry/pendingPerChat`` of a chat, and none of a chat after one of its messages that is postponed
    /// (its send failed, or the platform asked to wait), so that an older version of a live board never follows
    /// a newer one. Direct chats and groups are chosen apart, each up to the limit, so that groups at their
    /// backlog cap never crowd a direct reply out of a pass. SQLite offers its rows here; PostgreSQL's read
    /// states the same rule in its statement, with the leases of several senders, and the store conformance
    /// suite holds both to it.
    public struct Choice {
        public let limit: Int
        public let now: Date
        /// The messages chosen, oldest first.
        public private(set) var chosen: [Int64] = []
        private var taken: [ChatID: Int] = [:]

        public init(limit: Int, now: Date) { (self.limit, self.now) = (limit, now) }

        /// Whether no message offered from now on can be chosen.
        public var isFull: Bool { chosen.count >= limit }

        /// Offers the next waiting message of the chat kind, oldest first; chooses it when the rule allows.
        /// `notBefore`: seconds since 1970, as stored, compared with `now` so, exactly (a `Date` made from them
        /// can be off by a rounding).
        public mutating func offer(_ id: Int64, chat: ChatID, notBefore: TimeInterval) {
            let seen = taken[chat, default: 0]
            guard !isFull, seen < OutboxEntry.pendingPerChat else { return }
            guard notBefore <= now.timeIntervalSince1970 else {
                taken[chat] = OutboxEntry.pendingPerChat
                return
            }
            taken[chat] = seen + 1
            chosen.append(id)
        }
    }

    /// A read of the outbox in the order it is sent: chats in the order of their oldest message, each chat's
    /// messages in their own order. Every store returns its read so.
    public static func inSendingOrder(_ entries: [OutboxEntry]) -> [OutboxEntry] {
        var oldest: [ChatID: Int64] = [:]
        for entry in entries { oldest[entry.message.chat] = min(oldest[entry.message.chat] ?? entry.id, entry.id) }
        let place = { (entry: OutboxEntry) in oldest[entry.message.chat] ?? entry.id }
        return entries.sorted { place($0) == place($1) ? $0.id < $1.id : place($0) < place($1) }
    }
}

/// The platform message that shows a live message (``OutgoingMessage/live``) in a chat.
public struct PostedLiveMessage: Sendable, Hashable {
    public let chat: ChatID
    public let key: String
    public let messageID: MessageID

    public init(chat: ChatID, key: String, messageID: MessageID) {
        self.chat = chat
        self.key = key
        self.messageID = messageID
    }
}

/// Everything stored about one player.
public struct PlayerData: Sendable {
    public struct Membership: Sendable, Hashable {
        public let chat: ChatID
        public let joinedPuzzle: PuzzleNumber

        public init(chat: ChatID, joinedPuzzle: PuzzleNumber) {
            self.chat = chat
            self.joinedPuzzle = joinedPuzzle
        }
    }

    public let player: Player
    public let games: [StoredGame]
    public let practiceGames: [PracticeGame]
    public let memberships: [Membership]
    public let results: [BoardResult]

    public init(
        player: Player, games: [StoredGame], practiceGames: [PracticeGame] = [], memberships: [Membership],
        results: [BoardResult]
    ) {
        self.player = player
        self.games = games
        self.practiceGames = practiceGames
        self.memberships = memberships
        self.results = results
    }
}
