// The optimal solver on the original game's lists (issue 26): `tessera solve` from SALET in normal and hard mode,
// and `tessera analyse` of a game whose first guess the opening book has and of one whose first guess it has not,
// beside the baseline of the batch scorer's full matrix (every allowed guess against every answer) in the same
// run. Prints figures; nothing passes or fails on time.
//
//   tessera-solver-benchmark PATH_TO_TESSERA ORIGINAL_LISTS_FOLDER
import Foundation
import TesseraCore

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: tessera-solver-benchmark PATH_TO_TESSERA ORIGINAL_LISTS_FOLDER\n".utf8))
    exit(2)
}
let tessera = arguments[1]
let folder = arguments[2]
let lists = ["--answers", folder + "/answers.txt", "--guesses", folder + "/guesses.txt"]

func words(_ file: String) throws -> [Word] {
    try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").compactMap { line in
        Word(codes: line.compactMap { Alphabet.english.code(of: $0) })
    }
}

/// Runs tessera and returns its wall time in seconds and its standard output.
func run(_ extra: [String]) throws -> (seconds: Double, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tessera)
    process.arguments = extra
    let pipe = Pipe()
    process.standardOutput = pipe
    let started = ContinuousClock.now
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let seconds = (ContinuousClock.now - started) / .seconds(1)
    guard process.terminationStatus == 0 else {
        FileHandle.standardError.write(Data("tessera \(extra.joined(separator: " ")) failed\n".utf8))
        exit(1)
    }
    return (seconds, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

func format(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

let answers = try words("answers.txt")
let guesses = answers + (try words("guesses.txt"))
print(
    "Solver on the original lists: \(answers.count) answers, \(guesses.count) allowed guesses, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")

// Baseline: the batch scorer's full matrix, the work the solver's tables start from.
var best = Double.infinity
for _ in 0..<5 {
    let scorer = BatchScorer(answers: answers)
    var codes: [UInt16] = []
    var checksum = 0
    let started = ContinuousClock.now
    for guess in guesses {
        scorer.scores(for: guess, into: &codes)
        checksum &+= Int(codes[0])
    }
    best = min(best, (ContinuousClock.now - started) / .seconds(1))
    if checksum == -1 { print(checksum) }
}
print(
    "  baseline: batch scorer, full matrix (\(guesses.count) × \(answers.count)): \(String(format: "%.1f ms", best * 1000)), best of 5"
)

for mode in [[], ["--hard"]] {
    let (seconds, output) = try run(["solve", "--first", "salet", "--json"] + lists + mode)
    print("  tessera solve --first salet \(mode.first ?? "(normal)"): \(format(seconds)) wall; \(output)")
}
for (label, game) in [
    ("seen first guess (SALET, in the opening book)", ["cigar", "salet", "chard", "cigar"]),
    ("unseen first guess (PLUMB, not in the book)", ["cigar", "plumb", "crate", "cigar"]),
] {
    for mode in [[], ["--hard"]] {
        let (seconds, _) = try run(["analyse", "--json"] + lists + mode + game)
        print("  tessera analyse, \(label) \(mode.first ?? "(normal)"): \(format(seconds))")
    }
}
