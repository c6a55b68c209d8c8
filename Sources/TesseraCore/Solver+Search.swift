// MARK: - The search
//
// `search` answers "what is this position's total, if it is below `limit`?": below the limit the answer is
// exact, otherwise it is a lower bound at least the limit. Asking with a limit is what makes exhaustive search
// affordable: a guess is abandoned once what it has cost so far, plus a lower bound for the rest, reaches the
// best total found.
//
// The lower bound of a part of m candidates is 2m − 1: one of them may be guessed next, and every other needs
// at least two more guesses. Two endgames are decided outright: a candidate whose colours tell every other
// candidate apart achieves that bound (2n − 1), and any other guess that tells them all apart is then optimal
// at 2n, as no candidate can do better than 2n once none achieves 2n − 1.

extension Solver {
    /// A total that no strategy within the limit reaches: "infinite".
    static let unsolvable = Int(Int32.max)

    struct Key: Hashable {
        var candidates: [UInt16]
        var left: Int
        var clues: Clues?
    }

    /// What is known of a position: its exact total and an optimal guess, or a lower bound of its total.
    struct Entry {
        var total: Int
        var exact: Bool
        var guess: Int32
    }

    struct Found {
        var total: Int
        /// An optimal guess, or −1 when the total is not exact.
        var guess: Int32
    }

    func search(_ candidates: [UInt16], left: Int, clues: Clues?, limit: Int) -> Found {
        let count = candidates.count
        if count == 0 { return Found(total: 0, guess: -1) }
        if left <= 0 { return Found(total: Self.unsolvable, guess: -1) }
        if count == 1 { return Found(total: 1, guess: Int32(candidates[0])) }
        if left == 1 { return Found(total: Self.unsolvable, guess: -1) }
        if count == 2 { return Found(total: 3, guess: Int32(candidates[0])) }
        let floor = 2 * count - 1
        if limit <= floor { return Found(total: floor, guess: -1) }
        if let separator = candidates.first(where: { separatesAll(Int($0), candidates) }) {
            return Found(total: floor, guess: Int32(separator))
        }
        if limit <= floor + 1 { return Found(total: floor + 1, guess: -1) }
        if givingUp { return Found(total: Self.unsolvable, guess: -1) }
        let key = Key(candidates: candidates, left: left, clues: clues)
        if let known = memo[key], known.exact || known.total >= limit {
            return Found(total: known.total, guess: known.exact ? known.guess : -1)
        }
        let found = searchGuesses(candidates, left: left, clues: clues, limit: limit)
        // A search that gave up on the way returns nothing true: it is not remembered.
        if givingUp { return Found(total: Self.unsolvable, guess: -1) }
        let exact = found.total < limit || found.total >= Self.unsolvable
        remember(key, Entry(total: found.total, exact: exact, guess: found.guess))
        return Found(total: found.total, guess: exact ? found.guess : -1)
    }

    /// Whether `guess` shows each candidate different colours.
    private func separatesAll(_ guess: Int, _ candidates: [UInt16]) -> Bool {
        var seen: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return tables.patterns.withUnsafeBufferPointer { patterns in
            let row = guess * tables.answers.count
            for candidate in candidates {
                let code = Int(patterns[row + Int(candidate)])
                let bit = UInt64(1) << (code & 63)
                switch code >> 6 {
                case 0:
                    if seen.0 & bit != 0 { return false }
                    seen.0 |= bit
                case 1:
                    if seen.1 & bit != 0 { return false }
                    seen.1 |= bit
                case 2:
                    if seen.2 & bit != 0 { return false }
                    seen.2 |= bit
                default:
                    if seen.3 & bit != 0 { return false }
                    seen.3 |= bit
                }
            }
            return true
        }
    }

    /// Every guess optimal play may choose, ordered by its lower bound, then tried until the bound reaches the best total.
    private func searchGuesses(_ candidates: [UInt16], left: Int, clues: Clues?, limit: Int) -> Found {
        let count = candidates.count
        let allowed: [Int32] =
            if let clues {
                (0..<tables.playable).filter { tables.allows($0, clues) }.map(Int32.init)
            } else {
                (0..<Int32(tables.playable)).map { $0 }
            }
        let bounded = boundedGuesses(allowed, candidates, left: left, limit: limit)
        spend(allowed.count * count)
        if let separated = bounded.separated { return Found(total: 2 * count, guess: separated) }
        if left == 2 { return Found(total: Self.unsolvable, guess: -1) }
        let options = bounded.options.sorted { $0.bound < $1.bound || ($0.bound == $1.bound && $0.guess < $1.guess) }
        var best = Found(total: Self.unsolvable, guess: -1)
        var lowest = bounded.lowestExcluded
        for (bound, guess) in options {
            if givingUp { break }
            let cap = min(best.total, limit)
            if bound >= cap {
                lowest = min(lowest, bound)
                break
            }
            let total = evaluate(Int(guess), candidates, left: left, clues: clues, cap: cap, bound: bound)
            if total < cap {
                best = Found(total: total, guess: guess)
            } else {
                lowest = min(lowest, total)
            }
        }
        if best.total < limit { return best }
        return Found(total: min(lowest, Self.unsolvable), guess: -1)
    }

    /// Each useful guess's lower bound: the candidates spend it, and each part it leaves needs 2m − 1. A guess that
    /// tells every candidate apart is `separated` (nothing does better); the others are `options` below `limit`,
    /// and `lowestExcluded` is the lowest bound at or over it.
    private func boundedGuesses(_ allowed: [Int32], _ candidates: [UInt16], left: Int, limit: Int)
        -> (separated: Int32?, options: [(bound: Int, guess: Int32)], lowestExcluded: Int)
    {
        let count = candidates.count
        var options: [(bound: Int, guess: Int32)] = []
        var lowestExcluded = Self.unsolvable
        let solved = Int(tables.solvedCode)
        let answerCount = tables.answers.count
        var counts = [Int32](repeating: 0, count: tables.patternCount)
        var touched = [Int](repeating: 0, count: tables.patternCount)
        let separated: Int32? = tables.patterns.withUnsafeBufferPointer { patterns in
            counts.withUnsafeMutableBufferPointer { counts in
                touched.withUnsafeMutableBufferPointer { touched in
                    for guess in allowed {
                        let row = Int(guess) * answerCount
                        var distinct = 0
                        for candidate in candidates {
                            let code = Int(patterns[row + Int(candidate)])
                            if counts[code] == 0 {
                                touched[distinct] = code
                                distinct += 1
                            }
                            counts[code] += 1
                        }
                        let solvesOne = counts[solved] > 0
                        let parts = distinct - (solvesOne ? 1 : 0)
                        let useless = distinct == 1 && !solvesOne
                        for index in 0..<distinct { counts[touched[index]] = 0 }
                        if useless { continue }
                        if parts == count { return guess }
                        // left == 2: only a guess that tells every candidate apart solves them in time.
                        if left == 2 { continue }
                        let bound = count + 2 * (count - (solvesOne ? 1 : 0)) - parts
                        if bound >= limit {
                            lowestExcluded = min(lowestExcluded, bound)
                        } else {
                            options.append((bound, guess))
                        }
                    }
                    return nil
                }
            }
        }
        return (separated, options, lowestExcluded)
    }

    /// The total of playing `guess` now, exact if below `cap`, otherwise a lower bound at least `cap`.
    func evaluate(
        _ guess: Int, _ candidates: [UInt16], left: Int, clues: Clues?, cap: Int, bound: Int? = nil
    ) -> Int {
        let parts = partition(candidates, by: guess)
        let count = candidates.count
        var rest = bound.map { $0 - count } ?? parts.reduce(0) { $0 + 2 * $1.members.count - 1 }
        var sum = count
        for part in parts {
            let size = part.members.count
            rest -= 2 * size - 1
            if size == 1 {
                // One candidate needs one more guess: none is left after the last.
                if left <= 1 { return Self.unsolvable }
                sum += 1
                continue
            }
            let partCap = cap >= Self.unsolvable ? Self.unsolvable : cap - sum - rest
            let next = clues.map { $0.adding(guesses[guess], pattern: part.pattern) }
            let value = search(part.members, left: left - 1, clues: next, limit: partCap).total
            if value >= Self.unsolvable { return Self.unsolvable }
            if value >= partCap { return sum + value + rest }
            sum += value
        }
        return sum
    }

    /// The candidates `guess` does not solve, by the colours it shows them, the largest part first: the
    /// largest cost the most, so a poor guess is abandoned soonest.
    func partition(_ candidates: [UInt16], by guess: Int) -> [(pattern: UInt8, members: [UInt16])] {
        spend(candidates.count)
        var parts: [UInt8: [UInt16]] = [:]
        let solved = tables.solvedCode
        for candidate in candidates {
            let code = tables.pattern(guess, Int(candidate))
            if code != solved { parts[code, default: []].append(candidate) }
        }
        return parts.map { (pattern: $0.key, members: $0.value) }.sorted {
            $0.members.count > $1.members.count || ($0.members.count == $1.members.count && $0.pattern < $1.pattern)
        }
    }
}
