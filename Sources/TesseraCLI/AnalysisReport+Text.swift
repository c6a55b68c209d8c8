import TesseraCore

/// What `tessera analyse` prints without `--json`: a line a turn, then the totals and the scores.
extension AnalysisReport {
    var text: String {
        var lines: [String] = []
        for (number, turn) in turns.enumerated() {
            let squares = turn.pattern.map { ["b": "⬛", "y": "🟨", "g": "🟩"][String($0)] ?? "?" }.joined()
            var line = "\(number + 1). \(turn.guess.uppercased()) \(squares)  \(turn.candidatesBefore) → "
            line += "\(turn.candidatesAfter) \(turn.candidatesAfter == 1 ? "word" : "words") left"
            if let best = turn.best { line += "; best \(best.uppercased())" }
            if let inaccuracy = turn.inaccuracy {
                line += "; inaccuracy \(AnalysisReport.guesses(inaccuracy))"
            } else if turn.givesUpSureWin {
                line += "; gave up the sure win in six"
            }
            if let luck = turn.luck { line += "; luck \(AnalysisReport.signed(luck))" }
            lines.append(line)
        }
        let inaccuracy =
            totalInaccuracy.map(AnalysisReport.guesses) ?? "infinite (a sure win in six was given up or never there)"
        let luck = totalLuck.map(AnalysisReport.signed) ?? "undefined (a position had no sure win in six)"
        lines.append("Inaccuracy \(inaccuracy) guesses; luck \(luck).")
        lines.append(
            "Skill \(skill)/99, luck \(luckScore)/99. The bot from \(turns[0].guess.uppercased()): "
                + botPath.map { $0.uppercased() }.joined(separator: " → ") + ".")
        return lines.joined(separator: "\n")
    }

}
