extension Feedback {
    /// Scores a guess against the answer exactly as the original game does.
    ///
    /// Two passes: greens first; then each remaining guess letter, left to right, is yellow only while an
    /// unmatched copy of it remains in the answer, else grey. SPEED against ABIDE is ⬛⬛🟨⬛🟨.
    ///
    /// This is the hot path of every analysis, so it works on whole packed words: one lane comparison finds
    /// the greens, and a letter that occurs once in the guess is yellow exactly when the answer has it
    /// anywhere (a green copy elsewhere would be a second copy in the guess). Only letters repeated in the
    /// guess need the left-to-right allocation.
    @inlinable
    public init(guess: Word, answer: Word) {
        precondition(guess.length == answer.length, "a guess is scored against an answer of its own length")
        // One specialisation per supported length, so each position loop unrolls with constant weights.
        switch guess.length {
        case 1: self = Self.score(guess, answer, length: 1)
        case 2: self = Self.score(guess, answer, length: 2)
        case 3: self = Self.score(guess, answer, length: 3)
        case 4: self = Self.score(guess, answer, length: 4)
        case 5: self = Self.score(guess, answer, length: 5)
        case 6: self = Self.score(guess, answer, length: 6)
        case 7: self = Self.score(guess, answer, length: 7)
        default: self = Self.score(guess, answer, length: Word.maximumLength)
        }
    }

    @inlinable @inline(__always)
    static func score(_ guess: Word, _ answer: Word, length: Int) -> Feedback {
        let greens = equalLanes(guess.packed, answer.packed, length: length)
        var code: UInt32 = 0
        var weight: UInt32 = 1
        for position in 0..<length {
            let letter = UInt32(truncatingIfNeeded: guess.packed &>> UInt64(8 * position)) & 0x1F
            let isGreen = UInt32(truncatingIfNeeded: greens &>> UInt8(position)) & 1
            let isInAnswer = (answer.letterSet &>> letter) & 1
            code &+= weight &* (isGreen &+ isInAnswer)
            weight &*= 3
        }
        if guess.repeatedPositions & ~greens != 0 {
            code &-= overmarkedWeight(guess: guess, answer: answer, greens: greens)
        }
        return Feedback(code: UInt16(truncatingIfNeeded: code), length: UInt8(length))
    }

    /// One bit per position where the two packed words have the same letter.
    @inlinable
    static func equalLanes(_ lhs: UInt64, _ rhs: UInt64, length: Int) -> UInt8 {
        let difference = lhs ^ rhs
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // The high bit of each lane is set exactly when the lane is non-zero, without borrows between lanes.
        let nonZero = ((difference & low7) &+ low7) | difference
        let zeroLanes = (~nonZero >> 7) & 0x0101_0101_0101_0101
        // Gathers the eight lane bits into one byte, lane i into bit i.
        let bits = UInt8(truncatingIfNeeded: (zeroLanes &* 0x0102_0408_1020_4080) >> 56)
        return bits & UInt8(truncatingIfNeeded: (1 &<< UInt64(length)) &- 1)
    }

    /// The weight the first pass gave, wrongly, to copies of a repeated guess letter that the answer cannot
    /// cover: the answer's unmatched copies go to the guess's unmatched copies from left to right.
    @usableFromInline
    static func overmarkedWeight(guess: Word, answer: Word, greens: UInt8) -> UInt32 {
        let length = Int(guess.length)
        var unresolved = guess.repeatedPositions & ~greens
        var overmarked: UInt32 = 0
        while unresolved != 0 {
            let letter = UInt64(guess[unresolved.trailingZeroBitCount])
            let copies = letter &* 0x0101_0101_0101_0101
            let guessCopies = equalLanes(guess.packed, copies, length: length) & ~greens
            unresolved &= ~guessCopies
            guard answer.letterSet & (1 << letter) != 0 else { continue }
            var uncovered = guessCopies
            let answerCopies = (equalLanes(answer.packed, copies, length: length) & ~greens).nonzeroBitCount
            for _ in 0..<answerCopies where uncovered != 0 { uncovered &= uncovered - 1 }
            while uncovered != 0 {
                overmarked += powerOfThree(uncovered.trailingZeroBitCount)
                uncovered &= uncovered - 1
            }
        }
        return overmarked
    }

    @usableFromInline
    static func powerOfThree(_ exponent: Int) -> UInt32 {
        var power: UInt32 = 1
        for _ in 0..<exponent { power *= 3 }
        return power
    }
}
