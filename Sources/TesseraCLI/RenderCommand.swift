import ArgumentParser
import Foundation
import TesseraCore
import TesseraEngine
import TesseraPictures

/// `tessera render`: any of the bot's three pictures written to a PNG file, to try them and for operators.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write one of the bot's pictures to a PNG file: a result card, a statistics chart or a day card.",
        subcommands: [Card.self, Chart.self, Day.self]
    )

    struct Picture: ParsableArguments {
        @Option(name: .shortAndLong, help: "The PNG file to write.")
        var output: String

        @Option(name: .customLong("theme"), help: "Colours: dark, light or high-contrast.")
        var themeArgument = ChoiceArgument(ShareTheme.dark)

        @Option(help: "1 for phone size, 2 (the bot's) for twice that.")
        var scale = 2

        @Option(name: .customLong("language"), help: "Word list and labels' language.")
        var languageArgument = ChoiceArgument(Language.english)

        var theme: ShareTheme { themeArgument.value }
        var language: Language { languageArgument.value }

        func validate() throws {
            guard (1...4).contains(scale) else { throw ValidationError("--scale is 1 to 4; the bot draws at 2.") }
        }

        func write(_ png: [UInt8]) throws {
            do {
                try Data(png).write(to: URL(fileURLWithPath: output))
            } catch {
                let reason = error.localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "."))
                throw CommandError("Cannot write \(output): \(reason). Check that its folder exists and is writable.")
            }
            print("\(output): \(png.count) bytes")
        }

        /// The colours of each of `guesses` against `answer`, every word checked against the list.
        func rows(_ guesses: [String], answer: String) throws -> [(word: String, states: [LetterState])] {
            let list = language.wordList
            let answerWord = try list.allowedWord(answer, role: "answer")
            return try guesses.map { guess in
                let word = try list.allowedWord(guess, role: "guess")
                return (list.letters(word), Feedback(guess: word, answer: answerWord).states)
            }
        }
    }

    struct Card: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The card a finished daily game is shown with.",
            discussion: "Example: tessera render card slate crane stale slate --puzzle 326 --hard -o card.png")

        @OptionGroup var picture: Picture
        @Argument(help: "The answer.") var answer: String
        @Argument(help: "The guesses, in order.") var guesses: [String]
        @Option(help: "The puzzle's number, in the title.") var puzzle = 1
        @Flag(help: "Played in hard mode: the title's *.") var hard = false

        func run() throws {
            let rows = try picture.rows(guesses, answer: answer)
            let solved = rows.last.map { $0.states.allSatisfy { $0 == .correct } } ?? false
            let score = "\(solved ? String(rows.count) : "X")/\(Game.defaultMaximumGuesses)\(hard ? "*" : "")"
            let card = ResultCard(
                title: "Tessera \(PuzzleNumber(puzzle).grouped) \(score)",
                rows: rows.map { ResultCard.Row(letters: $0.word, states: $0.states) },
                maximumGuesses: Game.defaultMaximumGuesses, wordLength: picture.language.wordList.wordLength,
                theme: picture.theme)
            try picture.write(card.png(scale: picture.scale))
        }
    }

    struct Chart: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The statistics chart of /stats.",
            discussion: "Example: tessera render chart --wins 0,1,6,12,8,3 --lost 2 --last 4 -o chart.png")

        @OptionGroup var picture: Picture
        @Option(help: "Games won in 1, 2, … guesses, separated by commas.") var wins: String
        @Option(help: "Games lost.") var lost = 0
        @Option(help: "The guesses of the last game won, whose bar is highlighted.") var last: Int?

        func run() throws {
            let counts = try wins.split(separator: ",").map { text in
                guard let count = Int(text.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                    throw CommandError(
                        "--wins takes counts separated by commas, as 0,1,6,12,8,3; '\(text)' is not one.")
                }
                return count
            }
            guard counts.count == Game.defaultMaximumGuesses, lost >= 0 else {
                throw CommandError("--wins takes \(Game.defaultMaximumGuesses) counts and --lost a count of 0 or more.")
            }
            var results: [GameResult: Int] = [.lost: lost]
            for (index, count) in counts.enumerated() { results[.won(guesses: index + 1)] = count }
            let chart = StatisticsChart(
                statistics: Statistics(results: results), highlighted: last,
                labels: StatisticsChart.Labels(picture.language), theme: picture.theme)
            try picture.write(chart.png(scale: picture.scale))
        }
    }

    struct Day: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A group's day card: each member's colour rows, without letters, in finishing order.",
            discussion: """
                Each --board is one member's guesses, separated by spaces, in finishing order; the first boards \
                with the fewest guesses wear the crown.
                Example: tessera render day slate --board "crane stale slate" --board "audio lines slate" -o day.png
                """)

        @OptionGroup var picture: Picture
        @Argument(help: "The day's answer.") var answer: String
        @Option(help: "One member's guesses, separated by spaces; repeat it for each member.") var board: [String] = []
        @Option(help: "The puzzle's number, in the title.") var puzzle = 1

        func run() throws {
            let boards = try board.map { try picture.rows($0.split(separator: " ").map(String.init), answer: answer) }
            let solvedIn = boards.map { rows in
                rows.last.map { $0.states.allSatisfy { $0 == .correct } } == true ? rows.count : nil
            }
            let best = solvedIn.compactMap { $0 }.min()
            let card = DayCard(
                title: "Tessera \(PuzzleNumber(puzzle).grouped)",
                boards: zip(boards, solvedIn).map { rows, solved in
                    DayCard.Board(rows: rows.map(\.states), crowned: solved != nil && solved == best)
                }, maximumGuesses: Game.defaultMaximumGuesses, wordLength: picture.language.wordList.wordLength,
                theme: picture.theme)
            try picture.write(card.png(scale: picture.scale))
        }
    }
}
