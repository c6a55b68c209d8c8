import TesseraCore

/// A command as every transport delivers it: its name and the text after it, whatever the platform's syntax
/// (`/guess@bot crane` on Telegram, `!guess crane` on Matrix).
public struct ChatCommand: Sendable, Hashable {
    /// Lowercased, without prefix or addressee: `guess`.
    public let name: String
    /// The text after the name, trimmed; empty when there is none.
    public let argument: String

    public init(name: String, argument: String = "") {
        self.name = name.lowercased()
        self.argument = argument
    }
}

/// How a platform writes commands, for its transport to read them into ``ChatCommand``s: the prefixes that
/// start one, and whether it may be addressed to a bot by name (`/guess@TesseraBot`). The engine never reads
/// command syntax itself.
public struct CommandSyntax: Sendable {
    /// What a text turns out to be.
    public enum Reading: Sendable, Hashable {
        case command(ChatCommand)
        /// A command addressed to another bot: not for this one at all.
        case forAnotherBot
        /// Anything else: a guess, a pasted result, chat.
        case text
    }

    public let prefixes: Set<Character>
    /// The bot's name, to tell `/guess@thisbot` from commands for other bots; nil: names are not checked.
    public let botUsername: String?

    public init(prefixes: Set<Character>, botUsername: String? = nil) {
        self.prefixes = prefixes
        self.botUsername = botUsername
    }

    /// Reads `PREFIXname[@bot] argument`, or plain text.
    public func read(_ text: String) -> Reading {
        let trimmed = text.trimmingWhitespace()
        guard let first = trimmed.first, prefixes.contains(first) else { return .text }
        let head = trimmed.dropFirst().prefix { !$0.isWhitespace }
        guard !head.isEmpty else { return .text }
        let argument = trimmed.dropFirst(head.count + 1).trimmingWhitespace()
        let parts = head.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, let botUsername, parts[1].lowercased() != botUsername.lowercased() {
            return .forAnotherBot
        }
        return .command(ChatCommand(name: String(parts[0]), argument: String(argument)))
    }
}

/// What a chat message asks of the bot.
enum BotInput: Equatable {
    case command(name: String, argument: String)
    /// A bare word: a guess in a direct chat.
    case word(String)
    /// Any other text.
    case text

    /// The command the transport read, or the text as a bare word or other text.
    init(_ message: ChatMessage) {
        if let command = message.command {
            self = .command(name: command.name, argument: command.argument)
            return
        }
        let trimmed = message.text.trimmingWhitespace()
        self = trimmed.isEmpty || trimmed.contains(where: \.isWhitespace) ? .text : .word(String(trimmed))
    }
}
