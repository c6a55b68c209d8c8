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

    @Option(
        help: ArgumentHelp(
            "A directory keeping each opener's result, to start again where a run stopped.",
            discussion: "One file for each list and mode, named by the tables' fingerprint."))
    var cache: String?

    struct Book: Encodable {
        var fingerprint: String
        var hardMode: Bool
        var best: String
        var totals: [String: Int?]
    }

    func run() async throws {
        let list = try lists.wordList()
        let tables = lists.tables(for: list)
        var totals: [String: Int?] = [:]
        var best: (word: String, total: Int)?
        var leftOut: [String] = []
        let kept = try OpenerCache(directory: cache, fingerprint: tables.fingerprint, hardMode: lists.hard)
        for opener in try openers(list: list, tables: tables) {
            let word = list.letters(tables.guesses[opener])
            var result = kept?.results[word]
            if case .leftOut(let seconds) = result, secondsPerOpener == 0 || secondsPerOpener > seconds { result = nil }
            if result == nil {
                let started = ContinuousClock.now
                let searched = await search(opener, tables: tables)
                try kept?.keep(word, searched)
                let line =
                    switch searched {
                    case .total(let total):
                        "\(word): \(total.map(String.init) ?? "no sure win") (\(ContinuousClock.now - started))"
                    case .leftOut: "\(word): left out, longer than \(secondsPerOpener) s"
                    }
                FileHandle.standardError.write(Data((line + "\n").utf8))
                result = searched
            }
            switch result {
            case .total(let total)?:
                totals[word] = total
                // The best is the bot's opener: only a word optimal play chooses from.
                if let total, opener < tables.playable, total < best?.total ?? .max { best = (word, total) }
            case .leftOut?, nil:
                leftOut.append(word)
            }
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

    /// The openers to study: the `top` that split the answers into the most groups (only words optimal play
    /// chooses from: the best of the book is the bot's opener), then the `also` list.
    private func openers(list: WordList, tables: Solver.Tables) throws -> [Int] {
        let solver = Solver(tables: tables)
        // Each opener's number of groups, counted once rather than in every comparison of the sort.
        let playable = 0..<tables.playable
        let groups = playable.map { solver.parts(of: solver.start, by: $0).count }
        var openers = Array(
            playable.sorted { groups[$0] > groups[$1] || (groups[$0] == groups[$1] && $0 < $1) }.prefix(top))
        for text in also.split(separator: ",") {
            guard case .success(let word) = list.guess(from: text), let index = tables.guesses.firstIndex(of: word)
            else {
                throw CommandError("The opener '\(text)' is not an allowed guess.")
            }
            if !openers.contains(index) { openers.append(index) }
        }
        return openers
    }

    /// An opener's exact total (nil: no sure win in six), or left out when its search passes `secondsPerOpener`.
    private func search(_ opener: Int, tables: Solver.Tables) async -> OpenerCache.Result {
        let stop = Solver.Stop()
        let timer = Task { [limit = secondsPerOpener] in
            guard limit > 0, (try? await Task.sleep(for: .seconds(limit))) != nil else { return }
            stop.request()
        }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let counts = await Solver.guessCounts(first: opener, tables: tables, workers: workers, stop: stop)
        timer.cancel()
        if stop.isRequested { return .leftOut(seconds: secondsPerOpener) }
        return .total(counts?.values.reduce(0, +))
    }
}

/// Each opener's result kept in a file, a line `word<TAB>total` (`none`: no sure win; `left-out-60`: its search
/// passed 60 seconds), so that a book run stopped part way starts again where it was.
private struct OpenerCache {
    enum Result: Equatable {
        case total(Int?)
        case leftOut(seconds: Int)
    }

    let path: String
    private(set) var results: [String: Result] = [:]

    init?(directory: String?, fingerprint: UInt64, hardMode: Bool) throws {
        guard let directory else { return nil }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = "\(directory)/\(fingerprint)-\(hardMode ? "hard" : "normal").tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { continue }  // a line cut short by a stop: searched again
            let value = String(fields[1])
            if value == "none" {
                results[String(fields[0])] = .total(nil)
            } else if let total = Int(value) {
                results[String(fields[0])] = .total(total)
            } else if value.hasPrefix("left-out-"), let seconds = Int(value.dropFirst("left-out-".count)) {
                results[String(fields[0])] = .leftOut(seconds: seconds)
            }
        }
    }

    func keep(_ word: String, _ result: Result) throws {
        let value =
            switch result {
            case .total(let total): total.map(String.init) ?? "none"
            case .leftOut(let seconds): "left-out-\(seconds)"
            }
        guard let file = FileHandle(forWritingAtPath: path) ?? createFile() else {
            throw CommandError("Cannot write the opener cache \(path).")
        }
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data("\(word)\t\(value)\n".utf8))
    }

    private func createFile() -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }
}
