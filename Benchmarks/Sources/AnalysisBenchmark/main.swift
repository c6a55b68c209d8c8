import Foundation
import TesseraCore
import TesseraTestSupport

// Issue 37's benchmark: 40 games with a studied opener (SALET, in the opening book; 20 daily, 20 practice)
// finish while 5 practice games whose openers leave the most answers (the largest all-grey parts) wait to be
// analysed, queued first. Every player asks for their analysis. Then, on a daemon of its own, issue 38's: 5 daily
// games whose openers are familiar words the book has not studied finish at once. Printed for each tessera given,
// in the same run: how many analyses came within the limit, their p50/p95/max time from the finishing guess to
// the analysis posted, and the daemon's peak resident memory (VmHWM).
// Usage: tessera-analysis-benchmark PATH_TO_TESSERA [PATH_TO_TESSERA …] (each built with swift build -c release)

let executables = Array(CommandLine.arguments.dropFirst())
guard !executables.isEmpty else {
    print("usage: tessera-analysis-benchmark PATH_TO_TESSERA [PATH_TO_TESSERA …]")
    exit(2)
}
let secret = "benchmark secret 61d0e9a4c7f3b825"
/// How long the 40 analyses are waited for.
let limit: TimeInterval = 300

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

let list = Language.english.wordList
let answer = list.display(
    AnswerSchedule(wordList: list, secret: ScheduleSecret(secret)!)
        .answer(for: DailySchedule.tessera.puzzle(at: Date(), rollover: .utc))
).lowercased()

// The worst openers: the allowed guesses sharing no letter with the most answers.
let answerLetters = list.answers.map { Set(list.display($0).lowercased()) }
// One word for each set of letters: XXIII and XXXII are one opener to the solver.
var openerLetters: Set<Set<Character>> = []
let worst = list.allowedGuesses.map { guess -> (String, Int) in
    let word = list.display(guess).lowercased()
    return (word, answerLetters.count { $0.isDisjoint(with: Set(word)) })
}.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.filter { openerLetters.insert(Set($0.0)).inserted }.prefix(5)
print("The 5 practice openers, each with the answers that share no letter with it:")
print("  " + worst.map { "\($0.0.uppercased()) \($0.1)" }.joined(separator: ", "))
// Five more guesses for each practice game: allowed words, so each game ends (lost, or won by chance).
let filler = ["crony", "dumps", "light", "bevel", "whelk"]
precondition(filler.allSatisfy { word in (try? list.word(from: word).get()).map(list.allowedGuesses.contains) == true })

/// Familiar words the opening book has not studied for today's edition in normal mode: five different letters
/// each, spread through the alphabet's order (every 97th), so the sample changes only with the lists.
let puzzle = DailySchedule.tessera.puzzle(at: Date(), rollover: .utc)
let edition = list.answerEditionIndex(for: puzzle)
let book = OpeningBook.lookup(fingerprint: GameAnalyst().fingerprint(of: list, edition: edition), hardMode: false)
let familiarOpeners: [String] = list.familiarGuesses.map { list.display($0).lowercased() }.filter { word in
    Set(word).count == 5 && word != answer && book?.totals[word] == nil
}.sorted()
let unstudied: [String] = familiarOpeners.indices.filter { $0 % 97 == 0 }.prefix(5).map { familiarOpeners[$0] }
print("The 5 unstudied familiar openers: " + unstudied.map { $0.uppercased() }.joined(separator: ", "))

/// A daemon on a fake Telegram Bot API, for one phase of the run.
struct Daemon {
    let fake: FakeTelegram
    let process: Process
    let database: String
    var messageID: Int64 = 1

    static func start(_ executable: String) async throws -> Daemon {
        let fake = try await FakeTelegram.start()
        let database = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tessera-analysis-bench-\(UUID().uuidString).sqlite"
        ).path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: executable)
        daemon.arguments = ["run"]
        daemon.environment = ProcessInfo.processInfo.environment.merging([
            "TESSERA_TELEGRAM_TOKEN": fake.token, "TESSERA_TELEGRAM_API_URL": fake.apiURL,
            "TESSERA_DATABASE": database, "TESSERA_SECRET": secret, "TESSERA_LOG_LEVEL": "error",
            "TESSERA_TELEGRAM_RATE_LIMITS": "off",
        ]) { _, new in new }
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        return Daemon(fake: fake, process: daemon, database: database)
    }

    mutating func say(_ text: String, from player: Int64) async throws {
        try await fake.push([FakeTelegram.message(text, from: player, messageID: messageID)])
        messageID += 1
    }

    /// When each of `players` was sent a post containing its title, waited for until `limit` has passed.
    func analysed(_ players: Set<Int64>, title: (Int64) -> String) async throws -> [Int64: Double] {
        var analysed: [Int64: Double] = [:]
        let deadline = Date() + limit
        while analysed.count < players.count && Date() < deadline {
            for message in try await fake.sent() where players.contains(message.chat) {
                if message.text.contains(title(message.chat)), analysed[message.chat] == nil {
                    analysed[message.chat] = message.time
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return analysed
    }

    /// The peak resident memory, then the daemon and its database are gone.
    func stop() async -> String {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map {
            $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "  ", with: "")
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        await fake.stop()
        for suffix in ["", "-wal", "-shm", ".lock"] { unlink(database + suffix) }
        return peak ?? "unknown"
    }
}

/// The times from each game's finishing guess to its analysis, printed; a game not analysed within the limit
/// counts as never (a percentile past the analysed ones is "> limit").
func report(_ label: String, finished: [Int64: Double], analysed: [Int64: Double]) {
    let waits = finished.map { player, at in analysed[player].map { $0 - at } ?? .infinity }
    func seconds(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2f s", value) : "> \(Int(limit)) s"
    }
    print("  \(label) analysed within \(Int(limit)) s: \(analysed.count) of \(finished.count)")
    print(
        "  time to analysis: p50 \(seconds(percentile(waits, 0.5))), p95 \(seconds(percentile(waits, 0.95))), "
            + "max \(seconds(waits.max() ?? .nan))")
}

/// One tessera's run: its figures printed.
func measure(_ executable: String, openers: [String], filler: [String], answer: String) async throws {
    print("\n=== \(executable)")
    var daemon = try await Daemon.start(executable)
    // The practice games first: queued before any studied game finishes.
    for (index, opener) in openers.enumerated() {
        let player = Int64(500_000 + index)
        try await daemon.say("/practice", from: player)
        for guess in [opener] + filler.prefix(5) { try await daemon.say(guess, from: player) }
        try await daemon.say("/analysis", from: player)
    }
    // Each practice game has ended (its board says the word) before the studied games begin.
    let practising = Set(openers.indices.map { Int64(500_000 + $0) })
    _ = try await daemon.fake.waitForSent(timeout: .seconds(60)) { sent in
        Set(sent.filter { $0.text.contains("The word was") || $0.text.contains("· 6/6") }.map(\.chat))
            .isSuperset(of: practising)
    }
    // The studied games finish behind them, each asked for: 20 daily games (SALET, then the word) and 20
    // practice games (SALET, then the same five words as above).
    var finished: [Int64: Double] = [:]
    for index in 0..<40 {
        let player = Int64(600_000 + index)
        if index % 2 == 0 {
            for guess in answer == "salet" ? [answer] : ["salet", answer] { try await daemon.say(guess, from: player) }
        } else {
            try await daemon.say("/practice", from: player)
            for guess in ["salet"] + filler.prefix(5) { try await daemon.say(guess, from: player) }
        }
        finished[player] = Date().timeIntervalSince1970
        try await daemon.say("/analysis", from: player)
    }
    let analysed = try await daemon.analysed(Set(finished.keys)) { chat in
        chat % 2 == 0 ? "🔍 Analysis · Tessera" : "🔍 Analysis · Practice"
    }
    report("studied games (SALET), while 5 searches wait,", finished: finished, analysed: analysed)
    print("  peak memory: \(await daemon.stop())")

    // Unstudied familiar openers, on a daemon of their own: five daily games finished at once.
    daemon = try await Daemon.start(executable)
    var unstudiedFinished: [Int64: Double] = [:]
    for (index, opener) in unstudied.enumerated() {
        let player = Int64(700_000 + index)
        for guess in [opener, answer] { try await daemon.say(guess, from: player) }
        unstudiedFinished[player] = Date().timeIntervalSince1970
        try await daemon.say("/analysis", from: player)
    }
    let unstudiedAnalysed = try await daemon.analysed(Set(unstudiedFinished.keys)) { _ in "🔍 Analysis · Tessera" }
    report("unstudied familiar openers, 5 finished at once,", finished: unstudiedFinished, analysed: unstudiedAnalysed)
    print("  peak memory: \(await daemon.stop())")
}

for executable in executables {
    try await measure(executable, openers: worst.map(\.0), filler: filler, answer: answer)
}
