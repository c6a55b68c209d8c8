import Foundation
import TesseraCore

/// An optional that JSON writes as `null` when absent, where synthesised coding would leave the key out: an
/// infinite value is said, not hidden.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    // Spelled out although the memberwise one is the same: as `init(wrappedValue:)` it lets the properties it
    // wraps take plain optionals.
    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// What `tessera analyse` prints: a line a turn and the totals, or the JSON the README documents.
struct AnalysisReport: Encodable {
    struct Turn: Encodable {
        var guess: String
        /// b, y or g a letter: "bbbyb".
        var pattern: String
        var candidatesBefore: Int
        var candidatesAfter: Int
        @NullWhenAbsent var best: String?
        @NullWhenAbsent var inaccuracy: Double?
        @NullWhenAbsent var luck: Double?
        var givesUpSureWin: Bool
    }

    var answer: String
    var hard: Bool
    var turns: [Turn]
    @NullWhenAbsent var totalInaccuracy: Double?
    @NullWhenAbsent var totalLuck: Double?
    var skill: Int
    var luckScore: Int
    /// Optimal play's guesses to the answer after the player's first guess.
    var botPath: [String]

    init(_ analysis: GameAnalysis, answer: Word, list: WordList, path: [Word]) {
        func text(_ word: Word) -> String { list.display(word).lowercased() }
        self.answer = text(answer)
        hard = analysis.hardMode
        turns = analysis.turns.map { turn in
            Turn(
                guess: text(turn.guess),
                pattern: String(turn.feedback.states.map { ["b", "y", "g"][Int($0.rawValue)] }.joined()),
                candidatesBefore: turn.candidatesBefore, candidatesAfter: turn.candidatesAfter,
                best: turn.best.map(text), inaccuracy: turn.inaccuracy, luck: turn.luck,
                givesUpSureWin: turn.losesTheGuarantee)
        }
        totalInaccuracy = analysis.totalInaccuracy
        totalLuck = analysis.totalLuck
        skill = analysis.skill
        luckScore = analysis.luckScore
        botPath = path.map(text)
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    var text: String {
        var lines: [String] = []
        for (number, turn) in turns.enumerated() {
            let squares = turn.pattern.map { ["b": "⬛", "y": "🟨", "g": "🟩"][String($0)] ?? "?" }.joined()
            var line = "\(number + 1). \(turn.guess.uppercased()) \(squares)  \(turn.candidatesBefore) → "
            line += "\(turn.candidatesAfter) \(turn.candidatesAfter == 1 ? "word" : "words") left"
            if let best = turn.best { line += "; best \(best.uppercased())" }
            if let inaccuracy = turn.inaccuracy {
                line += "; inaccuracy \(Self.guesses(inaccuracy))"
            } else if turn.givesUpSureWin {
                line += "; gave up the sure win in six"
            }
            if let luck = turn.luck { line += "; luck \(Self.signed(luck))" }
            lines.append(line)
        }
        let inaccuracy = totalInaccuracy.map(Self.guesses) ?? "infinite (a sure win in six was given up or never there)"
        let luck = totalLuck.map(Self.signed) ?? "undefined (a position had no sure win in six)"
        lines.append("Inaccuracy \(inaccuracy) guesses; luck \(luck).")
        lines.append(
            "Skill \(skill)/99, luck \(luckScore)/99. The bot from \(turns[0].guess.uppercased()): "
                + botPath.map { $0.uppercased() }.joined(separator: " → ") + ".")
        return lines.joined(separator: "\n")
    }

    static func guesses(_ value: Double) -> String { value.formatted(.number.precision(.fractionLength(2))) }
    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + guesses(value) }
}
