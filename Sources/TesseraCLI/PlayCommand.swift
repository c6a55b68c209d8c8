import ArgumentParser
import Foundation
import Logging
import TesseraCore

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play today's puzzle in the terminal.",
        discussion: """
            Type a guess and press Enter. An empty line or Ctrl-D stops; progress is saved after every guess, so \
            running `tessera play` again continues the same game.

            The day's word comes from a secret: TESSERA_SECRET if set, otherwise one generated on first use and \
            kept in the progress file.
            """
    )

    @Option(name: .customLong("language"), help: "Word list language.")
    var languageArgument = ChoiceArgument(Language.english)

    @Flag(help: "Hard mode: every revealed hint must be used in later guesses. Only before the first guess.")
    var hard = false

    @Option(help: "Replay an earlier day (YYYY-MM-DD) instead of today.")
    var date: String?

    @OptionGroup var day: DayOptions

    @Option(name: .customLong("theme"), help: "Share text colours.")
    var themeArgument = ChoiceArgument(ShareTheme.dark)

    @Option(
        help: "Progress file (default: $XDG_STATE_HOME/tessera/terminal.json or ~/.local/state/tessera/terminal.json).")
    var state: String?

    @Flag(help: "Plain letters and squares instead of coloured tiles (the default when output is not a terminal).")
    var noColor = false

    @Flag(name: .shortAndLong, help: "Log where progress is kept and where the secret comes from.")
    var verbose = false

    var language: Language { languageArgument.value }
    var theme: ShareTheme { themeArgument.value }

    func run() throws {
        var logger = Logger(label: "tessera.play")
        logger.logLevel = verbose ? .debug : .warning
        let store = ProgressStore(url: state.map { URL(fileURLWithPath: $0) } ?? ProgressStore.defaultURL())
        logger.debug("Progress file", metadata: ["progress.path": "\(store.url.path)"])
        var progress = try store.load()
        let secret = try scheduleSecret(&progress, logger: logger)

        let schedule = DailySchedule.tessera
        let puzzle = try chosenPuzzle(schedule)
        let list = language.wordList
        let answer = AnswerSchedule(wordList: list, secret: secret).answer(for: puzzle)
        let key = SavedProgress.key(
            language: language.rawValue,
            puzzle: puzzle.rawValue,
            secretFingerprint: secret.fingerprint
        )
        var game = try restoredGame(progress.games[key], answer: answer, list: list, key: key, store: store)
        progress.games[key] = SavedProgress.SavedGame(hardMode: game.isHardMode, guesses: guessTexts(game))
        try store.save(progress)

        let board = TerminalBoard(wordList: list, usesColour: !noColor && isatty(STDOUT_FILENO) == 1)
        let mode = game.isHardMode ? " · hard mode" : ""
        print("Tessera \(puzzle.grouped) · \(list.language.name)\(mode) · \(schedule.day(of: puzzle))")
        if !game.status.isFinished {
            print(
                "Guess the \(list.wordLength)-letter word in \(game.maximumGuesses) tries. An empty line or Ctrl-D stops."
            )
        }
        for row in game.rows { print(board.row(row)) }

        while !game.status.isFinished {
            print("Guess \(game.rows.count + 1)/\(game.maximumGuesses): ", terminator: "")
            fflush(nil)
            guard let line = readLine(), !line.allSatisfy(\.isWhitespace) else {
                print("\nProgress saved. Run `tessera play` again to continue.")
                return
            }
            switch game.submit(line) {
            case .failure(let rejection):
                print(rejection)
            case .success(let row):
                progress.games[key]?.guesses.append(list.letters(row.word))
                try store.save(progress)
                print(board.row(row))
                if !game.status.isFinished { print(board.keyboard(game.keyboard)) }
            }
        }
        printEnding(game, puzzle: puzzle, list: list, board: board)
    }

    /// TESSERA_SECRET, else the one kept in the progress file, else a new random one that is kept there.
    private func scheduleSecret(_ progress: inout SavedProgress, logger: Logger) throws -> ScheduleSecret {
        if let text = ProcessInfo.processInfo.environment["TESSERA_SECRET"] {
            guard let checked = try SecretText.checked(text, from: "TESSERA_SECRET"),
                let secret = ScheduleSecret(checked)
            else {
                throw CommandError("TESSERA_SECRET is set but empty: set it to a long random text, or unset it.")
            }
            logger.debug("Using the secret from TESSERA_SECRET")
            return secret
        }
        if let text = progress.secret, let secret = ScheduleSecret(text) {
            logger.debug("Using the secret kept in the progress file")
            return secret
        }
        let text = SecretText.random()
        progress.secret = text
        logger.debug("Generated a new secret and kept it in the progress file")
        // A freshly generated text is never empty.
        guard let secret = ScheduleSecret(text) else { preconditionFailure("generated an empty secret") }
        return secret
    }

    private func chosenPuzzle(_ schedule: DailySchedule) throws -> PuzzleNumber {
        let today = try day.today(schedule)
        guard let date else { return today }
        guard let day = CivilDate(date) else {
            throw CommandError("--date takes a day as YYYY-MM-DD, such as 2026-11-22, not '\(date)'.")
        }
        let puzzle = schedule.puzzle(on: day)
        guard puzzle >= PuzzleNumber(1) else {
            throw CommandError("Tessera began on \(schedule.firstDay); there is no puzzle for \(day).")
        }
        guard puzzle <= today else {
            throw CommandError(
                "The puzzle for \(day) is not out yet; today is puzzle \(today) (\(schedule.day(of: today))).")
        }
        return puzzle
    }

    private func restoredGame(
        _ saved: SavedProgress.SavedGame?,
        answer: Word,
        list: WordList,
        key: String,
        store: ProgressStore
    ) throws -> Game {
        var game = Game(answer: answer, wordList: list, hardMode: saved?.hardMode ?? false)
        // Saved guesses were accepted when they were played: restored without today's checks, as the bot does,
        // so a regenerated word list does not lose a game.
        for guess in saved?.guesses ?? [] {
            switch list.word(from: guess) {
            case .success(let word): game.restore(word)
            case .failure(let rejection):
                throw CommandError(
                    "The saved game \(key) in \(store.url.path) has '\(guess)', which is not a word (\(rejection)). "
                        + "Delete that game from the file to play it again."
                )
            }
        }
        if hard && !game.isHardMode {
            if case .failure(let rejection) = game.setHardMode(true) { print(rejection) }
        }
        return game
    }

    private func guessTexts(_ game: Game) -> [String] {
        game.rows.map { game.wordList.letters($0.word) }
    }

    private func printEnding(_ game: Game, puzzle: PuzzleNumber, list: WordList, board: TerminalBoard) {
        switch game.result {
        case .won(let guesses):
            print("\(game.result?.praise ?? "")! Solved in \(guesses)/\(game.maximumGuesses).")
        case .lost:
            print("The word was \(list.display(game.answer)).")
        case nil:
            return
        }
        if let share = SharedResult(game: game, puzzle: puzzle, gameName: "Tessera") {
            print("\n" + share.text(theme: theme) + "\n")
        }
        print("A new word comes with the next puzzle.")
    }
}
