/// The text of a generated word list, as `scripts/build-wordlists` writes it.
struct WordListSource: Sendable {
    /// Space-separated answers, lowercase.
    let answers: String
    /// Space-separated allowed guesses that are not answers.
    let otherGuesses: String
}
