import Foundation
import TesseraCore

/// One live board per game: in a direct chat, the player's board of a puzzle is one message, edited in place
/// after each guess (``OutgoingMessage/live``). It shows the rows played, the tries used, and the keyboard
/// with what each tried letter showed; a finished game adds a countdown to the next puzzle and buttons to
/// share the result in any chat (``ChatEvent/query(id:)``) and to see the statistics.
extension BotEngine {
    /// What the Share button queries: the presser's latest result, to post in a chat they pick.
    static let shareQuery = "share"

    /// The board of the player's game as a live message: it edits the board already posted for that game, or
    /// (`reposts`) is posted anew at the bottom of the chat and edited from then on.
    func liveBoard(_ daily: DailyGame, context: Context, reposts: Bool = false) -> OutgoingMessage {
        let game = daily.game
        let texts = context.texts
        let title = texts.boardTitle(
            gameName: configuration.gameName, puzzle: daily.stored.puzzle, guesses: game.rows.count,
            maximumGuesses: game.maximumGuesses, hardMode: daily.stored.hardMode)
        var ending: [String] = []
        var buttons: [[OutgoingMessage.Button]] = []
        if game.result != nil {
            let next = context.player.nextPuzzleStart(after: context.now, schedule: configuration.schedule)
            ending.append(texts.nextPuzzle(in: next.timeIntervalSince(context.now)))
            if context.platform.buttons {
                buttons = [
                    [
                        .postElsewhere(texts.shareButton, query: Self.shareQuery),
                        OutgoingMessage.Button(text: texts.statsButton, data: BotCommand.stats.rawValue),
                    ],
                    [analysisButton(for: daily.stored, texts: texts)],
                ]
            } else {
                ending.append(texts.boardCommands)
            }
        }
        return liveBoard(
            game, language: daily.stored.language, title: title, ending: ending, buttons: buttons,
            key: "board:\(daily.stored.language.rawValue):\(daily.stored.puzzle)", context: context, reposts: reposts)
    }

    /// The layout every live board shares: its title, the rows, the keyboard, and once the game has ended its
    /// result, then `ending` and `buttons`. `key` names the game, whose board is edited from version to version.
    func liveBoard(
        _ game: Game, language: Language, title: String, ending: [String], buttons: [[OutgoingMessage.Button]],
        key: String, context: Context, reposts: Bool
    ) -> OutgoingMessage {
        let texts = context.texts
        var title = title
        // Another language's puzzle says so, so that nobody mistakes whose board it is.
        if language != context.player.language { title += " · " + texts.inLanguage(language) }
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
            chat: context.message.chat, chatKind: context.message.chatKind, html: lines.joined(separator: "\n"),
            thread: context.message.thread, buttons: game.result == nil ? [] : buttons, repostsLive: reposts)
        // Without edits, or too long to edit as one message, each version is a message of its own.
        if context.platform.edits && board.fits(maximumLength: context.platform.maximumLength) {
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

    /// Answers the Share button's query: the player's result of their current puzzle, ready to post in the
    /// chat they picked, or, before they have finished it (or ever played), a button that opens the direct
    /// chat to play. Nothing is stored: a stranger's query makes no player, and an answer waits in no chat's
    /// queue (``OutgoingMessage/Action/answerQuery(id:title:)`` goes out on its own).
    func answerShareQuery(id: String, message: ChatMessage, at now: Date, in store: any GameStoreTransaction)
        async throws
    {
        var share: SharedResult?
        var played = Language.english
        var language = message.senderLanguage.flatMap(Language.init(tag:)) ?? configuration.defaultLanguage
        if let player = try await store.player(message.sender) {
            language = player.language
            let context = Context(
                message: message, platform: configuration.platform, now: now, store: store, player: player,
                group: nil, language: player.puzzleLanguage)
            let daily = try await dailyGame(context)
            share = SharedResult(game: daily.game, puzzle: daily.stored.puzzle, gameName: configuration.gameName)
            played = daily.stored.language
        }
        try await store.enqueue([
            OutgoingMessage(
                chat: message.chat, chatKind: message.chatKind,
                html: share?.text(theme: configuration.shareTheme, language: played).htmlEscaped ?? "",
                action: .answerQuery(
                    id: id, title: share.map { language.texts.shareTitle($0.headline) } ?? language.texts.shareFirstPlay
                )
            )
        ])
    }
}
