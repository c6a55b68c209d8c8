import ArgumentParser
import Foundation
import TesseraCore

struct AnalyseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyse",
        abstract: "Measure a game against optimal play: each guess's inaccuracy and luck, and the game's scores.",
        discussion: """
            Inaccuracy is E − V, luck (E − 1) − V(after), in guesses; docs/analysis.md defines them.
            Example: tessera analyse --hard cigar salet crony cigar
            """
    )

    @OptionGroup var lists: SolverOptions

    @Flag(help: "Print one JSON object; infinite values are null.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "The most steps (colours looked up) to spend on the game before giving bounds instead of exact values; "
                + "0: no limit.",
            discussion: """
                The default is the bot's own budget, so the numbers are the ones the bot shows: 1,000,000,000 for \
                the game's values, and 36,000,000,000 for a first guess that is not in the opening book. A number \
                given here is the limit of both.
                """,
            valueName: "steps"))
    var steps = Solver.Budget.standard.steps

    func validate() throws {
        guard steps >= 0 else { throw CommandError("--steps is a whole number of steps, 0 for no limit.") }
    }

    @Argument(help: "The answer.")
    var answer: String

    @Argument(help: "The guesses, in order.")
    var guesses: [String] = []

    func run() async throws {
        let list = try lists.wordList()
        let edition = lists.editionIndex(of: list)
        guard case .success(let answerWord) = list.word(from: answer),
            list.answerEditions[edition].answers.contains(answerWord)
        else {
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
        let budget: Solver.Budget =
            switch steps {
            case 0: .unlimited
            case Solver.Budget.standard.steps: .standard
            default: Solver.Budget(steps: steps)
            }
        let analysed: GameAnalyst.Analysed
        do {
            analysed = try GameAnalyst().analyse(
                answer: answerWord, guesses: words, list: list, edition: edition, hardMode: lists.hard,
                budget: budget)
        } catch {
            throw CommandError("This game cannot be analysed: \(error).")
        }
        if json {
            print(try analysed.report.json())
        } else {
            print(analysed.report.text + "\nWorked out in \(analysed.steps.formatted()) steps.")
        }
    }
}
