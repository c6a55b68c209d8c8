import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Share text")
struct SharedResultTests {
    let list = Language.english.wordList

    func finishedGame(answer: String, guesses: [String], hardMode: Bool = false) -> Game {
        var game = Game(answer: list.testWord(answer), wordList: list, hardMode: hardMode)
        for guess in guesses { game.submit(guess) }
        return game
    }

    @Test("A win, in the original format, in each theme")
    func goldenWin() throws {
        let game = finishedGame(answer: "abide", guesses: ["speed", "aside", "abide"], hardMode: true)
        let share = try #require(SharedResult(game: game, puzzle: PuzzleNumber(1_234), gameName: "Tessera"))
        #expect(share.text(theme: .dark) == "Tessera 1,234 3/6*\n\n⬛⬛🟨⬛🟨\n🟩⬛🟩🟩🟩\n🟩🟩🟩🟩🟩")
        #expect(share.text(theme: .light) == "Tessera 1,234 3/6*\n\n⬜⬜🟨⬜🟨\n🟩⬜🟩🟩🟩\n🟩🟩🟩🟩🟩")
        #expect(share.text(theme: .highContrast) == "Tessera 1,234 3/6*\n\n⬛⬛🟦⬛🟦\n🟧⬛🟧🟧🟧\n🟧🟧🟧🟧🟧")
    }

    @Test("A game of another language than English is marked after its headline, and reads back the same")
    func languageMark() throws {
        let game = finishedGame(answer: "abide", guesses: ["speed", "aside", "abide"])
        let share = try #require(SharedResult(game: game, puzzle: PuzzleNumber(320), gameName: "Tessera"))
        let spanish = share.text(language: .spanish)
        #expect(spanish == "Tessera 320 3/6 · Español\n\n⬛⬛🟨⬛🟨\n🟩⬛🟩🟩🟩\n🟩🟩🟩🟩🟩")
        #expect(share.text(language: .english) == share.text())
        let read = try #require(SharedResult(parsing: spanish))
        #expect(read.gameName == "Tessera" && read.puzzle == PuzzleNumber(320) && read.headline == "Tessera 320 3/6")
    }

    @Test("A loss shows X, no star without hard mode, and the configured name")
    func goldenLoss() throws {
        let game = finishedGame(answer: "abide", guesses: ["crane", "speed", "fizzy", "tough", "lymph", "glory"])
        let share = try #require(SharedResult(game: game, puzzle: PuzzleNumber(7), gameName: "Palabro"))
        #expect(
            share.text() == "Palabro 7 X/6\n\n⬛⬛🟨⬛🟩\n⬛⬛🟨⬛🟨\n⬛🟨⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛"
        )
        #expect(
            SharedResult(
                game: finishedGame(answer: "abide", guesses: ["crane"]), puzzle: PuzzleNumber(7), gameName: "T") == nil)
    }
}

@Suite("Reading pasted results")
struct SharedResultParsingTests {
    static let grid = "⬛⬛🟨⬛🟨\n🟩⬛🟩🟩🟩\n🟩🟩🟩🟩🟩"

    @Test(
        "Every variant people paste",
        arguments: [
            ("Wordle 1,234 3/6*\n\n\(grid)", "Wordle", 1_234, 3, true),
            ("Wordle 1234 3/6\n\n\(grid)", "Wordle", 1_234, 3, false),
            ("Wordle 1.234 3/6\n\n\(grid)", "Wordle", 1_234, 3, false),
            ("Wordle 1 234 3/6\n\(grid)", "Wordle", 1_234, 3, false),
            ("Wordle 987 3/6\n\n\(grid)", "Wordle", 987, 3, false),
            ("Tessera 326 3/6*\n\n\(grid)", "Tessera", 326, 3, true),
            // Light and high-contrast squares, and emoji with variation selectors.
            ("Wordle 1,234 3/6\n\n⬜⬜🟨⬜🟨\n🟩⬜🟩🟩🟩\n🟩🟩🟩🟩🟩", "Wordle", 1_234, 3, false),
            ("Wordle 1,234 3/6\n\n⬛⬛🟦⬛🟦\n🟧⬛🟧🟧🟧\n🟧🟧🟧🟧🟧", "Wordle", 1_234, 3, false),
            ("Wordle 1,234 3/6\n\n⬛️⬛️🟨⬛️🟨\n🟩⬛️🟩🟩🟩\n🟩🟩🟩🟩🟩", "Wordle", 1_234, 3, false),
            // Shortcodes, as Slack and Discord copy them.
            (
                "Wordle 1,234 3/6\n:black_large_square::black_large_square::large_yellow_square::black_large_square::large_yellow_square:\n:large_green_square::white_large_square::large_green_square::large_green_square::large_green_square:\n:large_green_square::large_green_square::large_green_square::large_green_square::large_green_square:",
                "Wordle", 1_234, 3, false
            ),
            // Text around it, Windows line ends, a grid with spaces.
            ("got it!! Wordle 1,234 3/6*\r\n\r\n\(grid)\r\nbeat that", "Wordle", 1_234, 3, true),
            ("Wordle 1,234 3/6\n\n⬛ ⬛ 🟨 ⬛ 🟨\n🟩 ⬛ 🟩 🟩 🟩\n🟩 🟩 🟩 🟩 🟩\n", "Wordle", 1_234, 3, false),
            // A headline without its grid.
            ("Wordle 1,234 4/6", "Wordle", 1_234, 4, false),
        ]
    )
    func variants(text: String, name: String, puzzle: Int, guesses: Int, hard: Bool) throws {
        let result = try #require(SharedResult(parsing: text))
        #expect(result.gameName == name)
        #expect(result.puzzle == PuzzleNumber(puzzle))
        #expect(result.result == .won(guesses: guesses))
        #expect(result.isHardMode == hard)
        #expect(result.maximumGuesses == 6)
        if result.rows.isEmpty {
            #expect(!text.contains("🟩"))
        } else {
            #expect(result.rows.map(\.squares).joined(separator: "\n") == Self.grid)
        }
    }

    @Test("A loss with X, lower-case or not")
    func loss() throws {
        let grid = Array(repeating: "⬛⬛🟨⬛⬛", count: 6).joined(separator: "\n")
        for text in ["Wordle 1,234 X/6\n\n\(grid)", "Wordle 1,234 x/6*\n\(grid)"] {
            let result = try #require(SharedResult(parsing: text))
            #expect(result.result == .lost)
            #expect(result.rows.count == 6)
        }
    }

    @Test("Practice and archive results are marked, read back as themselves, and never as a day's result")
    func practiceAndArchive() throws {
        let rows = [Feedback(squares: "⬛🟨⬛⬛🟩"), Feedback(squares: "🟩🟩🟩🟩🟩")]
        let practice = SharedResult(
            gameName: "Tessera", kind: .practice, puzzle: PuzzleNumber(99), result: .won(guesses: 2), isHardMode: true,
            rows: rows)
        #expect(practice.text() == "Tessera Practice 2/6*\n\n⬛🟨⬛⬛🟩\n🟩🟩🟩🟩🟩")
        #expect(practice.puzzle == PuzzleNumber(0), "a practice game has no number")
        let archive = SharedResult(
            gameName: "Tessera", kind: .archive, puzzle: PuzzleNumber(1312), result: .won(guesses: 2),
            isHardMode: false,
            rows: rows)
        #expect(archive.text() == "Tessera 1,312 (archive) 2/6\n\n⬛🟨⬛⬛🟩\n🟩🟩🟩🟩🟩")
        #expect(SharedResult(parsing: practice.text()) == practice)
        #expect(SharedResult(parsing: archive.text()) == archive)
        #expect(SharedResult(parsing: "my go: tessera practice 2/6*\n⬛🟨⬛⬛🟩\n🟩🟩🟩🟩🟩")?.kind == .practice)
        #expect(SharedResult(parsing: "Tessera 312 (ARCHIVE) X/6")?.kind == .archive)
        #expect(SharedResult(parsing: "Tessera 312 3/6")?.kind == .daily)
        #expect(SharedResult(parsing: "Tessera Practise 3/6") == nil, "a mark misspelt is no headline")
    }

    @Test("Our own share text reads back as itself")
    func roundTrip() throws {
        let share = SharedResult(
            gameName: "Tessera",
            puzzle: PuzzleNumber(12_345),
            result: .won(guesses: 2),
            isHardMode: true,
            rows: [Feedback(squares: "🟨⬛⬛🟩⬛"), Feedback(squares: "🟩🟩🟩🟩🟩")]
        )
        for theme in ShareTheme.allCases {
            #expect(SharedResult(parsing: share.text(theme: theme)) == share)
        }
    }

    @Test(
        "Not a result, or a grid that contradicts its score",
        arguments: [
            "hello there",
            "Wordle is fun 3/6",
            "Wordle 1,234 7/6",
            // Says 3 but has 2 rows.
            "Wordle 1,234 3/6\n\n⬛⬛🟨⬛🟨\n🟩🟩🟩🟩🟩",
            // Says 2 but the last row is not solved.
            "Wordle 1,234 2/6\n\n⬛⬛🟨⬛🟨\n🟩⬛🟩🟩🟩",
            // A loss with a solved row.
            "Wordle 1,234 X/6\n\n⬛⬛🟨⬛🟨\n🟩🟩🟩🟩🟩\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛",
            // Rows of different lengths.
            "Wordle 1,234 2/6\n\n⬛⬛🟨⬛\n🟩🟩🟩🟩🟩",
            "",
        ]
    )
    func rejected(text: String) {
        #expect(SharedResult(parsing: text) == nil)
    }
}
