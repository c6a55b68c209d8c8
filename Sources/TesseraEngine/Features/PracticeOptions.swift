import TesseraCore

/// What may follow `/practice` and `/archive`: a language, `hard`, `new` (give up the unfinished game), and
/// for the archive a puzzle's number, in any order.
struct PracticeOptions: Equatable {
    var language: Language?
    var hardMode = false
    var confirmed = false
    var puzzle: PuzzleNumber?
    /// `/archive before 312`: the archive's list, from the puzzles before that one.
    var before: PuzzleNumber?

    init?(_ argument: String, allowsPuzzle: Bool) {
        var words = argument.lowercased().split(whereSeparator: \.isWhitespace)[...]
        while let word = words.popFirst() {
            if allowsPuzzle, ["before", "antes"].contains(word), before == nil,
                let number = words.popFirst().flatMap({ Int($0) }), (1...999_999_999).contains(number)
            {
                before = PuzzleNumber(number)
            } else if ["hard", "difícil", "dificil"].contains(word) {
                hardMode = true
            } else if ["new", "nueva", "nuevo"].contains(word) {
                confirmed = true
            } else if let language = CommandWords.language(named: String(word)), self.language == nil {
                self.language = language
            } else if allowsPuzzle, puzzle == nil, let number = Int(word.drop { $0 == "#" }), word.count <= 9 {
                puzzle = PuzzleNumber(number)
            } else {
                return nil
            }
        }
    }

    /// The options written back as a command's argument, for a button or a command to type.
    var argument: String {
        var words: [String] = []
        if let puzzle { words.append(String(puzzle.rawValue)) }
        if let before { words.append("before \(before.rawValue)") }
        if let language { words.append(language.rawValue) }
        if hardMode { words.append("hard") }
        if confirmed { words.append("new") }
        return words.joined(separator: " ")
    }
}
