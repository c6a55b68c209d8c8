/// A calendar day with no time zone: `2026-11-22`.
///
/// Years run from 1 to 9999 (``years``): every date is one a four-digit year writes, so arithmetic on days can
/// never overflow, whatever a message, a paste or a database row holds. Days counted past either end stop at it.
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The years a date may have.
    public static let years = 1...9999
    /// The first and the last date there are.
    public static let earliest = CivilDate(checkedYear: 1, month: 1, day: 1)
    public static let latest = CivilDate(checkedYear: 9999, month: 12, day: 31)

    /// Creates a valid Gregorian date, or returns `nil` (`2026-02-30` is not one, nor is a year past ``years``).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.years.contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day)
        else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceUnixEpoch: Int {
        // Howard Hinnant's days_from_civil: exact for every Gregorian date.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private init(checkedYear year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Reads `{"year", "month", "day"}` and checks it as ``init(year:month:day:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (year, month, day) = (
            try container.decode(Int.self, forKey: .year), try container.decode(Int.self, forKey: .month),
            try container.decode(Int.self, forKey: .day)
        )
        guard let date = CivilDate(year: year, month: month, day: day) else {
            throw DecodingError.dataCorruptedError(
                forKey: .day, in: container, debugDescription: "\(year)-\(month)-\(day) is not a date of years 1–9999")
        }
        self = date
    }

    private enum CodingKeys: String, CodingKey { case year, month, day }

    /// The date a number of days after 1970-01-01; a number past either end of ``years`` gives that end.
    public init(daysSinceUnixEpoch days: Int) {
        let bounds = Self.earliest.daysSinceUnixEpoch...Self.latest.daysSinceUnixEpoch
        let z = min(max(days, bounds.lowerBound), bounds.upperBound) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        self.day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        self.month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The day of the week: 0 for Sunday to 6 for Saturday (1970-01-01 was a Thursday).
    public var weekday: Int { ((daysSinceUnixEpoch + 4) % 7 + 7) % 7 }

    /// The date a number of days later (or earlier, when negative), stopping at either end of ``years``.
    public func adding(days: Int) -> CivilDate {
        let (sum, overflow) = daysSinceUnixEpoch.addingReportingOverflow(days)
        return CivilDate(daysSinceUnixEpoch: overflow ? (days < 0 ? .min : .max) : sum)
    }

    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
