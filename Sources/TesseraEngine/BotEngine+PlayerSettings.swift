import Foundation
import TesseraCore

/// The puzzle a direct chat plays (`/play es`), and the welcome that says so.
extension BotEngine {
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
}
