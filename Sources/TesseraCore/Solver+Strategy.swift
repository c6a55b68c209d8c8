extension Solver {
    /// The guesses each candidate of `position` takes when `guess` is played now and optimal play follows,
    /// by answer index; nil when some candidate cannot be solved within the limit.
    public func guessCounts(_ position: Position, first guess: Int) -> [Int: Int]? {
        var counts: [Int: Int] = [:]
        for (pattern, _) in parts(of: position, by: guess) {
            guard let part = guessCounts(position, first: guess, showing: pattern) else { return nil }
            counts.merge(part) { first, _ in first }
        }
        return counts
    }

    /// ``guessCounts(_:first:)`` for the candidates to which `guess` shows `pattern`.
    func guessCounts(_ position: Position, first guess: Int, showing pattern: UInt16) -> [Int: Int]? {
        let next = after(position, guess: guess, pattern: pattern)
        if pattern == UInt16(tables.solvedCode) {
            return Dictionary(uniqueKeysWithValues: next.candidates.map { ($0, position.played + 1) })
        }
        guard let (best, _) = optimal(next) else { return nil }
        return guessCounts(next, first: best)
    }

    /// The colours `guess` shows the candidates of `position`, with how many show each.
    public func parts(of position: Position, by guess: Int) -> [(pattern: UInt16, count: Int)] {
        var counts: [UInt16: Int] = [:]
        for candidate in position.candidates { counts[pattern(guess, candidate), default: 0] += 1 }
        return counts.map { ($0.key, $0.value) }.sorted {
            $0.count > $1.count || ($0.count == $1.count && $0.pattern < $1.pattern)
        }
    }

    /// ``guessCounts(_:first:)`` from the start of a game, the parts of the first guess shared out among
    /// `workers` tasks, each with its own solver over the same tables. Once `stop` is requested the result is
    /// meaningless, and the caller drops it.
    public static func guessCounts(
        first guess: Int, tables: Tables, workers: Int, stop: Stop? = nil
    ) async -> [Int: Int]? {
        let root = Solver(tables: tables)
        let start = root.start
        let parts = root.parts(of: start, by: guess)
        // The largest parts first, each to the worker with the least so far: their costs differ by orders.
        var shares = Array(repeating: [UInt16](), count: max(1, workers))
        var loads = Array(repeating: 0, count: shares.count)
        for part in parts {
            let worker = loads.indices.min { loads[$0] < loads[$1] } ?? 0
            shares[worker].append(part.pattern)
            loads[worker] += part.count * part.count
        }
        return await withTaskGroup(of: [Int: Int]?.self) { group in
            for share in shares where !share.isEmpty {
                group.addTask {
                    let solver = Solver(tables: tables, stop: stop)
                    var counts: [Int: Int] = [:]
                    for pattern in share {
                        guard let part = solver.guessCounts(start, first: guess, showing: pattern) else { return nil }
                        counts.merge(part) { first, _ in first }
                    }
                    return counts
                }
            }
            var all: [Int: Int] = [:]
            for await counts in group {
                guard let counts else {
                    group.cancelAll()
                    return nil
                }
                all.merge(counts) { first, _ in first }
            }
            return all
        }
    }
}
