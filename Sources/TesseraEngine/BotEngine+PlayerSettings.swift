import Foundation
import TesseraCore

/// The puzzle a direct chat plays (`/play es`).
extension BotEngine {
    /// The direct chat plays `language`'s daily puzzle from now on; the bot keeps the player's language.
    func choosePuzzle(_ language: Language, context: inout Context) {
        context.player.play(language)
        if !context.isGroup { context.language = language }
    }
}
