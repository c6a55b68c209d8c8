// MARK: - Bounds, when the budget does not settle a value
//
// Both come from one cheap measure of a guess, its one-guess look-ahead: every candidate spends the guess, and each
// part of m candidates it leaves needs at least 2m − 1 more (one of them may be guessed next, the others need two
// at least). Its cost is a colour a guess and candidate.
//
// - Lower: a position needs at least the smallest look-ahead of any allowed guess; a guess at least its candidates
//   plus the lower bounds of the parts it leaves.
// - Upper: a strategy played out is an upper bound. The one played here takes, at each position, the guess with
//   the smallest look-ahead (one that may be the answer on a tie), which finds most sure wins in six.
//
// Both are exact for the endgames `search` decides outright.

extension Solver {
    /// What is known of `position`'s total once exact search has given up.
    func boundedTotal(_ position: Position) -> Total {
        let candidates = position.candidates.map(UInt16.init)
        let left = maximumGuesses - position.played
        return Total(
            lower: lowerBound(candidates, left: left, clues: position.clues),
            upper: strategyTotal(candidates, left: left, clues: position.clues))
    }

    /// What is known of the total when `guess` is played at `position` and optimal play follows.
    func boundedTotal(_ position: Position, guessing guess: Int) -> Total {
        let left = maximumGuesses - position.played
        guard !position.candidates.isEmpty, left > 0 else { return .exactly(position.candidates.isEmpty ? 0 : nil) }
        let candidates = position.candidates.map(UInt16.init)
        var lower: Int? = candidates.count
        var upper: Int? = candidates.count
        for part in partition(candidates, by: guess) {
            let next = position.clues.map { $0.adding(guesses[guess], pattern: part.pattern) }
            lower = lower.flatMap { sum in lowerBound(part.members, left: left - 1, clues: next).map { sum + $0 } }
            upper = upper.flatMap { sum in strategyTotal(part.members, left: left - 1, clues: next).map { sum + $0 } }
        }
        return Total(lower: lower, upper: upper)
    }

    /// The guess the bounded strategy plays at `position`; nil when no guess helps.
    func strategyGuess(_ position: Position) -> Int? {
        let left = maximumGuesses - position.played
        return strategyChoice(position.candidates.map(UInt16.init), left: left, clues: position.clues).map(Int.init)
    }

    /// The endgames `search` decides outright, as it decides them; nil when the position needs a guess's look-ahead.
    private func decided(_ candidates: [UInt16], left: Int) -> Int?? {
        let count = candidates.count
        if count == 0 { return .some(0) }
        if left <= 0 { return .some(nil) }
        if count == 1 { return .some(1) }
        if left == 1 { return .some(nil) }
        if count == 2 { return .some(3) }
        if candidates.contains(where: { lookAhead(Int($0), candidates).parts == count - 1 }) {
            return .some(2 * count - 1)
        }
        return nil
    }

    /// A lower bound of the position's total: the smallest look-ahead of an allowed guess (nil: infinite).
    private func lowerBound(_ candidates: [UInt16], left: Int, clues: Clues?) -> Int? {
        if let decided = decided(candidates, left: left) { return decided }
        var lowest = Self.unsolvable
        for guess in allowedGuesses(clues) {
            let look = lookAhead(guess, candidates)
            // With two guesses left only a guess that tells every candidate apart wins them all.
            if left == 2 && look.parts + (look.solvesOne ? 1 : 0) < candidates.count { continue }
            lowest = min(lowest, look.bound)
        }
        return lowest < Self.unsolvable ? lowest : nil
    }

    /// The total of the look-ahead strategy played out: an upper bound of the position's total (nil: the strategy
    /// does not win every candidate in time).
    private func strategyTotal(_ candidates: [UInt16], left: Int, clues: Clues?) -> Int? {
        if let decided = decided(candidates, left: left) { return decided }
        guard let guess = strategyChoice(candidates, left: left, clues: clues) else { return nil }
        var total = candidates.count
        for part in partition(candidates, by: Int(guess)) {
            let next = clues.map { $0.adding(guesses[Int(guess)], pattern: part.pattern) }
            guard let value = strategyTotal(part.members, left: left - 1, clues: next) else { return nil }
            total += value
        }
        return total
    }

    /// The allowed guess with the smallest look-ahead, one that may be the answer first on a tie.
    private func strategyChoice(_ candidates: [UInt16], left: Int, clues: Clues?) -> Int32? {
        if candidates.count <= 2 { return candidates.first.map(Int32.init) }
        var best: (bound: Int, candidate: Bool, guess: Int)?
        for guess in allowedGuesses(clues) {
            let look = lookAhead(guess, candidates)
            if look.parts <= 1 && !look.solvesOne { continue }  // tells nothing
            if left == 2 && look.parts + (look.solvesOne ? 1 : 0) < candidates.count { continue }
            if let best, best.bound < look.bound || (best.bound == look.bound && (best.candidate || !look.solvesOne)) {
                continue
            }
            best = (look.bound, look.solvesOne, guess)
        }
        return best.map { Int32($0.guess) }
    }

    private func allowedGuesses(_ clues: Clues?) -> [Int] {
        guard let clues else { return Array(0..<tables.playable) }
        return (0..<tables.playable).filter { tables.allows($0, clues) }
    }

    /// A guess's look-ahead: how many parts it leaves unsolved, whether it may be the answer, and the lower bound
    /// of its total that follows (the candidates, plus 2m − 1 a part of m).
    private func lookAhead(_ guess: Int, _ candidates: [UInt16]) -> (parts: Int, solvesOne: Bool, bound: Int) {
        spend(candidates.count)
        var seen: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var solvesOne = false
        let row = guess * tables.answers.count
        tables.patterns.withUnsafeBufferPointer { patterns in
            for candidate in candidates {
                let code = patterns[row + Int(candidate)]
                if code == tables.solvedCode {
                    solvesOne = true
                    continue
                }
                let bit = UInt64(1) << (code & 63)
                switch code >> 6 {
                case 0: seen.0 |= bit
                case 1: seen.1 |= bit
                case 2: seen.2 |= bit
                default: seen.3 |= bit
                }
            }
        }
        let parts = seen.0.nonzeroBitCount + seen.1.nonzeroBitCount + seen.2.nonzeroBitCount + seen.3.nonzeroBitCount
        let count = candidates.count
        let unsolved = count - (solvesOne ? 1 : 0)
        return (parts, solvesOne, count + 2 * unsolved - parts)
    }
}
