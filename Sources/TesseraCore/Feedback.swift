/// What a tile says about one letter of a guess.
public enum LetterState: UInt8, Sendable, Hashable, Comparable, Codable, CaseIterable {
    /// Grey: not in the answer (or every copy of it is already accounted for).
    case absent = 0
    /// Yellow: in the answer, elsewhere.
    case present = 1
    /// Green: in the answer, here.
    case correct = 2

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The colours of one guess, packed as a base-3 number: position `i` contributes `state × 3ⁱ`.
///
/// For five letters the code fits in one byte (3⁵ = 243); ``Word/maximumLength`` letters fit in 16 bits.
public struct Feedback: Hashable, Sendable {
    /// The base-3 code, first letter least significant.
    public let code: UInt16
    @usableFromInline let length: UInt8

    @inlinable init(code: UInt16, length: UInt8) {
        self.code = code
        self.length = length
    }

    /// Creates feedback from tile states, first letter first.
    public init(_ states: [LetterState]) {
        precondition((1...Word.maximumLength).contains(states.count), "feedback has 1 to 8 tiles")
        var code: UInt16 = 0
        for state in states.reversed() { code = code * 3 + UInt16(state.rawValue) }
        self.init(code: code, length: UInt8(states.count))
    }

    /// The number of tiles.
    public var count: Int { Int(length) }

    /// The state of the tile at a position.
    public subscript(position: Int) -> LetterState {
        precondition(position >= 0 && position < count, "position out of range")
        var code = Int(code)
        for _ in 0..<position { code /= 3 }
        switch code % 3 {
        case 0: return .absent
        case 1: return .present
        default: return .correct
        }
    }

    /// The tile states, first letter first.
    public var states: [LetterState] { (0..<count).map { self[$0] } }

    /// Whether every tile is green: the guess was the answer.
    public var isSolved: Bool {
        var allCorrect: UInt16 = 0
        for _ in 0..<count { allCorrect = allCorrect * 3 + 2 }
        return code == allCorrect
    }
}
