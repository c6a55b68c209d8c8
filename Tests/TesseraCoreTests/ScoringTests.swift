import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Scoring a guess")
struct ScoringTests {
    let english = Language.english.wordList

    @Test(
        "Two-pass colouring, including every repeated-letter situation",
        arguments: [
            // The issue's examples.
            ("speed", "abide", "⬛⬛🟨⬛🟨"),
            ("eerie", "theme", "🟨⬛⬛⬛🟩"),
            // All green, all grey, all yellow.
            ("crane", "crane", "🟩🟩🟩🟩🟩"),
            ("fizzy", "crane", "⬛⬛⬛⬛⬛"),
            ("earth", "heart", "🟨🟨🟨🟨🟨"),
            // A repeated guess letter with one copy in the answer: the green copy takes it, the other is grey.
            ("geese", "those", "⬛⬛⬛🟩🟩"),
            ("speed", "spelt", "🟩🟩🟩⬛⬛"),
            // A repeated guess letter with one copy in the answer, not green: only the leftmost is yellow.
            ("llama", "hello", "🟨🟨⬛⬛⬛"),
            ("allee", "eerie", "⬛⬛⬛🟨🟩"),
            // A repeated guess letter with two copies in the answer: both coloured.
            ("error", "rower", "🟨🟨⬛🟨🟩"),
            ("sassy", "assay", "🟨🟨🟩⬛🟩"),
            // A green copy to the right uses up the only copy: the yellow-looking copy on the left is grey.
            ("abbey", "kebab", "🟨🟨🟩🟨⬛"),
            ("eerie", "deter", "🟨🟩🟨⬛⬛"),
            ("puppy", "happy", "⬛⬛🟩🟩🟩"),
            // Three copies in the guess, two in the answer.
            ("eeeee", "emcee", "🟩⬛⬛🟩🟩"),
            ("eeeee", "elude", "🟩⬛⬛⬛🟩"),
            ("emcee", "eerie", "🟩⬛⬛🟨🟩"),
            // A repeated answer letter with one copy in the guess.
            ("those", "geese", "⬛⬛⬛🟩🟩"),
            ("crane", "eerie", "⬛🟨⬛⬛🟩"),
        ]
    )
    func colouring(guess: String, answer: String, expected: String) {
        let feedback = Feedback(guess: english.testWord(guess), answer: english.testWord(answer))
        #expect(feedback.squares == expected, "\(guess) against \(answer)")
        #expect(feedback == ReferenceScorer.feedback(guess: english.testWord(guess), answer: english.testWord(answer)))
    }

    @Test("The fast scorer equals the obvious one on 200,000 random pairs of every length")
    func fastScorerMatchesReference() async {
        await offThePool { fastScorerMatchesReferenceWork() }
    }

    private func fastScorerMatchesReferenceWork() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<200_000 {
            let length = Int.random(in: 1...Word.maximumLength, using: &random)
            // A small alphabet makes repeated letters, the hard case, common.
            let alphabetSize = UInt8.random(in: 2...32, using: &random)
            let guessCodes = (0..<length).map { _ in UInt8.random(in: 0..<alphabetSize, using: &random) }
            let answerCodes = (0..<length).map { _ in UInt8.random(in: 0..<alphabetSize, using: &random) }
            guard let guess = Word(codes: guessCodes), let answer = Word(codes: answerCodes) else {
                Issue.record("codes \(guessCodes) or \(answerCodes) were not accepted as a word")
                return
            }
            let expected = Feedback(ReferenceScorer.states(guess: guessCodes, answer: answerCodes))
            let actual = Feedback(guess: guess, answer: answer)
            if actual != expected {
                Issue.record("\(guessCodes) against \(answerCodes): \(actual.states), expected \(expected.states)")
                return
            }
        }
    }

    @Test("The batch scorer equals the pair scorer, for random words of every length and for real lists")
    func batchScorerMatchesPairScorer() throws {
        var random = SplitMix64(seed: 7)
        for length in 1...Word.maximumLength {
            let alphabetSize = UInt8.random(in: 2...32, using: &random)
            func randomWord() throws -> Word {
                try #require(Word(codes: (0..<length).map { _ in UInt8.random(in: 0..<alphabetSize, using: &random) }))
            }
            // 37 answers: two whole SIMD blocks and a partial one.
            let answers = try (0..<37).map { _ in try randomWord() }
            let scorer = BatchScorer(answers: answers)
            for _ in 0..<200 {
                let guess = try randomWord()
                #expect(scorer.feedback(for: guess) == answers.map { Feedback(guess: guess, answer: $0) })
            }
        }
        for language in Language.allCases {
            let list = language.wordList
            let scorer = BatchScorer(answers: list.answers)
            for guess in list.allowedGuesses.shuffled(using: &random).prefix(40) {
                #expect(scorer.feedback(for: guess) == list.answers.map { Feedback(guess: guess, answer: $0) })
            }
        }
    }

    @Test("Feedback codes are base 3 with the first letter least significant, and fit a byte for five letters")
    func feedbackCode() {
        let feedback = Feedback(squares: "🟩🟨⬛⬛⬛")
        #expect(feedback.code == 2 + 1 * 3)
        #expect(Feedback(squares: "🟩🟩🟩🟩🟩").code == 242)
        #expect(Feedback(squares: "🟩🟩🟩🟩🟩").isSolved)
        #expect(!Feedback(squares: "🟩🟩🟩🟩🟨").isSolved)
        #expect(feedback.states == [.correct, .present, .absent, .absent, .absent])
    }
}
