import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// Two of the fourth red team's findings through the daemon and the fake Bot API: a member who only pastes
/// Connections is on no Tessera board and never "missed", and names with direction marks or right-to-left letters
/// cannot turn a line of the group's summary around.
@Suite("A group's day with a paste-only member and names that reorder lines, through the daemon", .serialized)
struct HostileGroupDaemonTests {
    enum Member: Int64, CaseIterable, FamilyMember {
        case ann = 1
        case eve, miriam, pat

        var name: String {
            switch self {
            case .ann: "Ann"
            case .eve: "\u{202E}Eve\u{202C}"
            case .miriam: "مريم"
            case .pat: "Pat"
            }
        }
        var appLanguage: String { "en" }
    }

    @Test("The summary names the paste-only member once, on her puzzle's line; no line is reordered")
    func pasteOnlyAndNames() async throws {
        // Sunday 22 November, puzzle 326, in a group on UTC.
        let family = try await FamilyChat<Member>(at: "2026-11-22T10:00:00Z", administrator: .ann)
        for member in [Member.ann, .eve, .miriam] { try await family.send("/join", from: member, inGroup: true) }
        for (member, misses) in [(Member.ann, 1), (.eve, 2), (.miriam, 3)] {
            let words =
                try FamilyGroupDaemonTests.wrong(misses, .english, 326)
                + [FamilyGroupDaemonTests.answer(.english, 326)]
            try await family.play(words, as: member, puzzle: 326)
        }
        let connections = DailySchedule.connections.puzzle(on: try #require(CivilDate("2026-11-22")))
        try await family.send(
            "Connections\nPuzzle #\(connections.grouped)\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", from: .pat, inGroup: true)
        try await family.fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 4 }
        let board = try await family.reply(to: "/leaderboard", from: .pat, inGroup: true).text
        #expect(!board.contains("Pat"), "Pat pasted Connections only: \(board)")
        try await family.at("2026-11-23T00:00:30Z", "Sunday ends")
        let summary = try await family.post(containing: "Everyone here is done with puzzle 326.").text
        #expect(summary.contains("🟪 Connections: Pat 0 mistakes"), "\(summary)")
        #expect(!summary.contains("Missed") && summary.components(separatedBy: "Pat").count == 2, "\(summary)")
        #expect(
            !summary.unicodeScalars.contains { [0x202E, 0x202C].contains($0.value) }, "\(summary.debugDescription)")
        #expect(summary.contains("Eve") && summary.contains("\u{2068}مريم\u{2069}"), "\(summary.debugDescription)")
        #expect(await family.stop() == 0)
    }

    /// One of forty members level on points, M1 to M40.
    struct Level: FamilyMember {
        let rawValue: Int64
        var name: String { "M\(rawValue)" }
        var appLanguage: String { "en" }
    }

    @Test("Forty members level on the week's podium: twenty rows and '… and 20 more', as every list of names")
    func cappedWeekPodium() async throws {
        // Saturday 21 and Sunday 22 November, the week's last days (a week is posted once played on two).
        let members = (1...40 as ClosedRange<Int64>).map(Level.init)
        let family = try await FamilyChat<Level>(at: "2026-11-21T10:00:00Z", administrator: members[0])
        for member in members { try await family.send("/join", from: member, inGroup: true) }
        for (puzzle, day) in [(325, "2026-11-22"), (326, "2026-11-23")] {
            for member in members {
                let words =
                    try FamilyGroupDaemonTests.wrong(1, .english, puzzle)
                    + [FamilyGroupDaemonTests.answer(.english, puzzle)]
                try await family.play(words, as: member, puzzle: puzzle)
            }
            try await family.at("\(day)T00:00:30Z", "puzzle \(puzzle)'s day ends")
            _ = try await family.post(containing: "Everyone here is done with puzzle \(puzzle).")
        }
        let week = try await family.post(containing: "🏁").text
        let lines = week.components(separatedBy: "\n")
        #expect(lines.count(where: { $0.hasPrefix("🥇 | M") }) == 20, "\(week)")
        #expect(lines.contains { $0.contains("… and 20 more") }, "\(week)")
        #expect(await family.stop() == 0)
    }
}
