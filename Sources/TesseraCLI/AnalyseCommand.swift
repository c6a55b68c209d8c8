import ArgumentParser
import Foundation
import TesseraCore

struct AnalyseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyse",
        abstract: "Measure a game against optimal play: each guess's inaccuracy and luck, and the game's scores.",
        discussion: """
            Inaccuracy is E − V, luck (E − 1) − V(after), in guesses; the README defines them.
            Example: tessera analyse --hard cigar salet crony cigar
            """
    )

    @OptionGroup var lists: SolverOptions

    @Flag(help: "Print one JSON object; infinite values are null.")
    var json = false

    @Argument(help: "The answer.")
    var answer: String

    @Argument(help: "The guesses, in order.")
    var guesses: [String] = []

    func run() async throws {
        let list = try lists.wordList()
        guard case .success(let answerWord) = list.word(from: answer), list.answers.contains(answerWord) else {
            throw CommandError("The answer '\(answer)' is not on the answer list; give one of its words.")
        }
        guard !guesses.isEmpty else { throw CommandError("Give the game's guesses after the answer.") }
        // The game's own rules first, before the solver's tables are built: they answer bad input at once.
        var game = Game(answer: answerWord, wordList: list, maximumGuesses: 6, hardMode: lists.hard)
        var words: [Word] = []
        for (number, text) in guesses.enumerated() {
            let word: Word
            switch list.guess(from: text) {
            case .success(let guess): word = guess
            case .failure(let rejection): throw CommandError("The guess '\(text)': \(rejection).")
            }
            switch game.submit(word) {
            case .success: words.append(word)
            case .failure(.gameIsOver) where game.status == .won:
                throw CommandError(
                    "This game cannot be analysed: guess \(number + 1) comes after the answer was found.")
            case .failure(.gameIsOver):
                throw CommandError("This game cannot be analysed: the game allows \(game.maximumGuesses) guesses.")
            case .failure(let rejection):
                throw CommandError("This game cannot be analysed: guess \(number + 1) breaks hard mode (\(rejection)).")
            }
        }
        let tables = lists.tables(for: list)
        // Every allowed guess is in the tables, answers first.
        guard let answerIndex = tables.answers.firstIndex(of: answerWord) else {
            throw CommandError("The answer '\(answer)' is not on the answer list; give one of its words.")
        }
        let played = try words.map { word in
            guard let index = tables.guesses.firstIndex(of: word) else {
                throw CommandError("The guess '\(list.display(word).lowercased())' is not an allowed guess.")
            }
            return index
        }
        let solver = Solver(tables: tables)
        let (best, first) = try openings(solver, list: list, firstGuess: played[0])
        let analysis: GameAnalysis
        do {
            analysis = try solver.analyse(answer: answerIndex, played: played, best: best, first: first)
        } catch {
            throw CommandError("This game cannot be analysed: \(error).")
        }
        let path = solver.path(from: solver.start, to: answerIndex, first: played[0])
        let report = AnalysisReport(analysis, answer: answerWord, list: list, path: path.map { tables.guesses[$0] })
        print(json ? try report.json() : report.text)
    }

    /// The start's best opener and the player's opener's total: from the opening book when it has these
    /// lists, otherwise searched (quick for small lists only).
    private func openings(_ solver: Solver, list: WordList, firstGuess: Int) throws -> (
        best: Solver.Opening, first: Solver.Opening?
    ) {
        guard let book = OpeningBook.lookup(fingerprint: solver.tables.fingerprint, hardMode: lists.hard) else {
            guard let optimal = solver.optimal(solver.start) else {
                throw CommandError("No strategy is sure to win within six guesses on these lists.")
            }
            return (Solver.Opening(guess: optimal.guess, total: optimal.total), nil)
        }
        func index(_ word: String) -> Int? {
            guard case .success(let word) = list.word(from: word) else { return nil }
            return solver.guesses.firstIndex(of: word)
        }
        guard let bestIndex = index(book.best), let bestTotal = book.totals[book.best] ?? nil else {
            throw CommandError("The opening book's best opener '\(book.best)' is not in these lists; rebuild it.")
        }
        let firstWord = list.display(solver.guesses[firstGuess]).lowercased()
        let first = book.totals[firstWord].map { Solver.Opening(guess: firstGuess, total: $0) }
        return (Solver.Opening(guess: bestIndex, total: bestTotal), first)
    }
}
