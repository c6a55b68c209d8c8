/// Why hard mode could not be switched on.
public enum HardModeRejection: Error, Sendable, Hashable, CustomStringConvertible {
    case roundAlreadyStarted

    public var description: String { "Hard mode can only be enabled at the start of a round" }
}

extension Game {
    /// Switches hard mode on (only before the first guess, as in the original) or off (at any time; the
    /// game then no longer counts as a hard-mode game).
    public mutating func setHardMode(_ enabled: Bool) -> Result<Void, HardModeRejection> {
        if enabled && !isHardMode && !rows.isEmpty { return .failure(.roundAlreadyStarted) }
        isHardMode = enabled
        return .success(())
    }

    /// The original hard-mode check against every earlier row: greens must stay in place (checked first,
    /// left to right), then every revealed letter must be used as often as it was revealed in one row.
    func hardModeViolation(of word: Word) -> GuessRejection? {
        for position in 0..<word.count {
            for row in rows where row.feedback[position] == .correct && word[position] != row.word[position] {
                return .mustKeepLetter(position: position, letter: wordList.alphabet.displayLetter(row.word[position]))
            }
        }
        let guessCounts = letterCounts(word.codes)
        for row in rows.reversed() {
            let revealed = (0..<word.count).filter { row.feedback[$0] != .absent }.map { row.word[$0] }
            let required = letterCounts(revealed)
            for letter in revealed where guessCounts[letter, default: 0] < required[letter, default: 0] {
                return .mustContainLetter(wordList.alphabet.displayLetter(letter))
            }
        }
        return nil
    }

    private func letterCounts(_ codes: [UInt8]) -> [UInt8: Int] {
        codes.reduce(into: [:]) { counts, code in counts[code, default: 0] += 1 }
    }
}
