/// Optimal play, exactly: the fewest guesses in expectation over the candidates, under the game's limit of
/// guesses, in normal or hard mode (issue 26).
///
/// A position is the candidates still possible and the guesses played so far; in hard mode also the clues,
/// which decide the guesses still allowed. Values are kept as **totals**: the guesses needed to solve every
/// candidate, added up, so they are whole numbers, exact, and V = total / candidates. nil is infinite: no
/// strategy solves every candidate within the limit.
///
/// The search is exhaustive over every allowed guess at every position, with memoised positions and a bound
/// that stops a guess once it cannot beat the best so far; a guess whose colours split nothing is skipped, as it
/// only spends a guess. This first step is exact on small lists; the original lists need the stronger lower
/// bounds and endgame tables still to come.
public final class Solver {
    public let guesses: [Word]
    public let answers: [Word]
    public let hardMode: Bool
    public let maximumGuesses: Int
    /// The colours of each guess against each answer: `patterns[guess * answers.count + answer]`.
    private let patterns: [UInt16]
    private let solvedCode: UInt16
    private var memo: [Position: Int?] = [:]

    /// `guesses` are the allowed guesses; the answers are added to them, as the game allows every answer.
    public init(guesses: [Word], answers: [Word], hardMode: Bool = false, maximumGuesses: Int = 6) {
        var all = answers
        var seen = Set(answers)
        for guess in guesses where seen.insert(guess).inserted { all.append(guess) }
        self.guesses = all
        self.answers = answers
        self.hardMode = hardMode
        self.maximumGuesses = maximumGuesses
        patterns = all.flatMap { guess in answers.map { Feedback(guess: guess, answer: $0).code } }
        solvedCode = answers.first.map { Feedback(guess: $0, answer: $0).code } ?? 0
    }

    /// A position: candidates (indices into ``answers``, ascending), guesses played, and in hard mode the
    /// guesses still allowed (indices into ``guesses``, ascending); nil allows every guess.
    public struct Position: Hashable, Sendable {
        public var candidates: [Int]
        public var played: Int
        public var allowed: [Int]?
    }

    /// The start of a game: every answer a candidate, nothing played, every guess allowed.
    public var start: Position {
        Position(candidates: Array(answers.indices), played: 0, allowed: hardMode ? Array(guesses.indices) : nil)
    }

    /// The position after `guess` (an index into ``guesses``) shows `pattern` (a ``Feedback`` code).
    public func after(_ position: Position, guess: Int, pattern: UInt16) -> Position {
        after(
            position, guess: guess, pattern: pattern,
            leaving: position.candidates.filter { self.pattern(guess, $0) == pattern })
    }

    /// The position after the clue, whose candidates the caller has already sorted out.
    private func after(_ position: Position, guess: Int, pattern: UInt16, leaving candidates: [Int]) -> Position {
        Position(
            candidates: candidates, played: position.played + 1,
            allowed: position.allowed.map { allowed in
                allowed.filter { Self.keepsClue(guesses[$0], guess: guesses[guess], pattern: pattern) }
            })
    }

    /// The colours `guess` shows against candidate `answer`.
    public func pattern(_ guess: Int, _ answer: Int) -> UInt16 { patterns[guess * answers.count + answer] }

    /// The guesses all candidates need in total under optimal play, the next one included; 0 once solved (no
    /// candidates left to find), nil when no strategy solves all of them within the limit.
    public func total(_ position: Position) -> Int? {
        let count = position.candidates.count
        if count == 0 { return 0 }
        let left = maximumGuesses - position.played
        if left <= 0 { return nil }
        // One candidate: guess it. It is always allowed, as it agrees with every clue.
        if count == 1 { return 1 }
        if left == 1 { return nil }
        if let known = memo[position] { return known }
        // Guessing a candidate solves it at once and the others take two at best.
        let bound = 2 * count - 1
        var best: Int?
        for guess in position.allowed ?? Array(guesses.indices) {
            guard let value = total(position, guessing: guess, below: best) else { continue }
            best = value
            if value == bound { break }
        }
        memo[position] = best
        return best
    }

    /// The total when `guess` is played now and optimal play follows: the candidates each spend this guess,
    /// and those it does not solve need their part's total. nil when infinite, or when not below `limit`.
    public func total(_ position: Position, guessing guess: Int, below limit: Int? = nil) -> Int? {
        var parts: [UInt16: [Int]] = [:]
        for candidate in position.candidates { parts[pattern(guess, candidate), default: []].append(candidate) }
        // One part that is not solved: the guess told nothing and spent a guess.
        if parts.count == 1, parts[solvedCode] == nil { return nil }
        var sum = position.candidates.count
        // The largest parts first: they cost the most, so the bound stops a poor guess soonest.
        for (pattern, part) in parts.sorted(by: { $0.value.count > $1.value.count }) where pattern != solvedCode {
            if let limit, sum + 2 * part.count - 1 >= limit { return nil }
            guard let value = total(after(position, guess: guess, pattern: pattern, leaving: part)) else { return nil }
            sum += value
        }
        if let limit, sum >= limit { return nil }
        return sum
    }

    /// Hard mode's rule for one clue, as the original checks it: its greens stay in place, and every letter it
    /// revealed (green or yellow) is used again at least as often as it showed.
    static func keepsClue(_ word: Word, guess: Word, pattern: UInt16) -> Bool {
        var code = pattern
        var required: [UInt8: Int] = [:]
        for position in 0..<guess.count {
            let state = code % 3
            code /= 3
            guard state != 0 else { continue }
            if state == 2 && word[position] != guess[position] { return false }
            required[guess[position], default: 0] += 1
        }
        for (letter, count) in required where word.codes.filter({ $0 == letter }).count < count { return false }
        return true
    }
}
