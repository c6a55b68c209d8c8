/// The best state each letter has shown in a game so far: green beats yellow beats grey, and a letter is
/// never downgraded by a later guess.
public struct KeyboardSummary: Sendable, Hashable {
    private var states: [UInt8: LetterState] = [:]

    public init(rows: [Game.Row]) {
        for row in rows {
            for position in 0..<row.word.count {
                let letter = row.word[position]
                states[letter] = max(states[letter] ?? .absent, row.feedback[position])
            }
        }
    }

    /// The state of a letter, or `nil` when it has not been tried.
    public subscript(letter: UInt8) -> LetterState? {
        states[letter]
    }
}
