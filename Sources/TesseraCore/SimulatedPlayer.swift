/// Players whose games calibrate the skill score (docs/analysis.md, "How skill is scored"): each plays a game to an answer
/// on the solver's tables, and the medians of their games' scores are published and tested.
public enum SimulatedPlayer: String, CaseIterable, Sendable {
    /// Optimal play from the best opener.
    case optimal
    /// The best opener, then a random remaining candidate each turn.
    case bestOpenerThenCandidates
    /// A common opener (``commonOpener(in:)``), then each turn the remaining candidate that leaves the fewest
    /// words on average: a sensible player who thinks one guess ahead.
    case commonOpenerThenFewestLeft
    /// A random studied opener, then a random remaining candidate each turn: a player who guesses words that
    /// fit, without weighing them.
    case randomCandidates

    /// The opener most players use in a language: ADIEU, the most played (The New York Times, 2023); ARBOL.
    public static func commonOpener(in language: Language) -> String {
        switch language {
        case .english: "adieu"
        case .spanish: "arbol"
        }
    }

    /// The guesses (indices into the solver's guesses) this player makes until the answer, or six.
    /// `openers` are the studied openers a random opener is drawn from; `random` draws below its argument.
    public func play(
        answer: Int, solver: Solver, bestOpener: Int, commonOpener: Int, openers: [Int], random: (Int) -> Int
    ) -> [Int] {
        if self == .optimal { return solver.path(from: solver.start, to: answer, first: bestOpener).guesses }
        var position = solver.start
        var played: [Int] = []
        while played.count < solver.maximumGuesses {
            let guess: Int
            if played.isEmpty {
                guess =
                    switch self {
                    case .commonOpenerThenFewestLeft: commonOpener
                    case .randomCandidates: openers[random(openers.count)]
                    default: bestOpener
                    }
            } else if self == .commonOpenerThenFewestLeft {
                guess = fewestLeft(position, solver: solver)
            } else {
                guess = position.candidates[random(position.candidates.count)]
            }
            played.append(guess)
            if guess == answer { break }
            position = solver.after(position, guess: guess, pattern: solver.pattern(guess, answer))
        }
        return played
    }

    /// The candidate whose colours leave the fewest candidates on average (the sum of its parts' squares, the
    /// candidate itself leaving none); the first of equals.
    private func fewestLeft(_ position: Solver.Position, solver: Solver) -> Int {
        var best = (guess: position.candidates[0], left: Int.max)
        for candidate in position.candidates {
            let left = solver.parts(of: position, by: candidate).reduce(0) { sum, part in
                sum + (part.pattern == solver.solvedPattern ? 0 : part.count * part.count)
            }
            if left < best.left { best = (candidate, left) }
        }
        return best.guess
    }
}
