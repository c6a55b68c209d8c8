import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Word lists")
struct WordListTests {
    @Test("English: about 2,300 answers, at least 12,000 allowed guesses, every answer allowed")
    func englishSizes() {
        let list = Language.english.wordList
        #expect((2_200...2_400).contains(list.answers.count))
        #expect(list.allowedGuesses.count >= 12_000)
        #expect(list.answers.allSatisfy(list.isAllowed))
        #expect(Set(list.answers).count == list.answers.count, "answers repeat")
        #expect(list.wordLength == 5)
    }

    @Test("Spanish: a few thousand answers, a larger allowed list, ñ words among them")
    func spanishSizes() {
        let list = Language.spanish.wordList
        #expect((2_000...4_000).contains(list.answers.count))
        #expect(list.allowedGuesses.count > list.answers.count * 2)
        #expect(list.answers.allSatisfy(list.isAllowed))
        #expect(list.answers.contains { list.display($0).contains("Ñ") })
    }

    @Test(
        "Typed words are read in the list's alphabet",
        arguments: [
            (Language.english, "  Crane ", "CRANE"),
            (Language.english, "CAFÉS", "CAFES"),
            (Language.spanish, "árbol", "ARBOL"),
            (Language.spanish, "ÁRBOL", "ARBOL"),
            (Language.spanish, "pingüino".prefix(5).description, "PINGU"),
            (Language.spanish, "niños", "NIÑOS"),
            // ñ typed as n followed by a combining tilde is the same letter.
            (Language.spanish, "nin\u{0303}os", "NIÑOS"),
            (Language.spanish, "NIÑOS", "NIÑOS"),
        ]
    )
    func reading(language: Language, typed: String, expected: String) throws {
        let list = language.wordList
        let word = try list.word(from: typed).get()
        #expect(list.display(word) == expected)
    }

    @Test("Spanish keeps Ñ apart from N: a guess with N is not the word with Ñ")
    func enyeIsALetter() throws {
        let list = Language.spanish.wordList
        let withEnye = try list.guess(from: "baños").get()
        let withN = list.word(from: "banos")
        #expect(try withN.get() != withEnye)
        #expect(list.guess(from: "sueño").map { list.display($0) } == .success("SUEÑO"))
        // SEÑAL against SENDA: the N of SENDA does not colour the Ñ.
        #expect(Feedback(guess: list.testWord("señal"), answer: list.testWord("senda")).squares == "🟩🟩⬛🟨⬛")
    }

    @Test(
        "Malformed guesses are rejected with the game's messages",
        arguments: [
            ("cran", GuessRejection.notEnoughLetters),
            ("", .notEnoughLetters),
            ("cranes", .tooManyLetters),
            ("cr4ne", .notALetter("4")),
            ("cr ne", .notALetter(" ")),
            ("🟩🟩🟩🟩🟩", .notALetter("🟩")),
            ("\u{200F}crane", .notALetter("\u{200F}")),
            ("xqzvj", .notInWordList),
        ]
    )
    func rejections(typed: String, expected: GuessRejection) {
        #expect(Language.english.wordList.guess(from: typed) == .failure(expected))
    }

    @Test("No offensive word is an answer or an allowed guess")
    func offensiveWordsFiltered() {
        let english = Language.english.wordList
        for word in ["bitch", "cunts", "dildo", "fucks"] {
            #expect(english.guess(from: word) == .failure(.notInWordList), "\(word)")
        }
        let spanish = Language.spanish.wordList
        // The blocklist has base forms; plurals and the other gender are filtered too.
        for word in ["putas", "putos", "verga", "culos", "pezon", "coños"] {
            #expect(spanish.guess(from: word) == .failure(.notInWordList), "\(word)")
        }
    }
}
