/// The median scores of ``SimulatedPlayer``s' games on a list's answer edition: how the skill score is
/// calibrated, in a test and by `tessera calibrate`.
public enum Calibration {
    public struct Row: Sendable {
        public var player: SimulatedPlayer
        public var games: Int
        public var inaccuracy: Double
        public var skill: Int
        public var luck: Int
    }

    /// Plays `games` answers, spread evenly over the edition, with each player, and analyses each game as the bot
    /// does. The openers must be in the opening book (the best, the common one and every random one): a
    /// calibration run searches no opener.
    public static func measure(list: WordList, edition: Int, hardMode: Bool, games: Int) throws -> [Row] {
        let analyst = GameAnalyst()
        let tables = analyst.tables(for: list, edition: edition, hardMode: hardMode)
        guard let book = OpeningBook.lookup(fingerprint: tables.fingerprint, hardMode: hardMode) else {
            throw CalibrationError.noBook
        }
        let solver = Solver(tables: tables)
        func index(_ text: String) throws -> Int {
            guard case .success(let word) = list.word(from: text), let index = tables.guesses.firstIndex(of: word)
            else { throw CalibrationError.notInLists(text) }
            return index
        }
        let best = try index(book.best)
        let common = try index(SimulatedPlayer.commonOpener(in: list.language))
        let openers = try book.totals.filter { $0.value != nil }.keys.sorted().map(index)
        // The same draws on every run: the same table.
        var draws = SeededDraws(seed: 0x2545_F491_4F6C_DD1D)
        let count = tables.answers.count
        let sample = (0..<min(games, count)).map { $0 * count / min(games, count) }
        var rows: [Row] = []
        for player in SimulatedPlayer.allCases {
            var inaccuracies: [Double] = []
            var skills: [Int] = []
            var lucks: [Int] = []
            for answer in sample {
                let played = player.play(
                    answer: answer, solver: solver, bestOpener: best, commonOpener: common, openers: openers
                ) { draws.next(below: $0) }
                let analysed = try analyst.analyse(
                    answer: tables.answers[answer], guesses: played.map { tables.guesses[$0] }, list: list,
                    edition: edition, hardMode: hardMode
                )
                inaccuracies.append(analysed.analysis.totalInaccuracy ?? .infinity)
                skills.append(analysed.analysis.skill)
                lucks.append(analysed.analysis.luckScore)
            }
            rows.append(
                Row(
                    player: player, games: sample.count, inaccuracy: median(inaccuracies), skill: median(skills),
                    luck: median(lucks)))
        }
        return rows
    }

    static func median<T: Comparable>(_ values: [T]) -> T {
        values.sorted()[values.count / 2]
    }
}

/// A fixed sequence of numbers (a linear congruential generator): simulated players draw the same on every
/// run.
public struct SeededDraws: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next number below `bound`, which is positive.
    public mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// Why a calibration cannot run.
public enum CalibrationError: Error, CustomStringConvertible {
    case noBook
    case notInLists(String)

    public var description: String {
        switch self {
        case .noBook: "the opening book has no entry for these lists and mode: run scripts/build-opening-book"
        case .notInLists(let word): "the opener '\(word)' is not in these lists"
        }
    }
}
