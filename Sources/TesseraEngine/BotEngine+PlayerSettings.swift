import Foundation
import TesseraCore

/// A player's own settings: their zone (`/timezone`), their language (`/language`), the puzzle their direct chat
/// plays (`/play es`), and the welcome that says so.
extension BotEngine {
    func timeZone(_ argument: String, context: inout Context) {
        var player = context.player
        guard !argument.isEmpty else {
            let pending = player.pendingTimeZone.flatMap { zone in player.pendingFrom.map { (zone, $0) } }
            context.reply(context.texts.timeZoneIs(player.timeZone, hour: player.rolloverHour, pending: pending))
            return
        }
        guard let zone = Self.knownTimeZone(argument) else {
            context.reply(context.texts.unknownTimeZone(argument))
            return
        }
        let next = PuzzleNumber(player.puzzle(at: context.now, schedule: configuration.schedule).rawValue + 1)
        // Chosen: the player no longer follows the group where they were first met.
        player.followsGroup = nil
        if zone == player.timeZone {
            player.pendingTimeZone = nil
            player.pendingFrom = nil
        } else {
            player.pendingTimeZone = zone
            player.pendingFrom = next
        }
        context.player = player
        context.reply(context.texts.timeZoneChanged(zone, from: next))
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

    /// The welcome of a direct chat, in the player's language; one that plays another language's puzzle says so.
    /// The welcome, and which puzzle the chat plays when it is not in the player's language or a play button
    /// chose it (`namingPuzzle`): a player who pressed one sees where their words go.
    func welcome(playing language: Language, player: Player, namingPuzzle: Bool = false) -> String {
        let texts = player.language.texts
        let welcome = texts.welcome(
            gameName: configuration.gameName, wordLength: language.wordList.wordLength,
            maximumGuesses: Game.defaultMaximumGuesses)
        return language == player.language && !namingPuzzle ? welcome : welcome + "\n\n" + texts.playing(language)
    }

    /// The direct chat plays `language`'s daily puzzle from now on; the bot keeps the player's language.
    func choosePuzzle(_ language: Language, context: inout Context) {
        context.player.play(language)
        if !context.isGroup { context.language = language }
    }

    func language(_ argument: String, context: inout Context) {
        guard !argument.isEmpty else {
            context.reply(context.texts.languageIs(context.player.language))
            return
        }
        guard let language = Self.language(named: argument) else {
            context.reply(context.texts.unknownLanguage(argument))
            return
        }
        // The bot's language and the puzzle's: a puzzle chosen with /play gives way to it.
        context.player.language = language
        context.player.playingLanguage = nil
        if !context.isGroup { context.language = language }
        context.reply(context.texts.languageChanged(language))
    }

}
