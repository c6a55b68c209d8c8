import TesseraCore

/// Draws rows and the keyboard for a terminal: coloured tiles when the output is a terminal, letters and
/// squares otherwise (pipes, logs, tests).
struct TerminalBoard {
    let wordList: WordList
    let usesColour: Bool

    func row(_ row: Game.Row) -> String {
        let letters = row.word.codes.map { wordList.alphabet.displayLetter($0) }
        guard usesColour else {
            return letters.map { "\($0) " }.joined() + " " + String(row.feedback.states.map(ShareTheme.dark.square))
        }
        return zip(letters, row.feedback.states).map { letter, state in tile(" \(letter) ", state) }.joined()
    }

    func keyboard(_ summary: KeyboardSummary) -> String {
        wordList.alphabet.keyboardRows.enumerated().map { index, keys in
            let indent = String(repeating: " ", count: index)
            return indent
                + keys.map { key -> String in
                    let letter = Character(key.uppercased())
                    guard let code = wordList.alphabet.code(of: key), let state = summary[code] else {
                        return " \(letter) "
                    }
                    if usesColour { return tile(" \(letter) ", state) }
                    switch state {
                    case .correct: return "[\(letter)]"
                    case .present: return "(\(letter))"
                    case .absent: return " · "
                    }
                }.joined()
        }.joined(separator: "\n")
    }

    private func tile(_ text: String, _ state: LetterState) -> String {
        let background =
            switch state {
            case .correct: "42"
            case .present: "43"
            case .absent: "100"
            }
        return "\u{1B}[1;97;\(background)m\(text)\u{1B}[0m"
    }
}
