import Synchronization

/// Optimal play, exactly: the fewest guesses in expectation over the candidates, under the game's limit of
/// guesses, in normal or hard mode (issue 26).
///
/// A position is the candidates still possible and the guesses played so far; in hard mode also the clues,
/// which decide the guesses still allowed. Values are kept as **totals**: the guesses needed to solve every
/// candidate, added up, so they are whole numbers, exact, and V = total / candidates. nil is infinite: no
/// strategy solves every candidate within the limit.
///
/// The search (`Solver+Search.swift`) is exhaustive over every allowed guess, made fast by lower bounds that
/// stop a guess as soon as it cannot beat the best so far, memoised positions, and endgames solved outright.
/// A solver remembers what it has solved, so it is not `Sendable`: give each task its own, sharing the
/// ``Tables``.
public final class Solver {
    public let tables: Tables
    public var guesses: [Word] { tables.guesses }
    public var answers: [Word] { tables.answers }
    public var hardMode: Bool { tables.hardMode }
    public var maximumGuesses: Int { tables.maximumGuesses }
    /// The colours of a solved guess, as a ``Feedback`` code.
    public var solvedPattern: UInt16 { UInt16(tables.solvedCode) }

    var memo: [Key: Entry] = [:]
    /// The memo's estimated size in bytes (``Budget/memoBytes``).
    var memoBytes = 0
    let stop: Stop?
    /// What a search may spend (``Solver+Budget.swift``).
    public let budget: Budget
    /// Steps left to the running ``within(_:_:)``; the search gives up below zero.
    var stepsLeft = Int.max
    /// Whether the running ``within(_:_:)`` ran out of steps.
    var ranOut = false
    /// Steps taken since the solver was made: colours looked up, the measure of a search's work.
    public internal(set) var steps = 0
    /// Values whose exact search ran out of its steps, left to bounds (which may still meet).
    public internal(set) var valuesLeftToBounds = 0

    /// `guesses` are the allowed guesses; the answers are added to them, as the game allows every answer.
    public convenience init(
        guesses: [Word], answers: [Word], hardMode: Bool = false, maximumGuesses: Int = 6, stop: Stop? = nil,
        budget: Budget = .unlimited
    ) {
        self.init(
            tables: Tables(guesses: guesses, answers: answers, hardMode: hardMode, maximumGuesses: maximumGuesses),
            stop: stop, budget: budget)
    }

    /// `stop`, once requested, makes every search give up at once: its results are then meaningless, and the
    /// caller drops them. `budget` bounds what ``analyse(answer:played:best:first:)`` spends on a game.
    public init(tables: Tables, stop: Stop? = nil, budget: Budget = .unlimited) {
        self.tables = tables
        self.stop = stop
        self.budget = budget
    }

    /// Asks a search running on another thread to give up: a search for an opener nobody has studied takes
    /// minutes, and nobody may be waiting for it any more.
    public final class Stop: Sendable {
        private let requested = Atomic<Bool>(false)

        public init() {}

        public func request() { requested.store(true, ordering: .relaxed) }
        public var isRequested: Bool { requested.load(ordering: .relaxed) }
    }

    /// A position: candidates (indices into ``answers``, ascending), guesses played, and in hard mode the
    /// clues so far (nil in normal mode).
    public struct Position: Hashable, Sendable {
        public var candidates: [Int]
        public var played: Int
        public var clues: Clues?
    }

    /// The start of a game: every answer a candidate, nothing played.
    public var start: Position {
        Position(
            candidates: Array(answers.indices), played: 0, clues: hardMode ? Clues(wordLength: tables.wordLength) : nil)
    }

    /// The position after `guess` (an index into ``guesses``) shows `pattern` (a ``Feedback`` code).
    public func after(_ position: Position, guess: Int, pattern: UInt16) -> Position {
        Position(
            candidates: position.candidates.filter { self.pattern(guess, $0) == pattern },
            played: position.played + 1,
            clues: position.clues.map { $0.adding(guesses[guess], pattern: UInt8(pattern)) })
    }

    /// Whether hard mode's clues in `position` allow `guess`; every guess is allowed in normal mode.
    public func isAllowed(_ guess: Int, in position: Position) -> Bool {
        position.clues.map { tables.allows(guess, $0) } ?? true
    }

    /// The colours `guess` shows against candidate `answer`, as a ``Feedback`` code.
    public func pattern(_ guess: Int, _ answer: Int) -> UInt16 { UInt16(tables.pattern(guess, answer)) }

    /// The guesses all candidates need in total under optimal play, the next one included; 0 once solved (no
    /// candidates left to find), nil when no strategy solves all of them within the limit.
    public func total(_ position: Position) -> Int? {
        optimal(position)?.total ?? (position.candidates.isEmpty ? 0 : nil)
    }

    /// An optimal guess for `position` and the total it leads to; nil when the position is solved or no
    /// strategy solves every candidate in time. Of several optimal guesses, one that may be the answer is
    /// preferred, then the first in ``guesses``.
    public func optimal(_ position: Position) -> (guess: Int, total: Int)? {
        let left = maximumGuesses - position.played
        let found = search(
            position.candidates.map(UInt16.init), left: left, clues: position.clues, limit: Self.unsolvable)
        guard found.total < Self.unsolvable, found.guess >= 0 else { return nil }
        return (Int(found.guess), found.total)
    }

    /// The total when `guess` is played now and optimal play follows: every candidate spends this guess, and
    /// those it does not solve need their part's total. nil when infinite. A guess that tells nothing still
    /// has a value: it spends a guess.
    public func total(_ position: Position, guessing guess: Int) -> Int? {
        let left = maximumGuesses - position.played
        guard !position.candidates.isEmpty, left > 0 else { return position.candidates.isEmpty ? 0 : nil }
        let value = evaluate(
            guess, position.candidates.map(UInt16.init), left: left, clues: position.clues,
            cap: Self.unsolvable)
        return value < Self.unsolvable ? value : nil
    }
}

extension Solver {
    /// What every solver of one game shares, read-only: the words and the colours of each guess against each
    /// answer.
    public final class Tables: Sendable {
        /// The answers first, in their order, then the other guesses the solver plays, then the words only a
        /// player plays (``playable``): an answer's index is also its index as a guess.
        public let guesses: [Word]
        /// How many of ``guesses``, from the first, optimal play chooses from; the rest are there so that a
        /// player's guess outside them is measured exactly.
        public let playable: Int
        public let answers: [Word]
        public let hardMode: Bool
        public let maximumGuesses: Int
        public let wordLength: Int
        /// The colours of each guess against each answer: `patterns[guess * answers.count + answer]`.
        let patterns: [UInt8]
        /// The copies of each letter in each guess: `letterCounts[guess * 32 + letter]`, for hard mode.
        let letterCounts: [UInt8]
        let solvedCode: UInt8
        let patternCount: Int

        /// `guesses` are what optimal play chooses from, with the answers; `playerOnly` are more words a player
        /// may guess, measured but never chosen.
        public init(
            guesses: [Word], answers: [Word], playerOnly: [Word] = [], hardMode: Bool = false, maximumGuesses: Int = 6
        ) {
            precondition(!answers.isEmpty, "the solver needs answers")
            let wordLength = answers[0].count
            precondition(wordLength <= 5, "the solver's colour codes fit a byte: words of up to five letters")
            precondition(
                (answers + guesses + playerOnly).allSatisfy { $0.count == wordLength },
                "answers and guesses differ in length")
            precondition(answers.count <= Int(UInt16.max), "the solver counts answers in 16 bits")
            var all = answers
            var seen = Set(answers)
            for guess in guesses where seen.insert(guess).inserted { all.append(guess) }
            self.playable = all.count
            for guess in playerOnly where seen.insert(guess).inserted { all.append(guess) }
            self.guesses = all
            self.answers = answers
            self.hardMode = hardMode
            self.maximumGuesses = maximumGuesses
            self.wordLength = wordLength
            let scorer = BatchScorer(answers: answers)
            var patterns = [UInt8]()
            patterns.reserveCapacity(all.count * answers.count)
            var codes: [UInt16] = []
            for guess in all {
                scorer.scores(for: guess, into: &codes)
                patterns.append(contentsOf: codes.prefix(answers.count).map { UInt8($0) })
            }
            self.patterns = patterns
            var letterCounts = [UInt8](repeating: 0, count: all.count * 32)
            for (index, guess) in all.enumerated() {
                for letter in guess.codes { letterCounts[index * 32 + Int(letter)] += 1 }
            }
            self.letterCounts = letterCounts
            var patternCount = 1
            for _ in 0..<wordLength { patternCount *= 3 }
            self.patternCount = patternCount
            solvedCode = UInt8(patternCount - 1)
        }

        @inline(__always) func pattern(_ guess: Int, _ answer: Int) -> UInt8 {
            patterns[guess * answers.count + answer]
        }

        /// Hard mode's rule: the greens in place, every revealed letter as often as one clue showed it.
        func allows(_ guess: Int, _ clues: Clues) -> Bool {
            let word = guesses[guess]
            for position in 0..<wordLength where clues.greens[position] != 0 {
                if word[position] + 1 != clues.greens[position] { return false }
            }
            for letter in clues.requiredLetters
            where letterCounts[guess * 32 + Int(letter)] < clues.minimumCounts[Int(letter)] {
                return false
            }
            return true
        }
    }

    /// Hard mode's clues so far, in the form its rule reads: the green letter of each position, and the
    /// copies of each letter a single clue revealed, the most any one did. The rule holds for every clue
    /// exactly when it holds for these.
    public struct Clues: Hashable, Sendable {
        /// Per position: 0, or the green letter's code + 1.
        var greens: [UInt8]
        /// Per letter code: the copies a guess must use.
        var minimumCounts: [UInt8]
        /// The letters with a minimum, ascending.
        var requiredLetters: [UInt8]

        init(wordLength: Int) {
            greens = Array(repeating: 0, count: wordLength)
            minimumCounts = Array(repeating: 0, count: 32)
            requiredLetters = []
        }

        /// These clues and one more: `guess` showed `pattern`.
        func adding(_ guess: Word, pattern: UInt8) -> Clues {
            var clues = self
            var code = Int(pattern)
            var revealed = [UInt8](repeating: 0, count: 32)
            for position in 0..<guess.count {
                let state = code % 3
                code /= 3
                guard state != 0 else { continue }
                if state == 2 { clues.greens[position] = guess[position] + 1 }
                revealed[Int(guess[position])] += 1
            }
            for letter in 0..<32 where revealed[letter] > clues.minimumCounts[letter] {
                clues.minimumCounts[letter] = revealed[letter]
            }
            clues.requiredLetters = (0..<32).filter { clues.minimumCounts[$0] > 0 }.map(UInt8.init)
            return clues
        }
    }
}
