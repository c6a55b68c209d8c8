/// The server secret the answer schedule is keyed with. Anyone who knows it can compute every future answer.
public struct ScheduleSecret: Sendable, Hashable {
    let key: SipHash

    /// Derives a key from secret text; an empty text is not a secret.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        // Two fixed keys turn the secret's bytes into a 128-bit SipHash key.
        let bytes = Array(text.utf8)
        key = SipHash(
            k0: SipHash(k0: 0x7465_7373_6572_6131, k1: 0x6b65_7920_6465_7276).hash(bytes),
            k1: SipHash(k0: 0x7465_7373_6572_6132, k1: 0x6b65_7920_6465_7276).hash(bytes)
        )
    }

    /// Sixteen hex digits that tell secrets apart without revealing them: progress saved under one secret
    /// is not replayed against another secret's answers.
    public var fingerprint: String {
        let digits = String(key.hash(words: 0x6669_6e67_6572_7072), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The day's answer: the same for every player on the same puzzle number, each answer used once before
/// any repeats, and unpredictable without the secret.
///
/// Puzzle numbers are split into cycles of `answers.count`; each cycle visits the answers in the order of
/// its own keyed permutation.
public struct AnswerSchedule: Sendable {
    public let answers: [Word]
    private let secret: ScheduleSecret

    public init(answers: [Word], secret: ScheduleSecret) {
        precondition(!answers.isEmpty, "an answer schedule needs answers")
        self.answers = answers
        self.secret = secret
    }

    public init(wordList: WordList, secret: ScheduleSecret) {
        self.init(answers: wordList.answers, secret: secret)
    }

    public func answer(for puzzle: PuzzleNumber) -> Word {
        let offset = puzzle.rawValue - 1
        let cycle = offset >= 0 ? offset / answers.count : (offset + 1) / answers.count - 1
        let index = offset - cycle * answers.count
        let permutation = KeyedPermutation(
            count: answers.count,
            key: secret.key,
            tweak: UInt64(bitPattern: Int64(cycle))
        )
        return answers[permutation(index)]
    }
}
