/// Why a guess was not accepted. A rejected guess uses no try.
public enum GuessRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case notEnoughLetters
    case tooManyLetters
    case notALetter(Character)
    case notInWordList
    /// Hard mode: a green letter was not kept in its place (`position` counts from 0).
    case mustKeepLetter(position: Int, letter: Character)
    /// Hard mode: a revealed letter was left out.
    case mustContainLetter(Character)
    case gameIsOver

    /// The message players see; the original game's wording where it has one.
    public var description: String {
        switch self {
        case .notEnoughLetters: "Not enough letters"
        case .tooManyLetters: "Too many letters"
        case .notALetter(let character): "\"\(character)\" is not a letter"
        case .notInWordList: "Not in word list"
        case .mustKeepLetter(let position, let letter): "\(ordinal(position + 1)) letter must be \(letter)"
        case .mustContainLetter(let letter): "Guess must contain \(letter)"
        case .gameIsOver: "This game is over; a new word comes with the next puzzle"
        }
    }
}

/// 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st.
func ordinal(_ number: Int) -> String {
    let suffix =
        switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
    return "\(number)\(suffix)"
}
