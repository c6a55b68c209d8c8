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

extension ChatCommand {
    /// The engine's command of this name; nil for one it does not answer (another bot's, in a group).
    public var known: BotCommand? { BotCommand(rawValue: name) }
}
