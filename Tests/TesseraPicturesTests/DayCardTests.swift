import Foundation
import TesseraCore
import Testing

@testable import TesseraPictures

/// The group's day card: colour rows only, never a letter, in the order the caption names the players, the
/// crowned framed; the same pixels as its golden PNG (`Fixtures/`, written anew with `TESSERA_UPDATE_GOLDEN=1`).
@Suite("The group's day card")
struct DayCardTests {
    /// A family's day of SLATE: Ann and Kenji in three (crowned), Nora in five in hard mode, Leo out of guesses.
    static func card(theme: ShareTheme = .dark) throws -> DayCard {
        let list = Language.english.wordList
        guard case .success(let answer) = list.word(from: "slate") else {
            throw ResultCardTests.Unlisted(word: "slate")
        }
        func rows(_ guesses: [String]) -> [[LetterState]] {
            var game = Game(answer: answer, wordList: list, hardMode: false)
            for guess in guesses { _ = game.submit(guess) }
            return game.rows.map(\.feedback.states)
        }
        return DayCard(
            title: "Tessera 326",
            boards: [
                .init(rows: rows(["crane", "stale", "slate"]), crowned: true),
                .init(rows: rows(["audio", "lines", "slate"]), crowned: true),
                .init(rows: rows(["pound", "might", "crane", "stale", "slate"]), crowned: false, hardMode: true),
                .init(rows: rows(["fuzzy", "pound", "might", "crane", "stale", "state"]), crowned: false),
            ], maximumGuesses: 6, wordLength: 5, theme: theme)
    }

    @Test("Every tile is one colour throughout: the scorer's for a played row, empty otherwise; no letter pixels")
    func singleColoured() throws {
        let card = try Self.card()
        let image = card.render()
        let layout = card.layout()
        let palette = Palette(.dark)
        for (index, board) in card.boards.enumerated() {
            for row in 0..<6 {
                for column in 0..<5 {
                    let (x, y) = layout.origin(board: index, row: row, column: column)
                    let inside = (y + 2..<(y + layout.tile - 2)).flatMap { py in
                        (x + 2..<(x + layout.tile - 2)).map { image[$0, py] }
                    }
                    let expected = row < board.rows.count ? palette.tile(board.rows[row][column]) : palette.background
                    #expect(inside.allSatisfy { $0 == expected }, "board \(index), row \(row), column \(column)")
                }
            }
        }
    }

    @Test("The crowned boards are framed in gold, the others not")
    func crowned() throws {
        let card = try Self.card()
        let image = card.render()
        let layout = card.layout()
        let gold = Palette(.dark).tile(.present)
        for (index, board) in card.boards.enumerated() {
            let (x, y) = layout.origin(board: index, row: 3, column: 0)
            #expect((image[x - 6, y] == gold) == board.crowned, "board \(index)")
        }
    }

    @Test("At most twelve boards: the caption names the rest")
    func bounded() throws {
        let one = try Self.card().boards[0]
        let card = DayCard(
            title: "Tessera 326", boards: Array(repeating: one, count: 40), maximumGuesses: 6, wordLength: 5,
            theme: .light)
        #expect(card.boards.count == DayCard.maximumBoards)
        // Twelve boards of flat colours: the largest day card, well within a photo's few tens of kilobytes.
        #expect(card.png().count < 40_000, "\(card.png().count) bytes")
    }

    @Test("The same card gives the same pixels as its golden file")
    func golden() throws {
        let png = try Self.card().png()
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/day-card-dark.png")
        if ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDEN"] == "1" { try Data(png).write(to: url) }
        let golden = try DecodedPNG(Array(try Data(contentsOf: url)))
        #expect(golden.sameColours(as: try DecodedPNG(png)), "run with TESSERA_UPDATE_GOLDEN=1 and look at \(url.path)")
    }
}
