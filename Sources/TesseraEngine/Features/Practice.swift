import Foundation
import Logging
import TesseraCore

/// More to play between daily puzzles, in the direct chat: practice games on a random word (`/practice`) and
/// past puzzles from the archive (`/archive 312`). They are ``PracticeGame``s, stored apart from the daily games,
/// so no board, summary, streak, reminder or daily statistic reads them; they have their own section in `/stats`.
///
/// A player has at most one unfinished practice game. A word typed in the direct chat goes to the game touched
/// last, practice or daily (``PracticeGame/hasFocus``), and `/play` goes back to the daily puzzle. What a turn
/// changes of the player's record is ``Player/practiceInPlay``, kept in step with the stored game by
/// ``keep(_:player:)`` and carried in the reply with the game's write.
struct Practice: Feature {
    typealias Reads = any HistoryReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }
    private var groupBoards: GroupBoards { GroupBoards(core: core) }
    private var dailyPlay: DailyPlay { DailyPlay(core: core) }
    private var liveBoards: LiveBoards { LiveBoards(core: core) }

    // MARK: - Starting a game

    func practice(_ argument: String, in turn: Turn) async throws -> Reply {
        guard !turn.isGroup else { return try await groupBoards.playPrivately(in: turn) }
        guard let options = PracticeOptions(argument, allowsPuzzle: false) else {
            return turn.reply(turn.texts.practiceUsage)
        }
        return try await start(.practice, options: options, command: .practice, in: turn)
    }

    func archive(_ argument: String, in turn: Turn) async throws -> Reply {
        guard !turn.isGroup else { return try await groupBoards.playPrivately(in: turn) }
        guard let options = PracticeOptions(argument, allowsPuzzle: true) else {
            return turn.reply(turn.texts.archiveUsage)
        }
        let language = options.language ?? turn.language
        guard let puzzle = options.puzzle else {
            return try await listArchive(language, before: options.before, in: turn)
        }
        guard puzzle.rawValue >= 1 else { return turn.reply(turn.texts.archiveNoSuchPuzzle) }
        guard puzzle < core.earliestOpenPuzzle(at: turn.now) else {
            let latest = configuration.schedule.latestPuzzle(at: turn.now)
            return turn.reply(puzzle <= latest ? turn.texts.archiveStillOpen(puzzle) : turn.texts.archiveNoSuchPuzzle)
        }
        let daily = try await turn.store.game(of: turn.player.id, language: language, puzzle: puzzle)
        if let result = daily?.result {
            return turn.reply(turn.texts.archivePlayed(puzzle, result: result, onItsDay: true))
        }
        if let result = try await reads(turn).archiveResults(of: turn.player.id, language: language)[puzzle] {
            return turn.reply(turn.texts.archivePlayed(puzzle, result: result, onItsDay: false))
        }
        guard isDealable(puzzle, in: language) else { return turn.reply(turn.texts.archiveWithdrawn(puzzle)) }
        return try await start(.archive(puzzle), options: options, command: .archive, in: turn)
    }

    /// Starts a game, once the player has confirmed giving up an unfinished one and is within the day's limit.
    /// Asking again for the unfinished archive puzzle shows its board.
    private func start(
        _ kind: PracticeGame.Kind, options: PracticeOptions, command: BotCommand, in turn: Turn
    ) async throws -> Reply {
        guard configuration.practiceGamesPerDay > 0 else { return turn.reply(turn.texts.practiceOff) }
        let store = try reads(turn)
        var player = turn.player
        let language = options.language ?? turn.language
        let latest = try await store.latestPracticeGame(of: player.id)
        if var open = latest, open.result == nil {
            if case .archive = kind, open.kind == kind, open.language == language {
                open.hasFocus = true
                let kept = keep(open, player: &player)
                var reply = board(open, in: turn, reposts: true)
                reply.player = player
                reply.writes = [kept]
                return reply
            }
            guard options.confirmed else {
                return askToGiveUp(open, options: options, command: command, in: turn)
            }
        }
        let schedule = configuration.schedule
        let today = player.puzzle(at: turn.now, schedule: schedule)
        let startsKey = core.secret.tag(for: "practice|\(player.id)|\(today)")
        guard try await store.practiceStarts(startsKey) < configuration.practiceGamesPerDay else {
            let next = player.nextPuzzleStart(after: turn.now, schedule: schedule)
            return turn.reply(
                turn.texts.practiceLimit(configuration.practiceGamesPerDay, timeLeft: next.timeIntervalSince(turn.now)))
        }
        var writes: [Reply.Write] = []
        if var open = latest, open.result == nil {
            open.result = .lost
            open.abandoned = true
            open.finishedAt = turn.now
            open.hasFocus = false
            writes.append(keep(open, player: &player))
        }
        let answer: Word
        switch kind {
        case .practice:
            let played = try await store.finishedGames(of: player.id, language: language).map(\.puzzle)
            guard
                let drawn = practiceAnswer(in: language, at: turn.now, played: Set(played), previous: latest?.answer)
            else {
                var reply = Reply(turn.answer(turn.texts.practiceNothingYet), player: player)
                reply.writes = writes
                return reply
            }
            answer = drawn
        case .archive(let puzzle):
            answer = core.answer(for: puzzle, in: language)
        }
        let game = PracticeGame(
            player: player.id, number: (latest?.number ?? 0) + 1, kind: kind, language: language,
            answer: language.wordList.letters(answer),
            hardMode: options.hardMode || player.prefersHardMode, startedAt: turn.now)
        writes += [.practiceStart(key: startsKey, until: today), keep(game, player: &player)]
        var reply = board(game, in: turn, reposts: true)
        reply.player = player
        reply.writes = writes
        return reply
    }

    /// Asks whether to give up the unfinished game `open` for the one asked for: with a button, or the command to
    /// type where there are none.
    private func askToGiveUp(
        _ open: PracticeGame, options: PracticeOptions, command: BotCommand, in turn: Turn
    ) -> Reply {
        var confirming = options
        confirming.confirmed = true
        let data = "\(command.rawValue) \(confirming.argument)"
        guard turn.platform.buttons else {
            return turn.reply(turn.texts.abandonQuestion(open, typed: "/" + data))
        }
        return Reply(
            OutgoingMessage(
                chat: turn.message.chat, chatKind: turn.message.chatKind,
                html: turn.texts.abandonQuestion(open, typed: nil), replyTo: turn.message.messageID,
                buttons: [[OutgoingMessage.Button(text: turn.texts.abandonButton, data: data).styled(.danger)]]))
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
        let pool = core.practiceWords(in: language, closedThrough: core.earliestOpenPuzzle(at: now).rawValue - 1)
        let fresh = pool.filter { puzzle, word in
            !played.contains(puzzle) && list.letters(word) != previous
        }
        let choices = (fresh.isEmpty ? pool : fresh).map(\.1)
        guard !choices.isEmpty else { return nil }
        return choices[configuration.randomBelow(choices.count)]
    }

    /// Whether a past puzzle's word is one the bot still shows: an allowed guess it does not withhold. One taken
    /// off the lists (an abbreviation, a slur) or withheld (denied, or rarer than the current rules allow) keeps
    /// its history but is never dealt. A word that is only no longer an answer of the newest edition (a verb
    /// form) was a fair puzzle on its day, and is played from the archive like any other.
    func isDealable(_ puzzle: PuzzleNumber, in language: Language) -> Bool {
        let answer = core.answer(for: puzzle, in: language)
        return language.wordList.allowedGuesses.contains(answer) && !language.wordList.withheld.contains(answer)
    }

    /// `/archive`: the newest past puzzles the player has not played, on their day or from the archive, a
    /// phone screen at a time (`before`: older than that puzzle), with a button to the next ones. The first
    /// screen says when the player's yesterday, still today's somewhere in the world, joins the archive.
    private func listArchive(_ language: Language, before: PuzzleNumber?, in turn: Turn) async throws -> Reply {
        let player = turn.player.id
        let finishedOnTheirDay = Set(
            try await reads(turn).finishedGames(of: player, language: language).map(\.puzzle))
        let finishedFromArchive = try await reads(turn).archiveResults(of: player, language: language)
        let unplayed = { (puzzle: PuzzleNumber) in
            !finishedOnTheirDay.contains(puzzle) && finishedFromArchive[puzzle] == nil
        }
        var puzzles: [(PuzzleNumber, CivilDate)] = []
        let newest = core.earliestOpenPuzzle(at: turn.now).rawValue - 1
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
            turn.player.puzzle(at: turn.now, schedule: configuration.schedule).rawValue - 1)
        if before == nil, yesterday.rawValue > newest, unplayed(yesterday) {
            let schedule = configuration.schedule
            let closes = schedule.start(
                of: schedule.day(of: yesterday).adding(days: 1), rollover: EngineCore.lastRollover)
            let zone = DayRollover.stored(turn.player.timeZone, 0).timeZone
            coming = (yesterday, LocalTime(closes, seenFrom: turn.now, in: zone))
        }
        // The next screen's command: `archive before 312 es`.
        let next = older ? puzzles.last.map { "archive before \($0.0.rawValue) \(language.rawValue)" } : nil
        guard !puzzles.isEmpty || coming != nil else { return turn.reply(turn.texts.archiveEmpty) }
        let typed = next.map { "/" + $0 }
        return Reply(
            turn.answer(
                turn.texts.archiveList(
                    puzzles, language: language, coming: coming, older: turn.platform.buttons ? nil : typed),
                buttons: turn.platform.buttons
                    ? next.map { [[.init(text: turn.texts.archiveMoreButton, data: $0)]] } ?? [] : []))
    }

    /// How many past puzzles `/archive` lists at a time: a phone screen.
    static let archiveListed = 10

    // MARK: - Playing

    /// The write that stores a practice game (always the player's latest), with ``Player/practiceInPlay`` kept
    /// in step.
    private func keep(_ game: PracticeGame, player: inout Player) -> Reply.Write {
        player.practiceInPlay = game.result == nil || game.hasFocus
        return .practiceGame(game)
    }

    /// The player's latest practice game when it may take a word (``Player/practiceInPlay``); nil, reading
    /// nothing, for a player with none.
    private func practiceInPlay(player: inout Player, in turn: Turn) async throws
        -> PracticeGame?
    {
        guard player.practiceInPlay else { return nil }
        let latest = try await reads(turn).latestPracticeGame(of: player.id)
        player.practiceInPlay = latest.map { $0.result == nil || $0.hasFocus } ?? false
        return player.practiceInPlay ? latest : nil
    }

    /// The practice game the player touched after the daily puzzle, if any: what `/board`, `/share` and
    /// `/analysis` show; `player` as reading it left them.
    /// The games open besides the daily puzzle of the turn's language, when a practice or archive game of another
    /// language is one of them: said when the player changes language, so they know where the next word goes.
    func openGames(in turn: Turn) async throws -> [OpenGame] {
        var player = turn.player
        guard let game = try await practiceInPlay(player: &player, in: turn), game.result == nil,
            game.language != turn.language
        else { return [] }
        return [.daily(turn.language), .practice(game.kind, game.language)]
    }

    func inFocus(in turn: Turn) async throws -> (game: PracticeGame?, player: Player) {
        var player = turn.player
        guard let game = try await practiceInPlay(player: &player, in: turn), game.hasFocus else {
            return (nil, player)
        }
        return (game, player)
    }

    /// A word in the direct chat: it goes to the game touched last while both are open, else to the open one. A
    /// new day starts on its own puzzle: a practice game begun on an earlier day keeps the word only once the
    /// day's puzzle is done. With games open in two languages, a word of only one of them goes to that one's
    /// game (the player means the game it is a word of), and a word of neither says which games are open.
    func guessInFocus(_ text: String, in turn: Turn) async throws -> Reply {
        var player = turn.player
        guard var latest = try await practiceInPlay(player: &player, in: turn) else {
            return try await dailyPlay.guess(text, in: turn.with(player: player)).saving(player, over: turn.player)
        }
        let daily = try await dailyPlay.dailyGame(in: turn)
        let dailyOpen = daily.game.result == nil && !daily.playedBeforeForgetting
        let schedule = configuration.schedule
        let focused =
            latest.hasFocus
            && player.puzzle(at: latest.startedAt, schedule: schedule)
                == player.puzzle(at: turn.now, schedule: schedule)
        var takesWord = latest.result == nil ? focused || !dailyOpen : focused && !dailyOpen
        var openGames: [OpenGame] = []
        if latest.result == nil, dailyOpen, latest.language != turn.language {
            let reads = { (language: Language) in
                if case .success = self.core.guessList(language).guess(from: text) { true } else { false }
            }
            switch (reads(latest.language), reads(turn.language)) {
            case (true, false): takesWord = true
            case (false, true): takesWord = false
            case (false, false):
                // The same length in both: a word neither list has, not a typo of length.
                if text.count == latest.language.wordList.wordLength {
                    openGames = [.daily(turn.language), .practice(latest.kind, latest.language)]
                }
            case (true, true): break
            }
        }
        if takesWord {
            return try await guessPractice(text, game: latest, player: player, in: turn).saying(openGames, in: turn)
        }
        var reply = Reply()
        if latest.hasFocus {
            latest.hasFocus = false
            reply.writes = [keep(latest, player: &player)]
        }
        reply.add(try await dailyPlay.guess(text, daily: daily, in: turn.with(player: player)))
        return reply.saving(player, over: turn.player).saying(openGames, in: turn)
    }

    /// `/play` in the direct chat: words go to the daily puzzle again.
    func focusOnDailyPuzzle(in turn: Turn) async throws -> Reply {
        var (focused, player) = try await inFocus(in: turn)
        var reply = Reply()
        if var latest = focused {
            latest.hasFocus = false
            reply.writes = [keep(latest, player: &player)]
        }
        return reply.saving(player, over: turn.player)
    }

    private func guessPractice(_ text: String, game stored: PracticeGame, player: Player, in turn: Turn)
        async throws -> Reply
    {
        var (stored, player) = (stored, player)
        var focus: [Reply.Write] = []
        if !stored.hasFocus {
            stored.hasFocus = true
            focus = [keep(stored, player: &player)]
        }
        func answer(_ html: String) -> Reply {
            var reply = Reply(turn.answer(html)).saving(player, over: turn.player)
            reply.writes = focus
            return reply
        }
        guard stored.result == nil else { return answer(turn.texts.practiceOver) }
        guard var game = play(stored) else { return answer(turn.texts.practiceUnplayable) }
        switch game.submit(text) {
        case .failure(let rejection):
            return answer(turn.texts.rejection(rejection))
        case .success(let row):
            stored.guesses.append(game.wordList.letters(row.word))
            if let result = game.result {
                stored.result = result
                stored.finishedAt = turn.now
            }
            let kept = keep(stored, player: &player)
            var reply = Reply(board(stored, game, in: turn, reposts: false)).saving(player, over: turn.player)
            reply.writes = [kept]
            if stored.result != nil {
                reply.writes.append(.practiceAnalysis(player: stored.player, number: stored.number, show: false))
            }
            reply.acceptedGuess = stored.language
            return reply
        }
    }

    /// The game a stored practice game is, rebuilt from its answer and guesses; nil when its answer is no longer
    /// on the lists.
    func play(_ stored: PracticeGame) -> Game? {
        let list = core.guessList(stored.language)
        guard case .success(let answer) = list.word(from: stored.answer) else {
            core.logger.error(
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

    /// A practice game's board as a reply, posted anew (`reposts`) or edited in place.
    func board(_ stored: PracticeGame, in turn: Turn, reposts: Bool) -> Reply {
        guard let game = play(stored) else { return turn.reply(turn.texts.practiceUnplayable) }
        return Reply(board(stored, game, in: turn, reposts: reposts))
    }

    private func board(_ stored: PracticeGame, _ game: Game, in turn: Turn, reposts: Bool) -> OutgoingMessage {
        let texts = turn.texts
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
            [OutgoingMessage.Button.analysis(for: stored, texts: texts)],
        ]
        return liveBoards.board(
            game, language: stored.language, title: title,
            ending: turn.platform.buttons ? [] : [texts.practiceCommands],
            buttons: turn.platform.buttons ? buttons : [], key: "practice:\(stored.number)", in: turn,
            reposts: reposts)
    }

    // MARK: - Sharing and statistics

    /// `/share` of a practice or archive game in the direct chat: marked, so that nobody takes it for a day's.
    func share(_ stored: PracticeGame, in turn: Turn) -> Reply {
        guard stored.result != nil, !stored.abandoned, let game = play(stored) else {
            return turn.reply(stored.result == nil ? turn.texts.practiceNotFinished : turn.texts.practiceOver)
        }
        let share = SharedResult(
            game: game, kind: stored.archivePuzzle == nil ? .practice : .archive,
            puzzle: stored.archivePuzzle ?? PuzzleNumber(0), gameName: configuration.gameName)
        return turn.reply(
            share?.text(theme: configuration.shareTheme, language: stored.language).htmlEscaped
                ?? turn.texts.practiceOver)
    }

    /// A practice or archive result shared in a group: acknowledged, never counted, and why, once a group.
    func pasted(in turn: Turn) -> Reply {
        guard var group = turn.group else { return Reply() }
        if !group.practiceSharesExplained {
            group.practiceSharesExplained = true
            var reply = Reply(group: group)
            if turn.platform.reactions { reply.messages.append(turn.reaction(.notCounted, otherwise: "")) }
            reply.messages.append(turn.answer(turn.texts.practiceShareNotCounted))
            return reply
        }
        return Reply(
            turn.reaction(.notCounted, otherwise: turn.texts.practiceShareAcknowledged(name: turn.player.displayName)))
    }

    /// The practice section of `/stats` in a language: nil before a practice or archive game there has ended.
    func statistics(language: Language, in turn: Turn) async throws -> String? {
        let results = try await reads(turn).practiceResults(of: turn.player.id, language: language)
        guard !results.isEmpty else { return nil }
        let analyses = try await reads(turn).recentPracticeAnalyses(
            of: turn.player.id, language: language, limit: Analyses.averagedAnalyses)
        return turn.texts.practiceStatistics(
            Statistics(results: results.finished), givenUp: results.givenUp,
            scores: core.averageScores(analyses, player: turn.player.id))
    }
}

extension Reply {
    /// The reply with the open games named after its first message in the chat, when there are any.
    func saying(_ games: [OpenGame], in turn: Turn) -> Reply {
        guard !games.isEmpty, let index = messages.firstIndex(where: { $0.chat == turn.message.chat }) else {
            return self
        }
        var reply = self
        reply.messages[index].html += "\n\n" + turn.applying(self).texts.openGames(games)
        return reply
    }
}
