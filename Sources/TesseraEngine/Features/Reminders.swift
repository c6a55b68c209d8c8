import Foundation
import TesseraCore

/// Streak reminders, for players who ask for them (`/remind on`): one silent private message, a few hours
/// before the player's day ends, when they have not finished its puzzle and a streak of at least
/// ``reminderStreak`` wins would end with it. At most one a day; `/remind off` stops them.
struct Reminders {
    let schedule: DailySchedule

    /// How long before the end of a player's day the reminder comes.
    static let reminderLead: TimeInterval = 4 * 3600
    /// The shortest streak worth a reminder.
    static let reminderStreak = 3

    /// The puzzle whose reminder is due for a player at `now`, if one is: each player's day is considered once,
    /// when it enters its last ``reminderLead``. The step that reads their history and queues the reminder is
    /// the engine's (``BotEngine/queueReminders(at:on:in:)``); the player is saved with the puzzle as reminded
    /// (``Player/remindedPuzzle``) whether or not the day deserves a reminder.
    func due(for player: Player, at now: Date) -> PuzzleNumber? {
        guard player.directChat != nil else { return nil }
        let puzzle = player.puzzle(at: now, schedule: schedule)
        if let reminded = player.remindedPuzzle, reminded >= puzzle { return nil }
        let dayEnds = player.nextPuzzleStart(after: now, schedule: schedule)
        return dayEnds.timeIntervalSince(now) <= Self.reminderLead ? puzzle : nil
    }

    /// The reminder of a due day (``due(for:at:)``), when it deserves one: its puzzle not finished and a streak
    /// of at least ``reminderStreak`` wins that would end with it. `history`: the player's finished games in
    /// their language.
    func reminder(for player: Player, puzzle: PuzzleNumber, history: [PlayedGame], at now: Date) -> OutgoingMessage? {
        guard let chat = player.directChat, !history.contains(where: { $0.puzzle == puzzle }) else { return nil }
        let streak = Statistics(history: history, today: puzzle).currentStreak
        guard streak >= Self.reminderStreak else { return nil }
        let timeLeft = player.nextPuzzleStart(after: now, schedule: schedule).timeIntervalSince(now)
        return OutgoingMessage(
            chat: chat, chatKind: .direct, html: player.language.texts.reminder(streak: streak, timeLeft: timeLeft),
            atMostOnce: true, silent: true)
    }
}
