import ArgumentParser
import Foundation
import TesseraCore

struct SolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Play every answer optimally after a first guess, and print the guesses it takes.",
        discussion: """
            Optimal play is exact: the fewest guesses on average, every answer solved within six.
            Example: tessera solve --answers answers.txt --guesses guesses.txt --first salet
            """
    )

    @OptionGroup var lists: SolverOptions

    @Option(help: "The first guess.")
    var first: String

    @Flag(help: "Print one JSON object: total, answers, average, max, seconds.")
    var json = false

    func run() async throws {
        let list = try lists.wordList()
        let word: Word
        switch list.guess(from: first) {
        case .success(let guess): word = guess
        case .failure(let rejection):
            throw CommandError("The first guess '\(first)': \(rejection); give a word of the allowed guesses.")
        }
        let started = ContinuousClock.now
        let tables = lists.tables(for: list)
        guard let guess = tables.guesses.firstIndex(of: word) else {
            throw CommandError("The first guess '\(first)' is not among the allowed guesses.")
        }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard let counts = await Solver.guessCounts(first: guess, tables: tables, workers: workers) else {
            throw CommandError(
                "After '\(first)', no strategy solves every answer within six guesses"
                    + (lists.hard ? " in hard mode." : "."))
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let summary = SolveSummary(
            total: counts.values.reduce(0, +), answers: counts.count, max: counts.values.max() ?? 0,
            seconds: seconds)
        if json {
            print(try summary.json())
        } else {
            let mode = lists.hard ? "hard mode" : "normal mode"
            print(
                "\(list.display(word)) (\(mode)): \(summary.total) guesses for \(summary.answers) answers, ",
                terminator: "")
            print(
                "\(summary.average.formatted(.number.precision(.fractionLength(4)))) on average, "
                    + "at most \(summary.max); \(summary.seconds.formatted(.number.precision(.fractionLength(1)))) s")
        }
    }
}

/// What `tessera solve --json` prints.
struct SolveSummary: Encodable {
    var total: Int
    var answers: Int
    var average: Double
    var max: Int
    var seconds: Double

    init(total: Int, answers: Int, max: Int, seconds: Double) {
        self.total = total
        self.answers = answers
        average = answers == 0 ? 0 : Double(total) / Double(answers)
        self.max = max
        self.seconds = seconds
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
