import Foundation
import Logging
import TesseraCore

/// The player's game of their current puzzle in the board's language, rebuilt from its stored guesses.
struct DailyGame {
    var game: Game
    var stored: StoredGame
    /// Not started, and the player had a game of this puzzle before they asked to be forgotten.
    var playedBeforeForgetting = false
}
