import Foundation
public import TesseraCore

/// What makes a group a team rather than a list of players: its run of days together, its daily nudge, and its
/// seasons.
///
/// Stored as one value beside the group's settings (a JSON column): a field added later reads as its default
/// from rows written before it, with no migration.
public struct GroupTeam: Sendable, Hashable, Codable {
    /// The days in a row the group has played together, up to the latest day it was judged on; nil before
    /// its first played day and after a day nobody played.
    public var streak: GroupStreak?
    /// Whether the group gets the nudge before its day ends (`/settings nudge on`); off unless asked for.
    public var nudge: Bool
    /// How long before a member's day ends the nudge may name them: a setting's line says it.
    static let nudgeLead: TimeInterval = 3 * 3600
    /// The latest puzzle the group was nudged about: never twice a day.
    public var lastNudged: PuzzleNumber?
    /// How long its seasons last (`/settings season`): a calendar month unless the group chose otherwise.
    public var season: SeasonLength
    /// The members who won the last season and wear the champion's tag for this one: untagged when it ends.
    public var champions: [UserID]
    /// Whether only games in the group's language count on its board (`/settings language es only`); by
    /// default every member plays in their own language and every result counts.
    public var languageOnly: Bool
    /// The members the latest nudges named, and the puzzles they were named for: nobody is named more than
    /// ``Nudges/timesAWeek`` times in seven days. Only the last seven days are kept.
    public var nudged: [NudgedMember]
    /// Whether the day's summary comes with the day card, a picture of every member's colours
    /// (`/settings pictures on`): off unless an administrator asks for it.
    public var pictures: Bool

    public init(
        streak: GroupStreak? = nil, nudge: Bool = false, lastNudged: PuzzleNumber? = nil,
        season: SeasonLength = .month, champions: [UserID] = [], languageOnly: Bool = false,
        nudged: [NudgedMember] = [], pictures: Bool = false
    ) {
        self.streak = streak
        self.nudge = nudge
        self.lastNudged = lastNudged
        self.season = season
        self.champions = champions
        self.languageOnly = languageOnly
        self.nudged = nudged
        self.pictures = pictures
    }

    private enum CodingKeys: String, CodingKey {
        case streak, nudge, lastNudged, season, champions, languageOnly, nudged, pictures
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        streak = try container.decodeIfPresent(GroupStreak.self, forKey: .streak)
        nudge = try container.decodeIfPresent(Bool.self, forKey: .nudge) ?? false
        lastNudged = try container.decodeIfPresent(PuzzleNumber.self, forKey: .lastNudged)
        season = try container.decodeIfPresent(SeasonLength.self, forKey: .season) ?? .month
        champions = try container.decodeIfPresent([UserID].self, forKey: .champions) ?? []
        languageOnly = try container.decodeIfPresent(Bool.self, forKey: .languageOnly) ?? false
        nudged = try container.decodeIfPresent([NudgedMember].self, forKey: .nudged) ?? []
        pictures = try container.decodeIfPresent(Bool.self, forKey: .pictures) ?? false
    }

    /// The stored form: compact JSON with its keys in order, so that an unchanged team writes the same text.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A struct of numbers and flags always encodes.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What the stored form of a team naming `player` contains: their account as JSON writes it, for a store to
    /// find such teams in their column before decoding them (``GroupStorage/groups(crowning:)``).
    public static func searchKey(for player: UserID) -> String {
        // A string always encodes.
        (try? JSONEncoder().encode(player.value)).map { String(decoding: $0, as: UTF8.self) } ?? player.value
    }

    /// A team read back from its stored form; a column that is not a team's JSON is a damaged row, which the
    /// store reports by its table and column.
    public init?(json: String) {
        guard let team = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = team
    }
}

/// A member a nudge named, and for which puzzle (theirs, in their own day).
public struct NudgedMember: Sendable, Hashable, Codable {
    public var player: UserID
    public var puzzle: PuzzleNumber

    public init(player: UserID, puzzle: PuzzleNumber) {
        self.player = player
        self.puzzle = puzzle
    }
}

/// The group streak: days in a row on which everyone who played the day before played again.
///
/// A day with at least one result goes on from the day before when it was played together (``DayAttendance``:
/// every member who played the day before played it too); the first day of a run is day 1. A member who misses
/// a day ends the run that day, once: from then on they are not waited for until they play again, so a member
/// who stopped playing, or left the group, never holds the group back. A day nobody played ends the run with no
/// post (there is no summary).
public struct GroupStreak: Sendable, Hashable, Codable {
    public var days: Int
    /// The latest day of the run.
    public var through: PuzzleNumber
    /// The days of the run that ``through`` ended, when it ended one: a day's post says so.
    public var ended: Int?

    public init(days: Int, through: PuzzleNumber, ended: Int? = nil) {
        self.days = days
        self.through = through
        self.ended = ended
    }

    /// The run after a judged day (``DayAttendance``): one day longer when the day was played together and
    /// goes on from the day before, a new run of one day when it does not, none when nobody played.
    static func after(_ streak: GroupStreak?, day: DayAttendance) -> GroupStreak? {
        guard day.anyonePlayed else { return nil }
        guard let streak, streak.through.next == day.puzzle else { return GroupStreak(days: 1, through: day.puzzle) }
        if day.together { return GroupStreak(days: streak.days + 1, through: day.puzzle) }
        return GroupStreak(days: 1, through: day.puzzle, ended: streak.days)
    }
}
