public import TesseraEngine

extension ChatMessage {
    /// The message as a transport with slash commands delivers it: `/guess@TesseraBot crane` becomes the command
    /// `guess` with the argument `crane` (``CommandSyntax``), for tests that type commands into the engine.
    public func readingCommands(botUsername: String? = "TesseraBot") -> ChatMessage {
        var message = self
        if case .command(let command) = CommandSyntax(prefixes: ["/"], botUsername: botUsername).read(text) {
            message.command = command
        }
        return message
    }
}
