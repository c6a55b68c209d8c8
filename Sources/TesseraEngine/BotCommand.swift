public import TesseraCore

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

/// Every command the engine answers, in the order of the platforms' menus. Routing (``BotEngine`` switches over
/// it), the menus (each language describes every case), the engine's questions to the platform, the buttons
/// that run a command, and how a platform writes one (``CommandSyntax/written(_:)``) all derive from it.
public enum BotCommand: String, CaseIterable, Sendable {
    case play, start, guess, board, practice, archive, hard, stats, analysis, share, leaderboard, join, leave
    case settings, timezone, language, remind, export, forgetme, help

    /// Buttons that run their command when pressed: under a finished board Stats, Analysis (whose data names
    /// the board's game after the command), and Share where the platform cannot post through the bot in another
    /// chat (it then sends the share text here, to forward); Practice and Archive, which start another game or
    /// confirm giving one up (their data is the command's argument).
    var isButton: Bool { [.stats, .share, .analysis, .practice, .archive].contains(self) }
}

extension ChatCommand {
    /// The engine's command of this name; nil for one it does not answer (another bot's, in a group).
    public var known: BotCommand? { BotCommand(rawValue: name) }
}

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

/// What a chat message asks of the bot.
enum BotInput: Equatable {
    case command(ChatCommand)
    /// A bare word: a guess in a direct chat.
    case word(String)
    /// Any other text.
    case text

    /// The command the transport read, or the text as a bare word or other text.
    init(_ message: ChatMessage) {
        if let command = message.command {
            self = .command(command)
            return
        }
        let trimmed = message.text.trimmingWhitespace()
        self = trimmed.isEmpty || trimmed.contains(where: \.isWhitespace) ? .text : .word(String(trimmed))
    }
}

extension BotEngine {
    /// The command menus to publish: one in the configured default language for everyone, and one for each
    /// language, for people whose app uses it.
    public static func commandMenus(defaultLanguage: Language) -> [CommandMenu] {
        func menu(_ language: Language, code: String?) -> CommandMenu {
            CommandMenu(
                languageCode: code,
                commands: BotCommand.allCases.map {
                    CommandMenu.Command(name: $0.rawValue, description: language.texts.describe($0))
                })
        }
        return [menu(defaultLanguage, code: nil)]
            + Language.allCases.map { menu($0, code: $0.rawValue) }
    }
}
