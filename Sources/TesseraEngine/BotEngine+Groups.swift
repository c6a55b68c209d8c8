import Foundation
import TesseraCore

/// Group boards: who is on them, which results count, and the settings administrators change.
extension BotEngine {
    /// A group seen for the first time: the configured defaults, with its day open (no summary of the day
    /// before it knew the bot).
    func newGroup(_ chat: ChatID, at now: Date) -> Group {
        let rollover = Player.rollover(configuration.defaultTimeZone, configuration.defaultRolloverHour)
        let today = configuration.schedule.puzzle(at: now, rollover: rollover)
        return Group(
            chat: chat,
            timeZone: configuration.defaultTimeZone,
            rolloverHour: configuration.defaultRolloverHour,
            language: configuration.defaultLanguage,
            lastClosedPuzzle: PuzzleNumber(today.rawValue - 1)
        )
    }

    /// Puts the sender on the group's board (playing, sharing or /join); a game they already finished that
    /// the board accepts counts at once. False if they were on it already.
    @discardableResult
    func addToBoard(_ context: inout Context) async throws -> Bool {
        guard let group = context.group else { return false }
        let today = group.puzzle(at: context.now, schedule: configuration.schedule)
        let added = try await context.store.addMember(context.player.id, to: group.chat, joinedPuzzle: today)
        if added {
            let puzzle = context.player.puzzle(at: context.now, schedule: configuration.schedule)
            for language in Language.allCases where group.counts(language, for: puzzle) {
                if let game = try await context.store.game(of: context.player.id, language: language, puzzle: puzzle) {
                    try await count(game, on: group, now: context.now, store: context.store)
                }
            }
            // Said once, on joining: which puzzle counts here, in the member's own language.
            if context.player.puzzleLanguage != group.language {
                otherLanguageNotice(context.player.language.texts.groupPlays(group.language), context: &context)
            }
        }
        return added
    }

    /// A reply to a member whose puzzle is not the group's: in their language, with a button to the group's.
    func otherLanguageNotice(_ html: String, context: inout Context) {
        guard let group = context.group else { return }
        let texts = context.player.language.texts
        context.replies.append(
            OutgoingMessage(
                chat: context.message.chat, chatKind: context.message.chatKind, html: html,
                replyTo: context.message.messageID, thread: context.message.thread,
                buttons: context.platform.buttons
                    ? [[.directChat(texts.playPrivatelyButton, start: Self.playStart(group.language))]] : []))
    }

    /// Counts a finished game on the board of every group the player is on.
    func countOnBoards(_ game: StoredGame, context: Context) async throws {
        for group in try await context.store.groups(of: game.player) {
            try await count(game, on: group, now: context.now, store: context.store)
        }
    }

    /// Counts a finished game on one board if the board takes it: the board's language, hard mode when the
    /// group requires it, and a day not closed there. A result already counted stays as it is.
    private func count(_ game: StoredGame, on group: Group, now: Date, store: any GameStoreTransaction) async throws {
        guard let result = game.result, let finishedAt = game.finishedAt,
            group.counts(game.language, for: game.puzzle),
            game.hardMode || !group.hardModeRequired,
            group.accepts(game.puzzle, at: now, schedule: configuration.schedule)
        else { return }
        let counted = BoardResult(
            chat: group.chat, puzzle: game.puzzle, player: game.player, language: game.language,
            guesses: result.guesses, hardMode: game.hardMode, finishedAt: finishedAt)
        _ = try await count(
            counted, periods: BoardPeriod.keys(of: game.puzzle, schedule: configuration.schedule), store: store)
    }

    /// Counts a result on a group's board. The rules live here, not in a store: the streak before it, and the
    /// points, games, wins and streak of each period's totals, are computed from what is stored and written
    /// back whole. A result for a day before the latest one counted (yesterday's Wordle pasted after today's)
    /// joins the streak it belongs to. False, changing nothing, when the player has a result for that puzzle
    /// there already.
    public func count(_ result: BoardResult, periods: [PeriodKey], store: any GameStoreTransaction) async throws
        -> Bool
    {
        var result = result
        let (chat, board, player, puzzle) = (result.chat, result.board, result.player, result.puzzle)
        let totals = try await store.totals(of: player, in: chat, board: board, periods: periods)
        let allTime = totals[.all]
        let streak: Int
        if let latest = allTime?.lastPuzzle, latest >= puzzle {
            // Late: the streaks before it and up to the latest day come from the results around it.
            let outcomes = try await store.outcomes(of: player, in: chat, board: board, through: latest)
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

    func join(context: inout Context) async throws {
        guard context.isGroup else {
            context.reply(context.texts.groupsOnly)
            return
        }
        let name = context.player.displayName
        let joined = try await addToBoard(&context)
        context.react(
            joined ? .counted : .notCounted,
            otherwise: joined ? context.texts.joined(name: name) : context.texts.alreadyJoined(name: name))
    }

    func leave(context: inout Context) async throws {
        guard let group = context.group else {
            context.reply(context.texts.groupsOnly)
            return
        }
        let removed = try await context.store.removeMember(context.player.id, from: group.chat)
        context.react(
            removed ? .counted : .notCounted,
            otherwise: removed ? context.texts.left(name: context.player.displayName) : context.texts.notJoined)
    }

    // MARK: - Settings

    /// `/settings` shows the group's settings; `/settings NAME VALUE` changes one (administrators only).
    func settings(_ argument: String, context: inout Context) async throws {
        guard var group = context.group else {
            context.reply(context.texts.groupsOnly)
            return
        }
        guard !argument.isEmpty else {
            context.reply(context.texts.settings(group, next: nextSummary(of: group, at: context.now)))
            return
        }
        switch context.message.senderIsAdministrator {
        case nil:
            context.reply(context.texts.settingsCannotCheck)
            return
        case false?:
            context.reply(context.texts.settingsAdministratorsOnly)
            return
        case true?:
            break
        }
        let asked: GroupSettingChange
        switch GroupSettingChange.read(argument) {
        case .success(let read): asked = read
        case .failure(.unknownTimeZone(let value)): return context.reply(context.texts.unknownTimeZone(value))
        case .failure(.unknownLanguage(let value)): return context.reply(context.texts.unknownLanguage(value))
        case .failure(.usage(let setting)): return context.reply(context.texts.settingsUsage(for: setting))
        }
        var next = group.nextDaySettings
        switch asked {
        case .timeZone(let zone): next.timeZone = zone
        case .rolloverHour(let hour): next.rolloverHour = hour
        case .language(let language): next.language = language
        case .hardModeRequired(let required): group.hardModeRequired = required
        case .summary(let enabled): group.summaryEnabled = enabled
        case .summaryHour(let hour):
            group.summaryEnabled = true
            group.summaryHour = hour
        case .topic(let here):
            guard context.platform.threads else { return context.reply(context.texts.settingsNoTopics) }
            group.topic = here ? context.message.thread : nil
        }
        // The group's day and language change through ``change(_:to:context:)``: at once, or from its next puzzle.
        let announcement = next == group.nextDaySettings ? nil : try await change(&group, to: next, context: &context)
        context.group = group
        context.reply(context.texts.settingsSaved(group, next: nextSummary(of: group, at: context.now)))
        if let announcement { context.replies.append(announcement) }
    }

    /// The group's next summary, for its settings: the day it sums up, and when it comes.
    func nextSummary(of group: Group, at now: Date) -> NextSummary? {
        guard group.summaryEnabled else { return nil }
        let schedule = configuration.schedule
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
    /// replayed. Players who follow the group's day move with it, from the same puzzle.
    private func change(_ group: inout Group, to settings: Group.DaySettings, context: inout Context) async throws
        -> OutgoingMessage?
    {
        let today = group.puzzle(at: context.now, schedule: configuration.schedule)
        for number in today.rawValue - 1...today.rawValue + 1 where number > group.lastClosedPuzzle.rawValue {
            let puzzle = PuzzleNumber(number)
            var played = try await !context.store.members(in: group.chat, playing: group.language, puzzle: puzzle)
                .isEmpty
            for board in [BoardKind.tessera, .official] where !played {
                played = try await !context.store.results(in: group.chat, board: board, puzzle: puzzle).isEmpty
            }
            if played {
                group.schedule(settings, at: context.now, schedule: configuration.schedule)
                try await carryFollowers(of: group, from: group.pendingFrom ?? today.next, context: &context)
                return nil
            }
        }
        let before = group.daySettings
        group.applyNow(settings)
        try await carryFollowers(of: group, from: today, context: &context)
        return dayChangeAnnouncement(from: before, to: group)
    }

    /// Moves the players who follow the group's day (``Player/followsGroup``) to its zone from `puzzle`, as their
    /// own `/timezone` would: numbers only go up, so nobody replays a day. A rollover hour changes with the zone
    /// only when the change applies at once.
    private func carryFollowers(of group: Group, from puzzle: PuzzleNumber, context: inout Context) async throws {
        let next = group.nextDaySettings
        for stored in try await context.store.followers(of: group.chat) {
            // The sender's own record is the context's, saved after the reply.
            var player = stored.id == context.player.id ? context.player : stored
            if next.timeZone == player.timeZone {
                player.pendingTimeZone = nil
                player.pendingFrom = nil
            } else {
                player.pendingTimeZone = next.timeZone
                player.pendingFrom = puzzle
            }
            if group.pending == nil { player.rolloverHour = next.rolloverHour }
            player.settleTimeZone(at: context.now, schedule: configuration.schedule)
            if player.id == context.player.id {
                context.player = player
            } else if player != stored {
                try await context.store.save(player)
            }
        }
    }

    /// The group's post when its day or language changes, in the language it was read in and, when that
    /// changes, in the new one too, with a button to the puzzle that counts now; nil when nothing changed.
    func dayChangeAnnouncement(from before: Group.DaySettings, to group: Group) -> OutgoingMessage? {
        let after = group.daySettings
        guard after != before else { return nil }
        let puzzle = group.lastClosedPuzzle.next
        var languages = [before.language]
        if after.language != before.language { languages.append(after.language) }
        let html = languages.map { $0.texts.dayChanged(from: before, to: after, puzzle: puzzle) }
            .joined(separator: "\n\n")
        return OutgoingMessage(
            chat: group.chat, chatKind: .group, html: html, thread: group.topic,
            buttons: configuration.platform.buttons
                ? [[.directChat(after.language.texts.playPrivatelyButton, start: Self.playStart(after.language))]]
                : [], atMostOnce: true)
    }

    /// `/guess`, `/play` and `/board` in a group: a button to the direct chat, where guesses are made. The reply
    /// never quotes a message that shows a guess, so the word is not repeated under the bot's name.
    func playPrivately(context: inout Context) async throws {
        let message = context.message
        let revealsGuess = Self.revealsGuess(message)
        let joined = try await context.store.groups(of: context.player.id).contains { $0.chat == message.chat }
        // Without a button to the direct chat, a platform that can opens one with the player.
        let opensChat = !context.platform.buttons && context.platform.opensDirectChats
        var html =
            opensChat ? context.texts.playPrivatelyInvited(joined: joined) : context.texts.playPrivately(joined: joined)
        if revealsGuess, deletesGuess(context: &context) { html = context.texts.guessDeleted + "\n" + html }
        context.replies.append(
            OutgoingMessage(
                chat: message.chat, chatKind: message.chatKind, html: html,
                replyTo: revealsGuess ? nil : message.messageID,
                thread: message.thread,
                buttons: context.platform.buttons
                    ? [[.directChat(context.texts.playPrivatelyButton, start: Self.playStart(context.language))]] : []))
        if opensChat {
            // The chat it opens plays the group's puzzle, in the player's own language.
            choosePuzzle(context.language, context: &context)
            context.replies.append(
                OutgoingMessage(
                    chat: message.chat, chatKind: message.chatKind,
                    html: welcome(playing: context.language, player: context.player),
                    action: .openDirectChat(with: message.sender)))
        }
    }

    /// The `/start` argument of a button that opens the direct chat on `language`'s puzzle (`play-es`), read back
    /// by ``PlayerSettings/playedLanguage(fromStart:)``.
    static func playStart(_ language: Language) -> String { "play-\(language.rawValue)" }

    /// A message that shows a guess's letters but is no command to play (an edit, a forwarded board): deleted
    /// like a `/guess`, and the group told why the first time, in a post that quotes nothing.
    func deleteRevealedGuess(context: inout Context) {
        guard deletesGuess(context: &context) else { return }
        let message = context.message
        context.replies.append(
            OutgoingMessage(
                chat: message.chat, chatKind: message.chatKind, html: context.texts.guessDeleted,
                thread: message.thread))
    }

    /// Deletes a message that shows a guess, where the bot may; true when the group is to be told why (the
    /// first time).
    private func deletesGuess(context: inout Context) -> Bool {
        let message = context.message
        guard let guess = message.messageID, var group = context.group, message.botMayDeleteMessages == true else {
            return false
        }
        context.replies.append(
            OutgoingMessage(chat: message.chat, chatKind: message.chatKind, html: "", replyTo: guess, action: .delete))
        guard !group.deletionExplained else { return false }
        group.deletionExplained = true
        context.group = group
        return true
    }
}
