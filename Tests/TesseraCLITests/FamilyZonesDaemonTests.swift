import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// Two relatives a long way apart, through the real daemon, the fake Bot API and the clock file (issue 39): Ana plays
/// in the group's zone and administers it; Kai lives hours to its west, so his day of each puzzle ends after the
/// group's. Over a Saturday and a Sunday, the summary names Kai while he can still play, the word comes at the
/// first day check after he finishes, and the week's post follows Sunday's word.
///
/// With `TESSERA_TRANSCRIPTS` set to a directory, each arrangement's posts and finish-to-word times are written
/// there (`zones-<group zone>.txt`).
@Suite("The word when the last member far to the west finishes, through the daemon", .serialized)
struct FamilyZonesDaemonTests {
    struct Relative: FamilyMember {
        let rawValue: Int64
        let name: String
        let appLanguage: String
    }

    struct Arrangement: Sendable, CustomTestStringConvertible {
        let groupZone: String
        let language: Language
        /// `/settings summary H`, or nil for the summary at the new puzzle.
        let summaryHour: Int?
        let westZone: String

        var testDescription: String {
            "\(groupZone) group in \(language == .english ? "English" : "Spanish")"
                + (summaryHour.map { ", summary at \($0):00" } ?? "") + ", the last member in \(westZone)"
        }
    }

    static let arrangements = [
        Arrangement(groupZone: "Asia/Tokyo", language: .english, summaryHour: nil, westZone: "Europe/Madrid"),
        Arrangement(groupZone: "America/New_York", language: .english, summaryHour: 21, westZone: "Pacific/Honolulu"),
        Arrangement(groupZone: "Europe/Madrid", language: .spanish, summaryHour: nil, westZone: "America/Los_Angeles"),
    ]

    @Test("Saturday and Sunday: the word comes once the member to the west has played", arguments: arrangements)
    func weekend(_ arrangement: Arrangement) async throws {
        let (zone, west, language) = (arrangement.groupZone, arrangement.westZone, arrangement.language)
        let code = language == .english ? "en" : "es"
        let ana = Relative(rawValue: 1, name: "Ana", appLanguage: code)
        let kai = Relative(rawValue: 2, name: "Kai", appLanguage: code)
        func local(_ time: String, in zone: String) throws -> String { try ClockFile.instant(time, in: zone) }
        let family = try await FamilyChat<Relative>(at: try local("2026-11-27 12:00", in: zone), administrator: ana)

        // Friday: Ana adds the bot and sets the group up; both join; Kai moves his own day west from Saturday.
        try await family.fake.push([FakeTelegram.added(to: -1, by: ana.rawValue, name: "Ana", languageCode: code)])
        _ = try await family.post(containing: "👋")
        var settings = ["/settings timezone \(zone)"]
        if language == .spanish { settings.append("/settings language es") }
        if let hour = arrangement.summaryHour { settings.append("/settings summary \(hour)") }
        for setting in settings { _ = try await family.reply(to: setting, from: ana, inGroup: true) }
        for member in [ana, kai] { try await family.send("/join", from: member, inGroup: true) }
        try await family.fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 2 }
        #expect(try await family.reply(to: "/timezone \(west)", from: kai).text.contains("332"))

        var waits: [String] = []
        for (date, puzzle) in [("2026-11-28", 332), ("2026-11-29", 333)] {
            try await family.at(try local("\(date) 10:00", in: zone), "\(date) 10:00 for Ana")
            try await family.play(try FamilyWeekDaemonTests.win(language, puzzle, misses: 2), as: ana, puzzle: puzzle)
            // The summary: Kai's day is still open, so it names him and keeps the word.
            let summaryTime =
                arrangement.summaryHour.map { "\(date) \($0):00" }
                ?? "\(date == "2026-11-28" ? "2026-11-29" : "2026-11-30") 00:00"
            try await family.at(try local(summaryTime, in: zone), "\(summaryTime), the group's summary")
            let summary = try await family.post(containing: "🔒").text
            #expect(summary.contains("Kai") && !summary.contains("<tg-spoiler>"), "\(summary)")
            // Kai plays in his evening: the word follows.
            try await family.at(try local("\(date) 20:00", in: west), "\(date) 20:00 for Kai")
            let finished = try await family.play(
                try FamilyWeekDaemonTests.win(language, puzzle, misses: 1), as: kai, puzzle: puzzle)
            let reveal = try await family.post(containing: "🔓")
            #expect(reveal.text.contains("\(puzzle)") && reveal.text.contains("👑 2/6: Kai"), "\(reveal.text)")
            waits.append("\(puzzle): \(String(format: "%.1f s", reveal.time - finished.timeIntervalSince1970))")
        }
        // Sunday's word ends the group's week: its post follows.
        let week = try await family.post(containing: "🏁").text
        #expect(week.contains("🥇 | Kai") && week.contains("🥈 | Ana"), "\(week)")
        // The board began on Friday: its days are counted from then.
        let days = language == .english ? "2 of the 3 days since this board began" : "2 de los 3 días desde que empezó"
        #expect(week.contains(days), "\(week)")

        family.note("Finish to word:", waits.joined(separator: "\n"))
        try family.writeTranscript(named: "zones-\(zone.replacingOccurrences(of: "/", with: "-")).txt")
        #expect(await family.stop() == 0)
    }
}
