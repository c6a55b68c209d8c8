import Foundation
import TesseraCore

/// `/analysis` and the Analysis button under a finished board: a game's analysis in the direct chat only, since
/// it names words; one not ready yet is posted when it is. `/stats` averages the scores.
struct Analyses: Feature {
    typealias Reads = any HistoryReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }

    /// The games `/stats` averages the scores of.
    static let averagedAnalyses = 30

    /// `/analysis [LANGUAGE PUZZLE]` and the Analysis button (which names its game): the analysis of the player's
    /// game, by default `focused` (the practice game they touched last) if it has ended, else the latest daily
    /// game they finished in the language they play. `/analysis practice N` is practice game N's.
    func analysis(_ argument: String, focused: PracticeGame?, in turn: Turn) async throws -> Reply {
        guard !turn.isGroup else { return turn.reply(turn.texts.analysisPrivateOnly) }
        let player = turn.player.id
        if argument.isEmpty, let focused, focused.result != nil {
            return try await analysis(of: focused, in: turn)
        }
        if let number = Self.analysedPracticeGame(argument) {
            guard let practice = try await reads(turn).practiceGame(of: player, number: number) else {
                return turn.reply(turn.texts.analysisNoGame)
            }
            return try await analysis(of: practice, in: turn)
        }
        let language: Language
        let puzzle: PuzzleNumber
        if argument.isEmpty {
            language = turn.language
            let finished = try await reads(turn).finishedGames(of: player, language: language)
            guard let latest = finished.map(\.puzzle).max() else { return turn.reply(turn.texts.analysisNoGame) }
            puzzle = latest
        } else {
            guard let named = Self.analysedGame(argument) else { return turn.reply(turn.texts.analysisUsage) }
            (language, puzzle) = named
        }
        let game = try await turn.store.game(of: player, language: language, puzzle: puzzle)
        guard let game, game.result != nil else { return turn.reply(turn.texts.analysisNoGame) }
        return try await show(
            try await reads(turn).analysis(of: player, language: language, puzzle: puzzle), of: .daily(puzzle),
            language: language,
            unstudied: unstudiedOpener(
                game.guesses, language: language, edition: language.wordList.answerEditionIndex(for: puzzle),
                hardMode: game.hardMode),
            in: turn, request: .analysis(player: player, language: language, puzzle: puzzle, show: true))
    }

    /// A practice or archive game's analysis; one given up for a new game has none.
    private func analysis(of game: PracticeGame, in turn: Turn) async throws -> Reply {
        guard game.result != nil, !game.abandoned else { return turn.reply(turn.texts.analysisNoGame) }
        // An archive game was played with its puzzle's edition, practice with the one current when it began.
        let puzzle = game.archivePuzzle ?? configuration.schedule.latestPuzzle(at: game.startedAt)
        return try await show(
            try await reads(turn).practiceAnalysis(of: game.player, number: game.number), of: .practice(game.kind),
            language: game.language,
            unstudied: unstudiedOpener(
                game.guesses, language: game.language,
                edition: game.language.wordList.answerEditionIndex(for: puzzle), hardMode: game.hardMode),
            in: turn, request: .practiceAnalysis(player: game.player, number: game.number, show: true))
    }

    /// A stored analysis as a reply, or word that it follows, asking for it to be posted when ready (`request`).
    private func show(
        _ stored: StoredAnalysis?, of game: AnalysedGame, language: Language, unstudied: String?, in turn: Turn,
        request: Reply.Write
    ) async throws -> Reply {
        switch stored {
        case .done(let json)?:
            guard let report = core.decoded(json, player: turn.player.id) else {
                return turn.reply(turn.texts.analysisUnavailable)
            }
            // One stored before a word was withheld names it no more.
            let shown = report.withholding(language.wordList)
            return turn.reply(turn.texts.analysis(shown, of: game, theme: configuration.shareTheme))
        case .unavailable?:
            return turn.reply(turn.texts.analysisUnavailable)
        case .pending?, nil:
            var reply = turn.reply(turn.texts.analysisComing(unstudied: unstudied))
            reply.writes = [request]
            return reply
        }
    }

    /// The word lists' fingerprints, to look openers up in the opening book (it builds no tables).
    private static let lists = GameAnalyst()

    /// A game's first guess when the opening book has not studied it (its analysis then searches it, which
    /// takes minutes); nil when the book has it, and its analysis takes seconds.
    func unstudiedOpener(_ guesses: [String], language: Language, edition: Int, hardMode: Bool) -> String? {
        guard let first = guesses.first else { return nil }
        let fingerprint = Self.lists.fingerprint(of: language.wordList, edition: edition)
        let book = OpeningBook.lookup(fingerprint: fingerprint, hardMode: hardMode)
        return book?.totals[first.lowercased()] != nil ? nil : first
    }

    /// The game an Analysis button names (`en 330`): a language code and a puzzle number.
    static func analysedGame(_ argument: String) -> (Language, PuzzleNumber)? {
        let parts = argument.split(separator: " ")
        guard parts.count == 2, let language = CommandWords.language(named: String(parts[0])),
            let number = Int(parts[1]), number > 0
        else { return nil }
        return (language, PuzzleNumber(number))
    }

    /// The practice game an Analysis button under a practice board names (`practice 12`): its number.
    static func analysedPracticeGame(_ argument: String) -> Int? {
        let parts = argument.split(separator: " ")
        guard parts.count == 2, parts[0] == "practice", let number = Int(parts[1]), number > 0 else { return nil }
        return number
    }

    /// The skill and luck scores of the player's latest analysed games in a language, averaged, for `/stats`.
    func averageScores(of player: UserID, language: Language, store: any AnalysisReads) async throws
        -> AverageScores?
    {
        core.averageScores(
            try await store.recentAnalyses(of: player, language: language, limit: Self.averagedAnalyses),
            player: player)
    }

    /// The most skilful of a closed day's games on a board, for the post that reveals its word: a score and a
    /// name only, never a letter, each game's analysis in the language it was played in. Nil until every game
    /// on the board has its analysis (or cannot have one), and when fewer than two have one: one game is no
    /// contest. A post made while an analysis was still working is edited when it is done
    /// (``BotEngine/finish(_:_:in:)``).
    func highlights(
        of results: [(name: String, result: BoardResult)], puzzle: PuzzleNumber, store: any AnalysisReads
    ) async throws -> DayHighlights? {
        var analyses: [UserID: String] = [:]
        for language in Language.allCases {
            let players = results.filter { $0.result.language == language }.map(\.result.player)
            guard !players.isEmpty else { continue }
            analyses.merge(try await store.analyses(of: players, language: language, puzzle: puzzle)) { $1 }
        }
        guard analyses.count >= Self.highlightsGames else { return nil }
        for entry in results where analyses[entry.result.player] == nil {
            let state = try await store.analysis(
                of: entry.result.player, language: entry.result.language, puzzle: puzzle)
            if case .pending = state { return nil }
        }
        var skilful: (name: String, score: Int)?
        // In finishing order: on a tie, the game finished first.
        for entry in results {
            guard let json = analyses[entry.result.player], let report = core.decoded(json, player: entry.result.player)
            else { continue }
            if report.skill > skilful?.score ?? -1 { skilful = (entry.name, report.skill) }
        }
        return skilful.map(DayHighlights.init(skilful:))
    }

    /// How many analysed games a board needs for its most skilful and luckiest line.
    static let highlightsGames = 2
}
