import Foundation
public import TesseraPictures

/// A message the bot sends. The text uses the small HTML subset every platform understands (`<b>`, `<i>`,
/// `<code>`, `<pre>`, and two that each transport renders its own way: `<spoiler>` for text hidden until
/// tapped, `<details>` for a block shown folded),
/// with user-supplied text escaped.
///
/// It may carry buttons, whose presses come back as messages with ``ChatMessage/button`` set, a document or a
/// picture, for which the text is the caption.
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
        /// Set for a button that copies this text to the presser's clipboard; it sends nothing back. Where the
        /// platform cannot, ``data`` (the same text) is sent back instead.
        public var copyText: String?
        /// How the button looks where the platform colours buttons; nil: as the platform chooses.
        public var style: Style?

        /// The colour of a button: what it does, as a platform that colours buttons shows it.
        public enum Style: String, Sendable, Hashable, Codable {
            /// Something to do, and glad to: play.
            case success
            /// Something that cannot be undone: give up a game, forget everything.
            case danger
        }

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

        /// A button that copies `text` to the presser's clipboard. At most 256 characters (Telegram's limit).
        public static func copy(_ label: String, copying text: String) -> Button {
            var button = Button(text: label, data: text)
            button.copyText = text
            return button
        }

        /// The same button in a colour.
        public func styled(_ style: Style) -> Button {
            var button = self
            button.style = style
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
    /// An animation the platform plays as the message arrives, where it has them (``PlatformTraits/messageEffects``):
    /// only on a message posted anew, never on an edit.
    public var effect: Effect?
    /// The same post laid out with tables, for platforms that show them (a board, the week's and the season's
    /// posts); ``html`` is what every other platform shows, and the fallback when a chat refuses tables.
    public var rich: RichLayout?
    /// A picture posted with the text as its caption, drawn by the transport when it sends it; where the platform
    /// has no pictures (``PlatformTraits/pictures``), or refuses this one, the text goes alone
    /// (``TransportError/pictureRefused(_:)``).
    public var picture: Picture?

    /// An animation over a message as it arrives.
    public enum Effect: String, Sendable, Hashable, Codable {
        /// A win: confetti.
        case celebration
    }

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
        /// Gives a member of the group ``OutgoingMessage/chat`` a tag shown beside their name (the season's
        /// champion), or takes it away when `tag` is empty: where the platform has them
        /// (``PlatformTraits/memberTags``) and the bot may set them there; elsewhere nothing is done. The html is
        /// not posted.
        case tagMember(UserID, tag: String)
    }

    /// The refusal of a transport handed a message its sender should have gathered first.
    public static let ungathered = TransportError.messageRejected(
        "a player's data is gathered by the sender before the transport sees it")

    /// What a reaction says about the message it marks.
    public enum Reaction: String, Sendable, Hashable, Codable {
        /// Counted or joined, now or before: it did what the sender meant.
        case counted
        /// Nothing to do.
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
    /// A post laid out with tables: its text is the layout's, and the layout goes with it where it has a table.
    public init(
        chat: ChatID, chatKind: ChatMessage.ChatKind, layout: RichLayout, thread: MessageID? = nil,
        atMostOnce: Bool = false, silent: Bool = false
    ) {
        self.init(
            chat: chat, chatKind: chatKind, html: layout.html, thread: thread, atMostOnce: atMostOnce, silent: silent)
        if layout.hasTable { rich = layout }
    }

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
    /// The marks that change the direction of the text after them (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
    /// U+061C): in a name, U+202E turns the rest of a line of names around.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// A person's name as the bot keeps it and shows it: without control characters or direction marks.
    var cleanedName: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control || Self.isBidiControl($0) })
        else { return self }
        let kept = unicodeScalars.filter { $0.properties.generalCategory != .control && !Self.isBidiControl($0) }
        return String(String.UnicodeScalarView(kept))
    }

    /// Whether the text has letters written right to left (Hebrew, Arabic and the scripts near them), which
    /// reorder the numbers and marks beside them unless isolated.
    var hasRightToLeftLetters: Bool {
        unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
            default: false
            }
        }
    }

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
