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
    /// Pictures posted with a caption (``OutgoingMessage/picture``). Off unless a transport says so: without
    /// them, the text goes alone.
    public var pictures: Bool
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
        pictures: Bool = false, maximumLength: Int = .max,
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
        self.pictures = pictures
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
