import Foundation

/// An optional that JSON writes as `null` when absent, where synthesised coding would leave the key out: an
/// infinite value is said, not hidden.
// swift-format-ignore: UseSynthesizedInitializer
@propertyWrapper
public struct NullWhenAbsent<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    // Spelled out although the memberwise one is the same: as `init(wrappedValue:)` it lets the properties it
    // wraps take plain optionals.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A game's analysis in words rather than indices: what `tessera analyse --json` prints (docs/operating.md
/// documents it), what the bot stores for each finished game, and what both write out for people.
public struct AnalysisReport: Codable, Sendable, Hashable {
    public struct Turn: Codable, Sendable, Hashable {
        public var guess: String
        /// b, y or g a letter: "bbbyb".
        public var pattern: String
        public var candidatesBefore: Int
        public var candidatesAfter: Int
        /// The words left after the guess, in alphabetical order, when at most ``GameAnalysis/listedLeft``;
        /// absent otherwise, and in analyses stored before it was kept.
        public var left: [String]?
        @NullWhenAbsent public var best: String?
        @NullWhenAbsent public var inaccuracy: Double?
        @NullWhenAbsent public var luck: Double?
        public var givesUpSureWin: Bool
        /// Present when the budget left this turn's values unsettled: then `inaccuracy` and `luck` are null and
        /// these bounds say what is known.
        public var bounds: Bounds?
    }

    /// Exact bounds of a turn's values, or of the game's, where the budget did not settle them.
    public struct Bounds: Codable, Sendable, Hashable {
        /// nil when undefined (no sure win was left to lose).
        public var inaccuracy: Interval?
        /// nil when undefined (a position with no sure win).
        public var luck: Interval?
    }

    /// At least one number and at most another; null for an end that is infinite.
    public struct Interval: Codable, Sendable, Hashable {
        @NullWhenAbsent public var atLeast: Double?
        @NullWhenAbsent public var atMost: Double?

        public init(atLeast: Double?, atMost: Double?) {
            self.atLeast = atLeast
            self.atMost = atMost
        }

        init(_ measure: GameAnalysis.Measure) {
            self.init(
                atLeast: measure.lower.isFinite ? measure.lower : nil,
                atMost: measure.upper.isFinite ? measure.upper : nil)
        }
    }

    /// A score known between two numbers.
    public struct ScoreRange: Codable, Sendable, Hashable {
        public var atLeast: Int
        public var atMost: Int
    }

    public var answer: String
    public var hard: Bool
    public var turns: [Turn]
    @NullWhenAbsent public var totalInaccuracy: Double?
    @NullWhenAbsent public var totalLuck: Double?
    /// The skill score; with `bounds`, the lowest the bounds allow.
    public var skill: Int
    /// The luck score; with `bounds`, the lowest the bounds allow.
    public var luckScore: Int
    /// Optimal play's guesses to the answer after the player's first guess; empty when it would name a withheld
    /// word (``withholding(_:)``).
    public var botPath: [String]
    /// false when the budget did not settle every step of `botPath`: the later ones are a good strategy's.
    public var botPathIsOptimal: Bool?
    /// Present when the budget left some values unsettled (`totalInaccuracy` and `totalLuck` are then null).
    public var bounds: GameBounds?

    /// The game's values where the budget did not settle them all.
    public struct GameBounds: Codable, Sendable, Hashable {
        public var skill: ScoreRange
        public var luckScore: ScoreRange
    }

    /// Whether every value is exact.
    public var isExact: Bool { bounds == nil }

    public init(_ analysis: GameAnalysis, answer: Word, list: WordList, path: [Word], pathIsOptimal: Bool = true) {
        func text(_ word: Word) -> String { list.letters(word) }
        self.answer = text(answer)
        hard = analysis.hardMode
        turns = analysis.turns.map { turn in
            Turn(
                guess: text(turn.guess),
                pattern: String(turn.feedback.states.map { ["b", "y", "g"][Int($0.rawValue)] }.joined()),
                candidatesBefore: turn.candidatesBefore, candidatesAfter: turn.candidatesAfter,
                left: turn.left.map { $0.map(text).sorted() }, best: turn.best.map(text), inaccuracy: turn.inaccuracy,
                luck: turn.luck,
                givesUpSureWin: turn.losesTheGuarantee,
                bounds: turn.isExact
                    ? nil
                    : Bounds(
                        inaccuracy: turn.inaccuracyRange.map(Interval.init), luck: turn.luckRange.map(Interval.init)))
        }
        totalInaccuracy = analysis.totalInaccuracy
        totalLuck = analysis.totalLuck
        skill = analysis.skill
        luckScore = analysis.luckScore
        botPath = path.map(text)
        botPathIsOptimal = pathIsOptimal ? nil : false
        if !analysis.isExact {
            let skill = analysis.skillRange
            let luck = analysis.luckScoreRange
            bounds = GameBounds(
                skill: ScoreRange(atLeast: skill.lowerBound, atMost: skill.upperBound),
                luckScore: ScoreRange(atLeast: luck.lowerBound, atMost: luck.upperBound))
        }
        self = withholding(list)
    }

    /// The report naming no word the list withholds (``WordList/withheld``) as the bot's: such a best guess is
    /// left unnamed, and a bot's path through one is left out (its first word is the player's, its last the
    /// game's answer). The values stay exact: they were worked out with the whole vocabulary.
    public func withholding(_ list: WordList) -> AnalysisReport {
        func isWithheld(_ text: String) -> Bool {
            guard case .success(let word) = list.word(from: text) else { return false }
            return list.withheld.contains(word)
        }
        var report = self
        for index in report.turns.indices where report.turns[index].best.map(isWithheld) == true {
            report.turns[index].best = nil
        }
        if report.botPath.dropFirst().dropLast().contains(where: isWithheld) {
            report.botPath = []
            report.botPathIsOptimal = nil
        }
        return report
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A number of guesses as people read it: two decimals, `+` on a positive luck.
    public static func guesses(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(2)).locale(Locale(identifier: "en_US_POSIX")))
    }
    public static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + guesses(value) }
}
