public import Foundation

/// A puzzle's number: whole days since the schedule's first day, which is puzzle 1.
///
/// Numbers stay within ``range``, the days ``CivilDate`` holds and then some: a number read from a message, a
/// button or a database row past it stands at its end, so a puzzle a few days on or back never overflows.
public struct PuzzleNumber: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int

    /// The numbers a puzzle may have: ten million days either side of the first, more than years 1–9999 span.
    public static let range = -10_000_000...10_000_000

    public init(_ rawValue: Int) { self.rawValue = min(max(rawValue, Self.range.lowerBound), Self.range.upperBound) }

    /// Read as it is written, `{"rawValue": 312}`, and kept within ``range``.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .rawValue))
    }

    private enum CodingKeys: String, CodingKey { case rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }

    /// The puzzle after this one.
    public var next: PuzzleNumber { PuzzleNumber(rawValue + 1) }

    /// The number with thousands separators, as share texts show it: `1,234`.
    public var grouped: String {
        let digits = String(rawValue.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return rawValue < 0 ? "-" + grouped : grouped
    }
}

/// Where a player's day begins: a time zone and the local hour the new puzzle arrives.
public struct DayRollover: Sendable, Hashable {
    public let timeZone: TimeZone
    /// The local hour (0–23) at which the day's puzzle changes.
    public let hour: Int

    public init?(timeZone: TimeZone, hour: Int = 0) {
        guard (0..<24).contains(hour) else { return nil }
        self.timeZone = timeZone
        self.hour = hour
    }

    /// Midnight UTC.
    public static let utc = DayRollover(uncheckedTimeZone: .gmt, hour: 0)
    /// Midnight at UTC+14 (Kiritimati), where every day begins first: no day anywhere is later than its.
    public static let earliest = DayRollover(uncheckedTimeZone: TimeZone(secondsFromGMT: 14 * 3600)!, hour: 0)

    private init(uncheckedTimeZone timeZone: TimeZone, hour: Int) {
        self.timeZone = timeZone
        self.hour = hour
    }
}

/// Which puzzle a player is on: the puzzle changes at their own rollover, so two players in different
/// zones may be on different numbers at the same instant, but each number means the same day everywhere.
public struct DailySchedule: Sendable, Hashable {
    /// The day of puzzle 1.
    public let firstDay: CivilDate

    /// Tessera's schedule: puzzle 1 was on 2026-01-01.
    public static let tessera = DailySchedule(firstDay: CivilDate(year: 2026, month: 1, day: 1)!)

    /// The original Wordle's numbering, for results pasted from its app: Wordle 0 was on 2021-06-19, and
    /// its puzzle changes at each player's local midnight.
    public static let wordle = DailySchedule(firstDay: CivilDate(year: 2021, month: 6, day: 20)!)

    /// Connections' numbering: puzzle 1 was on 2023-06-12 (#743 on 2025-06-23).
    public static let connections = DailySchedule(firstDay: CivilDate(year: 2023, month: 6, day: 12)!)

    /// Strands' numbering: puzzle 1 was on 2024-03-04 (#10 on 2024-03-13).
    public static let strands = DailySchedule(firstDay: CivilDate(year: 2024, month: 3, day: 4)!)

    public init(firstDay: CivilDate) {
        self.firstDay = firstDay
    }

    /// The puzzle day at an instant for a player: their local date, or the day before when their local
    /// time is still before the rollover hour. Local wall-clock time makes it right across daylight-saving
    /// changes, when a day has 23 or 25 hours.
    public func day(at instant: Date, rollover: DayRollover) -> CivilDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = rollover.timeZone
        let local = calendar.dateComponents([.year, .month, .day, .hour], from: instant)
        // Gregorian components of a valid instant are always present and form a valid date.
        guard let year = local.year, let month = local.month, let day = local.day, let hour = local.hour else {
            preconditionFailure("the Gregorian calendar gave incomplete components for \(instant)")
        }
        // An instant past the years a date has (a clock file's nonsense) is that end's day, never a trap.
        guard let date = CivilDate(year: year, month: month, day: day) else {
            return year < CivilDate.years.lowerBound ? .earliest : .latest
        }
        return hour < rollover.hour ? date.adding(days: -1) : date
    }

    /// The instant a day begins for a player: its rollover hour, local time (the first instant after it when
    /// a daylight-saving change skips that hour).
    public func start(of day: CivilDate, rollover: DayRollover) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = rollover.timeZone
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: rollover.hour)
        guard let start = calendar.date(from: components) else {
            preconditionFailure("the Gregorian calendar has no instant for \(day) at \(rollover.hour):00")
        }
        return start
    }

    /// The puzzle a player is on at an instant.
    public func puzzle(at instant: Date, rollover: DayRollover) -> PuzzleNumber {
        puzzle(on: day(at: instant, rollover: rollover))
    }

    /// The latest puzzle open anywhere at an instant: the one of UTC+14, whatever a zone or rollover hour.
    public func latestPuzzle(at instant: Date) -> PuzzleNumber {
        puzzle(at: instant, rollover: .earliest)
    }

    /// The puzzle of a day; zero or negative before the first day.
    public func puzzle(on day: CivilDate) -> PuzzleNumber {
        PuzzleNumber(day.daysSinceUnixEpoch - firstDay.daysSinceUnixEpoch + 1)
    }

    /// The day of a puzzle.
    public func day(of puzzle: PuzzleNumber) -> CivilDate {
        firstDay.adding(days: puzzle.rawValue - 1)
    }
}
