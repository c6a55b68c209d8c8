import Foundation
import Logging
public import TesseraCore

/// How did I play? Every finished game is measured against optimal play (``GameAnalyst``), outside the path of
/// replies: finishing a game asks for its analysis in the same transaction, and the runtime's analysis service
/// works it out and stores it (here: the jobs, their words and their results). ``Analyses`` shows them in the
/// chat. A group's post that reveals the word names the day's most skilful game.
extension BotEngine {
    /// Edits the final post of the game's day in each group whose latest revealed day it is, posted while its
    /// analysis was still working, to name the day's most skilful game once the board's analyses are complete
    /// (``DaySummaries``). Returns how many edits were queued.
    private func followHighlights(of game: StoredGame, in store: any GameStoreTransaction) async throws -> Int {
        var queued = 0
        let days = DaySummaries(core: core)
        for group in try await store.groups(of: game.player)
        where group.summaryEnabled && configuration.platform.spoilers && group.lastRevealedPuzzle == game.puzzle {
            // Only a game on the board held the line back; for any other, the post already reads as it should.
            let results = try await store.results(in: group.chat, board: .tessera, puzzle: game.puzzle)
            guard results.contains(where: { $0.result.player == game.player && $0.result.language == game.language }),
                let post = try await days.dayPost(of: game.puzzle, in: group, at: nil, store: store),
                post.highlighted, post.message.live != nil
            else { continue }
            try await store.enqueue([post.message])
            queued += 1
        }
        return queued
    }

    // MARK: - Working them out (the runtime's analysis service)

    /// Games waiting for their analysis, of one platform's players (every platform's when nil), in the store's
    /// order (``GameStoreTransaction/pendingAnalyses(on:limit:)``), each with what its analysis needs: daily
    /// games first, whose analyses a group's closing post may name, then practice and archive games.
    public func analysisJobs(on platform: Platform?, limit: Int, in store: any GameStoreTransaction) async throws
        -> [AnalysisJob]
    {
        let daily = try await store.pendingAnalyses(on: platform, limit: limit).map { game in
            AnalysisJob(
                game: .daily(game), answer: .success(answer(for: game.puzzle, in: game.language)),
                guesses: Self.words(game.guesses, in: game.language.wordList),
                edition: game.language.wordList.answerEditionIndex(for: game.puzzle))
        }
        guard daily.count < limit else { return daily }
        let practice = try await store.pendingPracticeAnalyses(on: platform, limit: limit - daily.count).map {
            game in
            let list = game.language.wordList
            let answer = Self.words([game.answer], in: list).map { $0[0] }
            // An archive game was played with its puzzle's edition, practice with the one current when it began.
            let puzzle = game.archivePuzzle ?? configuration.schedule.latestPuzzle(at: game.startedAt)
            return AnalysisJob(
                game: .practice(game), answer: answer, guesses: Self.words(game.guesses, in: list),
                edition: list.answerEditionIndex(for: puzzle))
        }
        return daily + practice
    }

    /// Stored words read back, or the first that cannot be read any more.
    private static func words(_ texts: [String], in list: WordList) -> Result<[Word], GameAnalyst.Failure> {
        var words: [Word] = []
        for text in texts {
            guard case .success(let word) = list.word(from: text) else { return .failure(.guessNotAllowed(text)) }
            words.append(word)
        }
        return .success(words)
    }

    /// The setting that keeps the exact total of the job's first guess once it has been searched for (it does
    /// not depend on the answer): one per word list edition, mode and word. Nil when the book has it, or the
    /// first guess cannot be read.
    public func keptFirstGuessKey(of job: AnalysisJob, analyst: GameAnalyst) -> String? {
        guard case .success(let guesses) = job.guesses, let first = guesses.first else { return nil }
        let list = job.language.wordList
        let fingerprint = analyst.fingerprint(of: list, edition: job.edition)
        if OpeningBook.lookup(fingerprint: fingerprint, hardMode: job.hardMode)?
            .totals[list.letters(first)] != nil
        {
            return nil
        }
        return "first guess total \(fingerprint) \(job.hardMode ? "hard" : "normal") "
            + list.letters(first)
    }

    /// Works out a job's analysis: CPU only, within ``Configuration/analysisBudget`` (a fraction of a second for
    /// a first guess the book or `kept` knows); the caller runs it off the cooperative pool. `kept` is the setting
    /// of ``keptFirstGuessKey(of:analyst:)``; `searchFirstGuess` false holds an unknown first guess's total to a
    /// game's steps (the player is past their share of searches).
    public func analyse(
        _ job: AnalysisJob, kept: String?, with analyst: GameAnalyst, searchFirstGuess: Bool = true,
        stop: Solver.Stop? = nil
    ) -> Result<GameAnalyst.Analysed, GameAnalyst.Failure> {
        let budget = configuration.analysisBudget

        return Result { () throws(GameAnalyst.Failure) -> GameAnalyst.Analysed in
            try analyst.analyse(
                // The operator's extra guesses are words the player may have played: measured, never the bot's.
                answer: try job.answer.get(), guesses: try job.guesses.get(), list: guessList(job.language),
                edition: job.edition, hardMode: job.hardMode, firstGuessTotal: kept.flatMap(Self.keptTotal),
                budget: searchFirstGuess ? budget : budget.withoutFirstGuessSearch, stop: stop)
        }
    }

    /// A first guess's total as kept in a setting: a number, `none` for no sure win in six, or, where the budget
    /// did not settle it, its bounds (`7901..8200`, `7901..none`). Kept bounds are not searched again.
    public static func keptText(_ total: Solver.Total) -> String {
        func text(_ value: Int?) -> String { value.map(String.init) ?? "none" }
        return total.isExact ? text(total.lower) : "\(text(total.lower))..\(text(total.upper))"
    }

    /// A kept setting read back; nil for one that cannot be read (the total is searched again).
    static func keptTotal(_ text: String) -> Solver.Total? {
        func value(_ text: Substring) -> Int?? { text == "none" ? .some(nil) : Int(text).map { .some($0) } }
        let ends = text.split(separator: "..", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count), let lower = value(ends[0]), let upper = value(ends[ends.count - 1]),
            lower != nil || upper == nil, (lower ?? 0) <= (upper ?? .max)
        else { return nil }
        return Solver.Total(lower: lower, upper: upper)
    }

    /// Stores a job's analysis, or that it cannot be analysed, and posts it in the player's direct chat when
    /// they asked to see it, and the day's highlights in groups where it was the last one awaited; returns
    /// whether a message was queued.
    public func finish(
        _ job: AnalysisJob, _ outcome: Result<GameAnalyst.Analysed, GameAnalyst.Failure>,
        in store: any GameStoreTransaction
    ) async throws -> Bool {
        // A stopped analysis is no outcome: the game stays waiting for the next try.
        if case .failure(.stopped) = outcome { return false }
        var report: AnalysisReport?
        switch outcome {
        case .success(let analysed): report = analysed.report
        case .failure(let failure):
            logger.warning(
                "A finished game cannot be analysed; /analysis says so",
                metadata: ["player.id": "\(job.player)", "game": "\(job.game)", "error": "\(failure)"])
        }
        let json = try report?.json()
        let show: Bool
        var followed = 0
        switch job.game {
        case .daily(let game):
            let waited = try await store.analysis(of: game.player, language: game.language, puzzle: game.puzzle)
            show = try await store.saveAnalysis(json, of: game.player, language: game.language, puzzle: game.puzzle)
            if case .pending = waited { followed = try await followHighlights(of: game, in: store) }
        case .practice(let game):
            show = try await store.savePracticeAnalysis(json, of: game.player, number: game.number)
        }
        guard show, let player = try await store.player(job.player), let chat = player.directChat else {
            return followed > 0
        }
        let texts = player.language.texts
        try await store.enqueue([
            OutgoingMessage(
                chat: chat, chatKind: .direct,
                html: report.map { texts.analysis($0, of: job.analysed, theme: configuration.shareTheme) }
                    ?? texts.analysisUnavailable)
        ])
        return true
    }
}
