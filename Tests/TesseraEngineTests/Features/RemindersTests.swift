import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Reminders`` as the pure decisions they are: when a player's day is due one, and whether it deserves it.
@Suite("Streak reminders, decided from values")
struct RemindersTests {
    let reminders = Reminders(schedule: .tessera)
    // 2026-11-22 12:00 UTC: puzzle 326; a UTC day ends at midnight.
    let noon = FeatureSetting.now
    var player: Player {
        var player = FeatureSetting.player(1, "Ann")
        player.directChat = ChatID(1)
        return player
    }

    func won(_ puzzles: ClosedRange<Int>) -> [PlayedGame] {
        puzzles.map { PlayedGame(puzzle: PuzzleNumber($0), result: .won(guesses: 4)) }
    }

    @Test("A day is due in its last four hours, once; never without a direct chat")
    func due() {
        #expect(reminders.due(for: player, at: noon) == nil, "twelve hours left")
        #expect(reminders.due(for: player, at: noon + 8 * 3600 + 1) == PuzzleNumber(326))
        var reminded = player
        reminded.remindedPuzzle = PuzzleNumber(326)
        #expect(reminders.due(for: reminded, at: noon + 9 * 3600) == nil, "reminded already")
        var noChat = player
        noChat.directChat = nil
        #expect(reminders.due(for: noChat, at: noon + 9 * 3600) == nil)
    }

    @Test("A due day is worth a reminder with a streak of three unfinished; not once played, nor for a shorter one")
    func deserved() throws {
        let late = noon + 9 * 3600
        let message = try #require(
            reminders.reminder(for: player, puzzle: PuzzleNumber(326), history: won(323...325), at: late))
        #expect(message.chat == ChatID(1) && message.silent && message.atMostOnce)
        #expect(message.html == Language.english.texts.reminder(streak: 3, timeLeft: 3 * 3600))
        #expect(reminders.reminder(for: player, puzzle: PuzzleNumber(326), history: won(323...326), at: late) == nil)
        #expect(reminders.reminder(for: player, puzzle: PuzzleNumber(326), history: won(324...325), at: late) == nil)
    }
}
