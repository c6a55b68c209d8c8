import Foundation
import TesseraCore

/// Group boards: who is on them, which results count, the settings administrators change, and what the bot does
/// with a guess shown in a group.
struct GroupBoards: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }
    private var schedule: DailySchedule { configuration.schedule }

    /// A group seen for the first time: the configured defaults, with its day open (no summary of the day
    /// before it knew the bot).
    func newGroup(_ chat: ChatID, at now: Date) -> Group {
        let rollover = DayRollover.stored(configuration.defaultTimeZone, configuration.defaultRolloverHour)
        let today = schedule.puzzle(at: now, rollover: rollover)
        return Group(
            chat: chat,
            timeZone: configuration.defaultTimeZone,
            rolloverHour: configuration.defaultRolloverHour,
            language: configuration.defaultLanguage,
            lastClosedPuzzle: PuzzleNumber(today.rawValue - 1)
        )
    }

    /// Puts the sender on the group's board (playing, sharing or /join); a game they already finished that
    /// the board accepts counts at once. `added` is false if they were on it already; the reply tells a member
    /// whose puzzle is not the group's which one counts here.
    func addToBoard(in turn: Turn) async throws -> (added: Bool, reply: Reply) {
        guard let group = turn.group, try await !isMember(in: turn) else { return (false, Reply()) }
        var reply = Reply()
        reply.writes.append(
            .join(
                player: turn.player.id, chat: group.chat, joinedPuzzle: group.puzzle(at: turn.now, schedule: schedule)))
        let puzzle = turn.player.puzzle(at: turn.now, schedule: schedule)
        for language in Language.allCases where group.counts(language, for: puzzle) {
            if let game = try await turn.store.game(of: turn.player.id, language: language, puzzle: puzzle),
                let counted = result(of: game, on: group, at: turn.now)
            {
                reply.writes.append(.boardResult(counted, periods: BoardPeriod.keys(of: puzzle, schedule: schedule)))
            }
        }
        // Said once, on joining a group kept to its language: which puzzle counts here, in the member's own.
        if group.puzzleLanguage(of: turn.player) != turn.player.puzzleLanguage {
            reply.messages.append(otherLanguageNotice(turn.player.language.texts.groupPlays(group.language), in: turn))
        }
        return (true, reply)
    }

    /// Whether the sender is on the board of the group the turn is in.
    private func isMember(in turn: Turn) async throws -> Bool {
        try await turn.store.groups(of: turn.player.id).contains { $0.chat == turn.message.chat }
    }

    /// A reply to a member whose puzzle is not the group's: in their language, with a button to the group's.
    func otherLanguageNotice(_ html: String, in turn: Turn) -> OutgoingMessage {
        let language = turn.group?.language ?? turn.language
        return turn.answer(
            html,
            buttons: turn.platform.buttons
                ? [[OutgoingMessage.Button.play(language, labelledIn: turn.player.language)]] : [])
    }

    /// Counts a finished game on the board of every group the player is on that takes it.
    func countOnBoards(_ game: StoredGame, at now: Date, in store: any MessageStorage) async throws {
        for group in try await store.groups(of: game.player) {
            guard let counted = result(of: game, on: group, at: now) else { continue }
            _ = try await count(counted, periods: BoardPeriod.keys(of: game.puzzle, schedule: schedule), store: store)
        }
    }

    /// A finished game as one board's result, if the board takes it: the board's language, hard mode when the
    /// group requires it, and a day not closed there.
    private func result(of game: StoredGame, on group: Group, at now: Date) -> BoardResult? {
        guard let result = game.result, let finishedAt = game.finishedAt,
            group.counts(game.language, for: game.puzzle),
            game.hardMode || !group.hardModeRequired,
            group.accepts(game.puzzle, at: now, schedule: schedule)
        else { return nil }
        return BoardResult(
            chat: group.chat, puzzle: game.puzzle, player: game.player, language: game.language,
            guesses: result.guesses, hardMode: game.hardMode, finishedAt: finishedAt)
    }

    /// Counts a result on a group's board: the engine's apply step (``Reply/Write/boardResult(_:periods:)``). The
    /// rules live here, not in a store: the streak before it, and the
    /// points, games, wins and streak of each period's totals, are computed from what is stored and written
    /// back whole. A result for a day before the latest one counted (yesterday's Wordle pasted after today's)
    /// joins the streak it belongs to. False, changing nothing, when the player has a result for that puzzle
    /// there already.
    func count(_ result: BoardResult, periods: [PeriodKey], store: any MessageStorage) async throws
        -> Bool
    {
        var result = result
        let (chat, board, player, puzzle) = (result.chat, result.board, result.player, result.puzzle)
        let totals = try await store.totals(of: player, in: chat, board: board, periods: periods)
        let allTime = totals[.all]
        let streak: Int
        if let latest = allTime?.lastPuzzle, latest >= puzzle {
            // Late: the streaks before it and up to the latest day come from the results around it.
            let outcomes = try await store.reads.outcomes(of: player, in: chat, board: board, through: latest)
            result.streakBefore = Streak.through(PuzzleNumber(puzzle.rawValue - 1), outcomes: outcomes)
            let with = (outcomes.filter { $0.puzzle != puzzle } + [(puzzle, result.guesses != nil)])
                .sorted { $0.puzzle > $1.puzzle }
            streak = Streak.through(latest, outcomes: with)
        } else {
            let continues = allTime?.lastPuzzle.map { $0.rawValue == puzzle.rawValue - 1 } ?? false
            result.streakBefore = continues ? allTime?.streak ?? 0 : 0
            streak = result.streakAfter
        }
        var updated: [PeriodKey: BoardTotals] = [:]
        for period in periods { updated[period] = (totals[period] ?? BoardTotals()).counting(result, streak: streak) }
        return try await store.record(result, totals: updated)
    }

    func join(in turn: Turn) async throws -> Reply {
        guard turn.isGroup else { return turn.reply(turn.texts.groupsOnly) }
        let name = turn.player.displayName
        var (joined, reply) = try await addToBoard(in: turn)
        reply.messages.append(
            turn.reaction(
                joined ? .counted : .notCounted,
                otherwise: joined ? turn.texts.joined(name: name) : turn.texts.alreadyJoined(name: name)))
        return reply
    }

    func leave(in turn: Turn) async throws -> Reply {
        guard let group = turn.group else { return turn.reply(turn.texts.groupsOnly) }
        let removed = try await isMember(in: turn)
        var reply = Reply(
            turn.reaction(
                removed ? .counted : .notCounted,
                otherwise: removed ? turn.texts.left(name: turn.player.displayName) : turn.texts.notJoined))
        if removed { reply.writes.append(.leave(player: turn.player.id, chat: group.chat)) }
        return reply
    }

    // MARK: - Settings

    /// `/settings` shows the group's settings; `/settings NAME VALUE` changes one (administrators only).
    func settings(_ argument: String, in turn: Turn) async throws -> Reply {
        guard var group = turn.group else { return turn.reply(turn.texts.groupsOnly) }
        guard !argument.isEmpty else {
            return turn.reply(turn.texts.settings(group, next: nextSummary(of: group, at: turn.now)))
        }
        switch turn.message.senderIsAdministrator {
        case nil: return turn.reply(turn.texts.settingsCannotCheck)
        case false?: return turn.reply(turn.texts.settingsAdministratorsOnly)
        case true?: break
        }
        let asked: GroupSettingChange
        switch GroupSettingChange.read(argument) {
        case .success(let read): asked = read
        case .failure(.unknownTimeZone(let value)): return turn.reply(turn.texts.unknownTimeZone(value))
        case .failure(.unknownLanguage(let value)): return turn.reply(turn.texts.unknownLanguage(value))
        case .failure(.usage(let setting)): return turn.reply(turn.texts.settingsUsage(for: setting))
        }
        var next = group.nextDaySettings
        switch asked {
        case .timeZone(let zone): next.timeZone = zone
        case .rolloverHour(let hour): next.rolloverHour = hour
        case .language(let language, let only):
            next.language = language
            group.team.languageOnly = only
        case .hardModeRequired(let required): group.hardModeRequired = required
        case .summary(let enabled): group.summaryEnabled = enabled
        case .summaryHour(let hour):
            group.summaryEnabled = true
            group.summaryHour = hour
        case .nudge(let on): group.team.nudge = on
        case .season(let length): group.team.season = length
        case .pictures(let on): group.team.pictures = on
        case .topic(let here):
            guard turn.platform.threads else { return turn.reply(turn.texts.settingsNoTopics) }
            group.topic = here ? turn.message.thread : nil
        }
        // The group's day and language change through ``change(_:to:player:followers:in:)``: at once, or from its next
        // puzzle.
        var player = turn.player
        var followers: [Reply.Write] = []
        let announcement =
            next == group.nextDaySettings
            ? nil : try await change(&group, to: next, player: &player, followers: &followers, in: turn)
        // Said in the group's language as the change left it.
        var reply = Reply(
            turn.answer(
                group.language.texts.settingSaved(asked.setting, of: group, next: nextSummary(of: group, at: turn.now))),
            player: player == turn.player ? nil : player, group: group)
        if let announcement { reply.messages.append(announcement) }
        reply.writes = followers
        if asked == .season(.off), var changed = reply.group {
            reply.messages += SeasonEnd(core: core).crown([], in: &changed)
            reply.group = changed
        }
        return reply
    }

    /// The group's next summary, for its settings: the day it sums up, and when it comes.
    func nextSummary(of group: Group, at now: Date) -> NextSummary? {
        guard group.summaryEnabled else { return nil }
        // A summary already due (the hour just moved earlier) comes at the next check of the days.
        let puzzle = max(group.lastClosedPuzzle.next, group.puzzleToClose(at: now, schedule: schedule))
        let time = max(group.summaryTime(of: puzzle, schedule: schedule), now)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = group.rollover.timeZone
        let local = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: time)
        return NextSummary(
            day: schedule.day(of: puzzle),
            postedOn: CivilDate(year: local.year ?? 1970, month: local.month ?? 1, day: local.day ?? 1)
                ?? schedule.day(of: puzzle),
            clock: String(format: "%02d:%02d", local.hour ?? 0, local.minute ?? 0))
    }

    /// A change of the group's day or language. While nobody has played the group's open days (no result, no
    /// game started in its language) it applies at once, and is announced (a group being set up does not wait a
    /// day); otherwise from the group's next puzzle, announced then, so no day that counts is cut short or
    /// replayed. Players who follow the group's day move with it, from the same puzzle; `player` is the sender.
    private func change(
        _ group: inout Group, to settings: Group.DaySettings, player: inout Player, followers: inout [Reply.Write],
        in turn: Turn
    ) async throws -> OutgoingMessage? {
        let today = group.puzzle(at: turn.now, schedule: schedule)
        for number in today.rawValue - 1...today.rawValue + 1 where number > group.lastClosedPuzzle.rawValue {
            let puzzle = PuzzleNumber(number)
            var played = try await !reads(turn).members(in: group.chat, playing: group.language, puzzle: puzzle)
                .isEmpty
            for board in [BoardKind.tessera, .official] where !played {
                played = try await !reads(turn).results(in: group.chat, board: board, puzzle: puzzle).isEmpty
            }
            if played {
                group.schedule(settings, at: turn.now, schedule: schedule)
                followers = try await carryFollowers(
                    of: group, from: group.pendingFrom ?? today.next, sender: &player, in: turn)
                return nil
            }
        }
        let before = group.daySettings
        group.applyNow(settings)
        followers = try await carryFollowers(of: group, from: today, sender: &player, in: turn)
        return dayChangeAnnouncement(from: before, to: group)
    }

    /// Moves the players who follow the group's day (``Player/followsGroup``) to its zone from `puzzle`, as their
    /// own `/timezone` would: numbers only go up, so nobody replays a day. A rollover hour changes with the zone
    /// only when the change applies at once. Returns the other followers' records as writes; the sender's is
    /// the reply's.
    private func carryFollowers(
        of group: Group, from puzzle: PuzzleNumber, sender: inout Player, in turn: Turn
    ) async throws -> [Reply.Write] {
        let next = group.nextDaySettings
        var moved: [Reply.Write] = []
        for stored in try await reads(turn).followers(of: group.chat) {
            // The sender's own record is the reply's, saved after it.
            var player = stored.id == sender.id ? sender : stored
            if next.timeZone == player.timeZone {
                player.pendingTimeZone = nil
                player.pendingFrom = nil
            } else {
                player.pendingTimeZone = next.timeZone
                player.pendingFrom = puzzle
            }
            if group.pending == nil { player.rolloverHour = next.rolloverHour }
            player.settleTimeZone(at: turn.now, schedule: schedule)
            if player.id == sender.id {
                sender = player
            } else if player != stored {
                moved.append(.player(player))
            }
        }
        return moved
    }

    /// The group's post when its day or language changes, in the language it was read in and, when that
    /// changes, in the new one too, with a button to the puzzle that counts now; nil when nothing changed.
    func dayChangeAnnouncement(from before: Group.DaySettings, to group: Group) -> OutgoingMessage? {
        let after = group.daySettings
        guard after != before else { return nil }
        let puzzle = group.lastClosedPuzzle.next
        var languages = [before.language]
        if after.language != before.language { languages.append(after.language) }
        let html = languages.map {
            $0.texts.dayChanged(from: before, to: after, puzzle: puzzle, languageOnly: group.team.languageOnly)
        }
        .joined(separator: "\n\n")
        return OutgoingMessage(
            chat: group.chat, chatKind: .group, html: html, thread: group.topic,
            buttons: configuration.platform.buttons
                ? [[OutgoingMessage.Button.play(after.language)]]
                : [], atMostOnce: true)
    }

    /// `/guess`, `/play` and `/board` in a group: a button to the direct chat, where guesses are made. The reply
    /// never quotes a message that shows a guess, so the word is not repeated under the bot's name.
    func playPrivately(in turn: Turn) async throws -> Reply {
        let message = turn.message
        let revealsGuess = message.revealsGuess
        let joined = try await isMember(in: turn)
        // Without a button to the direct chat, a platform that can opens one with the player.
        let opensChat = !turn.platform.buttons && turn.platform.opensDirectChats
        var html =
            opensChat ? turn.texts.playPrivatelyInvited(joined: joined) : turn.texts.playPrivately(joined: joined)
        var reply = Reply()
        if revealsGuess {
            let deletion = deletion(in: turn)
            reply = deletion.reply
            if deletion.explains { html = turn.texts.guessDeleted + "\n" + html }
        }
        reply.messages.append(
            OutgoingMessage(
                chat: message.chat, chatKind: message.chatKind, html: html,
                replyTo: revealsGuess ? nil : message.messageID,
                thread: message.thread,
                buttons: turn.platform.buttons
                    ? [
                        [
                            OutgoingMessage.Button.play(
                                turn.language, labelledIn: turn.group?.language ?? turn.player.language)
                        ]
                    ]
                    : []))
        if opensChat {
            // The chat it opens plays the group's puzzle, in the player's own language.
            var player = turn.player
            player.play(turn.language)
            reply.player = player
            reply.messages.append(
                OutgoingMessage(
                    chat: message.chat, chatKind: message.chatKind,
                    html: core.welcome(playing: turn.language, player: player),
                    action: .openDirectChat(with: message.sender)))
        }
        return reply
    }

    /// A message that shows a guess's letters but is no command to play (an edit, a forwarded board): deleted
    /// like a `/guess`, and the group told why the first time, in a post that quotes nothing.
    func deleteRevealedGuess(in turn: Turn) -> Reply {
        var (reply, explains) = deletion(in: turn)
        if explains {
            reply.messages.append(
                OutgoingMessage(
                    chat: turn.message.chat, chatKind: turn.message.chatKind, html: turn.texts.guessDeleted,
                    thread: turn.message.thread))
        }
        return reply
    }

    /// Deletes a message that shows a guess, where the bot may; `explains` when the group is to be told why (the
    /// first time, which the group's record then remembers).
    private func deletion(in turn: Turn) -> (reply: Reply, explains: Bool) {
        let message = turn.message
        guard let guess = message.messageID, var group = turn.group, message.botMayDeleteMessages == true else {
            return (Reply(), false)
        }
        let delete = OutgoingMessage(
            chat: message.chat, chatKind: message.chatKind, html: "", replyTo: guess, action: .delete)
        guard !group.deletionExplained else { return (Reply(delete), false) }
        group.deletionExplained = true
        return (Reply(delete, group: group), true)
    }
}
