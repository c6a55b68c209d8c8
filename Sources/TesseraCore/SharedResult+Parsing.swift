extension SharedResult {
    /// Finds a result pasted from any Wordle-style game in a message: the original's `Wordle 1,234 3/6*`,
    /// ours, and the variants people paste (thousands separated by `,` `.` or a space, or not at all; `X`
    /// for a loss; dark, light or high-contrast squares, with or without U+FE0F; `:large_green_square:`
    /// shortcodes; text before and after).
    ///
    /// Returns `nil` when there is no headline, or when the grid under it contradicts the score (a win
    /// whose last row is not all green, a row count that differs from the score). A headline without a grid
    /// is a result with no rows.
    public init?(parsing text: String) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() {
            guard let headline = Self.headline(in: line) else { continue }
            let rows = Self.grid(after: lines[(index + 1)...])
            let result = SharedResult(
                gameName: headline.name,
                puzzle: headline.puzzle,
                result: headline.result,
                maximumGuesses: headline.maximumGuesses,
                isHardMode: headline.isHardMode,
                rows: rows
            )
            if result.gridAgreesWithScore {
                self = result
                return
            }
        }
        return nil
    }

    private var gridAgreesWithScore: Bool {
        if rows.isEmpty { return true }
        guard Set(rows.map(\.count)).count == 1 else { return false }
        let solvedRows = rows.map(\.isSolved)
        switch result {
        case .won(let guesses):
            return rows.count == guesses && solvedRows.last == true && !solvedRows.dropLast().contains(true)
        case .lost:
            return rows.count == maximumGuesses && !solvedRows.contains(true)
        }
    }

    private struct Headline {
        let name: String
        let puzzle: PuzzleNumber
        let result: GameResult
        let maximumGuesses: Int
        let isHardMode: Bool
    }

    private static func headline(in line: Substring) -> Headline? {
        let pattern =
            #/(?<name>\p{L}[\p{L}\p{N}_\-]*)[ \t]+#?(?<number>\d{1,3}(?:[,.' \u{A0}\u{202F}]\d{3})+|\d{1,7})[ \t]+(?<score>[1-9Xx])\/(?<maximum>[1-9])(?<hard>\*)?/#
        guard let match = line.firstMatch(of: pattern) else { return nil }
        let digits = match.output.number.filter(\.isASCII).filter(\.isNumber)
        guard let number = Int(digits), let maximum = Int(match.output.maximum) else { return nil }
        let result: GameResult
        if let guesses = Int(match.output.score) {
            guard guesses <= maximum else { return nil }
            result = .won(guesses: guesses)
        } else {
            result = .lost
        }
        return Headline(
            name: String(match.output.name),
            puzzle: PuzzleNumber(number),
            result: result,
            maximumGuesses: maximum,
            isHardMode: match.output.hard != nil
        )
    }

    /// The rows of squares under a headline: blank lines are skipped, and the grid ends at the first line
    /// that is not a row of squares.
    private static func grid(after lines: ArraySlice<Substring>) -> [Feedback] {
        var rows: [Feedback] = []
        for line in lines {
            if line.allSatisfy(\.isWhitespace) { continue }
            guard let row = tileRow(line) else { break }
            rows.append(row)
        }
        return rows
    }

    private static func tileRow(_ line: Substring) -> Feedback? {
        var states: [LetterState] = []
        var scalars = line.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar.properties.isWhitespace || scalar == "\u{FE0F}" || scalar == "\u{200D}" { continue }
            if let state = squares[scalar] {
                states.append(state)
            } else if scalar == ":", let end = scalars.firstIndex(of: ":"),
                let state = shortcodes[String(String.UnicodeScalarView(scalars[..<end]))]
            {
                states.append(state)
                scalars = scalars[scalars.index(after: end)...]
            } else {
                return nil
            }
            if states.count > Word.maximumLength { return nil }
        }
        return states.isEmpty ? nil : Feedback(states)
    }

    private static let squares: [Unicode.Scalar: LetterState] = [
        "🟩": .correct, "🟧": .correct,
        "🟨": .present, "🟦": .present,
        "⬛": .absent, "⬜": .absent, "◼": .absent, "◻": .absent,
    ]

    private static let shortcodes: [String: LetterState] = [
        "large_green_square": .correct, "green_square": .correct,
        "large_orange_square": .correct, "orange_square": .correct,
        "large_yellow_square": .present, "yellow_square": .present,
        "large_blue_square": .present, "blue_square": .present,
        "black_large_square": .absent, "white_large_square": .absent,
        "black_square": .absent, "white_square": .absent,
    ]
}
