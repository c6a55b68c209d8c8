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
        guard let zone = Self.knownTimeZone(argument) else { return turn.reply(turn.texts.unknownTimeZone(argument)) }
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
        guard let language = Self.language(named: argument) else {
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
        guard let on = Self.onOff(argument, empty: nil) else { return turn.reply(turn.texts.onOffUsage("remind")) }
        var player = turn.player
        player.reminders = on
        player.namedInNudges = on
        // Today's day counts from now: a reminder comes today too if it is due.
        if on { player.remindedPuzzle = nil }
        return Reply(turn.answer(turn.texts.remindersAre(on: on, namedInNudges: on)), player: player)
    }

    /// `/settings effects on|off`: the celebration of a win in the direct chat, where the platform has one.
    func effects(_ argument: String, in turn: Turn) -> Reply {
        guard let on = Self.onOff(argument.trimmingCharacters(in: .whitespaces), empty: turn.player.messageEffects)
        else { return turn.reply(turn.texts.onOffUsage("settings effects")) }
        var player = turn.player
        player.messageEffects = on
        return Reply(turn.answer(turn.texts.effectsAre(on: on)), player: player == turn.player ? nil : player)
    }

    /// `on` or `off` (and their Spanish and plain-English words); `empty` for no argument; nil for anything else,
    /// which changes nothing.
    static func onOff(_ argument: String, empty: Bool?) -> Bool? {
        switch argument.lowercased() {
        case "": empty
        case "on", "yes", "sí", "si": true
        case "off", "no": false
        default: nil
        }
    }

    /// An IANA zone name, matched without regard to case: `europe/madrid` is Europe/Madrid.
    static func knownTimeZone(_ text: String) -> String? {
        // The longest IANA name has 30 characters: a longer text is none, and is not compared with each.
        guard text.utf8.count <= 64 else { return nil }
        if TimeZone(identifier: text) != nil, text.contains("/") || text == "UTC" { return text }
        let lowercased = text.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowercased }
    }

    /// The language a `/start` argument from a play button names (`play-es`); nil for any other.
    static func playedLanguage(fromStart argument: String) -> Language? {
        guard argument.hasPrefix("play-") else { return nil }
        return Language(rawValue: String(argument.dropFirst("play-".count)))
    }

    /// A language as typed after a command: its code (`es`) or its own name (`Español`), in any case.
    static func language(named text: String) -> Language? {
        let lowered = text.lowercased()
        return Language(rawValue: lowered) ?? Language.allCases.first { $0.name.lowercased() == lowered }
    }
}
