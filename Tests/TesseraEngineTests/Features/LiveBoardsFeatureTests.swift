import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``LiveBoards`` alone: a board is made from the game and its message, with nothing read of the store, so its
/// turn is built on an empty ``SliceDouble``.
@Suite("Live boards, from the game alone")
struct LiveBoardsFeatureTests {
    typealias Setting = FeatureSetting
    let boards = LiveBoards(core: Setting.core)
    let ann = Setting.player(1, "Ann")

    /// Ann's game of puzzle 326 with CRANE to SLATE answered, after `guesses`.
    func daily(_ guesses: [String]) throws -> DailyGame {
        let list = Language.english.wordList
        guard case .success(let answer) = list.word(from: "slate") else { throw LiveBoardTests.WordNotInList() }
        var game = Game(answer: answer, wordList: list)
        for guess in guesses { _ = game.submit(guess) }
        let stored = StoredGame(
            player: ann.id, language: .english, puzzle: PuzzleNumber(326), hardMode: false, guesses: guesses)
        return DailyGame(game: game, stored: stored)
    }

    func board(_ guesses: [String], platform: PlatformTraits = .init()) throws -> OutgoingMessage {
        boards.board(
            of: try daily(guesses),
            in: Setting.turn("", from: ann, in: nil, reads: SliceDouble(), platform: platform))
    }

    @Test("While playing: one live message for the game, its rows and keyboard, no buttons")
    func playing() throws {
        let board = try board(["crane"])
        #expect(board.live == "board:en:326")
        #expect(board.html.contains("<code>CRANE</code>") && board.buttons.isEmpty)
        // The keyboard marks A and E green and C, R, N absent; S is untried.
        #expect(board.html.contains("🟩A") && board.html.contains("🟩E") && board.html.contains("⬛C"))
        #expect(board.html.contains(" S ") && !board.html.contains("🟩S"))
    }

    @Test("Finished: the result, the countdown, and Share, Copy, Statistics and Analysis buttons")
    func finished() throws {
        let board = try board(["crane", "slate"])
        #expect(board.html.contains(Language.english.texts.won(guesses: 2, maximumGuesses: 6)))
        let buttons = board.buttons.flatMap { $0 }.map(\.text)
        let texts = Language.english.texts
        #expect(buttons == [texts.shareButton, texts.copyButton, texts.statsButton, texts.analysisButton])
    }

    @Test("Where messages cannot be edited, each version is a message of its own, and commands replace buttons")
    func noEdits() throws {
        let board = try board(["crane", "slate"], platform: PlatformTraits(buttons: false, edits: false))
        #expect(board.live == nil && board.buttons.isEmpty)
        #expect(board.html.contains(Language.english.texts.boardCommands))
    }
}
