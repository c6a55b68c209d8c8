import TesseraCore

/// Schedule secrets: generated ones, and configured ones checked for strength.
enum SecretText {
    /// A new schedule secret: 256 random bits as 64 hex digits, from the system's generator.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// A configured secret, refused when it cannot carry ``ScheduleSecret/minimumBits``: whoever guesses it
    /// knows every future word, and a word or a phrase is guessed offline in moments.
    static func checked(_ text: String?, from source: String) throws -> String? {
        guard let text else { return nil }
        let bits = ScheduleSecret.estimatedBits(of: text)
        guard bits >= ScheduleSecret.minimumBits else {
            throw CommandError(
                "The schedule secret in \(source) is too weak: it carries at most about \(bits) bits, and at least "
                    + "\(ScheduleSecret.minimumBits) are needed, or anyone who guesses it knows every future word. "
                    + "Generate one with `openssl rand -hex 32`, or unset it and Tessera keeps a generated one. "
                    + "A new secret changes every word from today on (docs/operating.md: rotating the secret).")
        }
        return text
    }
}
