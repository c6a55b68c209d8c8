import Foundation
import TesseraCore

/// A player's own settings: their zone (`/timezone`), their language (`/language`) and streak reminders
/// (`/remind`), and how the words typed after commands are read (`on`, a zone, a language).
struct PlayerSettings {
    let schedule: DailySchedule

    /// `/timezone`: the player's zone, or a new one from their next puzzle.
    func timeZone(_ argument: String, in turn: Turn) -> Reply {
        var player = turn.player
        guard !argument.isEmpty else {
            let pending = player.pendingTimeZone.flatMap { zone in player.pendingFrom.map { (zone, $0) } }
            return turn.reply(turn.texts.timeZoneIs(player.timeZone, hour: player.rolloverHour, pending: pending))
        }
        guard let zone = CommandWords.knownTimeZone(argument) else {
            return turn.reply(turn.texts.unknownTimeZone(argument))
        }
        let next = PuzzleNumber(player.puzzle(at: turn.now, schedule: schedule).rawValue + 1)
        // Chosen: the player no longer follows the group where they were first met.
        player.followsGroup = nil
        if zone == player.timeZone {
            player.pendingTimeZone = nil
            player.pendingFrom = nil
        } else {
            player.pendingTimeZone = zone
            player.pendingFrom = next
        }
        return Reply(turn.answer(turn.texts.timeZoneChanged(zone, from: next)), player: player)
    }

    /// `/language`: the bot's language and the puzzle's; a puzzle chosen with `/play` gives way to it.
    func language(_ argument: String, in turn: Turn) -> Reply {
        guard !argument.isEmpty else { return turn.reply(turn.texts.languageIs(turn.player.language)) }
        guard let language = CommandWords.language(named: argument) else {
            return turn.reply(turn.texts.unknownLanguage(argument))
        }
        var player = turn.player
        player.language = language
        player.playingLanguage = nil
        // Said in the new language, where the chat is the player's own.
        let changed = turn.with(player: player)
        return Reply(changed.answer(changed.texts.languageChanged(language)), player: player)
    }

    /// `/remind on|off`: streak reminders in the direct chat.
    func remind(_ argument: String, in turn: Turn) -> Reply {
        guard !turn.isGroup else { return turn.reply(turn.texts.remindUsage) }
        guard !argument.isEmpty else {
            return turn.reply(
                turn.texts.remindersAre(on: turn.player.reminders, namedInNudges: turn.player.namedInNudges))
        }
        guard let on = CommandWords.onOff(argument, empty: nil) else {
            return turn.reply(turn.texts.onOffUsage("remind"))
        }
        var player = turn.player
        player.reminders = on
        player.namedInNudges = on
        // Today's day counts from now: a reminder comes today too if it is due.
        if on { player.remindedPuzzle = nil }
        return Reply(turn.answer(turn.texts.remindersAre(on: on, namedInNudges: on)), player: player)
    }

    /// `/settings effects on|off`: the celebration of a win in the direct chat, where the platform has one.
    func effects(_ argument: String, in turn: Turn) -> Reply {
        guard
            let on = CommandWords.onOff(
                argument.trimmingCharacters(in: .whitespaces), empty: turn.player.messageEffects)
        else { return turn.reply(turn.texts.onOffUsage("settings effects")) }
        var player = turn.player
        player.messageEffects = on
        return Reply(turn.answer(turn.texts.effectsAre(on: on)), player: player == turn.player ? nil : player)
    }

    /// `/settings pictures on|off` in the direct chat: a finished game's result card and the statistics chart.
    func pictures(_ argument: String, in turn: Turn) -> Reply {
        guard
            let on = CommandWords.onOff(argument.trimmingCharacters(in: .whitespaces), empty: turn.player.pictures)
        else { return turn.reply(turn.texts.onOffUsage("settings pictures")) }
        var player = turn.player
        player.pictures = on
        return Reply(turn.answer(turn.texts.picturesAre(on: on)), player: player == turn.player ? nil : player)
    }

}
