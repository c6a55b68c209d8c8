import Foundation
import Synchronization

/// The server secret the answer schedule is keyed with. Anyone who knows it can compute every future answer.
public struct ScheduleSecret: Sendable, Hashable {
    let key: SipHash
    /// The key of ``tag(for:)``, derived apart from the schedule's once: a batch tags a few keys a message.
    private let tagKey: SipHash

    /// Derives a key from secret text; an empty text is not a secret.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        // Two fixed keys turn the secret's bytes into a 128-bit SipHash key.
        let bytes = Array(text.utf8)
        key = SipHash(
            k0: SipHash(k0: 0x7465_7373_6572_6131, k1: 0x6b65_7920_6465_7276).hash(bytes),
            k1: SipHash(k0: 0x7465_7373_6572_6132, k1: 0x6b65_7920_6465_7276).hash(bytes)
        )
        tagKey = SipHash(k0: key.hash(words: 0x6275_7474_6f6e_6b30), k1: key.hash(words: 0x6275_7474_6f6e_6b31))
    }

    /// The secret's 128-bit key, for deriving keys of other uses from it (the buttons' tags, in the engine).
    package var keyMaterial: [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: (($0 < 8 ? key.k0 : key.k1) >> (8 * UInt64($0 % 8)))) }
    }

    /// The fewest bits a secret text must be able to carry: a weaker one can be guessed offline, and with it
    /// every future word.
    public static let minimumBits = 128

    /// At most how many bits a secret text carries: its length times the bits of a character drawn from the
    /// kinds it uses (hex digits 4; lower case, upper case, digits, ASCII punctuation and other characters
    /// add up to about 6.5 for a mix). Random text reaches it; words fall far short of it, so it only ever
    /// says too much, and a text under ``minimumBits`` is weak for sure. A text of fewer than 8 distinct
    /// characters counts as 0.
    public static func estimatedBits(of text: String) -> Int {
        let scalars = Array(text.unicodeScalars)
        guard Set(scalars).count >= 8 else { return 0 }
        let isHex = scalars.allSatisfy {
            ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)
        }
        if isHex { return 4 * scalars.count }
        var pool = 0
        if scalars.contains(where: { ("a"..."z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("0"..."9").contains($0) }) { pool += 10 }
        if scalars.contains(where: { $0.isASCII && !$0.properties.isAlphabetic && !("0"..."9").contains($0) }) {
            pool += 33
        }
        if scalars.contains(where: { !$0.isASCII }) { pool += 100 }
        return Int(Double(scalars.count) * log2(Double(max(pool, 1))))
    }

    /// Sixteen hex digits that authenticate a message the bot keeps (a replay guard's key): without the secret
    /// they cannot be made. The key is derived apart from the schedule's.
    public func tag(for message: String) -> String {
        let digits = String(tagKey.hash(Array(message.utf8)), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
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
/// Puzzle numbers are split into cycles of the answer count; each cycle visits the answers in the order of
/// its own keyed permutation. A later ``AnswerEdition`` starts its own cycles at its first puzzle, and its
/// first cycle serves the words that no earlier puzzle had before those that one had, so a new list does not
/// repeat a recent answer while it has unused ones.
public struct AnswerSchedule: Sendable {
    public let editions: [AnswerEdition]
    private let secret: ScheduleSecret
    /// Later editions' first cycles, computed when first asked for: each needs the answers of every puzzle
    /// before the edition, which takes a moment, and most schedules are only ever asked for one edition.
    private let firstCycles = FirstCycles()

    /// A later edition's first cycle: its answers' indices, those no earlier puzzle used first.
    private struct FirstCycle: Sendable {
        var unused: [Int]
        var used: [Int]
    }

    private final class FirstCycles: Sendable {
        let computed = Mutex<[Int: FirstCycle]>([:])
    }

    /// A schedule over editions given oldest first, with increasing first puzzles.
    public init(editions: [AnswerEdition], secret: ScheduleSecret) {
        precondition(!editions.isEmpty, "an answer schedule needs answers")
        precondition(
            zip(editions, editions.dropFirst()).allSatisfy { $0.firstPuzzle < $1.firstPuzzle },
            "answer editions must start on increasing puzzles")
        self.editions = editions
        self.secret = secret
    }

    /// A schedule with one list of answers for every puzzle.
    public init(answers: [Word], secret: ScheduleSecret) {
        self.init(editions: [AnswerEdition(firstPuzzle: PuzzleNumber(1), answers: answers)], secret: secret)
    }

    /// The schedule of a word list's answer editions.
    public init(wordList: WordList, secret: ScheduleSecret) {
        self.init(editions: wordList.answerEditions, secret: secret)
    }

    public func answer(for puzzle: PuzzleNumber) -> Word {
        let number = editions.lastIndex { $0.firstPuzzle <= puzzle } ?? 0
        let answers = editions[number].answers
        guard number > 0 else {
            // The first edition: cycles counted from puzzle 1, before and after it, as they always were.
            let offset = puzzle.rawValue - 1
            let cycle = offset >= 0 ? offset / answers.count : (offset + 1) / answers.count - 1
            let index = offset - cycle * answers.count
            return answers[permuted(index, count: answers.count, tweak: UInt64(bitPattern: Int64(cycle)))]
        }
        // Puzzles before a later edition's start belong to the edition before it, so the offset is not negative.
        let offset = puzzle.rawValue - editions[number].firstPuzzle.rawValue
        let cycle = offset / answers.count
        let index = offset % answers.count
        guard cycle == 0 else { return answers[permuted(index, count: answers.count, tweak: tweak(number, 0, cycle))] }
        let first = firstCycle(of: number)
        if index < first.unused.count {
            return answers[first.unused[permuted(index, count: first.unused.count, tweak: tweak(number, 1, 0))]]
        }
        let rest = index - first.unused.count
        return answers[first.used[permuted(rest, count: first.used.count, tweak: tweak(number, 2, 0))]]
    }

    private func firstCycle(of number: Int) -> FirstCycle {
        if let known = firstCycles.computed.withLock({ $0[number] }) { return known }
        // Outside the lock: the puzzles before this edition may need an earlier edition's first cycle.
        let edition = editions[number]
        let first = min(1, edition.firstPuzzle.rawValue)
        let used = Set((first..<edition.firstPuzzle.rawValue).map { answer(for: PuzzleNumber($0)) })
        let cycle = FirstCycle(
            unused: edition.answers.indices.filter { !used.contains(edition.answers[$0]) },
            used: edition.answers.indices.filter { used.contains(edition.answers[$0]) })
        firstCycles.computed.withLock { $0[number] = cycle }
        return cycle
    }

    private func permuted(_ index: Int, count: Int, tweak: UInt64) -> Int {
        KeyedPermutation(count: count, key: secret.key, tweak: tweak)(index)
    }

    /// A later edition's permutations: the edition number in the top bits keeps them apart from the first
    /// edition's, whose tweak is the cycle number (all ones in the top bits when negative).
    private func tweak(_ edition: Int, _ part: UInt64, _ cycle: Int) -> UInt64 {
        UInt64(edition) << 48 | part << 40 | UInt64(cycle)
    }
}

extension ScheduleSecret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // Whoever reads the key can compute every future answer: descriptions and dumps show only the fingerprint.
    public var description: String { "ScheduleSecret(fingerprint: \(fingerprint))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension AnswerSchedule: CustomStringConvertible, CustomReflectable {
    public var description: String { "AnswerSchedule(\(editions.count) editions)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
