import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraTestSupport
import Testing

/// The built lists against their sources and the original game (scripts/build-wordlists, docs/playing.md, "Word lists").
@Suite("Word list sources")
struct WordListSourceTests {
    static let inputs = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/TesseraCore/WordLists/Inputs").standardized

    /// The words of a reviewed input (`word  reason` lines).
    static func reviewed(_ name: String) throws -> Set<String> {
        let text = try String(contentsOf: inputs.appending(path: name), encoding: .utf8)
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != " " }) })
    }

    /// The five-letter lowercase words a shell pipeline prints, folded as the builder folds them (é to e, ñ
    /// kept in Spanish).
    static func words(from command: String, in language: Language) async throws -> Set<String> {
        let output = try await ChildProcess.run("/bin/sh", ["-c", command])
        let list = language.wordList
        var words = Set<String>()
        for line in output.standardOutput.split(separator: "\n") where line == line.lowercased() {
            if case .success(let word) = list.word(from: line) { words.insert(list.letters(word)) }
        }
        return words
    }

    @Test(
        "No accepted guess is a known non-word: abbreviations, codes, names, words cut short",
        arguments: [
            (Language.english, "https fhlmc hdqrs pgntt smrgs ascii concn arrgt fgrid fcomp contd distr stdio xviii"),
            (.english, "aaron cecil edith chloe naomi alice perth susan david egypt april"),
            (.english, "clich flamb fhrer didnt hasnt abdom kilom"),
            (.spanish, "admon depto izqda deneb"),
        ])
    func knownNonWordsRefused(language: Language, words: String) {
        for word in words.split(separator: " ") {
            #expect(language.wordList.guess(from: word) == .failure(.notInWordList), "\(word) is accepted")
        }
    }

    @Test(
        "Every original answer is accepted, and at least 94.5 % of the original allowed guesses, slurs excepted",
        .disabled(if: OriginalLists.skipped, "TESSERA_SKIP_ORIGINAL_LISTS=1"))
    func originalGuessesAccepted() throws {
        let folder = try OriginalLists.folder
        func read(_ name: String) throws -> [String] {
            try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let list = Language.english.wordList
        let answers = try read("answers.txt")
        let refusedAnswers = answers.filter { !list.isAllowed(list.testWord($0)) }
        #expect(refusedAnswers.isEmpty, "original answers refused: \(refusedAnswers)")
        let slurs = try Self.reviewed("en-slurs.txt")
        let counted = (answers + (try read("guesses.txt"))).filter { !slurs.contains($0) }
        let accepted = counted.filter { list.isAllowed(list.testWord($0)) }.count
        #expect(counted.count == 12_952)
        #expect(Double(accepted) / Double(counted.count) >= 0.945, "\(accepted) of \(counted.count)")
    }

    @Test(
        "Every accepted guess is a word a dictionary the builder reads lists in lower case, or a reviewed addition",
        arguments: [
            (
                Language.english,
                "cat /usr/share/dict/scowl/*-words.* /usr/share/dict/scowl/*_*-words.* 2>/dev/null; "
                    + "for d in en_AU en_CA en_US en_ZA; do "
                    + "unmunch /usr/share/hunspell/$d.dic /usr/share/hunspell/$d.aff; done | grep -xE '.{5}'",
                "en-guesses.txt"
            ),
            (
                .spanish,
                "cat /usr/share/dict/spanish; for d in /usr/share/hunspell/es_*.dic; do "
                    + "unmunch $d ${d%.dic}.aff; done | grep -xE '.{5}'",
                "es-guesses.txt"
            ),
        ])
    func guessesAreDictionaryWords(language: Language, command: String, additions: String) async throws {
        let dictionaries = try await Self.words(
            from: "export LC_ALL=C.UTF-8; { \(command); } 2>/dev/null", in: language)
        try #require(
            dictionaries.count > 5_000,
            "the dictionaries are not installed: run scripts/install-dependencies (scripts/test runs it)")
        let listed = dictionaries.union(try Self.reviewed(additions))
        let list = language.wordList
        let unlisted = list.allowedGuesses.map { list.letters($0) }.filter { !listed.contains($0) }
        #expect(unlisted.isEmpty, "\(unlisted.count) guesses no dictionary lists: \(unlisted.sorted().prefix(20))")
    }
}
