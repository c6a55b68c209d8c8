/// A chat platform as the engine needs it: a stream of messages in order, and a way to send replies.
///
/// Adapters implement it (`TelegramTransport`, `ConsoleTransport`); they classify failures as
/// ``TransportError`` so the service knows whether to wait, retry, drop or stop.
public protocol ChatTransport: Sendable {
    /// A stable name under which the store keeps this transport's position.
    var name: String { get }

    /// The platform whose chats and people it serves: the outbox messages it sends are those to its chats.
    var platform: Platform { get }

    /// What the platform can do, for the engine to adapt what it sends.
    var traits: PlatformTraits { get }

    /// Waits for the updates after `position` (long polling), and returns them with the position that
    /// follows them. Returning means nothing is confirmed yet: the caller stores the new position with the
    /// updates' effects and passes it to the next call.
    ///
    /// A position is the platform's own token (Telegram's next `update_id`, Matrix's `next_batch`), opaque to
    /// everyone else; nil is the first start. The transport never returns an update at or before `position`,
    /// nor one twice in a batch, even when its platform sends it again.
    func receive(after position: String?) async throws -> ReceivedBatch

    /// Sends one message; returns the platform's id of the message it posted, when it posted one.
    ///
    /// `key` is the same each time this message is sent again (a retry, a restart after a crash) and never
    /// names another message: a platform that deduplicates by the client's key (Matrix's transaction id)
    /// posts it once.
    @discardableResult
    func send(_ message: OutgoingMessage, key: String) async throws -> MessageID?

    /// Edits a message the bot posted to read as `message` (its text and buttons). Throws
    /// ``TransportError/editRefused(_:)`` when the platform will not (the message is gone or too old); the
    /// service then posts it anew. A platform without edits always throws that.
    func edit(_ posted: MessageID, toRead message: OutgoingMessage, key: String) async throws

    /// Whether a user administers a group chat (may change its settings). Implementations may cache the
    /// answer briefly.
    func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool

    /// Whether the bot may delete other members' messages in a group. Implementations may cache the answer
    /// briefly.
    func mayDeleteMessages(in chat: ChatID) async throws -> Bool
}

/// What a platform can do. The engine adapts to it: a new message where edits are unavailable, a text where
/// reactions are, a typed confirmation and commands in the text where there are no buttons.
public struct PlatformTraits: Sendable, Hashable {
    /// Buttons under messages, whose presses come back (``ChatMessage/button``).
    public var buttons: Bool
    /// Editing a message the bot posted (``ChatTransport/edit(_:toRead:)``).
    public var edits: Bool
    /// Reactions on members' messages (``OutgoingMessage/Action/react(_:)``).
    public var reactions: Bool
    /// The bot can open a direct chat with a person itself (``OutgoingMessage/Action/openDirectChat(with:)``):
    /// on Matrix, a room it invites them to. Where it cannot, a button links to the direct chat instead.
    public var opensDirectChats: Bool
    /// Text hidden until tapped (`<spoiler>`). Without it, no word of a puzzle is ever posted in a group.
    public var spoilers: Bool
    /// Topics or threads inside a group, where its summaries can go (`/settings topic here`).
    public var threads: Bool
    /// Tags beside members' names that a bot with the right may set (``OutgoingMessage/Action/tagMember(_:tag:)``).
    public var memberTags: Bool
    /// Animations over a message in a direct chat as it arrives (``OutgoingMessage/effect``). Off unless a
    /// transport says so: a celebrated win adds a message.
    public var messageEffects: Bool
    /// The longest text one message shows, in UTF-16 code units of its plain text. A transport sends a longer
    /// reply as several messages split at line breaks (``OutgoingMessage/parts(maximumLength:)``); only a
    /// reply that fits in one is kept live, edited in place.
    public var maximumLength: Int
    /// How fast the bot may send there; the platform's own refusals (429) are waited out besides.
    public var rateLimits: RateLimits

    /// A platform that can do everything, with no limit of its own: each transport states what its platform
    /// cannot do and how much it takes.
    public init(
        buttons: Bool = true, edits: Bool = true, reactions: Bool = true, opensDirectChats: Bool = false,
        spoilers: Bool = true, threads: Bool = true, memberTags: Bool = true, messageEffects: Bool = false,
        maximumLength: Int = .max,
        rateLimits: RateLimits = .unlimited
    ) {
        self.buttons = buttons
        self.edits = edits
        self.reactions = reactions
        self.opensDirectChats = opensDirectChats
        self.spoilers = spoilers
        self.threads = threads
        self.memberTags = memberTags
        self.messageEffects = messageEffects
        self.maximumLength = maximumLength
        self.rateLimits = rateLimits
    }
}

/// How fast a platform lets a bot send: token buckets per chat and overall, and for groups a count in any sixty
/// seconds. Each transport states its platform's (``PlatformTraits/rateLimits``); the runtime keeps to them.
public struct RateLimits: Sendable, Hashable {
    public struct Limit: Sendable, Hashable {
        /// Messages allowed at once.
        public var burst: Double
        /// Messages regained per second.
        public var perSecond: Double

        public init(burst: Double, perSecond: Double) {
            self.burst = burst
            self.perSecond = perSecond
        }

        public static let none = Limit(burst: .greatestFiniteMagnitude, perSecond: .greatestFiniteMagnitude)
    }

    public var perChat: Limit
    /// Messages to one group in any sixty seconds.
    public var perGroupPerMinute: Int
    public var overall: Limit

    public init(perChat: Limit, perGroupPerMinute: Int, overall: Limit) {
        self.perChat = perChat
        self.perGroupPerMinute = perGroupPerMinute
        self.overall = overall
    }

    /// No limits: for a platform that has none, and for load tests against a fake API.
    public static let unlimited = RateLimits(perChat: .none, perGroupPerMinute: .max, overall: .none)
}

/// Updates received together.
public struct ReceivedBatch: Sendable {
    /// The messages for the engine; updates the bot does not handle are left out but still counted in
    /// ``nextPosition``.
    public var messages: [ChatMessage]
    /// The position to pass to the next receive.
    public var nextPosition: String
    /// Chats the platform moved (a group becoming a supergroup): their data moves along.
    public var migrations: [(from: ChatID, to: ChatID)]

    public init(messages: [ChatMessage], nextPosition: String, migrations: [(from: ChatID, to: ChatID)] = []) {
        self.messages = messages
        self.nextPosition = nextPosition
        self.migrations = migrations
    }
}

/// A transport failure, classified.
public enum TransportError: Error, CustomStringConvertible {
    /// Worth retrying after a pause: network errors, timeouts, server errors, a competing poller.
    case transient(String)
    /// The platform asked to slow down; retry after the delay (for one chat, or for everything).
    case rateLimited(retryAfter: Duration, chat: ChatID?)
    /// The bot may not post in that chat any more (blocked, kicked); its messages are dropped.
    case chatUnavailable(ChatID, reason: String)
    /// The chat has a new id; messages go there instead.
    case chatMigrated(from: ChatID, to: ChatID)
    /// The platform refused this one message for good (malformed); it is dropped.
    case messageRejected(String)
    /// The platform will not edit that message (deleted, too old, no edits at all): post it anew instead.
    case editRefused(String)
    /// Nothing will work until someone fixes the configuration (a wrong token): the service stops.
    case fatal(String)

    /// The longest wait a platform's answer can ask for: a larger `retry_after` (or none that can be read) would
    /// stall the bot for as long as a hostile or broken server liked.
    public static let longestRetryAfter: Duration = .seconds(3600)

    /// ``rateLimited(retryAfter:chat:)`` for the delay a platform asked for in `milliseconds`, within one
    /// hundred milliseconds and ``longestRetryAfter``; nil (no delay given) waits a second.
    public static func rateLimited(milliseconds: Int?, chat: ChatID?) -> TransportError {
        let longest = Int(longestRetryAfter.components.seconds) * 1000
        return .rateLimited(retryAfter: .milliseconds(min(max(milliseconds ?? 1000, 100), longest)), chat: chat)
    }

    public var description: String {
        switch self {
        case .transient(let reason): "temporary failure: \(reason)"
        case .rateLimited(let delay, let chat): "rate limited for \(delay)\(chat.map { " in chat \($0)" } ?? "")"
        case .chatUnavailable(let chat, let reason): "chat \(chat) is unavailable: \(reason)"
        case .chatMigrated(let from, let to): "chat \(from) moved to \(to)"
        case .messageRejected(let reason): "message rejected: \(reason)"
        case .editRefused(let reason): "edit refused: \(reason)"
        case .fatal(let reason): reason
        }
    }
}

/// The commands a platform shows in its menu, for people whose app is in `languageCode` (nil: everyone else).
public struct CommandMenu: Sendable, Hashable {
    public struct Command: Sendable, Hashable {
        public let name: String
        public let description: String
    }

    public let languageCode: String?
    public let commands: [Command]
}
