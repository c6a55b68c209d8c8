import Foundation
import Logging
import TesseraCore

/// The day's puzzle in the direct chat: the game rebuilt from its stored guesses, a guess, the board, hard mode,
/// statistics and the share text; in a group, squares only.
extension BotEngine {
    /// The player's game of their current puzzle in the board's language, rebuilt from its stored guesses.
    struct DailyGame {
        var game: Game
        var stored: StoredGame
        /// Not started, and the player had a game of this puzzle before they asked to be forgotten.
        var playedBeforeForgetting = false
    }

    func dailyGame(_ context: Context) async throws -> DailyGame {
        let player = context.player
        let list = guessList(context.language)
        let puzzle = player.puzzle(at: context.now, schedule: configuration.schedule)
        let existing = try await context.store.game(of: player.id, language: context.language, puzzle: puzzle)
        let stored =
            existing
            ?? StoredGame(
                player: player.id, language: context.language, puzzle: puzzle,
                hardMode: player.prefersHardMode || context.group?.hardModeRequired == true)
        var game = Game(answer: answer(for: puzzle, in: context.language), wordList: list, hardMode: stored.hardMode)
        restore(
            stored.guesses, into: &game, metadata: ["player.id": "\(player.id)", "puzzle.number": "\(puzzle)"])
        var replay = false
        if existing == nil {
            for key in replayKeys(player.id, language: context.language, puzzle: puzzle) where !replay {
                replay = try await context.store.isReplayGuarded(key)
            }
        }
        return DailyGame(game: game, stored: stored, playedBeforeForgetting: replay)
    }

    /// Replays a stored game's guesses; one that cannot be read (a list changed) is logged and left out.
    func restore(_ guesses: [String], into game: inout Game, metadata: Logger.Metadata) {
        for guess in guesses {
            switch game.wordList.word(from: guess) {
            case .success(let word): game.restore(word)
            case .failure(let rejection):
                logger.error(
                    "A stored guess cannot be read; it is left out of the board",
                    metadata: metadata.merging(["error": "\(rejection)"]) { $1 })
            }
        }
    }

    /// A guess, in a direct chat only: in a group it would show its letters to everyone.
    /// `read`: the daily game, when the caller has read it already.
    func guess(_ text: String, daily read: DailyGame? = nil, context: inout Context) async throws {
        var daily: DailyGame
        if let read { daily = read } else { daily = try await dailyGame(context) }
        if daily.playedBeforeForgetting { return context.reply(context.texts.playedBeforeForgetting) }
        let maximum = daily.game.maximumGuesses
        if let result = daily.game.result {
            context.reply(context.texts.alreadyFinished(result, maximumGuesses: maximum))
            return
        }
        switch daily.game.submit(text) {
        case .failure(let rejection):
            context.reply(context.texts.rejection(rejection))
        case .success(let row):
            daily.stored.guesses.append(daily.game.wordList.display(row.word).lowercased())
            context.outcome.acceptedGuess = daily.stored.language
            if let result = daily.game.result {
                daily.stored.result = result
                daily.stored.finishedAt = context.now
            }
            try await context.store.save(daily.stored)
            if daily.stored.result != nil {
                try await groupBoards.countOnBoards(daily.stored, at: context.now, in: context.store)
                try await context.store.requestAnalysis(
                    of: daily.stored.player, language: daily.stored.language, puzzle: daily.stored.puzzle, show: false)
            }
            context.replies.append(liveBoard(daily, context: context))
        }
    }

    func board(context: inout Context) async throws {
        let daily = try await dailyGame(context)
        if daily.game.rows.isEmpty {
            // In a group, words are not guesses: where to play instead.
            if context.isGroup { return context.take(try await groupBoards.playPrivately(in: context.turn)) }
            context.reply(context.texts.noGuessesYet)
        } else if context.isGroup {
            context.reply(groupProgress(daily.game, context: context))
        } else {
            // Asked for: the board again at the bottom of the chat, and the one edited from now on.
            context.replies.append(liveBoard(daily, context: context, reposts: true))
        }
    }

    func hardMode(_ argument: String, context: inout Context) async throws {
        guard let enable = PlayerSettings.onOff(argument, empty: true) else {
            return context.reply(context.texts.onOffUsage("hard"))
        }
        context.player.prefersHardMode = enable
        var daily = try await dailyGame(context)
        switch daily.game.setHardMode(enable) {
        case .failure:
            context.reply(context.texts.hardLater)
        case .success:
            if daily.stored.hardMode != enable {
                daily.stored.hardMode = enable
                try await context.store.save(daily.stored)
            }
            context.reply(enable ? context.texts.hardOn : context.texts.hardOff)
        }
    }

    func statistics(context: inout Context) async throws {
        let language = context.language
        let history = try await context.store.finishedGames(of: context.player.id, language: language)
        let today = context.player.puzzle(at: context.now, schedule: configuration.schedule)
        let scores = try await averageScores(of: context.player.id, language: language, store: context.store)
        var reply = context.texts.statistics(
            Statistics(history: history, today: today), language: language, scores: scores)
        if let practice = try await practiceStatistics(language: language, context: context) {
            reply += "\n\n" + practice
        }
        let official = try await context.store.officialResults(of: context.player.id)
        if !official.isEmpty {
            // The original game's day changes at midnight where the player is.
            let today = DailySchedule.wordle.puzzle(
                at: context.now, rollover: Player.rollover(context.player.timeZone, 0))
            reply += "\n\n" + context.texts.officialStatistics(Statistics(history: official, today: today))
        }
        context.reply(reply)
    }

    func share(context: inout Context) async throws {
        if !context.isGroup, let practice = try await practiceInFocus(&context) {
            return sharePractice(practice, context: &context)
        }
        let daily = try await dailyGame(context)
        guard
            let share = SharedResult(game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
        else {
            // In a group, a finished game of another language's puzzle is not the group's: say so, not "finish".
            if let group = context.group, let played = try await finishedElsewhere(daily.stored, group: group, context)
            {
                let texts = context.player.language.texts
                return context.take(
                    Reply(
                        groupBoards.otherLanguageNotice(
                            texts.shareOtherLanguage(played, groupPlays: group.language), in: context.turn)))
            }
            context.reply(context.texts.shareNotFinished)
            return
        }
        if context.isGroup { try await addToBoard(&context) }
        context.reply(share.text(theme: configuration.shareTheme, language: daily.stored.language).htmlEscaped)
    }

    /// The language of the player's finished game of the same puzzle in another language than the group's.
    func finishedElsewhere(_ game: StoredGame, group: Group, _ context: Context) async throws -> Language? {
        for language in Language.allCases where language != group.language {
            let other = try await context.store.game(of: game.player, language: language, puzzle: game.puzzle)
            if other?.result != nil { return language }
        }
        return nil
    }

    // MARK: - Boards

    /// Squares only, for groups while the day is open.
    func groupProgress(_ game: Game, context: Context) -> String {
        let name = context.player.displayName
        let maximum = game.maximumGuesses
        switch game.result {
        case .won(let guesses): return context.texts.groupWon(name: name, guesses: guesses, maximumGuesses: maximum)
        case .lost: return context.texts.groupLost(name: name, maximumGuesses: maximum)
        case nil:
            let squares = game.rows.map { String($0.feedback.states.map(configuration.shareTheme.square(for:))) }
            return context.texts.groupProgress(
                name: name,
                squares: squares.joined(separator: "\n"),
                guesses: game.rows.count,
                maximumGuesses: maximum
            )
        }
    }
}
