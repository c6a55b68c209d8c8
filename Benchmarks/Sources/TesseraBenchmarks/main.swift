import TesseraCore
import TesseraCoreTesting

// Every figure is printed beside a baseline measured in the same run; nothing here passes or fails on time.

let clock = ContinuousClock()

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// The best of several runs, to keep scheduling noise out.
func best(of runs: Int, _ body: () -> Void) -> Double {
    (0..<runs).map { _ in nanoseconds(clock.measure(body)) }.min() ?? .nan
}

print("Word lists: load time (first use, includes parsing and hashing)")
for language in Language.allCases {
    var list: WordList?
    let elapsed = nanoseconds(clock.measure { list = language.wordList })
    let loaded = list.map { "\($0.answers.count) answers, \($0.allowedGuesses.count) guesses" } ?? "not loaded"
    print("  \(language.rawValue): \(String(format: "%7.2f", elapsed / 1e6)) ms  (\(loaded))")
}

let list = Language.english.wordList
let guesses = list.allowedGuesses.sorted { $0.codes.lexicographicallyPrecedes($1.codes) }
let answers = list.answers
let pairs = Double(guesses.count * answers.count)

print("\nScoring every allowed guess against every answer (\(guesses.count) × \(answers.count) pairs)")
var fastChecksum = 0
let fast = best(of: 5) {
    var checksum = 0
    for guess in guesses {
        for answer in answers { checksum &+= Int(Feedback(guess: guess, answer: answer).code) }
    }
    fastChecksum = checksum
}
print("  fast scorer (Feedback(guess:answer:)):  \(String(format: "%6.2f", fast / pairs)) ns/pair")

let batch = BatchScorer(answers: answers)
var batchChecksum = 0
let batched = best(of: 5) {
    var codes: [UInt16] = []
    var checksum = 0
    for guess in guesses {
        batch.scores(for: guess, into: &codes)
        for code in codes { checksum &+= Int(code) }
    }
    batchChecksum = checksum
}
print("  batch scorer (BatchScorer, SIMD):       \(String(format: "%6.2f", batched / pairs)) ns/pair")

// The straightforward two-pass scorer is far slower, so it scores every 16th guess.
let sampled = stride(from: 0, to: guesses.count, by: 16).map { guesses[$0] }
let sampledPairs = Double(sampled.count * answers.count)
let answerCodes = answers.map(\.codes)
var referenceChecksum = 0
let reference = best(of: 5) {
    var checksum = 0
    for guess in sampled {
        let guessCodes = guess.codes
        for answer in answerCodes {
            checksum &+= Int(Feedback(ReferenceScorer.states(guess: guessCodes, answer: answer)).code)
        }
    }
    referenceChecksum = checksum
}
var sampledFastChecksum = 0
for guess in sampled {
    for answer in answers { sampledFastChecksum &+= Int(Feedback(guess: guess, answer: answer).code) }
}
print("  straightforward two-pass (baseline):   \(String(format: "%6.2f", reference / sampledPairs)) ns/pair")
print("  speed-up: \(String(format: "%.0f", (reference / sampledPairs) / (fast / pairs)))×")
print("  speed-up of the batch scorer: \(String(format: "%.0f", (reference / sampledPairs) / (batched / pairs)))×")
let agree = sampledFastChecksum == referenceChecksum && batchChecksum == fastChecksum
print("  all three agree: \(agree) (checksum \(fastChecksum))")

hostileTextBenchmark(messages: 100_000, seed: 22)
