import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Results of the other puzzles, pasted")
struct PuzzleShareTests {
    @Test("Connections: the puzzle, its mistakes, and whether all four groups were found, as people paste it")
    func connections() {
        for entry in PuzzleShareCorpus.connections {
            let share = PuzzleShare(parsing: entry.text)
            #expect(
                share
                    == PuzzleShare(
                        game: .connections, day: .numbered(entry.puzzle),
                        outcome: .connections(mistakes: entry.mistakes, solved: entry.solved)),
                "\(entry.text)")
        }
        #expect(PuzzleShareCorpus.connections.count >= 30)
    }

    @Test("Strands: the puzzle and the hints used, with or without its theme")
    func strands() {
        for entry in PuzzleShareCorpus.strands {
            #expect(
                PuzzleShare(parsing: entry.text)
                    == PuzzleShare(game: .strands, day: .numbered(entry.puzzle), outcome: .strands(hints: entry.hints)),
                "\(entry.text)")
        }
        #expect(PuzzleShareCorpus.strands.count >= 30)
    }

    @Test("The Mini: its date and time, from the sentence or the badge's link")
    func mini() {
        for entry in PuzzleShareCorpus.mini {
            #expect(
                PuzzleShare(parsing: entry.text)
                    == PuzzleShare(game: .mini, day: .dated(entry.date), outcome: .mini(seconds: entry.seconds)),
                "\(entry.text)")
        }
        #expect(PuzzleShareCorpus.mini.count >= 30)
    }

    @Test("Near misses are not results: a grid that no game ends with, a missing time, another game")
    func nearMisses() {
        for text in PuzzleShareCorpus.nearMisses {
            #expect(PuzzleShare(parsing: text) == nil, "\(text)")
        }
        #expect(PuzzleShareCorpus.nearMisses.count >= 30)
    }

    @Test("Other games' shares are not Wordle results, and Wordle's are not theirs")
    func apart() {
        for entry in PuzzleShareCorpus.connections + PuzzleShareCorpus.strands.map({ ($0.text, 0, 0, false) })
            + PuzzleShareCorpus.mini.map({ ($0.text, 0, 0, false) })
        {
            #expect(SharedResult(parsing: entry.0) == nil, "\(entry.0)")
        }
        #expect(PuzzleShare(parsing: "Wordle 1,234 3/6\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩⬛\n🟩🟩🟩🟩🟩") == nil)
    }

    @Test("Any message is read in bounded time: long lines and many lines are cut short")
    func bounded() {
        let long = String(repeating: "🟨", count: 100_000)
        #expect(PuzzleShare(parsing: "Connections\nPuzzle #12\n" + long) == nil)
        let many = String(repeating: "🔵\n", count: 100_000)
        #expect(PuzzleShare(parsing: "Strands #12\n🟡\n" + many) == nil)
        let words = String(repeating: "I solved the ", count: 20_000)
        #expect(PuzzleShare(parsing: words + "1/1/2026 New York Times Mini Crossword in 0:10!") == nil)
    }
}
