import Foundation
import Testing

/// The time a daemon reads instead of the system clock (`TESSERA_CLOCK_FILE`), for moving its day forward.
struct ClockFile {
    let url: URL

    /// A clock file in `directory`.
    init(in directory: URL) { url = directory.appendingPathComponent("now") }

    /// The environment that makes a daemon read it.
    var environment: [String: String] { ["TESSERA_CLOCK_FILE": url.path] }

    /// Sets the daemon's time to an ISO 8601 instant (`2026-11-22T12:00:00Z`) and returns it.
    @discardableResult
    func set(_ utc: String) throws -> Date {
        let date = try #require(ISO8601DateFormatter().date(from: utc))
        try String(date.timeIntervalSince1970).write(to: url, atomically: true, encoding: .utf8)
        return date
    }

    /// The ISO 8601 instant of a wall-clock time in a zone: `2026-11-28 20:00` in `Europe/Madrid` is
    /// `2026-11-28T19:00:00Z`.
    static func instant(_ local: String, in zone: String) throws -> String {
        let reading = DateFormatter()
        reading.locale = Locale(identifier: "en_US_POSIX")
        reading.dateFormat = "yyyy-MM-dd HH:mm"
        reading.timeZone = try #require(TimeZone(identifier: zone))
        let date = try #require(reading.date(from: local), "\(local) is not yyyy-MM-dd HH:mm")
        return ISO8601DateFormatter().string(from: date)
    }
}
