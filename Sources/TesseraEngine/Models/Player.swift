public import Foundation
public import TesseraCore

/// A person who plays, with their preferences.
public struct Player: Sendable, Hashable, Codable {
    public let id: UserID
    public var displayName: String
    /// The language the bot speaks to the player in, and of the daily puzzle they play unless they chose another.
    public var language: Language
    /// The daily puzzle the direct chat plays when the player chose one in another language than their own
    /// (`/play en`, a group's play button): each language's puzzle has its own board, statistics and streak.
    public var playingLanguage: Language?
    /// The IANA zone of the player's day.
    public var timeZone: String
    public var rolloverHour: Int
    /// A requested zone, used from `pendingFrom` on so nobody replays or skips a day by switching zones.
    public var pendingTimeZone: String?
    public var pendingFrom: PuzzleNumber?
    /// Whether new games start in hard mode.
    public var prefersHardMode: Bool
    /// Whether the player asked for a reminder (`/remind on`) before a day ends unplayed with a streak going.
    public var reminders: Bool
    /// The latest puzzle a reminder was considered for: at most one a day.
    public var remindedPuzzle: PuzzleNumber?
    /// Whether a group's nudge may name the player among those still to play; `/remind off` says no.
    public var namedInNudges: Bool
    /// Whether a win in the direct chat comes with the platform's celebration, where it has one
    /// (`/settings effects off` says no).
    public var messageEffects: Bool
    /// Whether the direct chat gets pictures (a finished game's result card, the statistics chart), where the
    /// platform has them: on unless `/settings pictures off`.
    public var pictures: Bool
    /// The player's direct chat with the bot, once they have written there: where reminders go, and what
    /// `/forgetme` deletes with them. Never derived from the player's id.
    public var directChat: ChatID?
    /// Whether the player's latest practice game may take a word typed in the direct chat: it is unfinished, or
    /// it was touched after the daily puzzle. Kept on the player, which every message reads, so that a daily
    /// guess of a player with no such game reads nothing more; when true, the game itself decides.
    public var practiceInPlay: Bool
    /// The group whose day the player follows because they never chose their own with `/timezone`: the group
    /// where the bot first met them. A change of that group's day carries them along.
    public var followsGroup: ChatID?

    public init(
        id: UserID,
        displayName: String,
        language: Language,
        playingLanguage: Language? = nil,
        timeZone: String,
        rolloverHour: Int,
        pendingTimeZone: String? = nil,
        pendingFrom: PuzzleNumber? = nil,
        prefersHardMode: Bool = false,
        reminders: Bool = false,
        remindedPuzzle: PuzzleNumber? = nil,
        namedInNudges: Bool = true,
        messageEffects: Bool = true,
        pictures: Bool = true,
        directChat: ChatID? = nil,
        practiceInPlay: Bool = false,
        followsGroup: ChatID? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.language = language
        self.playingLanguage = playingLanguage
        self.timeZone = timeZone
        self.rolloverHour = rolloverHour
        self.pendingTimeZone = pendingTimeZone
        self.pendingFrom = pendingFrom
        self.prefersHardMode = prefersHardMode
        self.reminders = reminders
        self.remindedPuzzle = remindedPuzzle
        self.namedInNudges = namedInNudges
        self.messageEffects = messageEffects
        self.pictures = pictures
        self.directChat = directChat
        self.practiceInPlay = practiceInPlay
        self.followsGroup = followsGroup
    }

    /// The language of the daily puzzle the player's words go to in the direct chat.
    public var puzzleLanguage: Language { playingLanguage ?? language }

    /// Plays `language`'s daily puzzle in the direct chat from now on.
    public mutating func play(_ language: Language) {
        playingLanguage = language == self.language ? nil : language
    }

    /// The player's day: their zone and rollover hour, and a zone change still pending.
    public var day: MemberDay {
        MemberDay(
            timeZone: timeZone, rolloverHour: rolloverHour, pendingTimeZone: pendingTimeZone, pendingFrom: pendingFrom)
    }

    /// The puzzle the player is on at an instant (``MemberDay/puzzle(at:schedule:)``).
    public func puzzle(at instant: Date, schedule: DailySchedule) -> PuzzleNumber {
        day.puzzle(at: instant, schedule: schedule)
    }

    /// When the player's next puzzle arrives, after an instant: the end of their current day.
    public func nextPuzzleStart(after instant: Date, schedule: DailySchedule) -> Date {
        max(day.end(of: puzzle(at: instant, schedule: schedule), schedule: schedule), instant)
    }

    /// Makes a pending zone the player's zone once both the old and the new zone have reached the puzzle it
    /// takes effect on: from then on the new zone alone gives the same numbers.
    public mutating func settleTimeZone(at instant: Date, schedule: DailySchedule) {
        guard let pendingTimeZone, let pendingFrom else { return }
        let old = schedule.puzzle(at: instant, rollover: DayRollover.stored(timeZone, rolloverHour))
        let next = schedule.puzzle(at: instant, rollover: DayRollover.stored(pendingTimeZone, rolloverHour))
        if old >= pendingFrom && next >= pendingFrom {
            timeZone = pendingTimeZone
            self.pendingTimeZone = nil
            self.pendingFrom = nil
        }
    }

}

/// One player's game of one puzzle in one language, as stored.
public struct StoredGame: Sendable, Hashable, Codable {
    public let player: UserID
    public let language: Language
    public let puzzle: PuzzleNumber
    public var hardMode: Bool
    /// Accepted guesses, lowercase, in order.
    public var guesses: [String]
    /// Set when the game ends.
    public var result: GameResult?
    public var finishedAt: Date?

    public init(
        player: UserID,
        language: Language,
        puzzle: PuzzleNumber,
        hardMode: Bool,
        guesses: [String] = [],
        result: GameResult? = nil,
        finishedAt: Date? = nil
    ) {
        self.player = player
        self.language = language
        self.puzzle = puzzle
        self.hardMode = hardMode
        self.guesses = guesses
        self.result = result
        self.finishedAt = finishedAt
    }
}
