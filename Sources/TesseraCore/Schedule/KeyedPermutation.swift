/// A secret shuffle of `0..<count`: a balanced Feistel network keyed by SipHash, walked in cycles until it
/// lands inside the domain. It is a bijection, so no index repeats and none is skipped.
struct KeyedPermutation: Sendable {
    let count: Int
    private let key: SipHash
    private let tweak: UInt64
    private let halfBits: Int

    private static let rounds: UInt64 = 8

    /// - Parameter tweak: selects one of many independent permutations under the same key.
    init(count: Int, key: SipHash, tweak: UInt64) {
        precondition(count > 0, "a permutation needs a non-empty domain")
        var bits = 2
        while (1 << bits) < count { bits += 2 }
        self.count = count
        self.key = key
        self.tweak = tweak
        self.halfBits = bits / 2
    }

    func callAsFunction(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "index outside the permutation's domain")
        // Cycle walking: the network permutes a power-of-four domain; values outside `count` are encrypted
        // again until one falls inside, which keeps the result a bijection on `0..<count`.
        var value = UInt64(index)
        repeat { value = encrypt(value) } while value >= UInt64(count)
        return Int(value)
    }

    private func encrypt(_ value: UInt64) -> UInt64 {
        let mask: UInt64 = (1 << UInt64(halfBits)) - 1
        var left = value >> UInt64(halfBits)
        var right = value & mask
        for round in 0..<Self.rounds {
            let mixed = left ^ (key.hash(words: tweak, round, right) & mask)
            left = right
            right = mixed
        }
        return (left << UInt64(halfBits)) | right
    }
}
