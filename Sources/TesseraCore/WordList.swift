/// The words of one language: the answers the daily schedule draws from, and every allowed guess.
///
/// The word length is a property of the list, not of the game.
public struct WordList: Sendable {
    public let language: Language
    public let alphabet: Alphabet
    /// The number of letters of every word in the list.
    public let wordLength: Int
    /// The possible answers of the latest edition, in a fixed order.
    public var answers: [Word] { answerEditions[answerEditions.count - 1].answers }
    /// Every edition of the answers, oldest first: earlier puzzles keep the answers they were played with.
    public let answerEditions: [AnswerEdition]
    /// Every word accepted as a guess; it includes every answer of the latest edition.
    public private(set) var allowedGuesses: Set<Word>
    /// The words the bot plays in an analysis (its choices and its path): every edition's answers and common
    /// words (docs/playing.md, "Word lists"), so that it teaches with words people know. Optimal play is computed over
    /// them. A list made from given words plays every allowed guess.
    public let familiarGuesses: Set<Word>
    /// The words of the bot's vocabulary it never shows or deals: the deny list's, and earlier editions' answers
    /// too rare for the current rules or mostly names (docs/playing.md, "Word lists"). They stay in ``familiarGuesses``, which the opening
    /// book's exact totals were worked out with, and a player may play them; an analysis names none of them
    /// (``AnalysisReport/withholding(_:)``) and the archive deals none of their puzzles.
    public let withheld: Set<Word>
    /// How the words written otherwise than their letters are shown: the accents the lists fold (`ÁRBOL`). The
    /// game plays the letters (Á is A); only what the bot shows reads the spelling.
    private let spellings: [Word: String]

    /// The number (counted from 0, oldest first) of the answer edition a puzzle is played with: the first
    /// edition also answers every puzzle before it.
    public func answerEditionIndex(for puzzle: PuzzleNumber) -> Int {
        answerEditions.lastIndex { $0.firstPuzzle <= puzzle } ?? 0
    }

    /// Creates a list from answers and the other allowed guesses, all of one length.
    public init(language: Language, alphabet: Alphabet, answers: [Word], otherGuesses: some Sequence<Word>) {
        self.init(
            language: language,
            alphabet: alphabet,
            answerEditions: [AnswerEdition(firstPuzzle: PuzzleNumber(1), answers: answers)],
            otherGuesses: otherGuesses
        )
    }

    /// Creates a list from answer editions, oldest first, and the allowed guesses beside the latest answers.
    /// `familiar` are the other words the bot plays (``familiarGuesses``), besides the latest answers; nil: every
    /// allowed guess.
    public init(
        language: Language,
        alphabet: Alphabet,
        answerEditions: [AnswerEdition],
        otherGuesses: some Sequence<Word>,
        familiar: Set<Word>? = nil,
        withheld: Set<Word> = [],
        spellings: [String] = []
    ) {
        precondition(!answerEditions.isEmpty, "a word list needs answers")
        let latest = answerEditions[answerEditions.count - 1].answers
        let wordLength = latest[0].count
        precondition(
            answerEditions.allSatisfy { $0.answers.allSatisfy { $0.count == wordLength } }, "answers differ in length")
        var allowed = Set(latest)
        for word in otherGuesses {
            precondition(word.count == wordLength, "guesses differ in length from the answers")
            allowed.insert(word)
        }
        self.language = language
        self.alphabet = alphabet
        self.wordLength = wordLength
        self.answerEditions = answerEditions
        self.allowedGuesses = allowed
        self.familiarGuesses = familiar.map { $0.union(latest).intersection(allowed) } ?? allowed
        self.withheld = withheld.subtracting(latest)
        var spelled: [Word: String] = [:]
        for written in spellings {
            let codes = written.compactMap { alphabet.code(of: $0) }
            if let word = Word(codes: codes), codes.count == written.count { spelled[word] = written.uppercased() }
        }
        self.spellings = spelled
    }

    init(language: Language, alphabet: Alphabet, source: WordListSource) {
        func words(_ text: String) -> [Word] {
            text.split(separator: " ").map { token in
                let codes = token.unicodeScalars.map { scalar in
                    guard let code = alphabet.code(ofCanonical: scalar) else {
                        preconditionFailure("generated word list has '\(token)', which is not in the alphabet")
                    }
                    return code
                }
                guard let word = Word(codes: codes) else {
                    preconditionFailure("generated word list has '\(token)', which is not a word")
                }
                return word
            }
        }
        self.init(
            language: language,
            alphabet: alphabet,
            answerEditions: source.answerEditions.map {
                AnswerEdition(firstPuzzle: PuzzleNumber($0.firstPuzzle), answers: words($0.answers))
            },
            otherGuesses: words(source.guesses),
            familiar: Set(words(source.familiar)),
            withheld: Set(words(source.withheld)),
            spellings: source.spellings.split(separator: " ").map(String.init)
        )
    }

    /// Whether a word is accepted as a guess.
    public func isAllowed(_ word: Word) -> Bool {
        allowedGuesses.contains(word)
    }

    /// Reads typed text as a word of this list's length and alphabet, without checking that it is allowed.
    ///
    /// Surrounding white space is ignored; accents are folded where the alphabet has no letter of its own
    /// for them.
    public func word(from text: some StringProtocol) -> Result<Word, GuessRejection> {
        var codes: [UInt8] = []
        for character in text.trimmingWhitespace() {
            guard let code = alphabet.code(of: character) else { return .failure(.notALetter(character)) }
            codes.append(code)
        }
        if codes.count < wordLength { return .failure(.notEnoughLetters) }
        if codes.count > wordLength { return .failure(.tooManyLetters) }
        // The length was checked above and every code comes from the alphabet.
        guard let word = Word(codes: codes) else { return .failure(.tooManyLetters) }
        return .success(word)
    }

    /// Reads typed text as an allowed guess.
    public func guess(from text: some StringProtocol) -> Result<Word, GuessRejection> {
        word(from: text).flatMap { isAllowed($0) ? .success($0) : .failure(.notInWordList) }
    }

    /// A word as people read it: uppercase, with the accents the lists fold (`ÁRBOL`).
    public func display(_ word: Word) -> String {
        spellings[word] ?? letters(word).uppercased()
    }

    /// A word's letters, lowercase and folded as it is played (`arbol`): how it is stored, and looked up.
    public func letters(_ word: Word) -> String {
        String(word.codes.map { alphabet.letters[Int($0)] })
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (new lines included).
    public func trimmingWhitespace() -> SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}

extension WordList {
    /// The list with more allowed guesses, each of the list's length; the answers stay as they are.
    public func adding(guesses: some Sequence<Word>) -> WordList {
        var list = self
        for word in guesses {
            precondition(word.count == wordLength, "guesses differ in length from the answers")
            list.allowedGuesses.insert(word)
        }
        return list
    }

    /// Reads an operator's extra guesses: one word a line, blank lines and lines starting with `#` skipped.
    /// Each word is checked as the built-in lists are (its length, letters of the alphabet, accents folded
    /// where the alphabet has no letter of its own for them); the first line that fails is the error.
    public func extraGuesses(from text: String) -> Result<[Word], ExtraGuessError> {
        var words: [Word] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.trimmingWhitespace()
            if entry.isEmpty || entry.hasPrefix("#") { continue }
            switch word(from: entry.lowercased()) {
            case .success(let word): words.append(word)
            case .failure(let rejection):
                return .failure(ExtraGuessError(line: index + 1, text: String(entry), rejection: rejection))
            }
        }
        return .success(words)
    }
}

/// A line of an extra-guesses file that is not a word of the list's length and alphabet.
public struct ExtraGuessError: Error, Equatable, Sendable {
    /// The line's number, counted from 1.
    public let line: Int
    public let text: String
    public let rejection: GuessRejection

    public init(line: Int, text: String, rejection: GuessRejection) {
        self.line = line
        self.text = text
        self.rejection = rejection
    }
}
