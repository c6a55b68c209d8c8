public import Foundation
public import TesseraCore

/// A member's own day: their zone and rollover hour, and a zone they asked for that is not yet theirs.
public struct MemberDay: Sendable, Hashable {
    public let timeZone: String
    public let rolloverHour: Int
    /// A zone the member is moving to, used from ``pendingFrom`` on: nobody replays or skips a day by moving.
    public let pendingTimeZone: String?
    public let pendingFrom: PuzzleNumber?

    public init(timeZone: String, rolloverHour: Int, pendingTimeZone: String? = nil, pendingFrom: PuzzleNumber? = nil) {
        self.timeZone = timeZone
        self.rolloverHour = rolloverHour
        (self.pendingTimeZone, self.pendingFrom) =
            pendingTimeZone.flatMap { zone in pendingFrom.map { (zone, $0) } }
            ?? (nil, nil)
    }

    /// The puzzle the member is on at an instant: a zone change waits until the old zone's day is over; from
    /// then on the new zone counts, but never with a number lower than the one the change took effect on, so
    /// puzzle numbers only go up. The one answer for the player (``Player/puzzle(at:schedule:)``) and for a
    /// group asking about its members.
    public func puzzle(at instant: Date, schedule: DailySchedule) -> PuzzleNumber {
        let current = schedule.puzzle(at: instant, rollover: DayRollover.stored(timeZone, rolloverHour))
        guard let pendingTimeZone, let pendingFrom, current >= pendingFrom else { return current }
        let next = schedule.puzzle(at: instant, rollover: DayRollover.stored(pendingTimeZone, rolloverHour))
        return max(next, pendingFrom)
    }

    /// Whether a puzzle is still open on this day: the member is not past it yet.
    func isOpen(_ puzzle: PuzzleNumber, at now: Date, schedule: DailySchedule) -> Bool {
        self.puzzle(at: now, schedule: schedule) <= puzzle
    }

    /// When a puzzle's day ends on this day, the first instant ``puzzle(at:schedule:)`` is past it: on the old
    /// zone before the puzzle a change takes effect on, on the new zone (once the old one reached it) from it on.
    public func end(of puzzle: PuzzleNumber, schedule: DailySchedule) -> Date {
        let next = PuzzleNumber(puzzle.rawValue + 1)
        func start(of puzzle: PuzzleNumber, in zone: String) -> Date {
            schedule.start(of: schedule.day(of: puzzle), rollover: DayRollover.stored(zone, rolloverHour))
        }
        guard let pendingTimeZone, let pendingFrom, next > pendingFrom else { return start(of: next, in: timeZone) }
        return max(start(of: pendingFrom, in: timeZone), start(of: next, in: pendingTimeZone))
    }
}

extension DayRollover {
    /// The rollover of a stored zone name and hour; a zone name one that no longer resolves (an old database, a removed zone) falls back to UTC
    /// rather than failing every message of the player.
    static func stored(_ identifier: String, _ hour: Int) -> DayRollover {
        DayRollover(timeZone: TimeZone(identifier: identifier) ?? .gmt, hour: hour) ?? .utc
    }
}
