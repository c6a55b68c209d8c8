/// Scores one guess against many answers at once: the form every analysis needs (how a guess splits the
/// remaining candidates), and many times faster than scoring pair by pair.
///
/// The answers are stored transposed — each position's letters side by side, and each letter's count in
/// every answer — so sixteen answers are scored per step with SIMD. Results equal ``Feedback/init(guess:answer:)``.
public struct BatchScorer: Sendable {
    public let answers: [Word]
    public let wordLength: Int
    /// Answers rounded up to whole SIMD blocks.
    private let paddedCount: Int
    /// `letters[position * paddedCount + answer]`
    private let letters: [UInt8]
    /// `counts[letter * paddedCount + answer]`: the copies of `letter` in `answer`.
    private let counts: [UInt8]

    private typealias Block = SIMD16<UInt8>
    private typealias Codes = SIMD8<UInt16>

    public init(answers: [Word]) {
        precondition(!answers.isEmpty, "a batch scorer needs answers")
        let wordLength = answers[0].count
        precondition(answers.allSatisfy { $0.count == wordLength }, "answers differ in length")
        let paddedCount = (answers.count + Block.scalarCount - 1) / Block.scalarCount * Block.scalarCount
        // Padding answers get letter 0xFF, which no guess has: they score all grey and are never returned.
        var letters = Array(repeating: UInt8.max, count: wordLength * paddedCount)
        var counts = Array(repeating: UInt8(0), count: 32 * paddedCount)
        for (index, answer) in answers.enumerated() {
            let slot = Self.slot(of: index)
            for position in 0..<wordLength {
                letters[position * paddedCount + slot] = answer[position]
                counts[Int(answer[position]) * paddedCount + slot] += 1
            }
        }
        self.answers = answers
        self.wordLength = wordLength
        self.paddedCount = paddedCount
        self.letters = letters
        self.counts = counts
    }

    /// Within each block of sixteen, answers are stored in the order 0, 8, 1, 9, …, 7, 15. Read as eight 16-bit
    /// lanes, a block's low bytes are then answers 0–7 and its high bytes answers 8–15, in order: codes widen
    /// to 16 bits without shuffles.
    private static func slot(of index: Int) -> Int {
        let block = index / Block.scalarCount * Block.scalarCount
        let offset = index % Block.scalarCount
        let half = Block.scalarCount / 2
        return block + (offset < half ? 2 * offset : 2 * (offset - half) + 1)
    }

    /// The feedback of a guess against every answer, in the answers' order.
    public func feedback(for guess: Word) -> [Feedback] {
        var codes: [UInt16] = []
        scores(for: guess, into: &codes)
        return codes.map { Feedback(code: $0, length: UInt8(wordLength)) }
    }

    /// Writes the feedback codes (``Feedback/code``) of a guess against every answer into `codes`, in the
    /// answers' order, reusing its storage: the allocation-free form for loops over many guesses.
    public func scores(for guess: Word, into codes: inout [UInt16]) {
        precondition(guess.count == wordLength, "a guess is scored against answers of its own length")
        let length = wordLength
        let stride = paddedCount
        let guessLetters = (0..<Word.maximumLength).map { $0 < length ? Int(guess[$0]) : 0 }
        // Letters repeated in the guess, as masks of their positions: they need the second pass.
        var repeatedGroups: [(letter: Int, positions: UInt8)] = []
        var unassigned = guess.repeatedPositions
        while unassigned != 0 {
            let letter = guessLetters[unassigned.trailingZeroBitCount]
            var positions: UInt8 = 0
            for position in 0..<length where guessLetters[position] == letter { positions |= 1 << position }
            repeatedGroups.append((letter, positions))
            unassigned &= ~positions
        }
        codes.removeAll(keepingCapacity: true)
        codes.append(contentsOf: repeatElement(0, count: stride))
        // 3⁵ = 243: codes of up to five letters fit a byte, so they are summed in sixteen 8-bit lanes.
        let codesFitInBytes = length <= 5
        withUnsafeTemporaryAllocation(of: Block.self, capacity: 2 * length) { scratch in
            let states = UnsafeMutableBufferPointer(rebasing: scratch[0..<length])
            let guessLetterLanes = UnsafeMutableBufferPointer(rebasing: scratch[length...])
            for position in 0..<length { guessLetterLanes[position] = Block(repeating: UInt8(guessLetters[position])) }
            letters.withUnsafeBytes { letters in
                counts.withUnsafeBytes { counts in
                    codes.withUnsafeMutableBytes { output in
                        for start in Swift.stride(from: 0, to: stride, by: Block.scalarCount) {
                            // First pass: 2 green, 1 present anywhere, 0 absent; right for letters the guess has once.
                            for position in 0..<length {
                                let answerLetters = letters.loadUnaligned(
                                    fromByteOffset: position * stride + start,
                                    as: Block.self
                                )
                                let copies = counts.loadUnaligned(
                                    fromByteOffset: guessLetters[position] * stride + start,
                                    as: Block.self
                                )
                                let green = Block.zero.replacing(
                                    with: Block.one,
                                    where: answerLetters .== guessLetterLanes[position]
                                )
                                let present = Block.one.replacing(with: Block.zero, where: copies .== Block.zero)
                                states[position] = green &+ present
                            }
                            // Second pass for repeated letters: the answer's copies left after the greens go to
                            // the guess's non-green copies from left to right.
                            for group in repeatedGroups {
                                var available = counts.loadUnaligned(
                                    fromByteOffset: group.letter * stride + start,
                                    as: Block.self
                                )
                                for position in 0..<length where group.positions & (1 << position) != 0 {
                                    available &-= states[position] &>> 1
                                }
                                var rank = Block.zero
                                for position in 0..<length where group.positions & (1 << position) != 0 {
                                    let isGreen = states[position] &>> 1
                                    let yellow = Block.zero.replacing(with: Block.one, where: rank .< available)
                                    states[position] = (isGreen &<< 1) | (yellow & (Block.one &- isGreen))
                                    rank &+= Block.one &- isGreen
                                }
                            }
                            // Base 3, first letter least significant; low bytes are answers 0-7, high bytes 8-15.
                            var low = Codes.zero
                            var high = Codes.zero
                            if codesFitInBytes {
                                var code = Block.zero
                                for position in (0..<length).reversed() { code = code &* 3 &+ states[position] }
                                let pair = unsafeBitCast(code, to: Codes.self)
                                low = pair & 0x00FF
                                high = pair &>> 8
                            } else {
                                for position in (0..<length).reversed() {
                                    let pair = unsafeBitCast(states[position], to: Codes.self)
                                    low = low &* 3 &+ (pair & 0x00FF)
                                    high = high &* 3 &+ (pair &>> 8)
                                }
                            }
                            output.storeBytes(of: low, toByteOffset: start * 2, as: Codes.self)
                            output.storeBytes(of: high, toByteOffset: start * 2 + 16, as: Codes.self)
                        }
                    }
                }
            }
        }
        codes.removeLast(stride - answers.count)
    }
}
