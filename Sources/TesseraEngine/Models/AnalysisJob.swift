public import Foundation
public import TesseraCore

/// A finished game waiting for its analysis, with what the analyst needs.
public struct AnalysisJob: Sendable {
    public enum Game: Sendable, CustomStringConvertible {
        case daily(StoredGame)
        case practice(PracticeGame)

        public var description: String {
            switch self {
            case .daily(let game): "puzzle \(game.puzzle) (\(game.language.rawValue))"
            case .practice(let game): "practice game \(game.number)"
            }
        }
    }

    public let game: Game
    /// The answer, or the failure of a practice game's stored answer that cannot be read any more.
    let answer: Result<Word, GameAnalyst.Failure>
    /// The guesses, or the first that cannot be read any more.
    let guesses: Result<[Word], GameAnalyst.Failure>
    /// The answer edition the game was played with.
    let edition: Int

    /// Which game: a player's daily game of a language's puzzle, or their practice game with its number.
    public enum ID: Sendable, Hashable {
        case daily(UserID, Language, PuzzleNumber)
        case practice(UserID, Int)
    }

    public var id: ID {
        switch game {
        case .daily(let game): .daily(game.player, game.language, game.puzzle)
        case .practice(let game): .practice(game.player, game.number)
        }
    }

    public var player: UserID {
        switch game {
        case .daily(let game): game.player
        case .practice(let game): game.player
        }
    }

    /// When the game ended: its place in its lane's queue.
    public var finishedAt: Date {
        switch game {
        case .daily(let game): game.finishedAt ?? .distantPast
        case .practice(let game): game.finishedAt ?? .distantPast
        }
    }

    var language: Language {
        switch game {
        case .daily(let game): game.language
        case .practice(let game): game.language
        }
    }

    var hardMode: Bool {
        switch game {
        case .daily(let game): game.hardMode
        case .practice(let game): game.hardMode
        }
    }

    /// The game as an analysis's title names it.
    var analysed: AnalysedGame {
        switch game {
        case .daily(let game): .daily(game.puzzle)
        case .practice(let game): .practice(game.kind)
        }
    }
}
