import Foundation
import TesseraCore

/// One live board per game: in a direct chat, the player's board of a puzzle is one message, edited in place
/// after each guess (``OutgoingMessage/live``). It shows the rows played, the tries used, and the keyboard
/// with what each tried letter showed; a finished game adds a countdown to the next puzzle and buttons to
/// share the result in any chat (``ChatEvent/query(id:)``) and to see the statistics.
struct LiveBoards {
    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }

    /// What the Share button queries: the presser's latest result, to post in a chat they pick.
    static let shareQuery = "share"

    /// The board of the player's game as a live message: it edits the board already posted for that game, or
    /// (`reposts`) is posted anew at the bottom of the chat and edited from then on.
    func board(of daily: DailyGame, in turn: Turn, reposts: Bool = false) -> OutgoingMessage {
        let game = daily.game
        let texts = turn.texts
        let title = texts.boardTitle(
            gameName: configuration.gameName, puzzle: daily.stored.puzzle, guesses: game.rows.count,
            maximumGuesses: game.maximumGuesses, hardMode: daily.stored.hardMode)
        var ending: [String] = []
        var buttons: [[OutgoingMessage.Button]] = []
        if game.result != nil {
            let next = turn.player.nextPuzzleStart(after: turn.now, schedule: configuration.schedule)
            ending.append(texts.nextPuzzle(in: next.timeIntervalSince(turn.now)))
            if turn.platform.buttons {
                let share = SharedResult(game: game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
                buttons = [
                    [.postElsewhere(texts.shareButton, query: Self.shareQuery)]
                        + (share.map {
                            [
                                .copy(
                                    texts.copyButton,
                                    copying: $0.text(theme: configuration.shareTheme, language: daily.stored.language))
                            ]
                        } ?? [])
                        + [OutgoingMessage.Button(text: texts.statsButton, data: BotCommand.stats.rawValue)],
                    [OutgoingMessage.Button.analysis(for: daily.stored, texts: texts)],
                ]
            } else {
                ending.append(texts.boardCommands)
            }
        }
        return board(
            game, language: daily.stored.language, title: title, ending: ending, buttons: buttons,
            key: "board:\(daily.stored.language.rawValue):\(daily.stored.puzzle)", in: turn, reposts: reposts)
    }

    /// The layout every live board shares: its title, the rows, the keyboard, and once the game has ended its
    /// result, then `ending` and `buttons`. `key` names the game, whose board is edited from version to version.
    func board(
        _ game: Game, language: Language, title: String, ending: [String], buttons: [[OutgoingMessage.Button]],
        key: String, in turn: Turn, reposts: Bool
    ) -> OutgoingMessage {
        let texts = turn.texts
        var title = title
        // Another language's puzzle says so, so that nobody mistakes whose board it is.
        if language != turn.player.language { title += " · " + texts.inLanguage(language) }
        let list = game.wordList
        var lines = [title]
        for row in game.rows {
            let squares = String(row.feedback.states.map(configuration.shareTheme.square(for:)))
            lines.append(squares + " <code>" + list.display(row.word).htmlEscaped + "</code>")
        }
        lines += ["", keyboard(game)]
        if let result = game.result {
            switch result {
            case .won(let guesses): lines += ["", texts.won(guesses: guesses, maximumGuesses: game.maximumGuesses)]
            case .lost: lines += ["", texts.lost(answer: list.display(game.answer))]
            }
            lines += ending
        }
        var board = OutgoingMessage(
            chat: turn.message.chat, chatKind: turn.message.chatKind, html: lines.joined(separator: "\n"),
            thread: turn.message.thread, buttons: game.result == nil ? [] : buttons, repostsLive: reposts)
        // Without edits, or too long to edit as one message, each version is a message of its own.
        if turn.platform.edits && board.fits(maximumLength: turn.platform.maximumLength) {
            board.live = key
        }
        return board
    }

    /// The keyboard's rows, each tried letter marked with the square of the best it showed (🟩 beats 🟨 beats
    /// the theme's absent square); untried letters are plain, since ⬜ means "absent" in the light theme.
    private func keyboard(_ game: Game) -> String {
        let summary = game.keyboard
        let alphabet = game.wordList.alphabet
        return alphabet.keyboardRows.map { row in
            row.map { key -> String in
                let letter = String(key).uppercased()
                guard let code = alphabet.code(of: key), let state = summary[code] else { return letter }
                return String(configuration.shareTheme.square(for: state)) + letter
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
