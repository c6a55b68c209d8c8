import TesseraCore

/// What a chat message asks of the bot.
enum BotInput: Equatable {
    case command(name: String, argument: String)
    /// A bare word: a guess in a direct chat.
    case word(String)
    /// Any other text.
    case text
    /// A command addressed to another bot.
    case notForUs

    /// Reads `/name@bot argument` (the `@bot` part only in groups) or plain text.
    init(_ text: String, botUsername: String?) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("/") else {
            self = trimmed.isEmpty || trimmed.contains(where: \.isWhitespace) ? .text : .word(String(trimmed))
            return
        }
        let head = trimmed.dropFirst().prefix { !$0.isWhitespace }
        let argument = trimmed.dropFirst(head.count + 1).trimmingWhitespace()
        let parts = head.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts.first.map { $0.lowercased() } ?? ""
        if parts.count == 2, let botUsername, parts[1].lowercased() != botUsername.lowercased() {
            self = .notForUs
            return
        }
        self = .command(name: name, argument: String(argument))
    }
}
