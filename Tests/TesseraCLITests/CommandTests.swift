import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

@Suite("The tessera command")
struct CommandTests {
    @Test("score prints one row of squares")
    func score() async throws {
        let dark = try await TesseraProcess.run(["score", "speed", "abide"])
        #expect(dark.status == 0)
        #expect(dark.standardOutput == "⬛⬛🟨⬛🟨\n")
        let light = try await TesseraProcess.run(["score", "EERIE", "theme", "--theme", "light"])
        #expect(light.standardOutput == "🟨⬜⬜⬜🟩\n")
        let spanish = try await TesseraProcess.run(["score", "árbol", "arbol", "--language", "es"])
        #expect(spanish.standardOutput == "🟩🟩🟩🟩🟩\n")
    }

    @Test(
        "Bad input gets one line on standard error and a non-zero exit",
        arguments: [
            (["score", "sped", "abide"], "Error: The guess 'sped': Not enough letters (English, 5 letters)."),
            (["score", "speed", "xqzvj"], "Error: The answer 'xqzvj': Not in word list (English, 5 letters)."),
            (["score", "sp3ed", "abide"], "Error: The guess 'sp3ed': \"3\" is not a letter (English, 5 letters)."),
            (
                ["today", "--time-zone", "Mars/Olympus"],
                "Error: Unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Madrid."
            ),
            (["today", "--rollover-hour", "25"], "Error: --rollover-hour must be between 0 and 23, not 25."),
            (
                ["play", "--date", "2026-02-30"],
                "Error: --date takes a day as YYYY-MM-DD, such as 2026-11-22, not '2026-02-30'."
            ),
            (
                ["play", "--date", "2025-12-31"],
                "Error: Tessera began on 2026-01-01; there is no puzzle for 2025-12-31."
            ),
        ]
    )
    func badInput(arguments: [String], message: String) async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let output = try await TesseraProcess.run(
            arguments + (arguments[0] == "play" ? ["--state", directory.appendingPathComponent("p.json").path] : []))
        #expect(output.status != 0)
        #expect(output.standardError == message + "\n")
        #expect(output.standardOutput.isEmpty)
    }

    @Test("render writes each picture as a PNG and says where; a bad word or count is refused in one line")
    func render() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let runs: [(name: String, arguments: [String])] = [
            ("card.png", ["render", "card", "slate", "crane", "stale", "slate", "--puzzle", "326", "--hard"]),
            (
                "chart.png",
                ["render", "chart", "--wins", "0,1,6,12,8,3", "--lost", "2", "--last", "4", "--language", "es"]
            ),
            ("day.png", ["render", "day", "slate", "--board", "crane stale slate", "--board", "audio lines slate"]),
        ]
        for (name, arguments) in runs {
            let path = directory.appendingPathComponent(name).path
            let output = try await TesseraProcess.run(arguments + ["-o", path, "--theme", "light"])
            #expect(output.status == 0, "\(output.standardError)")
            let png = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(
                png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && output.standardOutput == "\(path): \(png.count) bytes\n")
        }
        let refused = try await TesseraProcess.run(
            ["render", "card", "slate", "crane", "zzzzz", "-o", directory.appendingPathComponent("x.png").path])
        #expect(refused.status != 0)
        #expect(refused.standardError == "Error: The guess 'zzzzz': Not in word list (English, 5 letters).\n")
        let counts = try await TesseraProcess.run(
            ["render", "chart", "--wins", "1,2", "-o", directory.appendingPathComponent("y.png").path])
        #expect(counts.standardError == "Error: --wins takes 6 counts and --lost a count of 0 or more.\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
    }

    @Test("today prints the puzzle number, its date and the zone it was worked out for")
    func today() async throws {
        let line = { (instant: Date) in
            let schedule = DailySchedule.tessera
            return "Puzzle \(schedule.puzzle(at: instant, rollover: .utc)) · "
                + "\(schedule.day(at: instant, rollover: .utc)) · UTC, new puzzle at 06:00\n"
        }
        let before = Date()
        let output = try await TesseraProcess.run(["today", "--time-zone", "UTC", "--rollover-hour", "6"])
        let after = Date()
        #expect(output.status == 0)
        let expected = [before, after].map { line($0.addingTimeInterval(-6 * 3600)) }
        #expect(expected.contains(output.standardOutput), "\(output.standardOutput)")
    }

    @Test("A future day cannot be played, so no one sees tomorrow's word early")
    func futureDay() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let tomorrow = DailySchedule.tessera.day(at: Date(), rollover: .utc).adding(days: 2)
        let output = try await TesseraProcess.run(
            [
                "play", "--date", tomorrow.description, "--time-zone", "UTC", "--state",
                directory.appendingPathComponent("p.json").path,
            ]
        )
        #expect(output.status != 0)
        #expect(output.standardError.contains("is not out yet"))
    }
}
