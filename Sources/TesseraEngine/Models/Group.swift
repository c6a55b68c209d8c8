public import Foundation
public import TesseraCore

/// A group chat's board and the settings its administrators choose.
///
/// The group's day follows its own zone and rollover hour, like a player's. A day closes when its summary
/// is due (at the end of the day, or at the summary hour within it); from then on its word may be revealed in
/// the group once nobody can still play it without having played, and no result of a revealed day counts.
public struct Group: Sendable, Hashable, Codable {
    public let chat: ChatID
    /// The IANA zone of the group's day.
    public var timeZone: String
    public var rolloverHour: Int
    /// The bot's language in the group and the word list its board counts.
    public var language: Language
    /// Whether only hard-mode games count on the board.
    public var hardModeRequired: Bool
    public var summaryEnabled: Bool
    /// The local hour the summary of the closed day is posted; nil: at the rollover.
    public var summaryHour: Int?
    /// The thread (forum topic) the bot posts its own messages in; nil: the main chat.
    public var topic: MessageID?
    /// The latest puzzle whose day has closed in this group (its summary posted, or skipped).
    public var lastClosedPuzzle: PuzzleNumber
    /// A change of the group's day or language an administrator made: it takes effect from ``pendingFrom``,
    /// so that it never closes the day being played early, nor changes its language.
    public var pending: DaySettings?
    public var pendingFrom: PuzzleNumber?
    /// The latest closed puzzle whose word the group has seen, or needs no post for. Behind
    /// ``lastClosedPuzzle`` while a member's own day of that puzzle is still open.
    public var lastRevealedPuzzle: PuzzleNumber
    /// The language ``lastClosedPuzzle`` was played in here, for revealing its word after a language change.
    public var lastClosedLanguage: Language?
    /// Whether the bot has told the group why it deletes guesses posted there: it says so once.
    public var deletionExplained: Bool
    /// Whether the bot has told the group why shared practice and archive results are not counted: once.
    public var practiceSharesExplained: Bool
    /// The group as a team: its run of days together, and its nudge.
    public var team: GroupTeam

    public init(
        chat: ChatID,
        timeZone: String,
        rolloverHour: Int,
        language: Language,
        hardModeRequired: Bool = false,
        summaryEnabled: Bool = true,
        summaryHour: Int? = nil,
        topic: MessageID? = nil,
        lastClosedPuzzle: PuzzleNumber,
        lastRevealedPuzzle: PuzzleNumber? = nil,
        pending: DaySettings? = nil,
        pendingFrom: PuzzleNumber? = nil,
        lastClosedLanguage: Language? = nil,
        deletionExplained: Bool = false,
        practiceSharesExplained: Bool = false,
        team: GroupTeam = GroupTeam()
    ) {
        self.chat = chat
        self.timeZone = timeZone
        self.rolloverHour = rolloverHour
        self.language = language
        self.hardModeRequired = hardModeRequired
        self.summaryEnabled = summaryEnabled
        self.summaryHour = summaryHour
        self.topic = topic
        self.lastClosedPuzzle = lastClosedPuzzle
        self.lastRevealedPuzzle = lastRevealedPuzzle ?? lastClosedPuzzle
        self.pending = pending
        self.pendingFrom = pendingFrom
        self.lastClosedLanguage = lastClosedLanguage
        self.deletionExplained = deletionExplained
        self.practiceSharesExplained = practiceSharesExplained
        self.team = team
    }

    /// What makes up the group's day: its zone, rollover hour and language.
    public struct DaySettings: Sendable, Hashable, Codable {
        public var timeZone: String
        public var rolloverHour: Int
        public var language: Language

        public init(timeZone: String, rolloverHour: Int, language: Language) {
            self.timeZone = timeZone
            self.rolloverHour = rolloverHour
            self.language = language
        }
    }

    public var daySettings: DaySettings {
        get { DaySettings(timeZone: timeZone, rolloverHour: rolloverHour, language: language) }
        set {
            timeZone = newValue.timeZone
            rolloverHour = newValue.rolloverHour
            language = newValue.language
        }
    }

    /// Day settings as they will be from the next puzzle: the pending ones, or the current.
    public var nextDaySettings: DaySettings { pending ?? daySettings }

    /// Schedules new day settings for the group's next puzzle; settings equal to the current ones cancel
    /// what was pending.
    public mutating func schedule(_ settings: DaySettings, at instant: Date, schedule: DailySchedule) {
        if settings == daySettings {
            pending = nil
            pendingFrom = nil
        } else {
            pending = settings
            pendingFrom = PuzzleNumber(puzzle(at: instant, schedule: schedule).rawValue + 1)
        }
    }

    /// Makes settings current at once, dropping what was pending.
    public mutating func applyNow(_ settings: DaySettings) {
        daySettings = settings
        pending = nil
        pendingFrom = nil
    }

    /// Makes pending settings current once the day before they take effect has closed.
    public mutating func applyPending(closed puzzle: PuzzleNumber) {
        guard let pending, let pendingFrom, puzzle.rawValue + 1 >= pendingFrom.rawValue else { return }
        daySettings = pending
        self.pending = nil
        self.pendingFrom = nil
    }

    var rollover: DayRollover { DayRollover.stored(timeZone, rolloverHour) }

    /// The puzzle of the group's day at an instant. It never goes back to a closed day after a change of zone,
    /// except to the one a summary on its own date closed: that day goes on until its end.
    public func puzzle(at instant: Date, schedule: DailySchedule) -> PuzzleNumber {
        max(
            schedule.puzzle(at: instant, rollover: rollover), summarySameDate ? lastClosedPuzzle : lastClosedPuzzle.next
        )
    }

    /// Whether a day's summary comes on the day's own date: the summary hour comes after the rollover hour
    /// ("summary at 21" with the new puzzle at midnight is that evening's). Otherwise it comes at the end of
    /// the day: at the next rollover, or at an earlier hour of the next date when the rollover is later.
    public var summarySameDate: Bool { (summaryHour ?? rolloverHour) > rolloverHour }

    /// The hour of the group's day the summary is posted, as a rollover: the summary hour, or the rollover's.
    private var summaryRollover: DayRollover { DayRollover.stored(timeZone, summaryHour ?? rolloverHour) }

    /// When the summary of a puzzle's day is due: at the summary hour within that day, at its end by default.
    public func summaryTime(of puzzle: PuzzleNumber, schedule: DailySchedule) -> Date {
        let day = schedule.day(of: puzzle)
        return schedule.start(of: summarySameDate ? day : day.adding(days: 1), rollover: summaryRollover)
    }

    /// The latest puzzle whose summary is due by now (``summaryTime(of:schedule:)``).
    public func puzzleToClose(at instant: Date, schedule: DailySchedule) -> PuzzleNumber {
        let latest = schedule.puzzle(at: instant, rollover: summaryRollover)
        return summarySameDate ? latest : PuzzleNumber(latest.rawValue - 1)
    }

    /// The original Wordle's puzzle of the group's date: it changes at local midnight.
    public func officialPuzzle(at instant: Date) -> PuzzleNumber {
        DailySchedule.wordle.puzzle(at: instant, rollover: DayRollover.stored(timeZone, 0))
    }

    /// Whether a result for `puzzle` may count on the board now: the group has not been shown its word, and
    /// it is open somewhere (a member at UTC+14 is up to two days ahead of a group at UTC−12).
    ///
    /// A member's game counts on their own day, however far west of the group they are: the word waits for
    /// every member's day, so one who finishes after the group's day closed still counts. Once the word is
    /// shown, nobody's result of that puzzle counts here any more (a member who joins later may have seen it).
    public func accepts(_ puzzle: PuzzleNumber, at instant: Date, schedule: DailySchedule) -> Bool {
        puzzle > lastRevealedPuzzle && puzzle <= schedule.latestPuzzle(at: instant)
    }

    /// The language a puzzle is played in here: a closed day keeps the language it was played in, whatever
    /// the group switched to when it closed.
    public func language(of puzzle: PuzzleNumber) -> Language {
        puzzle <= lastClosedPuzzle ? lastClosedLanguage ?? language : language
    }

    /// Whether a result of `puzzle` in `language` counts here: in any language, each member playing their own,
    /// unless an administrator keeps the group to one (``GroupTeam/languageOnly``). Then only in the language
    /// the day is played in, and on the first day of a new language in the one before it too, so a member who
    /// played as every day, before reading the announcement, keeps their streak.
    public func counts(_ language: Language, for puzzle: PuzzleNumber) -> Bool {
        !team.languageOnly || language == self.language(of: puzzle)
            || (puzzle == lastClosedPuzzle.next && language == lastClosedLanguage)
    }

    /// The language of the puzzle a member plays for this group's board: their own, unless the group keeps to
    /// its language.
    public func puzzleLanguage(of player: Player) -> Language {
        team.languageOnly ? language : player.puzzleLanguage
    }
}

/// A group's next daily summary, as its settings show it: the day it sums up, and when it is posted, in the
/// group's zone (on that day's date at a summary hour after the rollover, on the next otherwise).
public struct NextSummary: Sendable, Hashable {
    public let day: CivilDate
    public let postedOn: CivilDate
    /// `21:00`.
    public let clock: String
}
