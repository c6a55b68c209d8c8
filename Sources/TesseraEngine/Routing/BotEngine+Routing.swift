import Foundation
public import TesseraCore

/// The router: which feature answers a message. Each reads the message as a ``Turn`` and answers with a
/// ``Reply``; where a command takes several steps, each step reads the turn as the ones before left it
/// (``Turn/applying(_:)``), and the replies add up (``Reply/add(_:)``).
extension BotEngine {
    /// `firstMessage`: the sender's first message in the direct chat; one that plays nothing ("hi") is
    /// welcomed rather than corrected.
    func respond(to input: BotInput, in turn: Turn, firstMessage: Bool = false) async throws -> Reply {
        if turn.message.isEdited {
            return turn.message.revealsGuess ? groupBoards.deleteRevealedGuess(in: turn) : pastes.edited(in: turn)
        }
        switch turn.message.event {
        case .added(let seesEveryMessage)?:
            // One greeting, not a reply to anything: what the group can do, and how to set it up.
            let html = turn.texts.greeting(seesEveryMessage: seesEveryMessage) + "\n\n" + turn.texts.groupHelp
            return Reply(turn.post(html))
        case .query?:
            // Answered in handle(_:at:in:), before anything is stored.
            return Reply()
        case .unreadable?:
            // Nobody is left talking to a bot that cannot hear them: what to do instead, in plain text.
            return Reply(turn.post(turn.texts.cannotRead))
        case nil:
            break
        }
        switch input {
        case .text:
            if turn.message.revealsGuess { return groupBoards.deleteRevealedGuess(in: turn) }
            if let share = SharedResult(parsing: turn.message.text), pastes.isCounted(share) {
                return try await pastes.pasted(share, in: turn)
            }
            if turn.isGroup, let share = PuzzleShare(parsing: turn.message.text) {
                return try await pastes.pasted(share, in: turn)
            }
            if turn.isGroup { return Reply() }
            return turn.reply(
                firstMessage ? core.welcome(playing: turn.language, player: turn.player) : turn.texts.guessHowTo)
        case .word(let word):
            if turn.isGroup { return Reply() }
            let reply = try await practice.guessInFocus(word, in: turn)
            // Refused, and no word at all (not a puzzle played before /forgetme): the player is saying hello.
            guard firstMessage, reply.acceptedGuess == nil,
                case .failure = core.guessList(turn.language).guess(from: word)
            else { return reply }
            var welcome = reply
            welcome.messages = [turn.answer(core.welcome(playing: turn.language, player: turn.player))]
            return welcome
        case .command(let command):
            // In groups, unknown commands are for other bots.
            guard let known = command.known else {
                return turn.isGroup ? Reply() : turn.reply(turn.texts.unknownCommand)
            }
            return try await self.command(known, argument: command.argument, in: turn)
        }
    }

    private func command(_ command: BotCommand, argument: String, in turn: Turn) async throws -> Reply {
        switch command {
        case .start, .help: return try await start(command, argument: argument, in: turn)
        case .play where !turn.isGroup:
            var chosen: Language?
            if !argument.isEmpty {
                chosen = CommandWords.language(named: argument)
                if chosen == nil { return turn.reply(turn.texts.playUsage) }
            }
            var (reply, turn) = try await playingDaily(chosen, in: turn)
            reply.add(turn.reply(turn.texts.playing(turn.language)))
            return reply
        case .guess, .play:
            if turn.isGroup { return try await groupBoards.playPrivately(in: turn) }
            if argument.isEmpty { return turn.reply(turn.texts.guessNeedsWord) }
            return try await practice.guessInFocus(argument, in: turn)
        case .practice: return try await practice.practice(argument, in: turn)
        case .archive: return try await practice.archive(argument, in: turn)
        case .board:
            return try await withPracticeInFocus(in: turn) { focused, turn in
                if let focused { return practice.board(focused, in: turn, reposts: true) }
                return try await dailyPlay.board(in: turn)
            }
        case .hard: return try await dailyPlay.hardMode(argument, in: turn)
        case .stats: return try await statistics(in: turn)
        case .analysis:
            // By default, the practice game in focus, if it has ended.
            guard argument.isEmpty else { return try await analyses.analysis(argument, focused: nil, in: turn) }
            return try await withPracticeInFocus(in: turn) { focused, turn in
                try await analyses.analysis(argument, focused: focused, in: turn)
            }
        case .share:
            return try await withPracticeInFocus(in: turn) { focused, turn in
                if let focused { return practice.share(focused, in: turn) }
                return try await dailyPlay.share(in: turn)
            }
        case .leaderboard: return try await leaderboards.leaderboard(argument, in: turn)
        case .join: return try await groupBoards.join(in: turn)
        case .leave: return try await groupBoards.leave(in: turn)
        case .settings:
            // A player's own settings: how a win arrives in their direct chat, and its pictures (in a group,
            // pictures are the group's setting).
            let name = argument.lowercased().split(separator: " ").first
            if name == "effects" {
                return playerSettings.effects(String(argument.dropFirst("effects".count)), in: turn)
            }
            if name == "pictures", !turn.isGroup {
                return playerSettings.pictures(String(argument.dropFirst("pictures".count)), in: turn)
            }
            return try await groupBoards.settings(argument, in: turn)
        case .forgetme: return privacy.forgetMe(in: turn)
        case .export: return privacy.export(in: turn)
        case .timezone: return playerSettings.timeZone(argument, in: turn)
        case .language:
            // Said with the change: where the next word goes, when a game of another language is still open.
            let reply = playerSettings.language(argument, in: turn)
            guard !turn.isGroup, reply.player != nil else { return reply }
            return reply.saying(try await practice.openGames(in: turn.applying(reply)), in: turn)
        case .remind: return playerSettings.remind(argument, in: turn)
        }
    }

    /// `/start` and `/help`. In a group: what the group can do there, not how to guess in private. A group's play
    /// button opens the direct chat on the group's puzzle (`/start play-en`): the next word goes there, not to a
    /// practice game.
    private func start(_ command: BotCommand, argument: String, in turn: Turn) async throws -> Reply {
        if turn.isGroup { return turn.reply(turn.texts.groupHelp) }
        guard command == .start else { return turn.reply(turn.texts.help) }
        guard let chosen = OutgoingMessage.Button.playedLanguage(fromStart: argument) else {
            return turn.reply(core.welcome(playing: turn.language, player: turn.player))
        }
        var (reply, turn) = try await playingDaily(chosen, in: turn)
        reply.add(turn.reply(core.welcome(playing: turn.language, player: turn.player, namingPuzzle: true)))
        return reply
    }

    /// The direct chat plays the daily puzzle again, `language`'s when one is chosen (the bot keeps the player's
    /// own language): the reply so far, and the turn as it leaves the player.
    private func playingDaily(_ language: Language?, in turn: Turn) async throws -> (Reply, Turn) {
        var player = turn.player
        if let language { player.play(language) }
        let chosen = turn.with(player: player)
        let reply = try await practice.focusOnDailyPuzzle(in: chosen).saving(player, over: turn.player)
        return (reply, chosen.applying(reply))
    }

    /// Answers from the practice game in focus in a direct chat, if any (nil in a group), with the turn as reading
    /// it left the player; the reply carries that.
    private func withPracticeInFocus(
        in turn: Turn, _ answer: (PracticeGame?, Turn) async throws -> Reply
    ) async throws -> Reply {
        guard !turn.isGroup else { return try await answer(nil, turn) }
        let (focused, player) = try await practice.inFocus(in: turn)
        return try await answer(focused, turn.with(player: player)).saving(player, over: turn.player)
    }

    /// `/stats`: the daily games' statistics (``DailyPlay/statistics(in:scores:sections:)``), with the averaged
    /// scores of their analyses and the practice games' section.
    private func statistics(in turn: Turn) async throws -> Reply {
        let scores = try await analyses.averageScores(
            of: turn.player.id, language: turn.language, store: try turn.reads(of: Analyses.self))
        let practiced = try await practice.statistics(language: turn.language, in: turn)
        return try await dailyPlay.statistics(in: turn, scores: scores, sections: practiced.map { [$0] } ?? [])
    }
}

extension BotEngine {
    /// The command menus to publish: one in the configured default language for everyone, and one for each
    /// language, for people whose app uses it.
    public static func commandMenus(defaultLanguage: Language) -> [CommandMenu] {
        func menu(_ language: Language, code: String?) -> CommandMenu {
            CommandMenu(
                languageCode: code,
                commands: BotCommand.allCases.map {
                    CommandMenu.Command(name: $0.rawValue, description: language.texts.describe($0))
                })
        }
        return [menu(defaultLanguage, code: nil)]
            + Language.allCases.map { menu($0, code: $0.rawValue) }
    }
}
