import Foundation
import TesseraCore
import TesseraHTTP
import TesseraTestSupport

// The real `tessera run` against the fake Bot API on loopback: guesses per second with durable commits,
// latency from an update becoming available to its reply being sent, and resident memory. The baseline,
// measured in the same run, is the fake API's own round trip for one sendMessage.
// Usage: tessera-daemon-benchmark PATH_TO_TESSERA

guard CommandLine.arguments.count == 2 else {
    print("usage: tessera-daemon-benchmark PATH_TO_TESSERA (built with swift build -c release)")
    exit(2)
}
let executable = CommandLine.arguments[1]
let secret = "benchmark secret 61d0e9a4c7f3b825"

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

let list = Language.english.wordList
let answer = AnswerSchedule(wordList: list, secret: ScheduleSecret(secret)!)
    .answer(for: DailySchedule.tessera.puzzle(at: Date(), rollover: .utc))
let words = list.answers.filter { $0 != answer }.prefix(5).map { list.display($0).lowercased() }

let fake = try await FakeTelegram.start()

// Baseline: the fake API's round trip for a bare sendMessage, from this process.
let client = TesseraHTTPBaseline(apiURL: fake.apiURL, token: fake.token)
var roundTrips: [Double] = []
for index in 0..<1000 { roundTrips.append(try await client.sendMessage(chat: 1, text: "baseline \(index)")) }
print("Baseline: the fake Bot API's sendMessage round trip (1,000 sequential requests)")
print("  p50 \(milliseconds(percentile(roundTrips, 0.5)))   p99 \(milliseconds(percentile(roundTrips, 0.99)))")

let database = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tessera-bench-\(UUID().uuidString).sqlite"
).path
// Baseline: what one durable commit costs on this disk at least: an 8 KiB write and fdatasync, as SQLite does
// for each commit with synchronous = FULL, next to where the database lives.
let syncProbe = open(database + "-sync-baseline", O_CREAT | O_RDWR | O_TRUNC, 0o600)
var syncs: [Double] = []
let page = [UInt8](repeating: 7, count: 8192)
for index in 0..<500 {
    _ = page.withUnsafeBytes { pwrite(syncProbe, $0.baseAddress, 8192, off_t(index % 64) * 8192) }
    let before = Date()
    fdatasync(syncProbe)
    syncs.append(Date().timeIntervalSince(before))
    try await Task.sleep(for: .milliseconds(2))
}
close(syncProbe)
unlink(database + "-sync-baseline")
print("Baseline: the disk's fdatasync of an 8 KiB write (500, one every 2 ms)")
print(
    "  p50 \(milliseconds(percentile(syncs, 0.5)))   p99 \(milliseconds(percentile(syncs, 0.99)))   max \(milliseconds(syncs.max() ?? .nan))"
)

/// The CPU time a process has used so far, in seconds: user and system (`/proc/PID/stat`, in clock ticks).
func cpuSeconds(of process: Int32) -> (user: Double, system: Double) {
    guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
        let name = stat.lastIndex(of: ")")
    else { return (.nan, .nan) }
    // After the name in parentheses, the state is field 3; utime is field 14, stime 15.
    let fields = stat[stat.index(after: name)...].split(separator: " ")
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return (.nan, .nan) }
    return (user / ticks, system / ticks)
}

/// Drops a file's pages from the page cache, so that every daemon starts with its binary read from disk. A
/// binary just built or copied sits in the cache in large folios, which a page fault maps whole: the same
/// binary then shows about 3.5 MB more resident memory than once it has been read back, which would pass for a
/// difference between two builds.
func evictFromPageCache(_ path: String) {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return }
    defer { close(file) }
    // Dirty pages stay; written back first, they can go.
    _ = fdatasync(file)
    _ = posix_fadvise(file, 0, 0, POSIX_FADV_DONTNEED)
}

/// What one run's figures are compared by, beside another run's (pictures on and off).
struct Figures {
    var guessesPerSecond = 0.0
    var gamesPerSecond = 0.0
    var microsecondsAGame = 0.0
    /// The resident memory once every phase has run and the analyses' tables are freed, in kB.
    var residentKilobytes = 0
}

/// Runs `tessera run` on one store, with a fake Bot API of its own, and prints its figures. With `scrape`, a
/// Prometheus stand-in reads that URL (the daemon's `/metrics`) every second throughout.
@discardableResult
func measure(
    _ store: String, location: String, environment extra: [String: String] = [:], syncP99: Double,
    scrape: String? = nil
) async throws -> Figures {
    var figures = Figures()
    let pictures = extra["TESSERA_PICTURES"] != "off"
    let fake = try await FakeTelegram.start()
    print("\n=== The daemon on \(store)")
    let daemon = Process()
    daemon.executableURL = URL(fileURLWithPath: executable)
    daemon.arguments = ["run"]
    daemon.environment = ProcessInfo.processInfo.environment.merging(
        [
            "TESSERA_TELEGRAM_TOKEN": fake.token, "TESSERA_TELEGRAM_API_URL": fake.apiURL, "TESSERA_DATABASE": location,
            "TESSERA_SECRET": secret, "TESSERA_LOG_LEVEL": "error", "TESSERA_TELEGRAM_RATE_LIMITS": "off",
        ].merging(extra) { _, new in new }
    ) { _, new in new }
    evictFromPageCache(executable)
    try daemon.run()
    let scraper = scrape.map { url in
        Task {
            let client = CurlHTTPClient()
            var (scrapes, failures, bytes) = (0, 0, 0)
            while !Task.isCancelled {
                do {
                    let response = try await client.send(HTTPRequest(url: url, timeout: .seconds(5)))
                    if response.status == 200 {
                        (scrapes, bytes) = (scrapes + 1, response.body.count)
                    } else {
                        failures += 1
                    }
                } catch {
                    failures += 1
                }
                try? await Task.sleep(for: .seconds(1))
            }
            return (scrapes, failures, bytes)
        }
    }

    /// Waits until the daemon has answered `count` updates in all: a message sent, or a live board edited.
    func waitForReplies(_ count: Int) async throws {
        let deadline = Date() + 300
        while try await fake.stats().filter({ ["sendMessage", "editMessageText"].contains($0.key) }).values.reduce(0, +)
            < count
        {
            if Date() > deadline { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
    var sentSoFar = 0
    var nextMessage: Int64 = 1

    // Warm-up, not measured: the daemon's first replies also pay for opening the database and loading the word
    // list. The cold start is printed on its own.
    let warmUp = 20
    while try await fake.stats()["getUpdates"] ?? 0 == 0 { try await Task.sleep(for: .milliseconds(5)) }
    let coldStart = Date()
    try await fake.push([FakeTelegram.message(words[0], from: 9_000, messageID: nextMessage)])
    nextMessage += 1
    try await waitForReplies(sentSoFar + 1)
    print(
        "\nCold start: first update → its reply, with the daemon just started: \(milliseconds(Date().timeIntervalSince(coldStart)))"
    )
    for player in 1..<warmUp {
        try await fake.push([FakeTelegram.message(words[0], from: Int64(9_000 + player), messageID: nextMessage)])
        nextMessage += 1
        try await Task.sleep(for: .milliseconds(10))
    }
    sentSoFar += warmUp
    try await waitForReplies(sentSoFar)

    // Latency: one guess at a time, paced, each from a new player.
    let paced = 1000
    /// The latencies of `paced` guesses, one every 10 ms, from new players numbered from `firstPlayer`.
    func pacedLatencies(firstPlayer: Int) async throws -> [Double] {
        let before = try await fake.latencies().count
        for player in 0..<paced {
            try await fake.push([
                FakeTelegram.message(words[0], from: Int64(firstPlayer + player), messageID: nextMessage)
            ])
            nextMessage += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        sentSoFar += paced
        try await waitForReplies(sentSoFar)
        return Array(try await fake.latencies().dropFirst(before))
    }
    /// p50, p99 and the largest of some latencies.
    func spread(_ latencies: [Double]) -> String {
        "p50 \(milliseconds(percentile(latencies, 0.5)))   p99 \(milliseconds(percentile(latencies, 0.99)))   max \(milliseconds(latencies.max() ?? .nan))"
    }
    let latencies = try await pacedLatencies(firstPlayer: 10_000)
    print("\nLatency: update available → reply sent (\(paced) guesses, one every 10 ms, durable commits)")
    print(
        "  \(spread(latencies))   (target p99 ≤ the disk's p99 fdatasync + 3 ms = \(milliseconds(syncP99 + 0.003)))")

    // Bursts: 150 guesses at once, again and again: the time to the last reply shows any stall in the send loop
    // (the outbox timer would stretch one to a second).
    let bursts = 30
    let burstSize = 150
    var burstTimes: [Double] = []
    for burst in 0..<bursts {
        let pushed = Date()
        try await fake.push(
            (0..<burstSize).map { player in
                defer { nextMessage += 1 }
                return FakeTelegram.message(
                    words[4], from: Int64(100_000 + burst * burstSize + player), messageID: nextMessage)
            })
        sentSoFar += burstSize
        try await waitForReplies(sentSoFar)
        burstTimes.append(Date().timeIntervalSince(pushed))
    }
    print("\nBursts: \(burstSize) guesses pushed at once, \(bursts) times: push → last reply")
    print(
        "  p50 \(milliseconds(percentile(burstTimes, 0.5)))   max \(milliseconds(burstTimes.max() ?? .nan))   (a stall would show as a second)"
    )

    // Throughput: many guesses at once from many players, each committed durably and answered. Each player's
    // later guesses edit their board, and guesses of one chat sent in one pass share an edit: the phase is over when
    // every player's board shows all three guesses.
    let players = 2000
    let rounds = 3
    var burst: [[String: Any]] = []
    for round in 1...rounds {
        for player in 0..<players {
            burst.append(FakeTelegram.message(words[round], from: Int64(20_000 + player), messageID: nextMessage))
            nextMessage += 1
        }
    }
    // The fake keeps this count as boards change once it has been asked for it.
    let boardsBefore = try await fake.countSent(containing: "· \(rounds)/6")
    let cpuBefore = cpuSeconds(of: daemon.processIdentifier)
    let started = Date()
    for chunk in stride(from: 0, to: burst.count, by: 1000) {
        try await fake.push(Array(burst[chunk..<min(chunk + 1000, burst.count)]))
    }
    let finished = Date() + 300
    while try await fake.countSent(containing: "· \(rounds)/6") < boardsBefore + players {
        if Date() > finished { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(5))
    }
    let elapsed = Date().timeIntervalSince(started)
    let cpu = cpuSeconds(of: daemon.processIdentifier)
    print("\nThroughput: \(burst.count) guesses from \(players) players, pushed at once")
    print(
        "  \(String(format: "%.0f", Double(burst.count) / elapsed)) guesses/s end to end (\(String(format: "%.2f", elapsed)) s)   (target ≥ 2,000/s)"
    )
    // The daemon's own CPU: unlike the rate, it does not move with the fake API's share of the two cores.
    let (user, system) = (cpu.user - cpuBefore.user, cpu.system - cpuBefore.system)
    print(
        "  tessera's CPU: \(String(format: "%.2f", user)) s user + \(String(format: "%.2f", system)) s system, \(String(format: "%.0f", (user + system) / Double(burst.count) * 1_000_000)) µs a guess"
    )

    figures.guessesPerSecond = Double(burst.count) / elapsed

    let status = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/status", encoding: .utf8)) ?? ""
    let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }
    print(
        "\nMemory of the tessera process: \(memory.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "  ", with: "") }.joined(separator: ", "))   (target < 50 MB)"
    )

    // Where the resident memory is: the heap and stacks (anonymous) beside code and data mapped from files.
    let rollup = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/smaps_rollup", encoding: .utf8)) ?? ""
    let parts = rollup.split(separator: "\n").filter { $0.hasPrefix("Anonymous:") || $0.hasPrefix("Rss:") }
    print(
        "  of which: \(parts.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: ", "))"
    )
    if ProcessInfo.processInfo.environment["TESSERA_BENCHMARK_MAPS"] != nil {
        // Read to the end: procfs files claim a size of zero.
        let file = FileHandle(forReadingAtPath: "/proc/\(daemon.processIdentifier)/smaps")
        let maps = String(decoding: (try? file?.readToEnd()) ?? Data(), as: UTF8.self)
        var current = ""
        var sizes: [String: Int] = [:]
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                current = fields.count >= 6 ? String(fields[5]) : "[anonymous]"
            } else if fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                sizes[current, default: 0] += kilobytes
            }
        }
        for (name, kilobytes) in sizes.sorted(by: { $0.value > $1.value }).prefix(15) {
            print("    \(kilobytes) kB \(name)")
        }
    }

    // Games to their end (issue 58): players who solve in one guess, pushed at once: each a board and, with
    // pictures on, its result card drawn and uploaded (sendPhoto) beside it.
    let winners = 1000
    let solution = list.display(answer).lowercased()
    let solvedBefore = try await fake.countSent(containing: "Solved in 1/6")
    let photosBefore = try await fake.stats()["sendPhoto"] ?? 0
    let cpuBeforeGames = cpuSeconds(of: daemon.processIdentifier)
    let gamesStarted = Date()
    try await fake.push(
        (0..<winners).map { player in
            defer { nextMessage += 1 }
            return FakeTelegram.message(solution, from: Int64(500_000 + player), messageID: nextMessage)
        })
    let gamesDeadline = Date() + 300
    func gamesDone() async throws -> Bool {
        guard try await fake.countSent(containing: "Solved in 1/6") >= solvedBefore + winners else { return false }
        guard pictures else { return true }
        return try await fake.stats()["sendPhoto"] ?? 0 >= photosBefore + winners
    }
    while try await !gamesDone() {
        if Date() > gamesDeadline { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(5))
    }
    let gamesElapsed = Date().timeIntervalSince(gamesStarted)
    let cpuGames = cpuSeconds(of: daemon.processIdentifier)
    figures.gamesPerSecond = Double(winners) / gamesElapsed
    figures.microsecondsAGame =
        (cpuGames.user + cpuGames.system - cpuBeforeGames.user - cpuBeforeGames.system) / Double(winners) * 1_000_000
    print(
        "\nGames to their end: \(winners) players solving in one guess, pushed at once (a board each"
            + (pictures ? ", and its result card drawn and uploaded)" : "; pictures off)"))
    print(
        "  \(String(format: "%.0f", figures.gamesPerSecond)) games/s end to end (\(String(format: "%.2f", gamesElapsed)) s)   tessera's CPU: \(String(format: "%.0f", figures.microsecondsAGame)) µs a game"
    )

    let afterGames = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/status", encoding: .utf8)) ?? ""
    print(
        "  memory: \(afterGames.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "  ", with: "") }.joined(separator: ", "))   (the games' analyses load the solver's tables meanwhile)"
    )

    // Latency while `tessera backup` copies the live database, one backup after another (issue 27), beside the
    // idle latency above.
    // SQLite only: PostgreSQL is backed up with pg_dump.
    if !location.hasPrefix("postgres") {
        let backups = Task.detached {
            var (count, failed, longest) = (0, 0, 0.0)
            let copy = location + "-backup.sqlite"
            while !Task.isCancelled {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = ["backup", copy, "--database", location]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let began = Date()
                try process.run()
                process.waitUntilExit()
                longest = max(longest, Date().timeIntervalSince(began))
                if process.terminationStatus == 0 { count += 1 } else { failed += 1 }
            }
            return (count, failed, longest)
        }
        let duringBackups = try await pacedLatencies(firstPlayer: 200_000)
        backups.cancel()
        let (backupCount, backupsFailed, longestBackup) = try await backups.value
        print(
            "\nLatency while tessera backup copies the live database, one backup after another (\(paced) guesses, one "
                + "every 10 ms; \(backupCount) backups, \(backupsFailed) failed, the longest \(milliseconds(longestBackup)))"
        )
        print("  \(spread(duringBackups))   (beside the idle p99 above: \(milliseconds(percentile(latencies, 0.99))))")
    }

    // Latency while games are analysed: players finish games (SALET, then the answer), which the analysis
    // service works out on a thread of its own, and meanwhile other players' guesses are paced as above. Last,
    // so the memory above is the daemon's without the solver's tables.
    let finishers = 40
    for player in 0..<finishers {
        for guess in solution == "salet" ? [solution] : ["salet", solution] {
            try await fake.push([FakeTelegram.message(guess, from: Int64(300_000 + player), messageID: nextMessage)])
            nextMessage += 1
        }
    }
    sentSoFar += finishers * (solution == "salet" ? 1 : 2)
    try await waitForReplies(sentSoFar)
    let analysing = Date()
    let duringAnalyses = try await pacedLatencies(firstPlayer: 400_000)
    // The last finisher asks for the analysis: it comes once the queue before it is worked out.
    try await fake.push([
        FakeTelegram.message("/analysis", from: Int64(300_000 + finishers - 1), messageID: nextMessage)
    ])
    nextMessage += 1
    let queueDeadline = Date() + 600
    while try await fake.countSent(containing: "🔍 Analysis · Tessera") == 0 {
        if Date() > queueDeadline { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(20))
    }
    print(
        "\nLatency while \(finishers) finished games are analysed (\(paced) guesses, one every 10 ms; all analysed "
            + "\(String(format: "%.1f", Date().timeIntervalSince(analysing))) s after the guesses began)")
    print(
        "  \(spread(duringAnalyses))   (beside the idle p99 above: \(milliseconds(percentile(latencies, 0.99))))"
    )
    let afterAnalyses = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/status", encoding: .utf8)) ?? ""
    // Resident once every phase is over and the analyses' tables are freed: what serving leaves behind.
    figures.residentKilobytes =
        afterAnalyses.split(separator: "\n").first { $0.hasPrefix("VmRSS") }.flatMap { line in
            Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        } ?? 0
    print(
        "  memory: \(afterAnalyses.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "  ", with: "") }.joined(separator: ", "))   (the tables are freed once no game waits)"
    )

    if let scraper {
        scraper.cancel()
        let (scrapes, failures, bytes) = await scraper.value
        print("\nScraped /metrics \(scrapes) times, once a second (\(failures) failed); the last was \(bytes) bytes")
    }

    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
    await fake.stop()
    return figures
}

/// A port no one listens on now, for the daemon's metrics listener.
func freePort() -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

let syncP99 = percentile(syncs, 0.99)
let withPictures = try await measure("SQLite", location: database, syncP99: syncP99)
// Beside it, in the same run: the same with pictures off (issue 58), the difference being what pictures cost.
let withoutPictures = try await measure(
    "SQLite, pictures off", location: database + "-no-pictures.sqlite", environment: ["TESSERA_PICTURES": "off"],
    syncP99: syncP99)
print("\nPictures on against off (SQLite):")
print("  | | pictures on | pictures off | change |")
print("  | --- | --- | --- | --- |")
for (name, on, off, unit) in [
    ("guesses/s (2,000 players × 3 guesses)", withPictures.guessesPerSecond, withoutPictures.guessesPerSecond, ""),
    ("games/s (1,000 solved in one)", withPictures.gamesPerSecond, withoutPictures.gamesPerSecond, ""),
    ("CPU a finished game", withPictures.microsecondsAGame, withoutPictures.microsecondsAGame, " µs"),
    (
        "resident memory after serving", Double(withPictures.residentKilobytes) / 1024,
        Double(withoutPictures.residentKilobytes) / 1024, " MB"
    ),
] {
    print(
        "  | \(name) | \(String(format: "%.1f", on))\(unit) | \(String(format: "%.1f", off))\(unit) | "
            + "\(String(format: "%+.1f", (on - off) / off * 100)) % |")
}
// Beside it, in the same run: the same with the operator's listener on and scraped (issue 27).
let metricsPort = freePort()
try await measure(
    "SQLite, with the metrics listener on", location: database + "-listener.sqlite",
    environment: ["TESSERA_METRICS_LISTEN": "127.0.0.1:\(metricsPort)"], syncP99: syncP99,
    scrape: "http://127.0.0.1:\(metricsPort)/metrics")
// Beside it, in the same run: PostgreSQL, on a throwaway cluster (scripts/install-postgresql), when the tessera
// given was built with the PostgreSQL trait and TESSERA_BENCHMARK_POSTGRES=1.
if ProcessInfo.processInfo.environment["TESSERA_BENCHMARK_POSTGRES"] == "1" {
    let postgres = try await PostgreSQLServer.shared.makeDatabase()
    try await measure(
        "PostgreSQL", location: postgres.url, environment: ["TESSERA_DATABASE_PASSWORD": postgres.password],
        syncP99: syncP99)
}
await fake.stop()
