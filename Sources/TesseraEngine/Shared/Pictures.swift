import TesseraCore
import TesseraPictures

/// The pictures features post, as values (``OutgoingMessage/picture``) drawn by the transport when it sends
/// them, and the one rule for where they go: a direct chat whose player has them on, a group whose
/// administrators turned them on, on a platform that shows pictures.
enum Pictures {
    /// Whether the turn's chat gets pictures.
    static func wanted(in turn: Turn) -> Bool {
        guard turn.platform.pictures else { return false }
        return turn.isGroup ? turn.group?.team.pictures == true : turn.player.pictures
    }

    /// A finished daily game's result card, titled with its share text's headline: the board with its letters,
    /// for its player's direct chat only.
    static func resultCard(of game: Game, share: SharedResult, theme: ShareTheme) -> Picture {
        .resultCard(
            ResultCard(
                title: share.headline,
                rows: game.rows.map {
                    ResultCard.Row(letters: game.wordList.display($0.word), states: $0.feedback.states)
                }, maximumGuesses: game.maximumGuesses, wordLength: game.wordList.wordLength, theme: theme))
    }

    /// The statistics chart: the last game's bar highlighted when it was won.
    static func statisticsChart(
        _ statistics: Statistics, last: PlayedGame?, language: Language, theme: ShareTheme
    ) -> Picture {
        .statistics(
            StatisticsChart(
                statistics: statistics, highlighted: last?.result.guesses, labels: StatisticsChart.Labels(language),
                theme: theme))
    }
}
