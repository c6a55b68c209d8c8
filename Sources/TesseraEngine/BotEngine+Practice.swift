import Foundation
import Logging
import TesseraCore

/// More to play between daily puzzles, in the direct chat: practice games on a random word (`/practice`) and
/// past puzzles from the archive (`/archive 312`). They are ``PracticeGame``s, stored apart from the daily games,
/// so no board, summary, streak, reminder or daily statistic reads them; they have their own section in `/stats`.
///
/// A player has at most one unfinished practice game. A word typed in the direct chat goes to the game touched
/// last, practice or daily (``PracticeGame/hasFocus``), and `/play` goes back to the daily puzzle.
extension BotEngine {
    // MARK: - Starting a game

    func practice(_ argument: String, context: inout Context) async throws {
        guard !context.isGroup else { return context.take(try await groupBoards.playPrivately(in: context.turn)) }
        guard let options = PracticeOptions(argument, allowsPuzzle: false) else {
            return context.reply(context.texts.practiceUsage)
        }
        try await start(.practice, options: options, command: .practice, context: &context)
    }

    func archive(_ argument: String, context: inout Context) async throws {
        guard !context.isGroup else { return context.take(try await groupBoards.playPrivately(in: context.turn)) }
        guard let options = PracticeOptions(argument, allowsPuzzle: true) else {
            return context.reply(context.texts.archiveUsage)
        }
        let language = options.language ?? context.language
        guard let puzzle = options.puzzle else {
            return try await listArchive(language, before: options.before, context: &context)
        }
        guard puzzle.rawValue >= 1 else { return context.reply(context.texts.archiveNoSuchPuzzle) }
        guard puzzle < earliestOpenPuzzle(at: context.now) else {
            let latest = configuration.schedule.latestPuzzle(at: context.now)
            return context.reply(
                puzzle <= latest ? context.texts.archiveStillOpen(puzzle) : context.texts.archiveNoSuchPuzzle)
        }
        let daily = try await context.store.game(of: context.player.id, language: language, puzzle: puzzle)
        if let result = daily?.result {
            return context.reply(context.texts.archivePlayed(puzzle, result: result, onItsDay: true))
        }
        if let result = try await context.store.archiveResults(of: context.player.id, language: language)[puzzle] {
            return context.reply(context.texts.archivePlayed(puzzle, result: result, onItsDay: false))
        }
        guard isDealable(puzzle, in: language) else { return context.reply(context.texts.archiveWithdrawn(puzzle)) }
        try await start(.archive(puzzle), options: options, command: .archive, context: &context)
    }

    /// Starts a game, once the player has confirmed giving up an unfinished one and is within the day's limit.
    /// Asking again for the unfinished archive puzzle shows its board.
    private func start(
        _ kind: PracticeGame.Kind, options: PracticeOptions, command: BotCommand, context: inout Context
    ) async throws {
        guard configuration.practiceGamesPerDay > 0 else { return context.reply(context.texts.practiceOff) }
        let store = context.store
        let player = context.player
        let language = options.language ?? context.language
        let latest = try await store.latestPracticeGame(of: player.id)
        if var open = latest, open.result == nil {
            if case .archive = kind, open.kind == kind, open.language == language {
                open.hasFocus = true
                try await keep(open, context: &context)
                return practiceBoard(open, context: &context, reposts: true)
            }
            guard options.confirmed else {
                return askToGiveUp(open, options: options, command: command, context: &context)
            }
        }
        let schedule = configuration.schedule
        let today = player.puzzle(at: context.now, schedule: schedule)
        let startsKey = secret.tag(for: "practice|\(player.id)|\(today)")
        guard try await store.practiceStarts(startsKey) < configuration.practiceGamesPerDay else {
            let next = player.nextPuzzleStart(after: context.now, schedule: schedule)
            return context.reply(
                context.texts.practiceLimit(
                    configuration.practiceGamesPerDay, timeLeft: next.timeIntervalSince(context.now)))
        }
        if var open = latest, open.result == nil {
            open.result = .lost
            open.abandoned = true
            open.finishedAt = context.now
            open.hasFocus = false
            try await keep(open, context: &context)
        }
        let answer: Word
        switch kind {
        case .practice:
            let played = try await store.finishedGames(of: player.id, language: language).map(\.puzzle)
            guard
                let drawn = practiceAnswer(
                    in: language, at: context.now, played: Set(played), previous: latest?.answer)
            else { return context.reply(context.texts.practiceNothingYet) }
            answer = drawn
        case .archive(let puzzle):
            answer = self.answer(for: puzzle, in: language)
        }
        let game = PracticeGame(
            player: player.id, number: (latest?.number ?? 0) + 1, kind: kind, language: language,
            answer: language.wordList.display(answer).lowercased(),
            hardMode: options.hardMode || player.prefersHardMode, startedAt: context.now)
        try await store.countPracticeStart(startsKey, until: today)
        try await keep(game, context: &context)
        practiceBoard(game, context: &context, reposts: true)
    }

    /// Asks whether to give up the unfinished game `open` for the one asked for: with a button, or the command to
    /// type where there are none.
    private func askToGiveUp(
        _ open: PracticeGame, options: PracticeOptions, command: BotCommand, context: inout Context
    ) {
        var confirming = options
        confirming.confirmed = true
        let data = "\(command.rawValue) \(confirming.argument)"
        guard context.platform.buttons else {
            return context.reply(context.texts.abandonQuestion(open, typed: "/" + data))
        }
        context.replies.append(
            OutgoingMessage(
                chat: context.message.chat, chatKind: context.message.chatKind,
                html: context.texts.abandonQuestion(open, typed: nil), replyTo: context.message.messageID,
                buttons: [[.init(text: context.texts.abandonButton, data: data)]]))
    }

    /// A practice word, drawn with the injected randomness from the words of puzzles closed everywhere (the last
    /// cycle of them) that are still on the lists: what the archive already shows. The draws therefore depend on
    /// nothing but public words, and say nothing about an open or coming day's word, however many are made; a
    /// withdrawn word is never dealt. Words the player played on their day, and the last practice word, are
    /// left out while others remain. Nil before any puzzle has closed everywhere.
    func practiceAnswer(
        in language: Language, at now: Date, played: Set<PuzzleNumber>, previous: String?
    ) -> Word? {
        let list = language.wordList
        let pool = practiceWords(in: language, closedThrough: earliestOpenPuzzle(at: now).rawValue - 1)
        let fresh = pool.filter { puzzle, word in
            !played.contains(puzzle) && list.display(word).lowercased() != previous
        }
        let choices = (fresh.isEmpty ? pool : fresh).map(\.1)
        guard !choices.isEmpty else { return nil }
        return choices[configuration.randomBelow(choices.count)]
    }

    /// Whether a past puzzle's word is still a word of the lists (an allowed guess): one taken off them (an
    /// abbreviation, a slur) keeps its history but is never dealt. A word that is only no longer an answer of the
    /// newest edition was a fair puzzle on its day, and is played from the archive like any other.
    func isDealable(_ puzzle: PuzzleNumber, in language: Language) -> Bool {
        language.wordList.allowedGuesses.contains(answer(for: puzzle, in: language))
    }

    /// `/archive`: the newest past puzzles the player has not played, on their day or from the archive, a
    /// phone screen at a time (`before`: older than that puzzle), with a button to the next ones. The first
    /// screen says when the player's yesterday, still today's somewhere in the world, joins the archive.
    private func listArchive(_ language: Language, before: PuzzleNumber?, context: inout Context) async throws {
        let player = context.player.id
        let finishedOnTheirDay = Set(
            try await context.store.finishedGames(of: player, language: language).map(\.puzzle))
        let finishedFromArchive = try await context.store.archiveResults(of: player, language: language)
        let unplayed = { (puzzle: PuzzleNumber) in
            !finishedOnTheirDay.contains(puzzle) && finishedFromArchive[puzzle] == nil
        }
        var puzzles: [(PuzzleNumber, CivilDate)] = []
        let newest = earliestOpenPuzzle(at: context.now).rawValue - 1
        var number = min(newest, (before?.rawValue ?? .max) - 1)
        var older = false
        while number >= 1 {
            let puzzle = PuzzleNumber(number)
            if unplayed(puzzle) && isDealable(puzzle, in: language) {
                if puzzles.count == Self.archiveListed {
                    older = true
                    break
                }
                puzzles.append((puzzle, configuration.schedule.day(of: puzzle)))
            }
            number -= 1
        }
        // The player's yesterday is not listed while it is still today's somewhere: say when it comes.
        var coming: (PuzzleNumber, LocalTime)?
        let yesterday = PuzzleNumber(
            context.player.puzzle(at: context.now, schedule: configuration.schedule).rawValue - 1)
        if before == nil, yesterday.rawValue > newest, unplayed(yesterday) {
            let schedule = configuration.schedule
            let closes = schedule.start(of: schedule.day(of: yesterday).adding(days: 1), rollover: Self.lastRollover)
            let zone = Player.rollover(context.player.timeZone, 0).timeZone
            coming = (yesterday, LocalTime(closes, seenFrom: context.now, in: zone))
        }
        // The next screen's command: `archive before 312 es`.
        let next = older ? puzzles.last.map { "archive before \($0.0.rawValue) \(language.rawValue)" } : nil
        guard !puzzles.isEmpty || coming != nil else { return context.reply(context.texts.archiveEmpty) }
        let typed = next.map { "/" + $0 }
        context.replies.append(
            OutgoingMessage(
                chat: context.message.chat, chatKind: context.message.chatKind,
                html: context.texts.archiveList(
                    puzzles, language: language, coming: coming,
                    older: context.platform.buttons ? nil : typed),
                replyTo: context.message.messageID, thread: context.message.thread,
                buttons: context.platform.buttons
                    ? next.map { [[.init(text: context.texts.archiveMoreButton, data: $0)]] } ?? [] : []))
    }

    /// How many past puzzles `/archive` lists at a time: a phone screen.
    static let archiveListed = 10

    // MARK: - Playing

    /// Stores a practice game (always the player's latest), and keeps ``Player/practiceInPlay`` in step.
    private func keep(_ game: PracticeGame, context: inout Context) async throws {
        try await context.store.save(game)
        context.player.practiceInPlay = game.result == nil || game.hasFocus
    }

    /// The player's latest practice game when it may take a word (``Player/practiceInPlay``); nil, reading
    /// nothing, for a player with none.
    private func practiceInPlay(_ context: inout Context) async throws -> PracticeGame? {
        guard context.player.practiceInPlay else { return nil }
        let latest = try await context.store.latestPracticeGame(of: context.player.id)
        context.player.practiceInPlay = latest.map { $0.result == nil || $0.hasFocus } ?? false
        return context.player.practiceInPlay ? latest : nil
    }

    /// The practice game the player touched after the daily puzzle, if any: what `/board`, `/share` and
    /// `/analysis` show.
    func practiceInFocus(_ context: inout Context) async throws -> PracticeGame? {
        guard let game = try await practiceInPlay(&context), game.hasFocus else { return nil }
        return game
    }

    /// A word in the direct chat: it goes to the game touched last while both are open, else to the open one. A
    /// new day starts on its own puzzle: a practice game begun on an earlier day keeps the word only once the
    /// day's puzzle is done.
    func guessInFocus(_ text: String, context: inout Context) async throws {
        guard var latest = try await practiceInPlay(&context) else {
            return context.take(try await dailyPlay.guess(text, in: context.turn))
        }
        let daily = try await dailyPlay.dailyGame(in: context.turn)
        let dailyOpen = daily.game.result == nil && !daily.playedBeforeForgetting
        let schedule = configuration.schedule
        let focused =
            latest.hasFocus
            && context.player.puzzle(at: latest.startedAt, schedule: schedule)
                == context.player.puzzle(at: context.now, schedule: schedule)
        let takesWord = latest.result == nil ? focused || !dailyOpen : focused && !dailyOpen
        if takesWord { return try await guessPractice(text, game: latest, context: &context) }
        if latest.hasFocus {
            latest.hasFocus = false
            try await keep(latest, context: &context)
        }
        context.take(try await dailyPlay.guess(text, daily: daily, in: context.turn))
    }

    /// `/play` in the direct chat: words go to the daily puzzle again.
    func focusOnDailyPuzzle(context: inout Context) async throws {
        guard var latest = try await practiceInFocus(&context) else { return }
        latest.hasFocus = false
        try await keep(latest, context: &context)
    }

    private func guessPractice(_ text: String, game stored: PracticeGame, context: inout Context) async throws {
        var stored = stored
        if !stored.hasFocus {
            stored.hasFocus = true
            try await keep(stored, context: &context)
        }
        guard stored.result == nil else { return context.reply(context.texts.practiceOver) }
        guard var game = play(stored) else { return context.reply(context.texts.practiceUnplayable) }
        switch game.submit(text) {
        case .failure(let rejection):
            context.reply(context.texts.rejection(rejection))
        case .success(let row):
            stored.guesses.append(game.wordList.display(row.word).lowercased())
            context.outcome.acceptedGuess = stored.language
            if let result = game.result {
                stored.result = result
                stored.finishedAt = context.now
            }
            try await keep(stored, context: &context)
            if stored.result != nil {
                try await context.store.requestPracticeAnalysis(of: stored.player, number: stored.number, show: false)
            }
            context.replies.append(practiceBoard(stored, game, context: context, reposts: false))
        }
    }

    /// The game a stored practice game is, rebuilt from its answer and guesses; nil when its answer is no longer
    /// on the lists.
    func play(_ stored: PracticeGame) -> Game? {
        let list = guessList(stored.language)
        guard case .success(let answer) = list.word(from: stored.answer) else {
            logger.error(
                "A practice game's answer is not on the lists; it cannot be played",
                metadata: ["player.id": "\(stored.player)", "practice.number": "\(stored.number)"])
            return nil
        }
        var game = Game(answer: answer, wordList: list, hardMode: stored.hardMode)
        core.restore(
            stored.guesses, into: &game,
            metadata: ["player.id": "\(stored.player)", "practice.number": "\(stored.number)"])
        return game
    }

    /// Replies with a practice game's board, posted anew (`reposts`) or edited in place.
    func practiceBoard(_ stored: PracticeGame, context: inout Context, reposts: Bool) {
        guard let game = play(stored) else { return context.reply(context.texts.practiceUnplayable) }
        context.replies.append(practiceBoard(stored, game, context: context, reposts: reposts))
    }

    private func practiceBoard(_ stored: PracticeGame, _ game: Game, context: Context, reposts: Bool)
        -> OutgoingMessage
    {
        let texts = context.texts
        let title = texts.practiceTitle(
            stored.kind, guesses: game.rows.count, maximumGuesses: game.maximumGuesses, hardMode: stored.hardMode)
        var again = PracticeOptions("", allowsPuzzle: false)
        again?.language = stored.language
        again?.hardMode = stored.hardMode
        let command: BotCommand = stored.archivePuzzle == nil ? .practice : .archive
        let buttons: [[OutgoingMessage.Button]] = [
            [
                OutgoingMessage.Button(
                    text: command == .practice ? texts.practiceAgainButton : texts.archiveButton,
                    data: "\(command.rawValue) \(again?.argument ?? "")"),
                OutgoingMessage.Button(text: texts.statsButton, data: BotCommand.stats.rawValue),
            ],
            [LiveBoards.analysisButton(for: stored, texts: texts)],
        ]
        return liveBoards.board(
            game, language: stored.language, title: title,
            ending: context.platform.buttons ? [] : [texts.practiceCommands],
            buttons: context.platform.buttons ? buttons : [], key: "practice:\(stored.number)", in: context.turn,
            reposts: reposts)
    }

    // MARK: - Sharing and statistics

    /// `/share` of a practice or archive game in the direct chat: marked, so that nobody takes it for a day's.
    func sharePractice(_ stored: PracticeGame, context: inout Context) {
        guard stored.result != nil, !stored.abandoned, let game = play(stored) else {
            return context.reply(stored.result == nil ? context.texts.practiceNotFinished : context.texts.practiceOver)
        }
        let share = SharedResult(
            game: game, kind: stored.archivePuzzle == nil ? .practice : .archive,
            puzzle: stored.archivePuzzle ?? PuzzleNumber(0), gameName: configuration.gameName)
        context.reply(
            share?.text(theme: configuration.shareTheme, language: stored.language).htmlEscaped
                ?? context.texts.practiceOver)
    }

    /// A practice or archive result shared in a group: acknowledged, never counted, and why, once a group.
    func pastedPractice(context: inout Context) {
        guard var group = context.group else { return }
        if !group.practiceSharesExplained {
            group.practiceSharesExplained = true
            context.group = group
            if context.platform.reactions { context.react(.notCounted, otherwise: "") }
            return context.reply(context.texts.practiceShareNotCounted)
        }
        context.react(.notCounted, otherwise: context.texts.practiceShareAcknowledged(name: context.player.displayName))
    }

    /// The practice section of `/stats` in a language: nil before a practice or archive game there has ended.
    func practiceStatistics(language: Language, context: Context) async throws -> String? {
        let results = try await context.store.practiceResults(of: context.player.id, language: language)
        guard !results.isEmpty else { return nil }
        let analyses = try await context.store.recentPracticeAnalyses(
            of: context.player.id, language: language, limit: Self.averagedAnalyses)
        return context.texts.practiceStatistics(
            Statistics(results: results.finished), givenUp: results.givenUp,
            scores: averageScores(analyses, player: context.player.id))
    }
}
