import TesseraCore

extension ChatMessage {
    /// A group message that shows a guess's letters, sent or edited in: a word typed after a command
    /// (`/guess crane`, `/play@bot crane`), or a board's row of squares and letters (a forwarded or copied
    /// private board). Its letters are a hint for every member, so the bot deletes it where it may and never
    /// quotes it.
    var revealsGuess: Bool {
        guard chatKind == .group else { return false }
        guard let command else { return SharedResult.showsLetters(text) }
        // `/play es` chooses a puzzle; any other word after it would be a guess.
        return command.known == .guess && !command.argument.isEmpty
            || command.known == .play && !command.argument.isEmpty
                && CommandWords.language(named: command.argument) == nil
    }
}
