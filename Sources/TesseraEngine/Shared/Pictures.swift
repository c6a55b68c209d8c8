import TesseraCore
import TesseraPictures

/// The pictures features post, as values (``OutgoingMessage/picture``) drawn by the transport when it sends
/// them, and the one rule for where they go: a direct chat whose player has them on, a group whose
/// administrators turned them on, on a platform that shows pictures.
enum Pictures {
    /// Whether the turn is in a direct chat that gets pictures: its player has them on.
    static func wanted(in turn: Turn) -> Bool {
        !turn.isGroup && turn.platform.pictures && turn.player.pictures
    }

    /// Whether a group's posts come with pictures: its administrators turned them on.
    static func wanted(in group: Group, on platform: PlatformTraits) -> Bool {
        platform.pictures && group.team.pictures
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
