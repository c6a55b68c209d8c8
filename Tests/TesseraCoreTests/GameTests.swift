import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("A game")
struct GameTests {
    let list = Language.english.wordList

    func game(answer: String, hardMode: Bool = false) -> Game {
        Game(answer: list.testWord(answer), wordList: list, hardMode: hardMode)
    }

    @Test("Six tries: won on the right word, lost after six wrong ones, then over")
    func statuses() {
        var won = game(answer: "abide")
        #expect(won.status == .new)
        won.submit("speed")
        #expect(won.status == .inProgress)
        won.submit("abide")
        #expect(won.status == .won)
        #expect(won.result == .won(guesses: 2))
        #expect(won.submit("crane") == .failure(.gameIsOver))

        var lost = game(answer: "abide")
        for guess in ["crane", "speed", "fizzy", "tough", "lymph", "glory"] { lost.submit(guess) }
        #expect(lost.status == .lost)
        #expect(lost.result == .lost)
        #expect(lost.rows.count == Game.defaultMaximumGuesses)
        #expect(lost.submit("abide") == .failure(.gameIsOver))
    }

    @Test("The number of tries is a rule of the game, not a constant")
    func otherMaximum() {
        var game = Game(answer: list.testWord("abide"), wordList: list, maximumGuesses: 2)
        game.submit("crane")
        game.submit("speed")
        #expect(game.status == .lost)
    }

    @Test("Rejected guesses use no try")
    func rejectionsAreFree() {
        var game = game(answer: "abide")
        #expect(game.submit("abc") == .failure(.notEnoughLetters))
        #expect(game.submit("xqzvj") == .failure(.notInWordList))
        #expect(game.submit("toolong") == .failure(.tooManyLetters))
        #expect(game.rows.isEmpty)
        #expect(game.status == .new)
        #expect(GuessRejection.notEnoughLetters.description == "Not enough letters")
        #expect(GuessRejection.notInWordList.description == "Not in word list")
    }

    @Test("The keyboard shows each letter's best state and never downgrades it")
    func keyboard() {
        var game = game(answer: "abide")
        game.submit("bread")  // B yellow, R grey, E yellow, A yellow, D yellow
        game.submit("abbey")  // A green, B green, B grey (second copy), E yellow, Y grey
        let keyboard = game.keyboard
        func state(_ letter: Character) -> LetterState? {
            keyboard[list.alphabet.code(of: letter)!]
        }
        #expect(state("a") == .correct)
        #expect(state("b") == .correct, "the grey second B must not downgrade the green one")
        #expect(state("e") == .present)
        #expect(state("r") == .absent)
        #expect(state("z") == nil)
    }
}
