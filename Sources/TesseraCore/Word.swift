/// A word of a word list: the letter codes of one ``Alphabet``, packed for fast scoring.
///
/// Letters sit in 8-bit lanes of one `UInt64`, the first letter in the lowest lane, so a word has at most
/// ``maximumLength`` letters. A word does not know its alphabet; ``WordList`` turns it into text.
public struct Word: Hashable, Sendable {
    /// The longest word a game can use.
    public static let maximumLength = 8

    @usableFromInline let packed: UInt64
    /// Bit `c` is set when the letter with code `c` occurs in the word.
    @usableFromInline let letterSet: UInt32
    /// Bit `i` is set when the letter at position `i` occurs more than once in the word.
    @usableFromInline let repeatedPositions: UInt8
    @usableFromInline let length: UInt8

    /// Creates a word from letter codes (each below 32), or returns `nil` for an empty or too long one.
    public init?(codes: some Collection<UInt8>) {
        guard (1...Self.maximumLength).contains(codes.count), codes.allSatisfy({ $0 < 32 }) else { return nil }
        var packed: UInt64 = 0
        var letterSet: UInt32 = 0
        var seenTwice: UInt32 = 0
        for (position, code) in codes.enumerated() {
            packed |= UInt64(code) << (8 * position)
            if letterSet & (1 << code) != 0 { seenTwice |= 1 << code }
            letterSet |= 1 << code
        }
        var repeatedPositions: UInt8 = 0
        for (position, code) in codes.enumerated() where seenTwice & (1 << code) != 0 {
            repeatedPositions |= 1 << position
        }
        self.packed = packed
        self.letterSet = letterSet
        self.repeatedPositions = repeatedPositions
        self.length = UInt8(codes.count)
    }

    /// The number of letters.
    @inlinable public var count: Int { Int(length) }

    /// The code of the letter at a position.
    @inlinable public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "position out of range")
        return UInt8(truncatingIfNeeded: packed >> (8 * position))
    }

    /// The letter codes, first letter first.
    public var codes: [UInt8] { (0..<count).map { self[$0] } }
}
