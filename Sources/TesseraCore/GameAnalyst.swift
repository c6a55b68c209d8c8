import Synchronization

/// Measures finished games against optimal play (issue 26), for `tessera analyse` and the bot's analyses. The
/// solver's tables of the answer edition and mode in hand, and its memo, are kept for the next game, and given
/// up when another edition or mode is analysed or ``release()`` is called: the tables hold a byte for every guess
/// and answer, tens of megabytes.
///
/// The first guess's value does not depend on the answer: it comes from the opening book, or from the caller
/// (a total worked out before and kept), and is otherwise searched, which can take a minute.
public final class GameAnalyst: Sendable {
    /// Why a game cannot be analysed.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case answerNotInEdition
        case guessNotAllowed(String)
        case rejected(Solver.AnalysisRejection)
        /// No strategy wins every answer within the game's guesses: there is nothing to measure against.
        case noSureWin
        /// The opening book's best opener is not a word of the lists it claims to be for.
        case bookDoesNotFit(String)
        /// The caller requested the stop it passed: the game is not analysed.
        case stopped

        public var description: String {
            switch self {
            case .answerNotInEdition: "the answer is not on the answer list"
            case .guessNotAllowed(let word): "the guess '\(word)' is not an allowed guess"
            case .rejected(let rejection): rejection.description
            case .noSureWin: "no strategy is sure to win within six guesses on these lists"
            case .bookDoesNotFit(let word):
                "the opening book's best opener '\(word)' is not in these lists; rebuild it"
            case .stopped: "the analysis was stopped before it finished"
            }
        }
    }

    /// One analysed game.
    public struct Analysed: Sendable {
        public var analysis: GameAnalysis
        public var report: AnalysisReport
        /// Whether the first guess's total had to be searched: neither the book nor the caller knew it.
        public var searchedFirstGuess: Bool
        /// The steps the analysis took (``Solver/steps``).
        public var steps: Int
        /// The first guess's total, or what the budget settled of it, to keep for the next game.
        public var firstGuessTotal: Solver.Total { analysis.turns[0].guessed }
    }

    private struct Edition: Hashable {
        let language: Language
        let edition: Int
    }

    /// The tables in hand, and what the last game's search learned of their positions: every entry of a memo is
    /// true whatever the budget (a search that gives up remembers nothing), and players of a day share openers
    /// and answers, so the next game starts from it. It stays within the budget's ``Solver/Budget/memoBytes``.
    private struct Kept {
        let edition: Edition
        let hardMode: Bool
        let tables: Solver.Tables
        var memo: [Solver.Key: Solver.Entry] = [:]
        var memoBytes = 0
    }

    private let kept = Mutex<Kept?>(nil)
    private let fingerprints = Mutex<[Edition: UInt64]>([:])

    public init() {}

    /// The tables of a list's answer edition (counted from 0, oldest first) in a mode, built or kept.
    public func tables(for list: WordList, edition: Int, hardMode: Bool) -> Solver.Tables {
        let wanted = Edition(language: list.language, edition: edition)
        return kept.withLock { kept in
            if let kept, kept.edition == wanted, kept.hardMode == hardMode { return kept.tables }
            kept = nil  // the old tables go before the new ones are built
            let built = Solver.Tables(wordList: list, edition: edition, hardMode: hardMode)
            kept = Kept(edition: wanted, hardMode: hardMode, tables: built)
            return built
        }
    }

    /// Gives up the kept tables.
    public func release() { kept.withLock { $0 = nil } }

    /// The fingerprint of the tables of a list's answer edition (``Solver/Tables/fingerprint``), worked out
    /// without building them: it keys first guesses' totals kept outside the opening book.
    public func fingerprint(of list: WordList, edition: Int) -> UInt64 {
        let key = Edition(language: list.language, edition: edition)
        if let known = fingerprints.withLock({ $0[key] }) { return known }
        let answers = list.answerEditions[edition].answers
        let fingerprint = Solver.Tables.fingerprint(
            answerCount: answers.count, guesses: answers + Solver.Tables.otherGuesses(of: list, answers: answers).played
        )
        fingerprints.withLock { $0[key] = fingerprint }
        return fingerprint
    }

    /// Analyses a game played with `list`'s answer edition `edition`, spending at most `budget`. `firstGuessTotal`
    /// is the first guess's total when the caller kept it. Requesting `stop` from another thread ends the
    /// analysis early with ``Failure/stopped``.
    public func analyse(
        answer: Word, guesses: [Word], list: WordList, edition: Int, hardMode: Bool,
        firstGuessTotal: Solver.Total? = nil, budget: Solver.Budget = .unlimited, stop: Solver.Stop? = nil
    ) throws(Failure) -> Analysed {
        let tables = tables(for: list, edition: edition, hardMode: hardMode)
        guard let answerIndex = tables.answers.firstIndex(of: answer) else { throw .answerNotInEdition }
        var played: [Int] = []
        for word in guesses {
            guard let index = tables.guesses.firstIndex(of: word) else {
                throw .guessNotAllowed(list.letters(word))
            }
            played.append(index)
        }
        guard let firstIndex = played.first else { throw .rejected(.noGuesses) }
        let solver = Solver(tables: tables, stop: stop, budget: budget)
        lendMemo(to: solver, budget: budget)
        defer { keepMemo(of: solver) }
        let book = OpeningBook.lookup(fingerprint: tables.fingerprint, hardMode: hardMode)
        let best = try bestOpening(book: book, list: list, solver: solver, stop: stop)
        let known = firstGuessTotal ?? book?.totals[list.letters(guesses[0])].map(Solver.Total.exactly)
        let analysis: GameAnalysis
        do {
            analysis = try solver.analyse(
                answer: answerIndex, played: played, best: best,
                first: known.map { Solver.Opening(guess: firstIndex, total: $0) })
        } catch {
            throw stop?.isRequested == true ? .stopped : .rejected(error)
        }
        let path = solver.path(from: solver.start, to: answerIndex, first: firstIndex)
        if let stop, stop.isRequested { throw .stopped }
        return Analysed(
            analysis: analysis,
            report: AnalysisReport(
                analysis, answer: answer, list: list, path: path.guesses.map { tables.guesses[$0] },
                pathIsOptimal: path.optimal),
            searchedFirstGuess: known == nil, steps: solver.steps)
    }

    /// Gives the solver the memo kept from the last game on its tables, if it fits its budget. The memo is taken
    /// while this game uses it (another game at the same time starts without), and kept after (``keepMemo(of:)``).
    private func lendMemo(to solver: Solver, budget: Solver.Budget) {
        let memo = kept.withLock { kept -> (entries: [Solver.Key: Solver.Entry], bytes: Int)? in
            guard let held = kept, held.tables === solver.tables, held.memoBytes <= budget.memoBytes else { return nil }
            kept?.memo = [:]
            kept?.memoBytes = 0
            return (held.memo, held.memoBytes)
        }
        if let memo {
            solver.memo = memo.entries
            solver.memoBytes = memo.bytes
        }
    }

    /// Keeps the solver's memo for the next game on the same tables.
    private func keepMemo(of solver: Solver) {
        kept.withLock { kept in
            guard kept?.tables === solver.tables else { return }
            kept?.memo = solver.memo
            kept?.memoBytes = solver.memoBytes
        }
    }

    /// The best first guess and its total: the opening book's, or searched for lists without a book (small ones:
    /// tests, files given to `tessera analyse`).
    private func bestOpening(book: OpeningBook?, list: WordList, solver: Solver, stop: Solver.Stop?)
        throws(Failure) -> Solver.Opening
    {
        let tables = solver.tables
        if let book {
            guard case .success(let word) = list.word(from: book.best), let index = tables.guesses.firstIndex(of: word),
                let total = book.totals[book.best] ?? nil
            else { throw .bookDoesNotFit(book.best) }
            return Solver.Opening(guess: index, total: total)
        }
        guard let optimal = solver.optimal(solver.start) else {
            throw stop?.isRequested == true ? .stopped : .noSureWin
        }
        return Solver.Opening(guess: optimal.guess, total: optimal.total)
    }
}

extension Solver.Tables {
    /// The tables of a word list's answer edition (counted from 0, oldest first): its answers, then the list's
    /// other familiar words, which optimal play chooses from, then every other allowed guess, which only a
    /// player plays; each part in alphabetical order.
    public convenience init(wordList: WordList, edition: Int, hardMode: Bool) {
        let answers = wordList.answerEditions[edition].answers
        let others = Self.otherGuesses(of: wordList, answers: answers)
        self.init(guesses: others.played, answers: answers, playerOnly: others.playerOnly, hardMode: hardMode)
    }

    /// The allowed guesses that are not answers, in the tables' order: the familiar ones, which optimal play
    /// chooses from, then the others.
    static func otherGuesses(of list: WordList, answers: [Word]) -> (played: [Word], playerOnly: [Word]) {
        let others = list.allowedGuesses.subtracting(answers)
        func sorted(_ words: Set<Word>) -> [Word] { words.sorted { $0.codes.lexicographicallyPrecedes($1.codes) } }
        let played = others.intersection(list.familiarGuesses)
        return (sorted(played), sorted(others.subtracting(played)))
    }
}
