import ArgumentParser
import Foundation
import TesseraCore

/// Works out first guesses' totals for the opening book (`scripts/build-opening-book` runs it): the openers
/// that split the answers into the most groups, and any named, each played exactly.
struct OpeningBookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opening-book",
        abstract: "Work out first guesses' exact totals for the opening book, as one JSON object.",
        shouldDisplay: false
    )

    @OptionGroup var lists: SolverOptions

    @Option(help: "How many of the openers that split the answers into the most groups to evaluate.")
    var top = 6

    @Option(help: "Other openers to evaluate, comma-separated.")
    var also = ""

    struct Book: Encodable {
        var fingerprint: String
        var hardMode: Bool
        var best: String
        var totals: [String: Int?]
    }

    func run() async throws {
        let list = try lists.wordList()
        let tables = lists.tables(for: list)
        let solver = Solver(tables: tables)
        // Each opener's number of groups, counted once rather than in every comparison of the sort.
        // Only words optimal play chooses from: the best of the book is the bot's opener.
        let playable = 0..<tables.playable
        let groups = playable.map { solver.parts(of: solver.start, by: $0).count }
        var openers = Array(
            playable.sorted { groups[$0] > groups[$1] || (groups[$0] == groups[$1] && $0 < $1) }
                .prefix(top))
        for text in also.split(separator: ",") {
            guard case .success(let word) = list.guess(from: text), let index = tables.guesses.firstIndex(of: word)
            else {
                throw CommandError("The opener '\(text)' is not an allowed guess.")
            }
            if !openers.contains(index) { openers.append(index) }
        }
        var totals: [String: Int?] = [:]
        var best: (word: String, total: Int)?
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for opener in openers {
            let word = list.display(tables.guesses[opener]).lowercased()
            let started = ContinuousClock.now
            let counts = await Solver.guessCounts(first: opener, tables: tables, workers: workers)
            let total = counts?.values.reduce(0, +)
            totals[word] = total
            FileHandle.standardError.write(
                Data("\(word): \(total.map(String.init) ?? "no sure win") (\(ContinuousClock.now - started))\n".utf8))
            if let total, opener < tables.playable, total < best?.total ?? .max { best = (word, total) }
        }
        guard let best else { throw CommandError("None of the openers evaluated is sure to win in six.") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let book = Book(
            fingerprint: String(tables.fingerprint), hardMode: lists.hard, best: best.word, totals: totals)
        print(String(decoding: try encoder.encode(book), as: UTF8.self))
    }
}
