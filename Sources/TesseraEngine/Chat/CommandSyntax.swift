public import TesseraCore

/// How a platform writes commands, for its transport to read them into ``ChatCommand``s and to write the
/// engine's mentions of them: the prefixes that start one, the one the bot writes, and whether a command may
/// be addressed to a bot by name (`/guess@TesseraBot`). The engine never reads or writes platform syntax: its
/// texts name commands `/name`, and ``written(_:)`` puts them in the platform's.
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
    /// The prefix the bot writes commands with, in what it posts.
    public let writtenPrefix: Character
    /// The bot's name, to tell `/guess@thisbot` from commands for other bots; nil: names are not checked.
    public let botUsername: String?

    public init(prefixes: Set<Character>, writing writtenPrefix: Character = "/", botUsername: String? = nil) {
        self.prefixes = prefixes
        self.writtenPrefix = writtenPrefix
        self.botUsername = botUsername
    }

    /// The engine's text with its command mentions (`/stats`, at the start of a word, of a command it
    /// answers) in this platform's prefix: `!stats` on Matrix. Nothing else changes: not `3/6`, not `</b>`,
    /// not a link.
    public func written(_ text: String) -> String {
        guard writtenPrefix != "/" else { return text }
        var result = ""
        var rest = text[...]
        while let slash = rest.firstIndex(of: "/") {
            result += rest[..<slash]
            let before = slash == text.startIndex ? nil : text[text.index(before: slash)]
            let name = text[text.index(after: slash)...].prefix { $0.isLetter }
            let startsWord = before.map { $0.isWhitespace || "(>«\"'".contains($0) } ?? true
            result.append(startsWord && BotCommand(rawValue: name.lowercased()) != nil ? writtenPrefix : "/")
            rest = text[text.index(after: slash)...]
        }
        return result + rest
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
