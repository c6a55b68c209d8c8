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

    /// Queues the reminders that are due, in the caller's transaction: each player's day is considered once,
    /// when it enters its last ``reminderLead``, and gets a reminder only if it still deserves one.
    ///
    /// `platform`: that platform's players only, each reminded by their own platform's day closer; nil for all.
    /// Returns how many reminders were queued.
    func queue(at now: Date, on platform: Platform?, in store: any GameStoreTransaction) async throws -> Int {
        var queued = 0
        for var player in try await store.playersWithReminders()
        where platform.map({ player.id.platform == $0 }) ?? true {
            guard let chat = player.directChat else { continue }
            let puzzle = player.puzzle(at: now, schedule: schedule)
            if let reminded = player.remindedPuzzle, reminded >= puzzle { continue }
            let dayEnds = player.nextPuzzleStart(after: now, schedule: schedule)
            guard dayEnds.timeIntervalSince(now) <= Self.reminderLead else { continue }
            player.remindedPuzzle = puzzle
            try await store.save(player)
            let history = try await store.finishedGames(of: player.id, language: player.language)
            guard !history.contains(where: { $0.puzzle == puzzle }) else { continue }
            let streak = Statistics(history: history, today: puzzle).currentStreak
            guard streak >= Self.reminderStreak else { continue }
            try await store.enqueue([
                OutgoingMessage(
                    chat: chat, chatKind: .direct,
                    html: player.language.texts.reminder(streak: streak, timeLeft: dayEnds.timeIntervalSince(now)),
                    atMostOnce: true, silent: true)
            ])
            queued += 1
        }
        return queued
    }
}
