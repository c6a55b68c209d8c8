import Foundation
public import TesseraCore

// The rows every store keeps, column by column: each value's encoding and its checks written once, above the
// dialects. A store reads and writes these with its own SQL; the property names, in snake case, are the columns'.

/// A column whose value a row cannot have: the row a store read back is damaged there.
public struct DamagedColumn: Error, Sendable {
    public let column: String

    public init(_ column: String) { self.column = column }
}

/// A language code read back.
private func decodedLanguage(_ code: String, column: String) throws -> Language {
    guard let language = Language(rawValue: code) else { throw DamagedColumn(column) }
    return language
}

/// A platform's name read back.
private func decodedPlatform(_ name: String) throws -> Platform {
    guard let platform = Platform(rawValue: name) else { throw DamagedColumn("platform") }
    return platform
}

/// A row of `player`.
public struct PlayerColumns: Sendable, Hashable, Codable {
    public var platform, account, displayName, language, timeZone: String
    public var rolloverHour: Int
    public var pendingTimeZone: String?
    public var pendingFrom: Int?
    public var prefersHardMode, reminders: Bool
    public var remindedPuzzle: Int?
    public var directChat, playingLanguage: String?
    public var practiceInPlay: Bool
    public var followsGroup: String?
    public var namedInNudges, messageEffects, pictures: Bool

    public init(
        platform: String, account: String, displayName: String, language: String, timeZone: String,
        rolloverHour: Int, pendingTimeZone: String?, pendingFrom: Int?, prefersHardMode: Bool, reminders: Bool,
        remindedPuzzle: Int?, directChat: String?, playingLanguage: String?, practiceInPlay: Bool,
        followsGroup: String?, namedInNudges: Bool, messageEffects: Bool, pictures: Bool
    ) {
        (self.platform, self.account, self.displayName, self.language) = (platform, account, displayName, language)
        (self.timeZone, self.rolloverHour, self.pendingTimeZone) = (timeZone, rolloverHour, pendingTimeZone)
        (self.pendingFrom, self.prefersHardMode, self.reminders) = (pendingFrom, prefersHardMode, reminders)
        (self.remindedPuzzle, self.directChat, self.playingLanguage) = (remindedPuzzle, directChat, playingLanguage)
        (self.practiceInPlay, self.followsGroup) = (practiceInPlay, followsGroup)
        (self.namedInNudges, self.messageEffects, self.pictures) = (namedInNudges, messageEffects, pictures)
    }

    public init(_ player: Player) {
        self.init(
            platform: player.id.platform.rawValue, account: player.id.value, displayName: player.displayName,
            language: player.language.rawValue, timeZone: player.timeZone, rolloverHour: player.rolloverHour,
            pendingTimeZone: player.pendingTimeZone, pendingFrom: player.pendingFrom?.rawValue,
            prefersHardMode: player.prefersHardMode, reminders: player.reminders,
            remindedPuzzle: player.remindedPuzzle?.rawValue, directChat: player.directChat?.value,
            playingLanguage: player.playingLanguage?.rawValue, practiceInPlay: player.practiceInPlay,
            followsGroup: player.followsGroup?.value, namedInNudges: player.namedInNudges,
            messageEffects: player.messageEffects, pictures: player.pictures)
    }

    /// The player back; throws ``DamagedColumn``.
    public func player() throws -> Player {
        let id = UserID(try decodedPlatform(platform), account)
        return Player(
            id: id, displayName: displayName, language: try decodedLanguage(language, column: "language"),
            playingLanguage: try playingLanguage.map { try decodedLanguage($0, column: "playing_language") },
            timeZone: timeZone, rolloverHour: rolloverHour, pendingTimeZone: pendingTimeZone,
            pendingFrom: pendingFrom.map(PuzzleNumber.init), prefersHardMode: prefersHardMode, reminders: reminders,
            remindedPuzzle: remindedPuzzle.map(PuzzleNumber.init), namedInNudges: namedInNudges,
            messageEffects: messageEffects, pictures: pictures, directChat: directChat.map { ChatID(id.platform, $0) },
            practiceInPlay: practiceInPlay, followsGroup: followsGroup.map { ChatID(id.platform, $0) })
    }
}

/// A row of `game`, with its player's platform and account.
public struct GameColumns: Sendable, Hashable, Codable {
    public var platform, account, language: String
    public var puzzle: Int
    public var hardMode: Bool
    /// The guesses, lowercase, separated by spaces.
    public var guesses: String
    public var wonIn: Int?
    public var lost: Bool
    public var finishedAt: Double?

    public init(
        platform: String, account: String, language: String, puzzle: Int, hardMode: Bool, guesses: String,
        wonIn: Int?, lost: Bool, finishedAt: Double?
    ) {
        (self.platform, self.account, self.language, self.puzzle) = (platform, account, language, puzzle)
        (self.hardMode, self.guesses, self.wonIn) = (hardMode, guesses, wonIn)
        (self.lost, self.finishedAt) = (lost, finishedAt)
    }

    public init(_ game: StoredGame) {
        self.init(
            platform: game.player.platform.rawValue, account: game.player.value, language: game.language.rawValue,
            puzzle: game.puzzle.rawValue, hardMode: game.hardMode, guesses: game.guesses.joined(separator: " "),
            wonIn: game.result?.guesses, lost: game.result == .lost,
            finishedAt: game.finishedAt?.timeIntervalSince1970)
    }

    /// The game back; throws ``DamagedColumn``.
    public func game() throws -> StoredGame {
        StoredGame(
            player: UserID(try decodedPlatform(platform), account),
            language: try decodedLanguage(language, column: "language"), puzzle: PuzzleNumber(puzzle),
            hardMode: hardMode, guesses: guesses.split(separator: " ").map(String.init),
            result: wonIn.map { .won(guesses: $0) } ?? (lost ? .lost : nil),
            finishedAt: finishedAt.map(Date.init(timeIntervalSince1970:)))
    }
}

/// A row of `chat_group`, with its chat's platform and address.
public struct GroupColumns: Sendable, Hashable, Codable {
    public var platform, address, timeZone: String
    public var rolloverHour: Int
    public var language: String
    public var hardModeRequired, summaryEnabled: Bool
    public var summaryHour: Int?
    public var topic: String?
    public var lastClosedPuzzle, lastRevealedPuzzle: Int
    public var pendingTimeZone: String?
    public var pendingRolloverHour: Int?
    public var pendingLanguage: String?
    public var pendingFrom: Int?
    public var lastClosedLanguage: String?
    public var deletionExplained, practiceSharesExplained: Bool
    /// ``GroupTeam`` as JSON.
    public var team: String

    public init(
        platform: String, address: String, timeZone: String, rolloverHour: Int, language: String,
        hardModeRequired: Bool, summaryEnabled: Bool, summaryHour: Int?, topic: String?, lastClosedPuzzle: Int,
        lastRevealedPuzzle: Int, pendingTimeZone: String?, pendingRolloverHour: Int?, pendingLanguage: String?,
        pendingFrom: Int?, lastClosedLanguage: String?, deletionExplained: Bool, practiceSharesExplained: Bool,
        team: String
    ) {
        (self.platform, self.address, self.timeZone, self.rolloverHour) = (platform, address, timeZone, rolloverHour)
        (self.language, self.hardModeRequired, self.summaryEnabled) = (language, hardModeRequired, summaryEnabled)
        (self.summaryHour, self.topic, self.lastClosedPuzzle) = (summaryHour, topic, lastClosedPuzzle)
        (self.lastRevealedPuzzle, self.pendingTimeZone) = (lastRevealedPuzzle, pendingTimeZone)
        (self.pendingRolloverHour, self.pendingLanguage) = (pendingRolloverHour, pendingLanguage)
        (self.pendingFrom, self.lastClosedLanguage) = (pendingFrom, lastClosedLanguage)
        (self.deletionExplained, self.practiceSharesExplained) = (deletionExplained, practiceSharesExplained)
        self.team = team
    }

    public init(_ group: Group) {
        self.init(
            platform: group.chat.platform.rawValue, address: group.chat.value, timeZone: group.timeZone,
            rolloverHour: group.rolloverHour, language: group.language.rawValue,
            hardModeRequired: group.hardModeRequired, summaryEnabled: group.summaryEnabled,
            summaryHour: group.summaryHour, topic: group.topic?.value,
            lastClosedPuzzle: group.lastClosedPuzzle.rawValue,
            lastRevealedPuzzle: group.lastRevealedPuzzle.rawValue, pendingTimeZone: group.pending?.timeZone,
            pendingRolloverHour: group.pending?.rolloverHour, pendingLanguage: group.pending?.language.rawValue,
            pendingFrom: group.pendingFrom?.rawValue, lastClosedLanguage: group.lastClosedLanguage?.rawValue,
            deletionExplained: group.deletionExplained, practiceSharesExplained: group.practiceSharesExplained,
            team: group.team.json)
    }

    /// The group back; throws ``DamagedColumn``. A pending change is its zone, hour and language together.
    public func group() throws -> Group {
        var pending: Group.DaySettings?
        if let pendingTimeZone {
            guard let pendingRolloverHour, let pendingLanguage, let code = Language(rawValue: pendingLanguage) else {
                throw DamagedColumn("pending_language")
            }
            pending = Group.DaySettings(timeZone: pendingTimeZone, rolloverHour: pendingRolloverHour, language: code)
        }
        guard let team = GroupTeam(json: team) else { throw DamagedColumn("team") }
        return Group(
            chat: ChatID(try decodedPlatform(platform), address), timeZone: timeZone,
            rolloverHour: rolloverHour, language: try decodedLanguage(language, column: "language"),
            hardModeRequired: hardModeRequired, summaryEnabled: summaryEnabled, summaryHour: summaryHour,
            topic: topic.map(MessageID.init), lastClosedPuzzle: PuzzleNumber(lastClosedPuzzle),
            lastRevealedPuzzle: PuzzleNumber(lastRevealedPuzzle), pending: pending,
            pendingFrom: pendingFrom.map(PuzzleNumber.init),
            lastClosedLanguage: lastClosedLanguage.flatMap(Language.init(rawValue:)),
            deletionExplained: deletionExplained, practiceSharesExplained: practiceSharesExplained, team: team)
    }
}

/// A row of `practice_game`, without its player's key.
public struct PracticeGameColumns: Sendable, Hashable, Codable {
    public var number: Int
    public var archivePuzzle: Int?
    public var language, answer: String
    public var hardMode: Bool
    /// The guesses, lowercase, separated by spaces.
    public var guesses: String
    public var wonIn: Int?
    public var lost, abandoned: Bool
    public var startedAt: Double
    public var finishedAt: Double?
    public var hasFocus: Bool

    public init(_ game: PracticeGame) {
        (number, archivePuzzle, language) = (game.number, game.archivePuzzle?.rawValue, game.language.rawValue)
        (answer, hardMode, guesses) = (game.answer, game.hardMode, game.guesses.joined(separator: " "))
        (wonIn, lost, abandoned) = (game.result?.guesses, game.result == .lost, game.abandoned)
        (startedAt, finishedAt) = (game.startedAt.timeIntervalSince1970, game.finishedAt?.timeIntervalSince1970)
        hasFocus = game.hasFocus
    }

    /// The game back, a game of `player`; throws ``DamagedColumn``.
    public func game(of player: UserID) throws -> PracticeGame {
        PracticeGame(
            player: player, number: number, kind: archivePuzzle.map { .archive(PuzzleNumber($0)) } ?? .practice,
            language: try decodedLanguage(language, column: "language"), answer: answer, hardMode: hardMode,
            guesses: guesses.split(separator: " ").map(String.init),
            result: wonIn.map { .won(guesses: $0) } ?? (lost ? .lost : nil),
            startedAt: Date(timeIntervalSince1970: startedAt),
            finishedAt: finishedAt.map(Date.init(timeIntervalSince1970:)), abandoned: abandoned, hasFocus: hasFocus)
    }
}

/// A row of `board_result` with its chat's platform id (`platform`, `address`), without its player's key.
public struct ResultColumns: Sendable, Hashable, Codable {
    public var platform, address, board: String
    public var puzzle: Int
    public var language: String
    public var guesses: Int?
    public var hardMode: Bool
    public var finishedAt: Double
    public var streakBefore: Int

    public init(_ result: BoardResult) {
        (platform, address, board) = (result.chat.platform.rawValue, result.chat.value, result.board.rawValue)
        (puzzle, language, guesses) = (result.puzzle.rawValue, result.language.rawValue, result.guesses)
        (hardMode, finishedAt) = (result.hardMode, result.finishedAt.timeIntervalSince1970)
        streakBefore = result.streakBefore
    }

    /// The result back, a result of `player`'s; throws ``DamagedColumn``.
    public func result(of player: UserID) throws -> BoardResult {
        guard let board = BoardKind(rawValue: board) else { throw DamagedColumn("board") }
        return BoardResult(
            chat: ChatID(try decodedPlatform(platform), address), board: board, puzzle: PuzzleNumber(puzzle),
            player: player, language: try decodedLanguage(language, column: "language"), guesses: guesses,
            hardMode: hardMode, finishedAt: Date(timeIntervalSince1970: finishedAt), streakBefore: streakBefore)
    }
}

/// A row of `board_total`'s counts, without its key (its chat, board, period and player).
public struct TotalsColumns: Sendable, Hashable, Codable {
    public var points, played, wins, winningGuesses, streak: Int
    /// NOT NULL: totals a result makes are counted through a puzzle.
    public var lastPuzzle: Int

    /// Totals a result of `puzzle` made: through that puzzle when they name none.
    public init(_ totals: BoardTotals, through puzzle: PuzzleNumber) {
        (points, played, wins) = (totals.points, totals.played, totals.wins)
        (winningGuesses, streak) = (totals.winningGuesses, totals.streak)
        lastPuzzle = (totals.lastPuzzle ?? puzzle).rawValue
    }

    /// The totals back, each count within bounds (``BoardTotals/init(points:played:wins:winningGuesses:streak:lastPuzzle:)``).
    public var totals: BoardTotals {
        BoardTotals(
            points: points, played: played, wins: wins, winningGuesses: winningGuesses, streak: streak,
            lastPuzzle: PuzzleNumber(lastPuzzle))
    }
}
