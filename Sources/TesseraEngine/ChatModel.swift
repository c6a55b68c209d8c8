import Foundation

/// A chat platform, by the short stable name stored with every id that comes from it.
///
/// The name is kept inline, not as a `String`: every player on a board of thousands carries one, and an inline
/// name copies, compares and hashes like the integers it is made of.
@frozen
public struct Platform: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name's bytes, zero-padded: up to 16 of them.
    @usableFromInline let bytes: (UInt64, UInt64)

    /// A platform by its name: lowercase ASCII letters, digits and `-`, at most 16; nil for anything else.
    public init?(rawValue: String) { self.init(utf8: rawValue.utf8) }

    /// A platform by its name's bytes, as a store reads them.
    @inlinable
    public init?<Name: Collection<UInt8>>(utf8 name: Name) {
        guard !name.isEmpty, name.count <= 16,
            name.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
        else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in name.enumerated() {
            if index < 8 {
                words.0 |= UInt64(byte) << (8 * UInt64(index))
            } else {
                words.1 |= UInt64(byte) << (8 * UInt64(index - 8))
            }
        }
        bytes = words
    }

    /// A name written in code, known to be valid (a typo stops the program at once, as any broken constant).
    public init(_ name: StaticString) {
        guard let platform = Platform(rawValue: name.description) else {
            preconditionFailure("'\(name)' is not a valid platform name")
        }
        self = platform
    }

    public var rawValue: String {
        var utf8: [UInt8] = []
        for index in 0..<16 {
            let word = index < 8 ? bytes.0 : bytes.1
            let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            if byte == 0 { break }
            utf8.append(byte)
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    public static let telegram = Platform("telegram")
    public static let matrix = Platform("matrix")
    /// The chat in a terminal (`tessera run` with no platform configured).
    public static let console = Platform("console")

    public var description: String { rawValue }

    @inlinable
    public static func == (one: Platform, other: Platform) -> Bool {
        one.bytes.0 == other.bytes.0 && one.bytes.1 == other.bytes.1
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let platform = Platform(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(name)' is not a platform name"))
        }
        self = platform
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Something a platform names, by the platform and the platform's own spelling of its id: Telegram's
/// `-1001234`, Matrix's `!room:example.org` or `@alice:example.org`. The engine never reads the spelling; only
/// the transport that made it does.
@frozen
public struct PlatformID<Entity>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let platform: Platform
    @usableFromInline let spelling: Spelling

    /// A spelling that is a plain decimal number (all of Telegram's) is kept as one: boards of thousands
    /// hash and compare their players' ids as fast as the integers they are.
    @usableFromInline
    enum Spelling: Hashable, Sendable {
        case number(Int64)
        case text(String)

        /// The payload alone: a text spelling is never a plain number, so the two cases never meet.
        @inlinable
        func hash(into hasher: inout Hasher) {
            switch self {
            case .number(let number): hasher.combine(number)
            case .text(let text): hasher.combine(text)
            }
        }
    }

    @inlinable
    public init(_ platform: Platform, _ value: String) {
        self.platform = platform
        if let number = Int64(value), String(number) == value {
            spelling = .number(number)
        } else {
            spelling = .text(value)
        }
    }

    /// An id the platform spells as a decimal number: the same as `init(platform, String(number))`.
    @inlinable
    public init(_ platform: Platform, number: Int64) {
        self.platform = platform
        spelling = .number(number)
    }

    /// The spelling as a number, when it is one: a store may keep it as an integer.
    @inlinable
    public var number: Int64? {
        if case .number(let number) = spelling { number } else { nil }
    }

    /// The platform's spelling of the id.
    @inlinable
    public var value: String {
        switch spelling {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }

    /// `platform:value`, as logs and signatures show it.
    public var description: String { "\(platform.rawValue):\(value)" }

    @inlinable
    public static func == (one: PlatformID, other: PlatformID) -> Bool {
        one.spelling == other.spelling && one.platform == other.platform
    }

    /// The spelling alone: ids of two platforms rarely share one, and `==` tells them apart.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(spelling) }

    private enum CodingKeys: String, CodingKey { case platform, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(Platform.self, forKey: .platform), try container.decode(String.self, forKey: .value))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(value, forKey: .value)
    }
}

/// The kinds of ``PlatformID``.
public enum PlatformEntity {
    public enum Chat {}
    public enum User {}
}

/// A chat on some platform: a direct chat or a group (Telegram's chat, Matrix's room).
public typealias ChatID = PlatformID<PlatformEntity.Chat>
/// A person on some platform. The same person on two platforms is two players.
public typealias UserID = PlatformID<PlatformEntity.User>

/// A message in a chat, by the platform's id for it, opaque to the engine (Telegram's `message_id`, Matrix's
/// event id). A thread (a forum topic) is named by the message that started it, as on both platforms.
public struct MessageID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { value }
}

/// A message someone sent the bot, as every transport delivers it.
public struct ChatMessage: Sendable, Hashable {
    public enum ChatKind: String, Sendable, Hashable, Codable, CaseIterable {
        /// One person and the bot: guesses and answers may be shown.
        case direct
        /// Several people: only squares, never letters, while the day is open.
        case group
    }

    public var chat: ChatID
    public var chatKind: ChatKind
    public var sender: UserID
    /// The sender's name as the platform shows it now; names follow renames.
    public var senderName: String
    public var text: String
    /// The command the text is, as the transport read it in its platform's syntax (``CommandSyntax``); nil for
    /// a text that is no command.
    public var command: ChatCommand?
    /// The platform's id of the message, to reply to it.
    public var messageID: MessageID?
    /// The thread (forum topic) the message was posted in, if the group has threads.
    public var thread: MessageID?
    /// Whether the sender administers the group: filled in by the service, only for messages that need it
    /// (``BotEngine/questions(for:)``); nil when unknown.
    public var senderIsAdministrator: Bool?
    /// Whether the bot may delete members' messages in the group: filled in like ``senderIsAdministrator``.
    public var botMayDeleteMessages: Bool?
    /// Whether this is an edit of a message sent earlier (its new text).
    public var isEdited: Bool
    /// For a press of one of the bot's buttons (``OutgoingMessage/Button``): its data; the text is empty.
    public var button: String?
    /// Something that happened to the chat rather than a message in it; the text is empty.
    public var event: ChatEvent?
    /// The language the sender's app is set to (an IETF tag such as `es` or `pt-BR`), when the platform says:
    /// a new player starts in it if the bot speaks it.
    public var senderLanguage: String?

    public init(
        chat: ChatID,
        chatKind: ChatKind,
        sender: UserID,
        senderName: String,
        text: String,
        command: ChatCommand? = nil,
        messageID: MessageID? = nil,
        thread: MessageID? = nil,
        senderIsAdministrator: Bool? = nil,
        isEdited: Bool = false,
        button: String? = nil,
        senderLanguage: String? = nil,
        event: ChatEvent? = nil
    ) {
        self.chat = chat
        self.chatKind = chatKind
        self.sender = sender
        // Control characters from the platform would cut names and replies short (NUL) or break lines.
        self.senderName = senderName.removingControlCharacters()
        self.text = text.removingControlCharacters(keeping: ["\n", "\t"])
        self.command = command.map {
            ChatCommand(name: $0.name.removingControlCharacters(), argument: $0.argument.removingControlCharacters())
        }
        self.messageID = messageID
        self.thread = thread
        self.senderIsAdministrator = senderIsAdministrator
        self.isEdited = isEdited
        self.button = button?.removingControlCharacters()
        self.senderLanguage = senderLanguage
        self.event = event
    }
}

/// What the service asks the platform before the engine handles a message that needs it
/// (``BotEngine/questions(for:)``); the answer travels with the message.
public enum PlatformQuestion: String, Sendable, Hashable, CaseIterable {
    /// Whether the sender administers the group (``ChatMessage/senderIsAdministrator``).
    case senderIsAdministrator = "sender administers the group"
    /// Whether the bot may delete members' messages there (``ChatMessage/botMayDeleteMessages``).
    case botMayDeleteMessages = "bot may delete messages"
}

extension ChatMessage {
    /// The platform's answer to a question, as the service filled it in; nil when unknown.
    public subscript(answer question: PlatformQuestion) -> Bool? {
        get {
            switch question {
            case .senderIsAdministrator: senderIsAdministrator
            case .botMayDeleteMessages: botMayDeleteMessages
            }
        }
        set {
            switch question {
            case .senderIsAdministrator: senderIsAdministrator = newValue
            case .botMayDeleteMessages: botMayDeleteMessages = newValue
            }
        }
    }
}

/// What happened to a chat, as a platform reports it.
public enum ChatEvent: Sendable, Hashable {
    /// The bot was added to a group by the sender. `seesEveryMessage` is false when the platform shows the bot
    /// only commands (Telegram's privacy mode), so pasted results go unseen.
    case added(seesEveryMessage: Bool)
    /// The sender typed the bot's name in some chat to post something through it (Telegram's inline mode,
    /// which the share button opens); the text is what they typed after the name. The answer is an
    /// ``OutgoingMessage/Action/answerQuery(id:title:)``.
    case query(id: String)
    /// The sender wrote something the bot cannot read (an end-to-end encrypted message); the text is empty.
    case unreadable
}

/// A message the bot sends. The text uses the small HTML subset every platform understands (`<b>`, `<i>`,
/// `<code>`, `<pre>`, and two that each transport renders its own way: `<spoiler>` for text hidden until
/// tapped, `<details>` for a block shown folded),
/// with user-supplied text escaped.
///
/// It may carry buttons, whose presses come back as messages with ``ChatMessage/button`` set, or a document,
/// for which the text is the caption.
public struct OutgoingMessage: Sendable, Hashable, Codable {
    /// A button under a message: pressing it sends `data` back to the bot, or, for a button made with
    /// ``directChat(_:start:)``, opens the presser's direct chat with the bot.
    public struct Button: Sendable, Hashable, Codable {
        public var text: String
        /// At most 64 bytes (Telegram's limit); empty for a button that opens the direct chat.
        public var data: String
        /// Set for a button that opens the direct chat: the parameter it starts the chat with, which comes
        /// back as the argument of `/start` (at most 64 characters of `A–Z a–z 0–9 _ -`).
        public var directChatStart: String?
        /// Set for a button that lets the presser pick any chat and post there through the bot: what it
        /// queries, which comes back as a ``ChatEvent/query(id:)``. Where the platform cannot, the button
        /// sends ``data`` (the same text) back instead.
        public var postQuery: String?

        public init(text: String, data: String) {
            self.text = text
            self.data = data
        }

        /// A button that opens the presser's direct chat with the bot; the platform shows it as a link.
        public static func directChat(_ text: String, start: String) -> Button {
            var button = Button(text: text, data: "")
            button.directChatStart = start
            return button
        }

        /// A button that lets the presser post, in a chat they pick, what the bot answers to `query`.
        public static func postElsewhere(_ text: String, query: String) -> Button {
            var button = Button(text: text, data: query)
            button.postQuery = query
            return button
        }
    }

    /// A file sent with the message.
    public struct Document: Sendable, Hashable, Codable {
        public var fileName: String
        public var contents: [UInt8]

        public init(fileName: String, contents: [UInt8]) {
            self.fileName = fileName
            self.contents = contents
        }
    }

    public var chat: ChatID
    /// Whether ``chat`` is a direct chat or a group: it travels with the message, never inferred from an id
    /// (the platform's limits differ for the two).
    public var chatKind: ChatMessage.ChatKind
    public var html: String
    public var replyTo: MessageID?
    /// The thread (forum topic) to post in; nil: the chat's main thread.
    public var thread: MessageID?
    /// Rows of buttons.
    public var buttons: [[Button]]
    public var document: Document?
    /// Posted at most once: never sent again after a crash in the middle of sending it, at the cost of being
    /// lost then. For what the bot posts unprompted (the daily summary), which a group must not see twice;
    /// replies are sent at least once instead.
    public var atMostOnce: Bool
    /// Posted without a notification: for what the bot posts unprompted, which nobody is waiting for.
    public var silent: Bool
    /// What the bot does: post the message, or act on the message ``replyTo``.
    public var action: Action
    /// Set: the key of a live message, one that shows the latest state of something (a game's board). The
    /// first message with a key is posted; each later one with the same key in the chat edits that post to
    /// read as it, or is posted anew when the platform cannot edit it.
    public var live: String?
    /// With ``live``: post this one anew and make it the live message from now on (asked for again).
    public var repostsLive: Bool

    /// What a message does besides being posted.
    public enum Action: Sendable, Hashable, Codable {
        /// Posted (or, with ``OutgoingMessage/live``, edited in).
        case post
        /// A reaction on the message ``OutgoingMessage/replyTo``, which acknowledges it without a line of chat.
        /// Each transport picks its own mark; one without reactions posts ``OutgoingMessage/html`` instead.
        case react(Reaction)
        /// Deletes the message ``OutgoingMessage/replyTo`` (a member's that would spoil the word).
        case delete
        /// Answers a ``ChatEvent/query(id:)``: the html is what the asker may post, under `title`; empty,
        /// nothing is offered and `title` is a button opening the direct chat.
        case answerQuery(id: String, title: String)
        /// Posts the html in the person's direct chat with the bot, opening one (inviting them) when there is
        /// none: where the platform can (``PlatformTraits/opensDirectChats``).
        case openDirectChat(with: UserID)
        /// Posts the html with a document of everything stored about the player (`/export`), gathered when it
        /// is sent (``BotEngine/gatherPlayerData(_:at:in:)``, in a read-only snapshot of the store) rather than in
        /// the transaction that queued it: a long history holds up nobody's guess. The sender gathers it and
        /// hands the transport a plain post with the document.
        case postPlayerData(of: UserID)
    }

    /// The refusal of a transport handed a message its sender should have gathered first.
    public static let ungathered = TransportError.messageRejected(
        "a player's data is gathered by the sender before the transport sees it")

    /// What a reaction says about the message it marks.
    public enum Reaction: String, Sendable, Hashable, Codable {
        /// Counted, joined: it did what the sender meant.
        case counted
        /// Already counted, or nothing to do.
        case notCounted
    }

    public init(
        chat: ChatID, chatKind: ChatMessage.ChatKind, html: String, replyTo: MessageID? = nil, thread: MessageID? = nil,
        buttons: [[Button]] = [],
        document: Document? = nil, atMostOnce: Bool = false, silent: Bool = false, action: Action = .post,
        live: String? = nil, repostsLive: Bool = false
    ) {
        self.chat = chat
        self.chatKind = chatKind
        self.html = html
        self.replyTo = replyTo
        self.thread = thread
        self.buttons = buttons
        self.document = document
        self.atMostOnce = atMostOnce
        self.silent = silent
        self.action = action
        self.live = live
        self.repostsLive = repostsLive
    }
}

extension OutgoingMessage {
    /// The text as elements, which transports render in their platform's dialect.
    public var markup: Markup { Markup(html: html) }

    /// The text without markup, for transports that show plain text (a terminal).
    public var plainText: String { markup.plainText }

    /// Whether the message shows in one message of a platform (``PlatformTraits/maximumLength``).
    public func fits(maximumLength: Int) -> Bool {
        // Plain text is never longer than its markup, so short markup needs no parsing.
        html.utf16.count <= maximumLength || plainText.utf16.count <= maximumLength
    }

    /// The message in parts that each show at most `maximumLength` UTF-16 code units of plain text, each
    /// well-formed on its own (``Markup/parts(maximumLength:)``); a message that fits is one part.
    public func parts(maximumLength: Int) -> [Markup] { markup.parts(maximumLength: maximumLength) }
}

extension String {
    /// The text without control characters (NUL, escape, line breaks…), but for those kept.
    func removingControlCharacters(keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !kept.contains($0) })
        else { return self }
        var result = String.UnicodeScalarView()
        result.append(
            contentsOf: unicodeScalars.filter { $0.properties.generalCategory != .control || kept.contains($0) })
        return String(result)
    }
}
