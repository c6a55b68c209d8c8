/// The text of a generated word list, as `scripts/build-wordlists` writes it.
struct WordListSource: Sendable {
    /// Every edition of the answers, oldest first: the puzzle it takes effect from, and its answers, lowercase
    /// and space-separated.
    let answerEditions: [(firstPuzzle: Int, answers: String)]
    /// Space-separated allowed guesses that are not answers of the latest edition.
    let guesses: String
    /// Space-separated words the bot plays besides the latest answers (``WordList/familiarGuesses``).
    let familiar: String
    /// Space-separated words of the bot's vocabulary it never shows (``WordList/withheld``).
    var withheld: String = ""
    /// Space-separated words as they are written where the lists fold them (`árbol`): the answers and familiar
    /// words the bot shows with their accents.
    var spellings: String = ""
}
