import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Hard mode")
struct HardModeTests {
    let list = Language.english.wordList

    func play(answer: String, _ guesses: [String]) -> Game {
        var game = Game(answer: list.testWord(answer), wordList: list, hardMode: true)
        for guess in guesses {
            if case .failure(let rejection) = game.submit(guess) {
                Issue.record("setting up: \(guess) was rejected: \(rejection)")
            }
        }
        return game
    }

    @Test(
        "Revealed hints must be used, with the original messages; greens are checked first",
        arguments: [
            // CRANE against TRAIN: R and A green, N yellow.
            ("train", ["crane"], "print", "3rd letter must be A"),
            ("train", ["crane"], "bravo", "Guess must contain N"),
            ("train", ["crane"], "ulnar", "2nd letter must be R"),
            // Greens before yellows, even when both are missing.
            ("train", ["crane"], "flesh", "2nd letter must be R"),
            // Greens from every row are checked left to right: ASIDE's 1st-letter green before CRANE's 5th.
            ("abide", ["crane", "aside"], "orbit", "1st letter must be A"),
            // A green in the last place.
            ("abide", ["crane"], "abbot", "5th letter must be E"),
            // Missing yellows are named in the order of the earlier guess: SPEED reveals E, then D.
            ("abide", ["speed"], "abort", "Guess must contain E"),
            ("abide", ["ideal"], "dance", "Guess must contain I"),
            ("abide", ["ideal"], "dixie", "Guess must contain A"),
            // BABES against ABBEY reveals two Bs (one yellow, one green): one B is not enough.
            ("abbey", ["babes"], "label", "Guess must contain B"),
            // After two rows: the second row's greens are kept, and the yellow A revealed by both is missing.
            ("abide", ["crane", "glade"], "bribe", "4th letter must be D"),
            ("abide", ["crane", "glade"], "guide", "Guess must contain A"),
        ]
    )
    func violations(answer: String, earlier: [String], guess: String, message: String) {
        var game = play(answer: answer, earlier)
        let before = game.rows.count
        guard case .failure(let rejection) = game.submit(guess) else {
            Issue.record("\(guess) was accepted; expected \"\(message)\"")
            return
        }
        #expect(rejection.description == message)
        #expect(game.rows.count == before, "a rejected guess uses no try")
    }

    @Test("Guesses that use every hint are accepted, and hard mode still ends in a win")
    func compliantGuesses() {
        var game = play(answer: "train", ["crane"])
        #expect(game.submit("brand").map(\.word) == .success(list.testWord("brand")))
        #expect(game.submit("train").map(\.feedback.isSolved) == .success(true))
        #expect(game.status == .won)
        #expect(game.isHardMode)
    }

    @Test("Hard mode can only be switched on before the first guess, and off at any time")
    func toggling() {
        var game = Game(answer: list.testWord("abide"), wordList: list)
        #expect(game.setHardMode(true) == .success(()))
        #expect(game.setHardMode(false) == .success(()))
        game.submit("crane")
        #expect(game.setHardMode(true) == .failure(.roundAlreadyStarted))
        #expect(
            HardModeRejection.roundAlreadyStarted.description == "Hard mode can only be enabled at the start of a round"
        )
        #expect(!game.isHardMode)

        var hard = Game(answer: list.testWord("abide"), wordList: list, hardMode: true)
        hard.submit("crane")
        #expect(hard.setHardMode(false) == .success(()))
        #expect(!hard.isHardMode)
        #expect(hard.submit("fizzy").map(\.word) == .success(list.testWord("fizzy")), "without hard mode any word goes")
    }
}

extension Result where Success == Void {
    static func == (lhs: Self, rhs: Self) -> Bool where Failure: Equatable {
        switch (lhs, rhs) {
        case (.success, .success): true
        case (.failure(let left), .failure(let right)): left == right
        default: false
        }
    }
}
