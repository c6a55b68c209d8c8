import TesseraCore

/// What `tessera analyse` prints without `--json`: a line a turn, then the totals and the scores. A value the
/// budget did not settle is printed as the range its bounds give.
extension AnalysisReport {
    var text: String {
        var lines: [String] = []
        for (number, turn) in turns.enumerated() {
            let squares = turn.pattern.map { ["b": "⬛", "y": "🟨", "g": "🟩"][String($0)] ?? "?" }.joined()
            var line = "\(number + 1). \(turn.guess.uppercased()) \(squares)  \(turn.candidatesBefore) → "
            line += "\(turn.candidatesAfter) \(turn.candidatesAfter == 1 ? "word" : "words") left"
            if let left = turn.left, turn.pattern.contains(where: { $0 != "g" }) {
                line += " (" + left.map { $0.uppercased() }.joined(separator: ", ") + ")"
            }
            // A guess that wins has nothing better to compare with.
            if let best = turn.best, turn.pattern.contains(where: { $0 != "g" }) {
                line += "; best \(best.uppercased())"
            }
            if turn.givesUpSureWin {
                line += "; risky: no sure win in six after it"
            } else if let bounds = turn.bounds {
                if let range = bounds.inaccuracy { line += "; inaccuracy \(Self.range(range, signed: false))" }
            } else if let inaccuracy = turn.inaccuracy {
                line += "; inaccuracy \(AnalysisReport.guesses(inaccuracy))"
            }
            if let bounds = turn.bounds {
                if let range = bounds.luck { line += "; luck \(Self.range(range, signed: true))" }
            } else if let luck = turn.luck {
                line += "; luck \(AnalysisReport.signed(luck))"
            }
            lines.append(line)
        }
        if let bounds {
            lines.append(
                "Skill \(bounds.skill.atLeast)–\(bounds.skill.atMost)/99, luck "
                    + "\(bounds.luckScore.atLeast)–\(bounds.luckScore.atMost)/99: part of the game was beyond the budget, "
                    + "and each range holds the exact value.")
        } else {
            let inaccuracy =
                totalInaccuracy.map(AnalysisReport.guesses)
                ?? "infinite (a sure win in six was given up or never there)"
            let luck = totalLuck.map(AnalysisReport.signed) ?? "undefined (a position had no sure win in six)"
            lines.append("Inaccuracy \(inaccuracy) guesses; luck \(luck).")
            lines.append("Skill \(skill)/99, luck \(luckScore)/99.")
        }
        if !botPath.isEmpty {
            lines.append(
                "The bot from \(turns[0].guess.uppercased()): "
                    + botPath.map { $0.uppercased() }.joined(separator: " → ")
                    + (botPathIsOptimal == false ? " (its later guesses a quick strategy's, not proven best)." : "."))
        }
        return lines.joined(separator: "\n")
    }

    /// A range of guesses: `0.36 to 0.58`, `at least 0.09`, `at most 0.40`, `unknown`.
    static func range(_ interval: Interval, signed: Bool) -> String {
        let format = signed ? AnalysisReport.signed : AnalysisReport.guesses
        switch (interval.atLeast, interval.atMost) {
        // Bounds that round to one figure are printed as that figure, not as "+0.20 to +0.20".
        case (let lower?, let upper?) where format(lower) == format(upper): return format(lower)
        case (let lower?, let upper?): return "\(format(lower)) to \(format(upper))"
        case (let lower?, nil): return "at least \(format(lower))"
        case (nil, let upper?): return "at most \(format(upper))"
        case (nil, nil): return "unknown"
        }
    }
}
