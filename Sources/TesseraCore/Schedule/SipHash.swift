/// SipHash-2-4 (Aumasson and Bernstein): a fast keyed pseudo-random function. Without the key its
/// outputs cannot be predicted, which keeps the answer schedule secret.
struct SipHash: Sendable, Hashable {
    let k0: UInt64
    let k1: UInt64

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// A key from 16 bytes, little-endian, as in the reference implementation.
    init(keyBytes: [UInt8]) {
        precondition(keyBytes.count == 16, "SipHash takes a 128-bit key")
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(keyBytes[offset + $1]) << (8 * $1) }
        }
        self.init(k0: word(0), k1: word(8))
    }

    func hash(_ message: some Collection<UInt8>) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1

        func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13)
            v1 ^= v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16)
            v3 ^= v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21)
            v3 ^= v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17)
            v1 ^= v2
            v2 = v2.rotatedLeft(32)
        }
        func compress(_ block: UInt64) {
            v3 ^= block
            round()
            round()
            v0 ^= block
        }

        var block: UInt64 = 0
        var filled = 0
        for byte in message {
            block |= UInt64(byte) << (8 * filled)
            filled += 1
            if filled == 8 {
                compress(block)
                block = 0
                filled = 0
            }
        }
        compress(block | UInt64(truncatingIfNeeded: message.count) << 56)
        v2 ^= 0xff
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// Hashes 64-bit words as their little-endian bytes.
    func hash(words: UInt64...) -> UInt64 {
        hash(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } })
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}

extension SipHash: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // The key predicts every answer: never in a description, a log line or a dump.
    var description: String { "SipHash(key redacted)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
