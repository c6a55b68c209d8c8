import ArgumentParser
import TesseraCore

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Print the colours a guess gets against an answer, as one row of squares.",
        discussion: "Example: tessera score speed abide  →  ⬛⬛🟨⬛🟨"
    )

    @Argument(help: "The guessed word.")
    var guess: String

    @Argument(help: "The answer.")
    var answer: String

    @Option(name: .customLong("language"), help: "Word list language.")
    var languageArgument = ChoiceArgument(Language.english)

    @Option(name: .customLong("theme"), help: "Square colours.")
    var themeArgument = ChoiceArgument(ShareTheme.dark)

    var language: Language { languageArgument.value }
    var theme: ShareTheme { themeArgument.value }

    func run() throws {
        let list = language.wordList
        let guessWord = try list.allowedWord(guess, role: "guess")
        let answerWord = try list.allowedWord(answer, role: "answer")
        let feedback = Feedback(guess: guessWord, answer: answerWord)
        print(String(feedback.states.map(theme.square(for:))))
    }
}

extension WordList {
    /// `text` as a word of this list, or the error a command says: which word (`role`), why, and the list.
    func allowedWord(_ text: String, role: String) throws -> Word {
        switch guess(from: text) {
        case .success(let word): return word
        case .failure(let rejection):
            throw CommandError("The \(role) '\(text)': \(rejection) (\(language.name), \(wordLength) letters).")
        }
    }
}
