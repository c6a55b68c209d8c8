import Foundation
import Logging
import PostgresNIO
import TesseraCore
import TesseraEngine
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport

// What a batch of updates costs against a database across a network (issue 42): round trips per batch of 1, 10
// and 100 guesses, and guesses a second in a closed loop of players, on SQLite and on PostgreSQL reached
// directly (0 ms) and through a proxy that delays each way by half a millisecond (1 ms round trip). The round
// trips are counted twice: by the store itself where it counts them, and by the proxy, whatever the build. The
// baselines, measured in the same run: one statement's round trip at 0 ms and through the proxy.
// Usage: tessera-batch-benchmark [PLAYERS] [SECONDS]   (defaults 2000 and 20)
// The build before issue 42: see BatchPath.swift.

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let playerCount = arguments.first ?? 2000
let secondsEach = Double(arguments.dropFirst().first ?? 20)
var logger = Logger(label: "tessera.benchmark")
logger.logLevel = .warning

let secret = ScheduleSecret("batch benchmark secret 5b1e77c2a9")!
let engine = BotEngine(configuration: EngineConfiguration(), secret: secret, logger: logger)
let now = Date()
let list = Language.english.wordList
let schedule = AnswerSchedule(wordList: list, secret: secret)
let today = DailySchedule.tessera.puzzle(at: now, rollover: .utc)
let answers = Set((today.rawValue - 2...today.rawValue + 2).map { schedule.answer(for: PuzzleNumber($0)) })
// Six words that are no answer near today: every game takes six guesses and is lost on the sixth.
let words = list.answers.filter { !answers.contains($0) }.prefix(6).map { list.display($0).lowercased() }

func guess(by player: Int, round: Int) -> ChatMessage {
    ChatMessage(
        chat: ChatID(.telegram, "\(player)"), chatKind: .direct, sender: UserID(.telegram, "\(player)"),
        senderName: "Player \(player)", text: words[round], messageID: MessageID("\(round + 1)"))
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

struct Setup {
    let name: String
    let store: any GameStore
    let proxy: DelayingProxy?
    let database: PostgreSQLServer.Database?
    /// SQLite's commit reaches the disk on flush, as the receive service waits for it after each batch.
    let flushes: Bool
}

/// Round trips of one batch: the store's own count and the proxy's, when there are.
struct Trips {
    var statements: Int?
    var turns: Int?

    static func - (after: Trips, before: Trips) -> Trips {
        Trips(
            statements: after.statements.flatMap { a in before.statements.map { a - $0 } },
            turns: after.turns.flatMap { a in before.turns.map { a - $0 } })
    }
}

func trips(_ setup: Setup) -> Trips { Trips(statements: statementsSent(setup.store), turns: setup.proxy?.turns) }

var positions: [String: Int] = [:]

/// Applies a batch and waits for it to be durable, as the receive service does.
@MainActor
func apply(_ messages: [ChatMessage], _ setup: Setup) async throws -> Int {
    let position = positions[setup.name]
    let next = (position ?? 0) + 1
    let guesses = try await applyBatch(
        messages, from: position.map(String.init), to: String(next), at: now, engine: engine, store: setup.store)
    positions[setup.name] = next
    if setup.flushes { try await setup.store.flush() }
    return guesses
}

/// One pass of a sender: read what is due, hold it, mark it sent.
func sendingPass(_ store: any GameStore) async throws -> Int {
    let entries = try await store.pendingMessages(limit: 100, now: Date())
    guard !entries.isEmpty else { return 0 }
    let held = try await store.hold(entries.map(\.id), for: .seconds(10))
    try await store.markSent(Array(held))
    return held.count
}

func describe(_ trips: Trips, per count: Int) -> String {
    func cell(_ value: Int?) -> String {
        guard let value else { return "—" }
        return String(format: "%.1f (%.2f a guess)", Double(value) / 10, Double(value) / 10 / Double(count))
    }
    return "store \(cell(trips.statements)), proxy \(cell(trips.turns))"
}

/// Round trips per batch of 1, 10 and 100 first guesses of new players, 10 batches each, and of a sender's pass.
func roundTrips(_ setup: Setup) async throws {
    var player = 10_000_000
    for size in [1, 10, 100] {
        var total = Trips(statements: 0, turns: 0)
        for _ in 0..<10 {
            let batch = (0..<size).map { guess(by: player + $0, round: 0) }
            player += size
            let before = trips(setup)
            _ = try await apply(batch, setup)
            let spent = trips(setup) - before
            total = Trips(
                statements: spent.statements.map { $0 + (total.statements ?? 0) },
                turns: spent.turns.map { $0 + (total.turns ?? 0) })
        }
        print("  batch of \(size) guesses: round trips a batch: \(describe(total, per: size))")
    }
    let before = trips(setup)
    var sent = 0
    var passes = 0
    while case let count = try await sendingPass(setup.store), count > 0 {
        sent += count
        passes += 1
    }
    let spent = trips(setup) - before
    print(
        "  sending \(sent) replies in \(passes) passes of up to 100: round trips a pass: store "
            + (spent.statements.map { String(format: "%.1f", Double($0) / Double(max(passes, 1))) } ?? "—")
            + ", proxy " + (spent.turns.map { String(format: "%.1f", Double($0) / Double(max(passes, 1))) } ?? "—"))
}

/// Guesses a second with `playerCount` players each waiting on their guess: batches of 100 (as Telegram gives
/// at most), round robin, while a sender sends the replies beside it; for `secondsEach` or six rounds. Players
/// from `first` on, new to the store.
func closedLoop(_ setup: Setup, playersFrom first: Int) async throws -> (guesses: Int, seconds: Double) {
    let clock = ContinuousClock()
    let sender = Task {
        while !Task.isCancelled {
            if try await sendingPass(setup.store) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
    }
    defer { sender.cancel() }
    let start = clock.now
    var guesses = 0
    var next = 0
    while next < playerCount * words.count, milliseconds(clock.now - start) < secondsEach * 1000 {
        let batch = (next..<min(next + 100, playerCount * words.count)).map {
            guess(by: first + $0 % playerCount, round: $0 / playerCount)
        }
        next += batch.count
        guesses += try await apply(batch, setup)
    }
    return (guesses, milliseconds(clock.now - start) / 1000)
}

/// `SELECT 1` on a connection of its own through the proxy, the median of 200: the link's round trip, whatever
/// the build of the store.
func statementRoundTrip(port: Int, database: PostgreSQLServer.Database) async throws -> Double {
    let configuration = try PostgresGameStore.Configuration(url: database.url, password: database.password)
    let connection = try await PostgresConnection.connect(
        configuration: .init(
            host: "127.0.0.1", port: port, username: configuration.user, password: database.password,
            database: configuration.database, tls: .disable),
        id: 1, logger: logger)
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<200 {
        let start = clock.now
        _ = try await connection.query("SELECT 1", logger: logger).collect()
        times.append(milliseconds(clock.now - start))
    }
    try await connection.close()
    return times.sorted()[times.count / 2]
}

print("Batches (\(buildName)): \(playerCount) players, up to \(Int(secondsEach)) s each")
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-batch-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

var setups = [
    Setup(
        name: "SQLite (file, durable commits)",
        store: try SQLiteGameStore(path: directory.appendingPathComponent("bench.sqlite").path, logger: logger),
        proxy: nil, database: nil, flushes: true)
]
// TESSERA_BENCHMARK_SQLITE_ONLY=1: SQLite alone, to profile it.
let links: [(String, Duration)] =
    ProcessInfo.processInfo.environment["TESSERA_BENCHMARK_SQLITE_ONLY"] == "1"
    ? [] : [("PostgreSQL at 0 ms", .zero), ("PostgreSQL at 1 ms", .microseconds(500))]
for (name, delay) in links {
    let database = try await PostgreSQLServer.shared.makeDatabase()
    // Through the proxy even at 0 ms, so that it counts the round trips of a build that does not.
    let proxy = try DelayingProxy(forwardingTo: database.port, delay: delay)
    let url = database.url.replacingOccurrences(of: ":\(database.port)/", with: ":\(proxy.port)/")
    let store = PostgresGameStore(configuration: try .init(url: url, password: database.password), logger: logger)
    Task { await store.run() }
    try await store.migrate()
    setups.append(Setup(name: name, store: store, proxy: proxy, database: database, flushes: false))
}

var rates: [(String, Int, Double)] = []
for setup in setups {
    print("\n\(setup.name)")
    if let proxy = setup.proxy, let database = setup.database {
        let baseline = try await statementRoundTrip(port: proxy.port, database: database)
        print(String(format: "  baseline: SELECT 1 through the proxy, median of 200: %.2f ms", baseline))
    }
    try await roundTrips(setup)
    // Runs with players of their own (five on SQLite, whose runs are short); the median stands.
    var runs: [(guesses: Int, seconds: Double)] = []
    for run in 0..<(setup.proxy?.turns == nil ? 5 : 3) {
        let (guesses, seconds) = try await closedLoop(setup, playersFrom: run * 1_000_000)
        runs.append((guesses, seconds))
        print(
            String(
                format: "  closed loop: %d guesses in %.1f s: %.0f guesses a second", guesses, seconds,
                Double(guesses) / seconds))
    }
    let median = runs.sorted { Double($0.guesses) / $0.seconds < Double($1.guesses) / $1.seconds }[runs.count / 2]
    rates.append((setup.name, median.guesses, median.seconds))
}
print("\nGuesses a second (\(buildName)), the median of five runs on SQLite and three on PostgreSQL:")
for (name, guesses, seconds) in rates {
    let rate = String(format: "%8.0f", Double(guesses) / seconds)
    print("  " + name.padding(toLength: 34, withPad: " ", startingAt: 0) + rate)
}
print("  goal at 1 ms: ≥ 1,000 guesses a second, ≤ 6 round trips a batch of up to 100")
exit(0)
