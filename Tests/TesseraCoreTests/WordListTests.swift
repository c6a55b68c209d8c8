import Foundation
import TesseraCore
import TesseraCoreTesting
import Testing

@Suite("Word lists")
struct WordListTests {
    @Test("English: over 2,000 answers, over 16,000 allowed guesses, every answer allowed")
    func englishSizes() {
        let list = Language.english.wordList
        #expect((2_000...2_400).contains(list.answers.count))
        #expect(list.allowedGuesses.count >= 16_000)
        #expect(list.answers.allSatisfy(list.isAllowed))
        #expect(Set(list.answers).count == list.answers.count, "answers repeat")
        #expect(list.wordLength == 5)
    }

    @Test("Spanish: about 1,400 answers, over 10,000 allowed guesses, ñ words among them")
    func spanishSizes() {
        let list = Language.spanish.wordList
        #expect((1_300...1_700).contains(list.answers.count))
        #expect(list.allowedGuesses.count >= 10_000)
        #expect(list.answers.allSatisfy(list.isAllowed))
        #expect(Set(list.answers).count == list.answers.count, "answers repeat")
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
        #expect(list.letters(word).uppercased() == expected, "the letters played; the spelling shown is apart")
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

    @Test("An extra guesses file is read like the lists: accents folded, comments skipped, the first bad line named")
    func extraGuessesFile() throws {
        let list = Language.spanish.wordList
        let words = try list.extraGuesses(from: "# our group's words\n\nÑandú\n  Pátxi \n").get()
        #expect(words.map { list.display($0) } == ["ÑANDU", "PATXI"])
        #expect(
            list.extraGuesses(from: "salud\nsal\nqwert")
                == .failure(
                    ExtraGuessError(line: 2, text: "sal", rejection: .notEnoughLetters)))
        #expect(
            Language.english.wordList.extraGuesses(from: "ok\nwo-rd")
                == .failure(ExtraGuessError(line: 1, text: "ok", rejection: .notEnoughLetters)))
        let extended = Language.english.wordList.adding(guesses: [Language.english.wordList.testWord("qwzzy")])
        #expect(extended.isAllowed(extended.testWord("qwzzy")) && extended.answers == Language.english.wordList.answers)
    }

    // MARK: - What the lists accept and serve (scripts/build-wordlists, docs/playing.md, "Word lists")

    @Test(
        "Ordinary words are accepted as guesses: both spellings, inflections, everyday words, mild words",
        arguments: [
            (Language.english, "slope organ strip screw drunk vodka melee revue naked weeds kills cafes"),
            (.english, "litre metre mould maths tyres sabre saber fibre odour"),
            (.english, "umami aioli emoji panko"),
            // Regional English (hunspell en_ZA, en_AU) and words the original game accepts.
            (.english, "braai dwaal exome nutso pedis yucko"),
            (.spanish, "negro negra bailo bajen diste midió trepo debía"),
            // Pronouns attached, voseo and vosotros: every form a player may type.
            (.spanish, "darla hazlo ponte abrís decís seáis"),
            (.spanish, "árbol niños sushi selfi"),
        ]
    )
    func acceptedGuesses(language: Language, words: String) {
        let list = language.wordList
        for word in words.split(separator: " ") {
            #expect(throws: Never.self, "\(word)") { try list.guess(from: word).get() }
        }
    }

    @Test(
        "The bot's familiar words are common words, not rare ones nor names wordfreq counts as words",
        arguments: [
            (Language.english, "crane slate trace adieu hours woods falls", "tarse salet kelts clint tyler texas"),
            (.spanish, "árbol nueva carta salsa", "jesús david troya lópez"),
        ]
    )
    func familiarWords(language: Language, familiar: String, others: String) throws {
        let list = language.wordList
        for word in familiar.split(separator: " ") {
            #expect(list.familiarGuesses.contains(try list.guess(from: word).get()), "\(word) is familiar")
        }
        for word in others.split(separator: " ") {
            // Still guesses a player may type; only the bot does not choose them.
            #expect(!list.familiarGuesses.contains(try list.guess(from: word).get()), "\(word) is not familiar")
        }
    }

    @Test(
        "Slurs and hate terms are never accepted", arguments: [(Language.english, "squaw kikes"), (.spanish, "putos")])
    func slursRefused(language: Language, words: String) {
        for word in words.split(separator: " ") {
            #expect(language.wordList.guess(from: word) == .failure(.notInWordList), "\(word)")
        }
    }

    @Test(
        "Answers are fair everyday words: each filter keeps these out",
        arguments: [
            (Language.english, "abbreviation", "assoc illus calif synch altho trans multi"),
            (.english, "Roman numeral", "xviii xxiii"),
            (.english, "contraction", "gonna wanna gotta kinda sorta dunno lemme gimme"),
            (.english, "name or brand", "japan maria peter waldo smurf jello"),
            (.english, "place, nationality or name to most players", "chile china swede trump"),
            (.english, "plural or inflection", "fries spies tries menus taxis jeans upped"),
            (.english, "archaic or obscure", "saith spake thine ameer lisle dimer phage"),
            (.english, "British spelling", "sabre litre metre mould"),
            (.english, "slur or offensive", "squaw lynch gypsy dicky fatty"),
            (.spanish, "conjugation", "bailo bajen diste midio trepo debia"),
            (.spanish, "pronoun attached", "darla hazlo ponte"),
            (.spanish, "voseo or vosotros", "abris decis seais"),
            (.spanish, "name or place", "pedro jorge paris rusia elche"),
            (.spanish, "English word", "bread green table mouse"),
            (.spanish, "abbreviation", "aprox depto"),
            (.spanish, "vulgar", "joder polla folla"),
            (.spanish, "plural or feminine", "pelis peces negra gatos"),
        ]
    )
    func unfitAnswers(language: Language, filter: String, words: String) {
        let list = language.wordList
        let answers = Set(list.answers)
        for text in words.split(separator: " ") {
            #expect(!answers.contains(list.testWord(String(text))), "\(text) is an answer (\(filter))")
        }
    }

    @Test(
        "Everyday lemmas are answers, in one spelling",
        arguments: [
            (Language.english, "saber knead mirth apple abhor earth stove organ vodka"),
            (.spanish, "árbol mujer negro saber comer canto parte otoño señal"),
        ]
    )
    func fairAnswers(language: Language, words: String) {
        let list = language.wordList
        let answers = Set(list.answers)
        for text in words.split(separator: " ") {
            #expect(answers.contains(list.testWord(String(text))), "\(text)")
        }
    }

    // MARK: - The committed inputs (Sources/TesseraCore/WordLists)

    static let wordLists = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/TesseraCore/WordLists").standardized

    @Test("Every reviewed input is sorted, unique, and gives a reason for each word")
    func reviewedInputs() throws {
        let folder = Self.wordLists.appending(path: "Inputs")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }
        #expect(names.count == 10)
        for name in names {
            let lines = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
            let words = lines.map { $0.prefix { $0 != " " } }
            #expect(words == words.sorted() && Set(words).count == words.count, "\(name) is not sorted and unique")
            for line in lines {
                #expect(line.split(separator: " ").count >= 2, "\(name): '\(line)' has no reason")
            }
        }
    }

    @Test("Spanish words are shown as they are written, and play as their letters: Á is A, Ñ its own letter")
    func spanishSpelling() {
        let list = Language.spanish.wordList
        for (typed, written) in [
            ("arbol", "ÁRBOL"), ("árbol", "ÁRBOL"), ("bajon", "BAJÓN"), ("sazon", "SAZÓN"), ("motin", "MOTÍN"),
            ("caliz", "CÁLIZ"), ("femur", "FÉMUR"), ("perro", "PERRO"), ("niños", "NIÑOS"),
        ] {
            guard case .success(let word) = list.guess(from: typed) else {
                Issue.record("\(typed) is not a guess")
                continue
            }
            #expect(list.display(word) == written, "\(typed)")
        }
        #expect(list.guess(from: "arbol") == list.guess(from: "ÁRBOL"), "one word, however it is typed")
        let english = Language.english.wordList
        #expect(english.display(english.testWord("crane")) == "CRANE")
    }

    @Test(
        "The bot withholds every denied word of its vocabulary, in every edition, and none of the current answers",
        arguments: Language.allCases)
    func deniedWordsAreWithheld(language: Language) throws {
        let list = language.wordList
        let denied = try String(
            contentsOf: Self.wordLists.appending(path: "Inputs/\(language.rawValue)-deny.txt"), encoding: .utf8
        ).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { list.testWord(String($0.prefix { $0 != " " })) }
        let vocabulary = list.answerEditions.reduce(list.familiarGuesses) { $0.union($1.answers) }
        let shown = vocabulary.intersection(denied)
        try #require(shown.count > 150, "the deny list's words are in the vocabulary: the test would prove nothing")
        #expect(shown.isSubset(of: list.withheld), "\(shown.subtracting(list.withheld).map(list.letters))")
        #expect(list.withheld.isDisjoint(with: list.answers))
        // Only what the bot could show is withheld.
        #expect(list.withheld.isSubset(of: vocabulary))
        let named = language == .english ? ["gipsy", "sahib", "sager", "feely", "vlogs"] : ["times", "chino"]
        for word in named { #expect(list.withheld.contains(list.testWord(word)), "\(word)") }
    }

    @Test("The generated answers are the committed editions, from the recorded puzzles", arguments: Language.allCases)
    func generatedMatchesEditions(language: Language) throws {
        let folder = Self.wordLists.appending(path: "Editions")
        let rows = try String(contentsOf: folder.appending(path: "editions.tsv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
            .filter { $0[0] == language.rawValue }
        let list = language.wordList
        #expect(rows.count == list.answerEditions.count)
        for (row, edition) in zip(rows, list.answerEditions) {
            #expect(Int(row[2]) == edition.firstPuzzle.rawValue)
            let words = try String(
                contentsOf: folder.appending(path: "\(language.rawValue)-\(row[1]).txt"), encoding: .utf8
            ).split(separator: "\n")
            #expect(words.map(String.init) == edition.answers.map { list.letters($0) })
        }
    }
}
