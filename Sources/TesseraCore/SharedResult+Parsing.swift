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
                kind: headline.kind,
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
        let kind: Kind
        let puzzle: PuzzleNumber
        let result: GameResult
        let maximumGuesses: Int
        let isHardMode: Bool
    }

    /// The first headline in a line: `NAME #NUMBER SCORE/MAXIMUM*`, where the name is letters then letters,
    /// digits, `_` or `-`; the number is up to 7 digits, or groups of three after a separator (`,` `.` `'`,
    /// a space, U+00A0 or U+202F); the score is 1–9 or X; `#` and `*` (hard mode) are optional. A practice
    /// game's headline has `Practice` for its number, and an archive game's has `(archive)` after it.
    ///
    /// A scanner, not a pattern: one pass over the line and a bounded look at each candidate, so no text
    /// makes it slow (a pattern tried at every start backtracked quadratically on a long word).
    private static func headline(in line: Substring) -> Headline? {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        while index < scalars.count {
            // A name is a run of name scalars, from its first letter; a later start in the run ends the same.
            guard isNameScalar(scalars[index]) else {
                index += 1
                continue
            }
            var runEnd = index
            while runEnd < scalars.count, isNameScalar(scalars[runEnd]) { runEnd += 1 }
            if let nameStart = scalars[index..<runEnd].firstIndex(where: isLetter),
                let headline = headline(named: scalars[nameStart..<runEnd], after: runEnd, in: scalars)
            {
                return headline
            }
            index = runEnd
        }
        return nil
    }

    /// The rest of a headline after its name: blanks, `#`, the number, blanks, the score.
    private static func headline(
        named name: ArraySlice<Unicode.Scalar>, after nameEnd: Int, in scalars: [Unicode.Scalar]
    )
        -> Headline?
    {
        var position = nameEnd
        guard skipBlanks(scalars, &position) else { return nil }
        if let markEnd = end(of: practiceMark, in: scalars, at: position), let score = score(scalars, after: markEnd) {
            return Headline(
                name: String(String.UnicodeScalarView(name)), kind: .practice, puzzle: PuzzleNumber(0),
                result: score.result, maximumGuesses: score.maximum, isHardMode: score.hard)
        }
        if position < scalars.count, scalars[position] == "#" { position += 1 }
        // The number's possible ends, in the order a pattern would try them: most groups first, then digits.
        var leading = position
        while leading < scalars.count, isDigit(scalars[leading]) { leading += 1 }
        let digitCount = leading - position
        guard digitCount > 0 else { return nil }
        var ends: [Int] = []
        if digitCount <= 3 {
            var end = leading
            while end + 3 < scalars.count, numberSeparators.contains(scalars[end]),
                scalars[(end + 1)...(end + 3)].allSatisfy(isDigit)
            {
                end += 4
                ends.append(end)
            }
            ends.reverse()
        }
        if digitCount <= 7 { ends.append(leading) }
        for end in ends {
            // An archive game's mark comes between the number and the score: `Tessera 312 (archive) 3/6`.
            var markStart = end
            let markEnd = skipBlanks(scalars, &markStart) ? self.end(of: archiveMark, in: scalars, at: markStart) : nil
            let archive = markEnd != nil
            guard let score = score(scalars, after: markEnd ?? end) else { continue }
            let digits = scalars[position..<end].filter(isDigit)
            guard let number = Int(String(String.UnicodeScalarView(digits))) else { return nil }
            return Headline(
                name: String(String.UnicodeScalarView(name)), kind: archive ? .archive : .daily,
                puzzle: PuzzleNumber(number), result: score.result, maximumGuesses: score.maximum,
                isHardMode: score.hard)
        }
        return nil
    }

    /// Where `mark` ends when it starts at `position`, matched without regard to case; nil when it is not there.
    private static func end(of mark: String, in scalars: [Unicode.Scalar], at position: Int) -> Int? {
        let mark = Array(mark.lowercased().unicodeScalars)
        guard position + mark.count <= scalars.count else { return nil }
        let matches = mark.indices.allSatisfy { scalars[position + $0].properties.lowercaseMapping == String(mark[$0]) }
        return matches ? position + mark.count : nil
    }

    /// `SCORE/MAXIMUM*` after blanks.
    private static func score(_ scalars: [Unicode.Scalar], after end: Int) -> (
        result: GameResult, maximum: Int, hard: Bool
    )? {
        var position = end
        guard skipBlanks(scalars, &position), position + 2 < scalars.count, scalars[position + 1] == "/",
            let maximum = digitValue(scalars[position + 2]), maximum > 0
        else { return nil }
        let result: GameResult
        if let guesses = digitValue(scalars[position]), guesses > 0 {
            guard guesses <= maximum else { return nil }
            result = .won(guesses: guesses)
        } else if scalars[position] == "X" || scalars[position] == "x" {
            result = .lost
        } else {
            return nil
        }
        let hard = position + 3 < scalars.count && scalars[position + 3] == "*"
        return (result, maximum, hard)
    }

    /// Moves past one or more spaces or tabs; false when there are none.
    private static func skipBlanks(_ scalars: [Unicode.Scalar], _ position: inout Int) -> Bool {
        let start = position
        while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
        return position > start
    }

    private static let numberSeparators: Set<Unicode.Scalar> = [",", ".", "'", " ", "\u{A0}", "\u{202F}"]

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        if isLetter(scalar) || scalar == "_" || scalar == "-" { return true }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        isDigit(scalar) ? Int(scalar.value - 48) : nil
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

    /// Whether a text shows guesses' letters the way the bot's private messages do, as a forwarded or copied one
    /// has: a line of a row of squares, then a blank and the word in capitals, one letter a square (`🟩⬛⬛🟨⬛
    /// CRANE`, numbered `1. 🟩⬛⬛🟨⬛ CRANE` in an analysis), or words in capitals joined by arrows (the bot's
    /// path, `SALET → THRIP → ROUTE`). Chat beside squares (`🟩🟩🟩🟩🟩 great`) is no such line.
    public static func showsLetters(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in showsBoardRow(line) || showsPath(line) }
    }

    /// `SALET → THRIP → ROUTE`: two words or more in capitals, of one length, each next to an arrow.
    private static func showsPath(_ line: Substring) -> Bool {
        let pieces = line.split(separator: "→", omittingEmptySubsequences: false)
        guard pieces.count >= 2 else { return false }
        var words: [Substring] = []
        for (index, piece) in pieces.enumerated() {
            let tokens = piece.split(whereSeparator: \.isWhitespace)
            if index > 0, let first = tokens.first { words.append(first) }
            if index < pieces.count - 1, let last = tokens.last { words.append(last) }
        }
        guard let length = words.first?.count, length >= 4 else { return false }
        return words.count >= 2
            && words.allSatisfy { $0.count == length && $0.allSatisfy { $0.isLetter && $0.isUppercase } }
    }

    private static func showsBoardRow(_ line: Substring) -> Bool {
        var trimmed = line.drop { $0.isWhitespace }
        // An analysis numbers its rows: `1. `.
        let number = trimmed.prefix { $0.isASCII && $0.isNumber }
        if !number.isEmpty, trimmed.dropFirst(number.count).first == "." {
            trimmed = trimmed.dropFirst(number.count + 1).drop { $0.isWhitespace }
        }
        guard let blank = trimmed.firstIndex(where: \.isWhitespace), let row = tileRow(trimmed[..<blank]) else {
            return false
        }
        let words = trimmed[blank...].split(whereSeparator: \.isWhitespace)
        return words.count == 1 && words[0].count == row.count
            && words[0].allSatisfy { $0.isLetter && $0.isUppercase }
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
