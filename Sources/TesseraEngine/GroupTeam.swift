public import Foundation
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
    /// The latest puzzle the group was nudged about: never twice a day.
    public var lastNudged: PuzzleNumber?
    /// How long its seasons last (`/settings season`): a calendar month unless the group chose otherwise.
    public var season: SeasonLength
    /// The members who won the last season and wear the champion's tag for this one: untagged when it ends.
    public var champions: [UserID]

    public init(
        streak: GroupStreak? = nil, nudge: Bool = false, lastNudged: PuzzleNumber? = nil,
        season: SeasonLength = .month, champions: [UserID] = []
    ) {
        self.streak = streak
        self.nudge = nudge
        self.lastNudged = lastNudged
        self.season = season
        self.champions = champions
    }

    private enum CodingKeys: String, CodingKey { case streak, nudge, lastNudged, season, champions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        streak = try container.decodeIfPresent(GroupStreak.self, forKey: .streak)
        nudge = try container.decodeIfPresent(Bool.self, forKey: .nudge) ?? false
        lastNudged = try container.decodeIfPresent(PuzzleNumber.self, forKey: .lastNudged)
        season = try container.decodeIfPresent(SeasonLength.self, forKey: .season) ?? .month
        champions = try container.decodeIfPresent([UserID].self, forKey: .champions) ?? []
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

/// The group streak: days in a row on which everyone who played the day before played again.
///
/// A day with at least one result goes on from the day before when every member who played that day (on
/// Tessera's board, or by pasting the original Wordle of its date) has played it too, in any language; the
/// first day of a run is day 1. A member who misses a day ends the run that day, once: from then on they are
/// not waited for until they play again, so a member who stopped playing, or left the group, never holds the
/// group back. A day nobody played ends the run with no post (there is no summary).
public struct GroupStreak: Sendable, Hashable, Codable {
    public var days: Int
    /// The latest day of the run.
    public var through: PuzzleNumber

    public init(days: Int, through: PuzzleNumber) {
        self.days = days
        self.through = through
    }

    /// The run after a judged day: one day longer when it goes on from the day before, a new run of one day
    /// when it does not, none when nobody played.
    static func after(_ streak: GroupStreak?, day: PuzzleNumber, anyonePlayed: Bool, everyoneCameBack: Bool)
        -> GroupStreak?
    {
        guard anyonePlayed else { return nil }
        if let streak, streak.through.next == day, everyoneCameBack {
            return GroupStreak(days: streak.days + 1, through: day)
        }
        return GroupStreak(days: 1, through: day)
    }
}

/// What a day's post says of the group streak: a run of two days or more going on, or one of two or more that
/// the day ended (said once, on the day it ended).
enum GroupStreakNews: Hashable {
    case going(days: Int)
    case ended(days: Int)

    init?(before: GroupStreak?, after: GroupStreak?, day: PuzzleNumber) {
        if let after, after.days >= 2 {
            self = .going(days: after.days)
        } else if let before, before.days >= 2, before.through.next == day {
            self = .ended(days: before.days)
        } else {
            return nil
        }
    }
}

/// Judges the group streak (``GroupStreak``) on a day whose word is out, from the members' results of it and of
/// the day before.
struct GroupStreaks {
    let schedule: DailySchedule

    /// The group streak after a day whose word is out, judged from the members' results of it and of the day
    /// before (``GroupStreak``). `official` is who pasted the original game's result of the day's date, when
    /// already read. Reads the day before's pastes and other languages' games only for members who missed the
    /// day on the board: none, on a day everyone played.
    func after(
        _ puzzle: PuzzleNumber, _ members: [DayMember], official: Set<UserID>?, in group: Group,
        store: any GameStoreTransaction
    ) async throws -> GroupStreak? {
        let pasted: Set<UserID>
        if let official {
            pasted = official
        } else {
            pasted = Set(
                try await store.results(
                    in: group.chat, board: .official, puzzle: schedule.officialPuzzle(sameDayAs: puzzle)
                )
                .map(\.result.player))
        }
        let dayBefore = PuzzleNumber(puzzle.rawValue - 1)
        var missing = members.filter { $0.result == nil && !pasted.contains($0.player) && $0.joinedPuzzle <= dayBefore }
        let anyonePlayed = members.contains { $0.result != nil } || !pasted.isEmpty
        if !missing.isEmpty {
            let pastedBefore = Set(
                try await store.results(
                    in: group.chat, board: .official, puzzle: schedule.officialPuzzle(sameDayAs: dayBefore)
                )
                .map(\.result.player))
            missing.removeAll { $0.lastPuzzle != dayBefore && !pastedBefore.contains($0.player) }
        }
        for other in Language.allCases where !missing.isEmpty && other != group.language(of: puzzle) {
            let elsewhere = try await store.members(in: group.chat, playing: other, puzzle: puzzle)
            missing.removeAll { elsewhere.contains($0.player) }
        }
        return GroupStreak.after(
            group.team.streak, day: puzzle, anyonePlayed: anyonePlayed, everyoneCameBack: missing.isEmpty)
    }
}
