public import TesseraCore

extension WordList {
    /// A word from text that must be well formed (not necessarily allowed); for tests and examples.
    public func testWord(_ text: String) -> Word {
        switch word(from: text) {
        case .success(let word): return word
        case .failure(let rejection): preconditionFailure("'\(text)' is not a test word: \(rejection)")
        }
    }
}

extension Feedback {
    /// Feedback from squares, for readable expectations: `Feedback(squares: "⬛⬛🟨⬛🟨")`.
    public init(squares: String) {
        self.init(
            squares.map { square in
                switch square {
                case "🟩": LetterState.correct
                case "🟨": LetterState.present
                case "⬛": LetterState.absent
                default: preconditionFailure("'\(square)' is not 🟩, 🟨 or ⬛")
                }
            }
        )
    }

    /// The feedback as dark-theme squares.
    public var squares: String {
        String(states.map(ShareTheme.dark.square(for:)))
    }
}
