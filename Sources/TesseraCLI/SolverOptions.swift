import ArgumentParser
import Foundation
import TesseraCore

/// The word lists and mode `tessera solve` and `tessera analyse` play with: a language's own lists, or two
/// files of words (such as the original game's), one word a line.
struct SolverOptions: ParsableArguments {
    @Option(name: .customLong("language"), help: "Play with this language's own word lists (default: en).")
    var languageArgument: ChoiceArgument<Language>?

    @Option(name: .customLong("answers"), help: "A file of the possible answers, one word a line.")
    var answersFile: String?

    @Option(
        name: .customLong("guesses"),
        help: "A file of the other allowed guesses, one word a line (the answers are always allowed too).")
    var guessesFile: String?

    @Option(
        help: ArgumentHelp(
            "The language's answer edition to play with: 1 for the first (default: the one in force today).",
            discussion: "Puzzles keep the answers of the edition they were played with.",
            valueName: "number"))
    var edition: Int?

    @Flag(help: "Hard mode: every guess keeps the clues so far (greens in place, revealed letters used).")
    var hard = false

    func validate() throws {
        if languageArgument != nil && (answersFile != nil || guessesFile != nil) {
            throw CommandError("Give either --language or --answers and --guesses, not both.")
        }
        if (answersFile == nil) != (guessesFile == nil) {
            throw CommandError("--answers and --guesses go together: give both files, or neither.")
        }
        if let edition {
            guard answersFile == nil else { throw CommandError("--edition picks a language's answers, not a file's.") }
            let editions = (languageArgument?.value ?? .english).wordList.answerEditions.count
            guard (1...editions).contains(edition) else {
                throw CommandError("There are \(editions) answer editions; give --edition from 1 to \(editions).")
            }
        }
    }

    /// The answer edition to play with, counted from 0: the one asked for, or the one today's puzzle is played
    /// with (an edition that takes effect later is not yet the bot's).
    func editionIndex(of list: WordList, at now: Date = Date()) -> Int {
        edition.map { $0 - 1 } ?? list.answerEditionIndex(for: DailySchedule.tessera.latestPuzzle(at: now))
    }

    /// The lists to play with, read and checked.
    func wordList() throws -> WordList {
        let language = languageArgument?.value ?? .english
        guard let answersFile, let guessesFile else { return language.wordList }
        let base = language.wordList
        let answers = try words(in: answersFile, alphabet: base.alphabet)
        let others = try words(in: guessesFile, alphabet: base.alphabet)
        guard let length = answers.first?.count else {
            throw CommandError("The answers file \(answersFile) has no words; give one word a line.")
        }
        if let odd = (answers + others).first(where: { $0.count != length }) {
            let file = answers.contains(odd) ? answersFile : guessesFile
            throw CommandError(
                "The word '\(String(odd.codes.map { base.alphabet.displayLetter($0) }).lowercased())' in \(file) "
                    + "has \(odd.count) letters, the first answer \(length); every word needs the same length.")
        }
        guard length <= 5 else {
            throw CommandError("The solver plays words of up to five letters; \(answersFile) has \(length).")
        }
        return WordList(language: language, alphabet: base.alphabet, answers: answers, otherGuesses: others)
    }

    /// The words of a file, one a line, blank lines skipped, duplicates kept once.
    private func words(in path: String, alphabet: Alphabet) throws -> [Word] {
        let text: String
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("Cannot read the word file \(path): there is no such file.")
        }
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandError("Cannot read the word file \(path): \(error.localizedDescription)")
        }
        var words: [Word] = []
        var seen: Set<Word> = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            var codes: [UInt8] = []
            for character in trimmed {
                guard let code = alphabet.code(of: character) else {
                    throw CommandError(
                        "Line \(number + 1) of \(path) is '\(trimmed)', which has '\(character)', not a letter of "
                            + "the word list's alphabet; give one word a line.")
                }
                codes.append(code)
            }
            guard let word = Word(codes: codes) else {
                throw CommandError(
                    "Line \(number + 1) of \(path) is '\(trimmed)': words have 1 to \(Word.maximumLength) letters.")
            }
            if seen.insert(word).inserted { words.append(word) }
        }
        return words
    }

    /// The solver's tables for `list`'s answer edition: its answers, then its other guesses in alphabetical order.
    func tables(for list: WordList) -> Solver.Tables {
        Solver.Tables(wordList: list, edition: editionIndex(of: list), hardMode: hard)
    }
}
