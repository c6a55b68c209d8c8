import Foundation
import Logging
import TesseraCore

/// `/forgetme` and `/export`: a player's own data, only in their direct chat.
struct Privacy: Feature {
    typealias Reads = any PlayerDataReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore

    /// The data of the buttons under `/forgetme`'s question.
    enum ForgetButton: String {
        case confirm = "forgetme:yes"
        case cancel = "forgetme:no"
    }

    /// Asks before deleting anything: the deletion needs a press of the button under the question, or, on a
    /// platform without buttons, the question's code typed back (`/forgetme 3f09…`), bound like the button to
    /// this player in this chat.
    func forgetMe(in turn: Turn) -> Reply {
        guard !turn.isGroup else { return turn.reply(turn.texts.privateOnly) }
        let texts = turn.texts
        guard turn.platform.buttons else {
            let code = buttonData(.confirm, for: turn.message).split(separator: "~").last.map(String.init) ?? ""
            return turn.reply(texts.forgetQuestion + "\n" + texts.forgetTyped(code: code))
        }
        return Reply(
            turn.answer(
                texts.forgetQuestion,
                buttons: [
                    [
                        OutgoingMessage.Button(
                            text: texts.forgetConfirmButton, data: buttonData(.confirm, for: turn.message)
                        ).styled(.danger)
                    ],
                    [.init(text: texts.forgetCancelButton, data: buttonData(.cancel, for: turn.message))],
                ]))
    }

    /// `/forgetme CODE`: the confirmation button's press when the code is the one this player was given in this
    /// chat; any other code is answered, and changes nothing.
    func typedConfirmation(
        _ code: String, message: ChatMessage, at now: Date, in store: any MessageReads,
        reads: @autoclosure () throws -> Reads
    ) async throws -> Reply {
        let data = ForgetButton.confirm.rawValue + "~" + code
        if verifiedButton(data, pressedIn: message) != nil {
            return try await pressed(data, message: message, at: now, in: store, reads: try reads())
        }
        let language = try await store.player(message.sender)?.language ?? core.configuration.defaultLanguage
        return Reply(
            OutgoingMessage(
                chat: message.chat, chatKind: message.chatKind, html: language.texts.forgetWrongCode,
                replyTo: message.messageID, thread: message.thread))
    }

    /// A button's data: its action and a tag binding it to the chat and the player it is offered to
    /// (`forgetme:yes~3f09…`, 29 bytes, within Telegram's 64).
    func buttonData(_ button: ForgetButton, for message: ChatMessage) -> String {
        "\(button.rawValue)~\(core.buttonTags.tag(for: "\(button.rawValue)|\(message.chat)|\(message.sender)"))"
    }

    /// The button a press is of, when the bot sent it to this player in this chat; nil for any other data.
    func verifiedButton(_ data: String, pressedIn message: ChatMessage) -> ForgetButton? {
        let parts = data.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 2, let button = ForgetButton(rawValue: String(parts[0])),
            buttonData(button, for: message) == data
        else { return nil }
        return button
    }

    /// A press of one of the bot's buttons. Handled before anything is stored for the presser: after
    /// "delete everything", nothing about them may be written again. The reply's writes come first: what stays
    /// of the player, the groups that named them, then the deletion.
    func pressed(
        _ button: String, message: ChatMessage, at now: Date, in store: any MessageReads,
        reads: @autoclosure () throws -> Reads
    ) async throws -> Reply {
        let language = try await store.player(message.sender)?.language ?? core.configuration.defaultLanguage
        var reply = Reply()
        let html: String
        switch verifiedButton(button, pressedIn: message) {
        case .confirm?:
            // Only what stops an open day being played twice is kept, and only until it has closed everywhere.
            let open = core.earliestOpenPuzzle(at: now)
            for game in try await reads().data(of: message.sender)?.games ?? [] where game.puzzle >= open {
                reply.writes.append(
                    .replayGuard(
                        key: core.replayKey(message.sender, language: game.language, puzzle: game.puzzle),
                        until: game.puzzle))
            }
            // A season's champion is named in their groups' teams, and may wear the bot's tag there: both go.
            let seasons = SeasonEnd(core: core)
            for var group in try await reads().groups(crowning: message.sender) {
                reply.messages += seasons.crown(group.team.champions.filter { $0 != message.sender }, in: &group)
                group.team.champions.removeAll { $0 == message.sender }
                reply.writes.append(.group(group))
            }
            reply.writes.append(.forget(message.sender))
            html = language.texts.forgotten
        case .cancel?:
            html = language.texts.forgetCancelled
        case nil:
            // Forged, pressed by someone else, or from an older version: the platform has answered the press.
            // Anyone can send thousands: a line a minute at most, with how many it stands for.
            if let unlogged = core.forgedPresses.admit(at: now) {
                core.logger.notice(
                    "Ignored a press of a button the bot did not send to this player",
                    metadata: [
                        "button.data": "\(button.prefix(64))", "user.id": "\(message.sender)",
                        "chat.id": "\(message.chat)", "presses.unlogged": "\(unlogged)",
                    ])
            }
            return reply
        }
        reply.messages.append(
            OutgoingMessage(chat: message.chat, chatKind: message.chatKind, html: html, thread: message.thread))
        return reply
    }

    /// Sends the player everything stored about them as a JSON document: queued here, gathered when it is sent
    /// (``gatherPlayerData(_:at:in:)``), outside this transaction.
    func export(in turn: Turn) -> Reply {
        guard !turn.isGroup else { return turn.reply(turn.texts.privateOnly) }
        var message = turn.answer(turn.texts.exportCaption)
        message.thread = nil
        message.action = .postPlayerData(of: turn.player.id)
        return Reply(message)
    }

    /// The post a ``OutgoingMessage/Action/postPlayerData(of:)`` message becomes when it is sent: its html with
    /// everything stored about the player as a JSON document, read from `store` (a read-only snapshot, in two
    /// reads of the analyses whatever the history's length); nil, nothing to send, when nothing is stored (the
    /// player forgot themselves since) or for any other message.
    func gatherPlayerData(_ message: OutgoingMessage, at now: Date, in store: any PlayerDataReads)
        async throws -> OutgoingMessage?
    {
        guard case .postPlayerData(let player) = message.action, let data = try await store.data(of: player) else {
            return nil
        }
        let games = Dictionary(data.games.map { (DailyGameKey(language: $0.language, puzzle: $0.puzzle), $0) }) {
            first, _ in first
        }
        var analyses: [StoredGame: AnalysisReport] = [:]
        for (analysed, json) in try await store.analyses(of: player) {
            if let game = games[analysed], let report = core.decoded(json, player: player) { analyses[game] = report }
        }
        var practiceAnalyses: [Int: AnalysisReport] = [:]
        for (number, json) in try await store.practiceAnalyses(of: player) {
            if let report = core.decoded(json, player: player) { practiceAnalyses[number] = report }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var gathered = message
        gathered.action = .post
        gathered.document = OutgoingMessage.Document(
            fileName: "tessera-data-\(player.fileNameSafe).json",
            contents: Array(
                try encoder.encode(
                    PlayerExport(data, analyses: analyses, practiceAnalyses: practiceAnalyses, exportedAt: now))))
        return gathered
    }
}

/// The JSON of `/export`: plain names and values, readable without knowing Tessera.
struct PlayerExport: Encodable {
    struct Settings: Encodable {
        /// The platform (`telegram`, `matrix`) and its id for the player.
        let platform: String
        let id: String
        let name: String
        let language: String
        let timeZone: String
        let rolloverHour: Int
        let pendingTimeZone: String?
        let pendingFromPuzzle: Int?
        let hardMode: Bool
    }

    struct Game: Encodable {
        let language: String
        let puzzle: Int
        let hardMode: Bool
        let guesses: [String]
        /// `3/6`, `X/6`, or nil while unfinished.
        let result: String?
        let finishedAt: Date?
        /// How the game compared with optimal play (`tessera analyse --json`'s fields), once worked out.
        let analysis: AnalysisReport?
    }

    /// A practice or archive game: counted on no board.
    struct PracticeGame: Encodable {
        /// `practice` (a random word) or `archive`.
        let kind: String
        /// The archive puzzle played; nil for practice.
        let puzzle: Int?
        let language: String
        /// The answer, once the game has ended.
        let answer: String?
        let hardMode: Bool
        let guesses: [String]
        /// `3/6`, `X/6`, or nil while unfinished.
        let result: String?
        /// Given up for a new game: lost.
        let abandoned: Bool
        let startedAt: Date
        let finishedAt: Date?
        /// As a daily game's, once worked out.
        let analysis: AnalysisReport?
    }

    struct Membership: Encodable {
        let group: String
        let joinedPuzzle: Int
    }

    struct Result: Encodable {
        let group: String
        /// `tessera` (played here) or `official` (pasted from the Wordle app).
        let board: String
        let puzzle: Int
        let guesses: Int?
        let hardMode: Bool
        let finishedAt: Date
    }

    let exportedAt: Date
    let player: Settings
    let games: [Game]
    let practiceGames: [PracticeGame]
    let groups: [Membership]
    let boardResults: [Result]

    /// `practiceAnalyses`: by practice game number.
    init(
        _ data: PlayerData, analyses: [StoredGame: AnalysisReport] = [:], practiceAnalyses: [Int: AnalysisReport] = [:],
        exportedAt: Date
    ) {
        self.exportedAt = exportedAt
        let player = data.player
        self.player = Settings(
            platform: player.id.platform.rawValue, id: player.id.value, name: player.displayName,
            language: player.language.rawValue,
            timeZone: player.timeZone, rolloverHour: player.rolloverHour, pendingTimeZone: player.pendingTimeZone,
            pendingFromPuzzle: player.pendingFrom?.rawValue, hardMode: player.prefersHardMode)
        games = data.games.map { game in
            Game(
                language: game.language.rawValue, puzzle: game.puzzle.rawValue, hardMode: game.hardMode,
                guesses: game.guesses,
                result: game.result.map {
                    TextFormat.score($0, maximumGuesses: TesseraCore.Game.defaultMaximumGuesses)
                },
                finishedAt: game.finishedAt, analysis: analyses[game])
        }
        practiceGames = data.practiceGames.map { game in
            PracticeGame(
                kind: game.archivePuzzle == nil ? "practice" : "archive", puzzle: game.archivePuzzle?.rawValue,
                language: game.language.rawValue, answer: game.result == nil ? nil : game.answer,
                hardMode: game.hardMode, guesses: game.guesses,
                result: game.result.map {
                    TextFormat.score($0, maximumGuesses: TesseraCore.Game.defaultMaximumGuesses)
                },
                abandoned: game.abandoned, startedAt: game.startedAt, finishedAt: game.finishedAt,
                analysis: practiceAnalyses[game.number])
        }
        groups = data.memberships.map { Membership(group: $0.chat.value, joinedPuzzle: $0.joinedPuzzle.rawValue) }
        boardResults = data.results.map { result in
            Result(
                group: result.chat.value, board: result.board.rawValue, puzzle: result.puzzle.rawValue,
                guesses: result.guesses, hardMode: result.hardMode, finishedAt: result.finishedAt)
        }
    }
}

extension UserID {
    /// The platform's id as a file name's part: letters, digits, `.`, `_` and `-` (`@alice:example.org` is
    /// `alice-example.org`).
    var fileNameSafe: String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return String(String(value.map { kept.contains($0) ? $0 : "-" }).drop { $0 == "-" })
    }
}
