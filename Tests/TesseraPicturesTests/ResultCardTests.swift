import Foundation
import TesseraCore
import Testing

@testable import TesseraPictures

/// The result card: each tile's centre against the scorer's pattern for its guess, its letters drawn, and the
/// same pixels as the golden PNG of each theme in `Fixtures/` (written anew with `TESSERA_UPDATE_GOLDEN=1`,
/// then looked at before committing).
@Suite("The result card")
struct ResultCardTests {
    static let answer = "slate"
    static let guesses = ["crane", "stale", "slate"]

    static func card(_ theme: ShareTheme, guesses: [String] = guesses, hard: Bool = true) throws -> ResultCard {
        let list = Language.english.wordList
        guard case .success(let answer) = list.word(from: answer) else { throw Unlisted(word: answer) }
        var game = Game(answer: answer, wordList: list, hardMode: false)
        for guess in guesses { _ = game.submit(guess) }
        let rows = zip(guesses, game.rows).map { ResultCard.Row(letters: $0, states: $1.feedback.states) }
        return ResultCard(
            title: "Tessera 326 \(guesses.count)/6" + (hard ? "*" : ""), rows: rows, maximumGuesses: 6,
            wordLength: 5, theme: theme)
    }

    struct Unlisted: Error {
        let word: String
    }

    @Test(
        "Every tile has the colour the scorer gave its letter; rows not played are empty",
        arguments: ShareTheme.allCases)
    func tiles(theme: ShareTheme) throws {
        let card = try Self.card(theme)
        let image = try DecodedPNG(card.png())
        let layout = card.layout()
        let palette = Palette(theme)
        for row in 0..<6 {
            for column in 0..<5 {
                let (x, y) = layout.origin(row: row, column: column)
                // A point inside the tile and clear of its letter: near its top left corner.
                let probe = image[x + layout.tile / 8, y + layout.tile / 8]
                if row < card.rows.count {
                    #expect(probe == palette.tile(card.rows[row].states[column]), "row \(row), column \(column)")
                } else {
                    #expect(probe == palette.background && image[x, y + layout.tile / 2] == palette.empty)
                }
            }
        }
    }

    @Test("Each played tile carries its letter: pixels of the letter's colour at its middle, none on empty tiles")
    func letters() throws {
        let card = try Self.card(.dark)
        let image = card.render()
        let layout = card.layout()
        func letterPixels(row: Int, column: Int) -> Int {
            let (x, y) = layout.origin(row: row, column: column)
            var count = 0
            for py in (y + layout.tile / 4)..<(y + 3 * layout.tile / 4) {
                for px in (x + layout.tile / 4)..<(x + 3 * layout.tile / 4)
                where image[px, py] == Palette(.dark).tileText {
                    count += 1
                }
            }
            return count
        }
        for column in 0..<5 {
            #expect(letterPixels(row: 0, column: column) > 100, "CRANE's letter \(column)")
            #expect(letterPixels(row: 4, column: column) == 0)
        }
        // Different letters draw differently: the A of CRANE is not the C.
        #expect(letterPixels(row: 0, column: 0) != letterPixels(row: 0, column: 2))
    }

    @Test("The same card gives the same pixels as its golden file, in each theme", arguments: ShareTheme.allCases)
    func golden(theme: ShareTheme) throws {
        let png = try Self.card(theme).png()
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/result-card-\(theme.rawValue).png")
        if ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDEN"] == "1" {
            try Data(png).write(to: url)
        }
        // Pixels, not bytes: another zlib may compress the same pixels differently.
        let golden = try DecodedPNG(Array(try Data(contentsOf: url)))
        let drawn = try DecodedPNG(png)
        #expect(
            golden.sameColours(as: drawn),
            "run with TESSERA_UPDATE_GOLDEN=1 and look at \(url.path)")
    }

    @Test("At twice phone size a card is about 700 pixels wide and small")
    func size() throws {
        let card = try Self.card(.dark)
        #expect(card.layout().width == 350 * 2)
        #expect(card.png().count < 25_000, "\(card.png().count) bytes")
    }
}
