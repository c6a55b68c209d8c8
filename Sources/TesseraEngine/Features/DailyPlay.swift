import Foundation
import Logging
import TesseraCore

/// The day's puzzle in the direct chat: the game rebuilt from its stored guesses, a guess, the board, hard mode,
/// statistics and the share text; in a group, squares only.
struct DailyPlay: Feature {
    typealias Reads = any BoardReads & HistoryReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }
    private var groupBoards: GroupBoards { GroupBoards(core: core) }
    private var liveBoards: LiveBoards { LiveBoards(core: core) }

    /// The turn's player's game of their current puzzle in the turn's language.
    func dailyGame(in turn: Turn) async throws -> DailyGame {
        try await dailyGame(
            of: turn.player, language: turn.language, hardModeRequired: turn.group?.hardModeRequired == true,
            at: turn.now, in: turn.store)
    }

    /// A player's game of their current puzzle in `language`; a new one in hard mode when they prefer it or a
    /// group requires it.
    func dailyGame(
        of player: Player, language: Language, hardModeRequired: Bool = false, at now: Date,
        in store: any MessageReads
    ) async throws -> DailyGame {
        let list = core.guessList(language)
        let puzzle = player.puzzle(at: now, schedule: configuration.schedule)
        let existing = try await store.game(of: player.id, language: language, puzzle: puzzle)
        let stored =
            existing
            ?? StoredGame(
                player: player.id, language: language, puzzle: puzzle,
                hardMode: player.prefersHardMode || hardModeRequired)
        var game = Game(answer: core.answer(for: puzzle, in: language), wordList: list, hardMode: stored.hardMode)
        core.restore(
            stored.guesses, into: &game, metadata: ["player.id": "\(player.id)", "puzzle.number": "\(puzzle)"])
        var replay = false
        if existing == nil {
            replay = try await store.isReplayGuarded(core.replayKey(player.id, language: language, puzzle: puzzle))
        }
        return DailyGame(game: game, stored: stored, playedBeforeForgetting: replay)
    }

    /// A guess, in a direct chat only: in a group it would show its letters to everyone.
    /// `read`: the daily game, when the caller has read it already.
    func guess(_ text: String, daily read: DailyGame? = nil, in turn: Turn) async throws -> Reply {
        var daily: DailyGame
        if let read { daily = read } else { daily = try await dailyGame(in: turn) }
        if daily.playedBeforeForgetting { return turn.reply(turn.texts.playedBeforeForgetting) }
        let maximum = daily.game.maximumGuesses
        if let result = daily.game.result {
            return turn.reply(turn.texts.alreadyFinished(result, maximumGuesses: maximum))
        }
        switch daily.game.submit(text) {
        case .failure(let rejection):
            return turn.reply(turn.texts.rejection(rejection))
        case .success(let row):
            daily.stored.guesses.append(daily.game.wordList.letters(row.word))
            if let result = daily.game.result {
                daily.stored.result = result
                daily.stored.finishedAt = turn.now
            }
            var reply = Reply(liveBoards.board(of: daily, in: turn))
            reply.writes = [.dailyGame(daily.stored)]
            if daily.stored.result != nil {
                let game = daily.stored
                reply.writes += [
                    .countOnBoards(game),
                    .analysis(player: game.player, language: game.language, puzzle: game.puzzle, show: false),
                ]
            }
            // The game over, in the direct chat: its result card below the board (which stays the one message
            // edited), captioned with the share text, where the player has pictures.
            var below: OutgoingMessage?
            if Pictures.wanted(in: turn),
                let share = SharedResult(
                    game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
            {
                var card = turn.answer(
                    share.text(theme: configuration.shareTheme, language: daily.stored.language).htmlEscaped)
                card.picture = Pictures.resultCard(of: daily.game, share: share, theme: configuration.shareTheme)
                below = card
            }
            // A win is celebrated where the platform can: an edit cannot carry an effect, so it comes on the card,
            // or on a 🎉 of its own.
            if case .won? = daily.stored.result, !turn.isGroup, turn.platform.messageEffects,
                turn.player.messageEffects
            {
                if below == nil {
                    below = OutgoingMessage(
                        chat: turn.message.chat, chatKind: turn.message.chatKind, html: "🎉", thread: turn.message.thread
                    )
                }
                below?.effect = .celebration
            }
            if let below { reply.messages.append(below) }
            reply.acceptedGuess = daily.stored.language
            return reply
        }
    }

    /// `/board`: the board again at the bottom of the direct chat; squares only in a group.
    func board(in turn: Turn) async throws -> Reply {
        let daily = try await dailyGame(in: turn)
        if daily.game.rows.isEmpty {
            // In a group, words are not guesses: where to play instead.
            if turn.isGroup { return try await groupBoards.playPrivately(in: turn) }
            return turn.reply(turn.texts.noGuessesYet)
        } else if turn.isGroup {
            return turn.reply(groupProgress(daily.game, in: turn))
        } else {
            // Asked for: the board again at the bottom of the chat, and the one edited from now on.
            return Reply(liveBoards.board(of: daily, in: turn, reposts: true))
        }
    }

    /// `/hard on|off`: the player's preference, and the day's game when it has not begun.
    func hardMode(_ argument: String, in turn: Turn) async throws -> Reply {
        guard let enable = CommandWords.onOff(argument, empty: true) else {
            return turn.reply(turn.texts.onOffUsage("hard"))
        }
        var player = turn.player
        player.prefersHardMode = enable
        let turn = turn.with(player: player)
        var daily = try await dailyGame(in: turn)
        switch daily.game.setHardMode(enable) {
        case .failure:
            return Reply(turn.answer(turn.texts.hardLater), player: player)
        case .success:
            var reply = Reply(turn.answer(enable ? turn.texts.hardOn : turn.texts.hardOff), player: player)
            if daily.stored.hardMode != enable {
                daily.stored.hardMode = enable
                reply.writes = [.dailyGame(daily.stored)]
            }
            return reply
        }
    }

    /// `/stats`: the player's daily games in the turn's language, then the sections other features add
    /// (practice, with its averaged scores), then their pasted Wordle results.
    func statistics(in turn: Turn, scores: AverageScores?, sections: [String]) async throws -> Reply {
        let language = turn.language
        let history = try await reads(turn).finishedGames(of: turn.player.id, language: language)
        let today = turn.player.puzzle(at: turn.now, schedule: configuration.schedule)
        let statistics = Statistics(history: history, today: today)
        var reply = turn.texts.statistics(statistics, language: language, scores: scores)
        for section in sections { reply += "\n\n" + section }
        let official = try await reads(turn).officialResults(of: turn.player.id)
        if !official.isEmpty {
            // The original game's day changes at midnight where the player is.
            let today = DailySchedule.wordle.puzzle(at: turn.now, rollover: DayRollover.stored(turn.player.timeZone, 0))
            reply += "\n\n" + turn.texts.officialStatistics(Statistics(history: official, today: today))
        }
        var answer = turn.answer(reply)
        // The chart, as the original draws it, with the text as its caption: the daily games' figures.
        if Pictures.wanted(in: turn), statistics.played > 0 {
            answer.picture = Pictures.statisticsChart(
                statistics, last: history.max { $0.puzzle < $1.puzzle }, language: turn.player.language,
                theme: configuration.shareTheme)
        }
        return Reply(answer)
    }

    /// `/share` of the day's game: its share text; in a group, the sharer joins its board. A game finished in
    /// another language than the one the group keeps to is shared all the same: joining said once which counts.
    func share(in turn: Turn) async throws -> Reply {
        var daily = try await dailyGame(in: turn)
        if turn.isGroup, daily.game.result == nil, let other = try await finishedElsewhere(daily.stored, in: turn) {
            daily = other
        }
        guard
            let share = SharedResult(game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
        else { return turn.reply(turn.texts.shareNotFinished) }
        var reply = turn.isGroup ? try await groupBoards.addToBoard(in: turn).reply : Reply()
        reply.messages.append(
            turn.answer(share.text(theme: configuration.shareTheme, language: daily.stored.language).htmlEscaped))
        return reply
    }

    /// The player's finished game of the same puzzle in another language.
    private func finishedElsewhere(_ game: StoredGame, in turn: Turn) async throws -> DailyGame? {
        for language in Language.allCases where language != game.language {
            guard try await turn.store.game(of: game.player, language: language, puzzle: game.puzzle)?.result != nil
            else { continue }
            return try await dailyGame(of: turn.player, language: language, at: turn.now, in: turn.store)
        }
        return nil
    }

    /// Squares only, for groups while the day is open.
    private func groupProgress(_ game: Game, in turn: Turn) -> String {
        let name = turn.player.displayName
        let maximum = game.maximumGuesses
        switch game.result {
        case .won(let guesses): return turn.texts.groupWon(name: name, guesses: guesses, maximumGuesses: maximum)
        case .lost: return turn.texts.groupLost(name: name, maximumGuesses: maximum)
        case nil:
            let squares = game.rows.map { String($0.feedback.states.map(configuration.shareTheme.square(for:))) }
            return turn.texts.groupProgress(
                name: name,
                squares: squares.joined(separator: "\n"),
                guesses: game.rows.count,
                maximumGuesses: maximum
            )
        }
    }

    /// Answers the Share button's query: the player's result of their current puzzle, ready to post in the
    /// chat they picked, or, before they have finished it (or ever played), a button that opens the direct
    /// chat to play. Nothing is stored: a stranger's query makes no player, and an answer waits in no chat's
    /// queue (``OutgoingMessage/Action/answerQuery(id:title:)`` goes out on its own): the answer, for the caller to
    /// queue.
    func answerShareQuery(id: String, message: ChatMessage, at now: Date, in store: any MessageReads)
        async throws -> OutgoingMessage
    {
        var share: SharedResult?
        var played = Language.english
        var language = message.senderLanguage.flatMap(Language.init(tag:)) ?? configuration.defaultLanguage
        if let player = try await store.player(message.sender) {
            language = player.language
            let daily = try await dailyGame(of: player, language: player.puzzleLanguage, at: now, in: store)
            share = SharedResult(game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
            played = daily.stored.language
        }
        return OutgoingMessage(
            chat: message.chat, chatKind: message.chatKind,
            html: share?.text(theme: configuration.shareTheme, language: played).htmlEscaped ?? "",
            action: .answerQuery(
                id: id, title: share.map { language.texts.shareTitle($0.headline) } ?? language.texts.shareFirstPlay))
    }
}
