import Foundation

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
        // Control characters from the platform would cut names and replies short (NUL) or break lines; direction
        // marks would turn a line of names around.
        self.senderName = senderName.cleanedName
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
