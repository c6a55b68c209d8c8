import Foundation
import Logging
import Synchronization
import TesseraCore

/// What every feature of the engine shares: the configuration, each language's answers and guess lists, the
/// secret that keys the schedule, the replay guards and the buttons, and the log.
struct EngineCore: Sendable {
    let configuration: EngineConfiguration
    /// Each language's answers, built when the language is first played and kept for the engine's life: a
    /// schedule remembers what it works out once (the order of a new answer edition's first cycle), and a
    /// language nobody plays is never loaded.
    private let schedules = Schedules()
    /// Each language with extra guesses, its list with them (``guessList(_:)``).
    private let guessLists: [Language: WordList]

    private final class Schedules: Sendable {
        let built = Mutex<[Language: AnswerSchedule]>([:])
        /// Each language's practice words (``practiceWords(in:closedThrough:)``) as of the last puzzle
        /// closed everywhere: worked out once a day, not on every `/practice`.
        let practiceWords = Mutex<[Language: (closed: Int, words: [(PuzzleNumber, Word)])]>([:])
    }

    /// The words practice deals in a language while puzzles up to `closed` have closed everywhere: the last cycle
    /// of their answers still on the lists, newest first, each once, with the puzzle it was.
    func practiceWords(in language: Language, closedThrough closed: Int) -> [(PuzzleNumber, Word)] {
        if let kept = schedules.practiceWords.withLock({ $0[language] }), kept.closed == closed { return kept.words }
        let list = language.wordList
        let current = Set(list.answers)
        var seen = Set<Word>()
        var words: [(PuzzleNumber, Word)] = []
        for number in stride(from: closed, to: max(0, closed - list.answers.count), by: -1) {
            let puzzle = PuzzleNumber(number)
            let word = answer(for: puzzle, in: language)
            if current.contains(word), seen.insert(word).inserted { words.append((puzzle, word)) }
        }
        schedules.practiceWords.withLock { $0[language] = (closed, words) }
        return words
    }
    /// Keys the schedule and the replay guards.
    let secret: ScheduleSecret
    /// Signs the data of the buttons the bot sends, so a press of one it did not send is ignored.
    let buttonTags: ButtonTags
    /// Presses of buttons the bot did not send, logged a line a minute at most.
    let forgedPresses = ThrottledLog(interval: 60)
    let logger: Logger

    init(configuration: EngineConfiguration, secret: ScheduleSecret, logger: Logger) {
        self.configuration = configuration
        self.guessLists = configuration.extraGuesses.reduce(into: [:]) { lists, extra in
            lists[extra.key] = extra.key.wordList.adding(guesses: extra.value)
        }
        self.secret = secret
        self.buttonTags = ButtonTags(secret: secret)
        self.logger = logger
    }

    /// The list a language's guesses are checked against: the built-in one and the operator's extra guesses.
    func guessList(_ language: Language) -> WordList {
        guessLists[language] ?? language.wordList
    }

    /// The answer of a puzzle in a language.
    func answer(for puzzle: PuzzleNumber, in language: Language) -> Word {
        let schedule = schedules.built.withLock { built in
            if let schedule = built[language] { return schedule }
            let schedule = AnswerSchedule(wordList: language.wordList, secret: secret)
            built[language] = schedule
            return schedule
        }
        return schedule.answer(for: puzzle)
    }

    /// The zone that leaves a day last (UTC−12, its puzzle changing at 23:00): a puzzle before its current one
    /// has closed everywhere.
    static let lastRollover: DayRollover = {
        guard let zone = TimeZone(secondsFromGMT: -12 * 3600), let rollover = DayRollover(timeZone: zone, hour: 23)
        else { preconditionFailure("UTC−12 with a 23:00 rollover is a valid rollover") }
        return rollover
    }()

    /// The oldest puzzle some player may still be playing.
    func earliestOpenPuzzle(at now: Date) -> PuzzleNumber {
        configuration.schedule.puzzle(at: now, rollover: Self.lastRollover)
    }

    /// A one-way key for a player's game of a puzzle: the replay guard stores this, never the player's id.
    func replayKey(_ player: UserID, language: Language, puzzle: PuzzleNumber) -> String {
        secret.tag(for: "replay|\(player)|\(language.rawValue)|\(puzzle)")
    }
}

extension EngineCore {
    /// Replays a stored game's guesses; one that cannot be read (a list changed) is logged and left out.
    func restore(_ guesses: [String], into game: inout Game, metadata: Logger.Metadata) {
        for guess in guesses {
            switch game.wordList.word(from: guess) {
            case .success(let word): game.restore(word)
            case .failure(let rejection):
                logger.error(
                    "A stored guess cannot be read; it is left out of the board",
                    metadata: metadata.merging(["error": "\(rejection)"]) { $1 })
            }
        }
    }

    /// The skill and luck scores of stored analyses, averaged; nil when there are none.
    func averageScores(_ analyses: [String], player: UserID) -> AverageScores? {
        let reports = analyses.compactMap { decoded($0, player: player) }
        guard !reports.isEmpty else { return nil }
        func average(_ scores: [Int]) -> Int {
            Int(bounded: (Double(scores.reduce(0, +)) / Double(scores.count)).rounded())
        }
        return AverageScores(
            skill: average(reports.map(\.skill)), luck: average(reports.map(\.luckScore)), games: reports.count)
    }

    /// The welcome of a direct chat, in the player's language, and which puzzle the chat plays when it is not in
    /// the player's language or a play button chose it (`namingPuzzle`): a player who pressed one sees where their
    /// words go.
    func welcome(playing language: Language, player: Player, namingPuzzle: Bool = false) -> String {
        let texts = player.language.texts
        let welcome = texts.welcome(
            gameName: configuration.gameName, wordLength: language.wordList.wordLength,
            maximumGuesses: Game.defaultMaximumGuesses)
        return language == player.language && !namingPuzzle ? welcome : welcome + "\n\n" + texts.playing(language)
    }

    /// A stored analysis read back; one that cannot be read is logged and shown as unavailable.
    func decoded(_ json: String, player: UserID) -> AnalysisReport? {
        do {
            return try JSONDecoder().decode(AnalysisReport.self, from: Data(json.utf8))
        } catch {
            logger.error(
                "A stored analysis cannot be read; it is shown as unavailable",
                metadata: ["player.id": "\(player)", "error": "\(error)"])
            return nil
        }
    }
}

extension EngineCore: CustomStringConvertible, CustomReflectable {
    // It holds the secret's key: a description names the game only.
    var description: String { "EngineCore(game: \(configuration.gameName))" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
