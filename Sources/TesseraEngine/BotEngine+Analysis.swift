import Foundation
import Logging
public import TesseraCore

/// How did I play? Every finished game is measured against optimal play (``GameAnalyst``), outside the path of
/// replies: finishing a game asks for its analysis in the same transaction, and the runtime's analysis service
/// works it out and stores it. `/analysis` and the Analysis button under a finished board show it in the
/// direct chat only, since it names words; one not ready yet is posted when it is. A group's post that reveals
/// the word names the day's most skilful and luckiest games, and `/stats` averages the scores.
extension BotEngine {
    /// The games `/stats` averages the scores of.
    static let averagedAnalyses = 30

    // MARK: - In the chat

    /// `/analysis [LANGUAGE PUZZLE]` and the Analysis button (which names its game): the analysis of the player's
    /// game, by default the latest they finished in the language they play.
    func analysis(_ argument: String, context: inout Context) async throws {
        guard !context.isGroup else { return context.reply(context.texts.analysisPrivateOnly) }
        let language: Language
        let puzzle: PuzzleNumber
        if argument.isEmpty {
            language = context.language
            let finished = try await context.store.finishedGames(of: context.player.id, language: language)
            guard let latest = finished.map(\.puzzle).max() else { return context.reply(context.texts.analysisNoGame) }
            puzzle = latest
        } else {
            guard let named = Self.analysedGame(argument) else { return context.reply(context.texts.analysisUsage) }
            (language, puzzle) = named
        }
        let game = try await context.store.game(of: context.player.id, language: language, puzzle: puzzle)
        guard let game, game.result != nil else { return context.reply(context.texts.analysisNoGame) }
        switch try await context.store.analysis(of: game.player, language: language, puzzle: puzzle) {
        case .done(let json)?:
            guard let report = decoded(json, player: game.player) else {
                return context.reply(context.texts.analysisUnavailable)
            }
            context.reply(context.texts.analysis(report, puzzle: puzzle, theme: configuration.shareTheme))
        case .unavailable?:
            context.reply(context.texts.analysisUnavailable)
        case .pending?, nil:
            try await context.store.requestAnalysis(of: game.player, language: language, puzzle: puzzle, show: true)
            context.reply(context.texts.analysisComing)
        }
    }

    /// The game an Analysis button names (`en 330`): a language code and a puzzle number.
    static func analysedGame(_ argument: String) -> (Language, PuzzleNumber)? {
        let parts = argument.split(separator: " ")
        guard parts.count == 2, let language = language(named: String(parts[0])),
            let number = Int(parts[1]), number > 0
        else { return nil }
        return (language, PuzzleNumber(number))
    }

    /// The Analysis button under a finished board: `/analysis` of that board's game.
    func analysisButton(for game: StoredGame, texts: any Texts) -> OutgoingMessage.Button {
        OutgoingMessage.Button(
            text: texts.analysisButton,
            data: "\(BotCommand.analysis.rawValue) \(game.language.rawValue) \(game.puzzle.rawValue)")
    }

    /// The skill and luck scores of the player's latest analysed games in a language, averaged, for `/stats`.
    func averageScores(of player: UserID, language: Language, store: any GameStoreTransaction) async throws
        -> AverageScores?
    {
        let reports = try await store.recentAnalyses(of: player, language: language, limit: Self.averagedAnalyses)
            .compactMap { decoded($0, player: player) }
        guard !reports.isEmpty else { return nil }
        func average(_ scores: [Int]) -> Int {
            Int((Double(scores.reduce(0, +)) / Double(scores.count)).rounded())
        }
        return AverageScores(
            skill: average(reports.map(\.skill)), luck: average(reports.map(\.luckScore)), games: reports.count)
    }

    /// The most skilful and the luckiest of a closed day's games on a board, for the post that reveals its
    /// word: scores and names only, never a letter. Games still being analysed are left out; nil when none is
    /// analysed.
    func highlights(
        of results: [(name: String, result: BoardResult)], language: Language, puzzle: PuzzleNumber,
        store: any GameStoreTransaction
    ) async throws -> DayHighlights? {
        let analyses = try await store.analyses(of: results.map(\.result.player), language: language, puzzle: puzzle)
        var skilful: (name: String, score: Int)?
        var luckiest: (name: String, score: Int)?
        // In finishing order: on a tie, the game finished first.
        for entry in results {
            guard let json = analyses[entry.result.player], let report = decoded(json, player: entry.result.player)
            else { continue }
            if report.skill > skilful?.score ?? -1 { skilful = (entry.name, report.skill) }
            if report.luckScore > luckiest?.score ?? -1 { luckiest = (entry.name, report.luckScore) }
        }
        guard let skilful, let luckiest else { return nil }
        return DayHighlights(skilful: skilful, luckiest: luckiest)
    }

    /// A stored analysis read back; one that cannot be read is logged and shown as unavailable.
    func decoded(_ json: String, player: UserID) -> AnalysisReport? {
        do {
            return try JSONDecoder().decode(AnalysisReport.self, from: Data(json.utf8))
        } catch {
            logger.error(
                "A stored analysis cannot be read; it is shown as unavailable",
                metadata: ["player.id": "\(player)", "error": "\(error)"])
            return nil
        }
    }

    // MARK: - Working them out (the runtime's analysis service)

    /// Games waiting for their analysis, of one platform's players (every platform's when nil), in the store's
    /// order (``GameStoreTransaction/pendingAnalyses(on:limit:)``), each with what its analysis needs.
    public func analysisJobs(on platform: Platform?, limit: Int, in store: any GameStoreTransaction) async throws
        -> [AnalysisJob]
    {
        try await store.pendingAnalyses(on: platform, limit: limit).map { game in
            let list = game.language.wordList
            var guesses: [Word] = []
            var unreadable: String?
            for text in game.guesses {
                guard case .success(let word) = list.word(from: text) else {
                    unreadable = unreadable ?? text
                    continue
                }
                guesses.append(word)
            }
            return AnalysisJob(
                game: game, answer: answer(for: game.puzzle, in: game.language),
                guesses: unreadable.map { .failure(.guessNotAllowed($0)) } ?? .success(guesses),
                edition: list.answerEditionIndex(for: game.puzzle))
        }
    }

    /// The setting that keeps the exact total of the job's first guess once it has been searched for (it does
    /// not depend on the answer): one per word list edition, mode and word. Nil when the book has it, or the
    /// first guess cannot be read.
    public func keptFirstGuessKey(of job: AnalysisJob, analyst: GameAnalyst) -> String? {
        guard case .success(let guesses) = job.guesses, let first = guesses.first else { return nil }
        let list = job.game.language.wordList
        let fingerprint = analyst.fingerprint(of: list, edition: job.edition)
        if OpeningBook.lookup(fingerprint: fingerprint, hardMode: job.game.hardMode)?
            .totals[list.display(first).lowercased()] != nil
        {
            return nil
        }
        return "first guess total \(fingerprint) \(job.game.hardMode ? "hard" : "normal") "
            + list.display(first).lowercased()
    }

    /// Works out a job's analysis: CPU only, from a fraction of a second (a first guess the book or `kept`
    /// knows) to a minute; the caller runs it off the cooperative pool. `kept` is the setting of
    /// ``keptFirstGuessKey(of:analyst:)``.
    public func analyse(_ job: AnalysisJob, kept: String?, with analyst: GameAnalyst, stop: Solver.Stop? = nil)
        -> Result<
            GameAnalyst.Analysed, GameAnalyst.Failure
        >
    {
        Result { () throws(GameAnalyst.Failure) -> GameAnalyst.Analysed in
            try analyst.analyse(
                answer: job.answer, guesses: try job.guesses.get(), list: job.game.language.wordList,
                edition: job.edition, hardMode: job.game.hardMode, firstGuessTotal: kept.flatMap(Self.keptTotal),
                stop: stop)
        }
    }

    /// A first guess's total as kept in a setting: a number, or `none` for no sure win in six.
    public static func keptText(_ total: Int?) -> String { total.map(String.init) ?? "none" }

    /// A kept setting read back; nil for one that cannot be read (the total is searched again).
    static func keptTotal(_ text: String) -> Int?? {
        if text == "none" { return .some(nil) }
        return Int(text).map { .some($0) }
    }

    /// Stores a job's analysis, or that it cannot be analysed, and posts it in the player's direct chat when
    /// they asked to see it; returns whether a message was queued.
    public func finish(
        _ job: AnalysisJob, _ outcome: Result<GameAnalyst.Analysed, GameAnalyst.Failure>,
        in store: any GameStoreTransaction
    ) async throws -> Bool {
        let game = job.game
        // A stopped analysis is no outcome: the game stays waiting for the next try.
        if case .failure(.stopped) = outcome { return false }
        var report: AnalysisReport?
        switch outcome {
        case .success(let analysed): report = analysed.report
        case .failure(let failure):
            logger.warning(
                "A finished game cannot be analysed; /analysis says so",
                metadata: [
                    "player.id": "\(game.player)", "puzzle.number": "\(game.puzzle)", "error": "\(failure)",
                ])
        }
        let show = try await store.saveAnalysis(
            try report?.json(), of: game.player, language: game.language, puzzle: game.puzzle)
        guard show, let player = try await store.player(game.player), let chat = player.directChat else {
            return false
        }
        let texts = player.language.texts
        try await store.enqueue([
            OutgoingMessage(
                chat: chat, chatKind: .direct,
                html: report.map { texts.analysis($0, puzzle: game.puzzle, theme: configuration.shareTheme) }
                    ?? texts.analysisUnavailable)
        ])
        return true
    }
}

/// A finished game waiting for its analysis, with what the analyst needs.
public struct AnalysisJob: Sendable {
    public let game: StoredGame
    let answer: Word
    /// The guesses, or the first that cannot be read any more.
    let guesses: Result<[Word], GameAnalyst.Failure>
    /// The answer edition the puzzle was played with.
    let edition: Int
}

/// Skill and luck scores averaged over a player's latest analysed games.
struct AverageScores: Hashable {
    let skill: Int
    let luck: Int
    let games: Int
}

/// The most skilful and the luckiest game of a closed day, by name.
struct DayHighlights {
    let skilful: (name: String, score: Int)
    let luckiest: (name: String, score: Int)
}
