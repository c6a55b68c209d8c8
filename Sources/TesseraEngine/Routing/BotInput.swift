public import TesseraCore

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
