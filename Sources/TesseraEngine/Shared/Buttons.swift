import TesseraCore

/// The buttons more than one feature offers, made in one place: the ▶️ play button to the direct chat (and the
/// `/start` argument it carries), and the Analysis button under a finished board.
extension OutgoingMessage.Button {
    /// The `/start` argument of a button that opens the direct chat on `language`'s puzzle (`play-es`), read back
    /// by ``playedLanguage(fromStart:)``.
    static func playStart(_ language: Language) -> String { "play-\(language.rawValue)" }

    /// The language a `/start` argument from a play button names (`play-es`); nil for any other.
    static func playedLanguage(fromStart argument: String) -> Language? {
        guard argument.hasPrefix("play-") else { return nil }
        return Language(rawValue: String(argument.dropFirst("play-".count)))
    }

    /// The ▶️ button to the direct chat's puzzle in `language`, in the colour of something to do; its label in
    /// `label`'s words (the reader's), the puzzle's by default.
    static func play(_ language: Language, labelledIn label: Language? = nil) -> Self {
        directChat((label ?? language).texts.playPrivatelyButton, start: playStart(language))
            .styled(.success)
    }

    /// The Analysis button under a finished daily board.
    static func analysis(for game: StoredGame, texts: any Texts) -> Self {
        Self(
            text: texts.analysisButton,
            data: "\(BotCommand.analysis.rawValue) \(game.language.rawValue) \(game.puzzle.rawValue)")
    }

    /// The Analysis button under a finished practice or archive board.
    static func analysis(for game: PracticeGame, texts: any Texts) -> Self {
        Self(
            text: texts.analysisButton, data: "\(BotCommand.analysis.rawValue) practice \(game.number)")
    }
}
