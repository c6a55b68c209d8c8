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

    @Option(
        help: ArgumentHelp(
            "Seconds an opener's search may take; one that takes longer is left out of the book (0: no limit).",
            discussion: "An opener left out is searched by the bot, within its budget, the first time it is played."))
    var secondsPerOpener = 0

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
        var leftOut: [String] = []
        for opener in openers {
            let word = list.display(tables.guesses[opener]).lowercased()
            let started = ContinuousClock.now
            let stop = Solver.Stop()
            let timer = Task { [limit = secondsPerOpener] in
                guard limit > 0, (try? await Task.sleep(for: .seconds(limit))) != nil else { return }
                stop.request()
            }
            let counts = await Solver.guessCounts(first: opener, tables: tables, workers: workers, stop: stop)
            timer.cancel()
            if stop.isRequested {
                leftOut.append(word)
                FileHandle.standardError.write(
                    Data("\(word): left out, longer than \(secondsPerOpener) s\n".utf8))
                continue
            }
            let total = counts?.values.reduce(0, +)
            totals[word] = total
            FileHandle.standardError.write(
                Data("\(word): \(total.map(String.init) ?? "no sure win") (\(ContinuousClock.now - started))\n".utf8))
            if let total, opener < tables.playable, total < best?.total ?? .max { best = (word, total) }
        }
        if !leftOut.isEmpty {
            FileHandle.standardError.write(
                Data("Left out (\(leftOut.count)): \(leftOut.joined(separator: " "))\n".utf8))
        }
        guard let best else { throw CommandError("None of the openers evaluated is sure to win in six.") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let book = Book(
            fingerprint: String(tables.fingerprint), hardMode: lists.hard, best: best.word, totals: totals)
        print(String(decoding: try encoder.encode(book), as: UTF8.self))
    }
}
