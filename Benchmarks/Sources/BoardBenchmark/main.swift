import Foundation
import Logging
import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraPostgres
import TesseraSQLite
import TesseraTestSupport

// Leaderboard and summary queries of one large group: MEMBERS members (default 10,000), each playing about
// 60 % of the days over DAYS days (default 365), written through the engine into an SQLite file; on the day the
// summary closes, a fifth of them also pasted each of the other puzzles (Connections, Strands, the Mini). The database
// also holds OTHERS players (default 90,000) in other groups of the same size, without history, as a host of many
// groups has: a board must read its own members, not every player. With
// TESSERA_BENCHMARK_POSTGRES=1 the same history is then copied into a PostgreSQL database on a throwaway cluster
// (scripts/install-postgresql; fsync off) and every query runs there too, in the same run. Each query is timed inside
// its transaction, as the engine runs it for a chat message, beside `/help` in the same group as the baseline.
// Nothing here passes or fails on time; the target is under 20 ms each.
//
// Usage: tessera-board-benchmark [MEMBERS] [DAYS] [OTHERS]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let members = arguments.first ?? 10_000
let days = arguments.dropFirst().first ?? 365
let others = arguments.dropFirst(2).first ?? 90_000
let runs = 30

let clock = ContinuousClock()
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

// Warnings only: the history is written faster than SQLite's background checkpoints can keep up with.
let logger = {
    var logger = Logger(label: "benchmark")
    logger.logLevel = .error
    return logger
}()
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-board-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let onPostgres = ProcessInfo.processInfo.environment["TESSERA_BENCHMARK_POSTGRES"] == "1"
let sqlitePath = directory.appendingPathComponent("tessera.sqlite").path
let sqlite = try SQLiteGameStore(path: sqlitePath, logger: logger)

let schedule = DailySchedule.tessera
let secret = ScheduleSecret("board benchmark secret")!
let engine = BotEngine(configuration: EngineConfiguration(), secret: secret, logger: logger)
let list = Language.english.wordList
let answers = AnswerSchedule(wordList: list, secret: secret)
/// Noon UTC on the last day.
let now = Date(
    timeIntervalSince1970: Double(schedule.day(of: PuzzleNumber(days + 1)).daysSinceUnixEpoch) * 86_400 + 43_200)
let today = schedule.puzzle(at: now, rollover: .utc)
let chat = ChatID(.telegram, "-1001")

// MARK: - The history

print(
    "Group boards: \(members) members × \(days) closed days and today, among \(members + others) players; "
        + "SQLite file" + (onPostgres ? " and PostgreSQL" : "") + ", release build")
let generation = clock.now
try await sqlite.write { transaction in
    try await transaction.save(
        Group(
            chat: chat, timeZone: "UTC", rolloverHour: 0, language: .english,
            lastClosedPuzzle: PuzzleNumber(today.rawValue - 1)))
    for member in 1...members {
        let id = UserID(.telegram, String(member))
        try await transaction.save(
            Player(id: id, displayName: "Player \(member)", language: .english, timeZone: "UTC", rolloverHour: 0))
        _ = try await transaction.addMember(id, to: chat, joinedPuzzle: PuzzleNumber(today.rawValue - days))
    }
}
// The other groups' players, numbered after the group's own.
for first in stride(from: members + 1, through: members + others, by: 1_000) {
    try await sqlite.write { transaction in
        for member in first..<min(first + 1_000, members + others + 1) {
            let id = UserID(.telegram, String(member))
            try await transaction.save(
                Player(id: id, displayName: "Player \(member)", language: .english, timeZone: "UTC", rolloverHour: 0))
            let group = ChatID(.telegram, "-\(2 + (member - members - 1) / members)")
            _ = try await transaction.addMember(id, to: group, joinedPuzzle: PuzzleNumber(today.rawValue - days))
        }
    }
}
var random = SplitMix64(seed: 2026)
var lastPlayed = [Int](repeating: 0, count: members + 1)
var results = 0
let words = list.answers.map { list.display($0).lowercased() }
for puzzle in (today.rawValue - days)...today.rawValue {
    let number = PuzzleNumber(puzzle)
    let answer = list.display(answers.answer(for: number)).lowercased()
    let periods = BoardPeriod.keys(of: number, schedule: schedule)
    let finishedAt = Date(timeIntervalSince1970: Double(schedule.day(of: number).daysSinceUnixEpoch) * 86_400)
    // Today only half as many have finished so far, and some are still playing.
    let share = puzzle == today.rawValue ? 0.3 : 0.6
    var day: [(StoredGame, BoardResult)] = []
    for member in 1...members where Double.random(in: 0..<1, using: &random) < share {
        let won = Double.random(in: 0..<1, using: &random) < 0.95
        let guesses = won ? Int.random(in: 2...6, using: &random) : nil
        var played = (0..<((guesses ?? 7) - 1)).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
        if won { played.append(answer) }
        let hardMode = Double.random(in: 0..<1, using: &random) < 0.1
        let id = UserID(.telegram, String(member))
        let game = StoredGame(
            player: id, language: .english, puzzle: number, hardMode: hardMode, guesses: played,
            result: guesses.map { .won(guesses: $0) } ?? .lost, finishedAt: finishedAt)
        lastPlayed[member] = puzzle
        day.append(
            (
                game,
                BoardResult(
                    chat: chat, puzzle: number, player: id, language: .english, guesses: guesses,
                    hardMode: hardMode, finishedAt: finishedAt.addingTimeInterval(Double(member)))
            ))
    }
    let unfinished = puzzle == today.rawValue ? (1...members).filter { lastPlayed[$0] != puzzle }.prefix(1_000) : []
    results += day.count
    let batch = day
    try await sqlite.write { transaction in
        for (game, result) in batch {
            try await transaction.save(game)
            // Counted as the engine counts a finished game: its rules make the totals.
            _ = try await engine.count(result, periods: periods, store: transaction)
        }
        for member in unfinished {
            try await transaction.save(
                StoredGame(
                    player: UserID(.telegram, String(member)), language: .english, puzzle: number, hardMode: false,
                    guesses: [words[member % words.count]]))
        }
    }
}
// The other puzzles pasted on the summary's day, a fifth of the group each (TESSERA_BENCHMARK_PASTES: another
// share, 0 for none): the summary's line a game (issue 41). A generator of their own, so that the year's results
// are the same whatever the share.
let pasteShare = ProcessInfo.processInfo.environment["TESSERA_BENCHMARK_PASTES"].flatMap(Double.init) ?? 0.2
print("  other puzzles pasted on the summary's day: \(Int(pasteShare * 100)) % of the group each")
var pastes = SplitMix64(seed: 41)
let summaryDate = schedule.day(of: PuzzleNumber(today.rawValue - 1))
let otherBoards: [(PuzzleShare.Game, BoardKind)] = [(.connections, .connections), (.strands, .strands), (.mini, .mini)]
for (game, board) in otherBoards {
    var batch: [BoardResult] = []
    for member in 1...members where Double.random(in: 0..<1, using: &pastes) < pasteShare {
        batch.append(
            BoardResult(
                chat: chat, board: board, puzzle: game.schedule.puzzle(on: summaryDate),
                player: UserID(.telegram, String(member)), language: .english,
                guesses: Int.random(in: 0...(game == .mini ? 300 : 4), using: &pastes), hardMode: false,
                finishedAt: Date(timeIntervalSince1970: Double(summaryDate.daysSinceUnixEpoch) * 86_400 + 3_600)))
    }
    results += batch.count
    let results = batch
    try await sqlite.write { transaction in
        for result in results { _ = try await engine.count(result, periods: [], store: transaction) }
    }
}
print("  \(results) results generated in \(String(format: "%.1f", milliseconds(clock.now - generation) / 1000)) s")

// MARK: - The queries

/// A query to time, inside a write transaction.
struct Query {
    let label: String
    /// Runs in the transaction before the clock starts: what the timed work needs but is not part of it.
    var prepare: @Sendable (any GameStoreTransaction) async throws -> Void = { _ in }
    let body: @Sendable (any GameStoreTransaction) async throws -> Void
}

/// Times a query's body inside a write transaction of `store`, `runs` times; the median and the slowest run.
func measure(_ store: any GameStore, _ query: Query) async throws -> (median: Double, slowest: Double) {
    var times: [Double] = []
    for _ in 0..<runs {
        let elapsed = try await store.write { transaction in
            try await query.prepare(transaction)
            let start = ContinuousClock.now
            try await query.body(transaction)
            return milliseconds(ContinuousClock.now - start)
        }
        times.append(elapsed)
        // As if sent: a chat's full queue would make later runs skip their reply, and do less.
        try await store.markSent(try await store.pendingMessages(limit: 1_000, now: .distantFuture).map(\.id))
    }
    times.sort()
    return (times[times.count / 2], times[times.count - 1])
}

func command(_ text: String) -> @Sendable (any GameStoreTransaction) async throws -> Void {
    var message = ChatMessage(
        chat: chat, chatKind: .group, sender: UserID(.telegram, String(members)), senderName: "Player \(members)",
        text: text,
        messageID: MessageID("1"))
    // As Telegram's transport reads it.
    if case .command(let read) = CommandSyntax(prefixes: ["/"]).read(text) { message.command = read }
    let typed = message
    return { transaction in try await engine.handle(typed, at: now, in: transaction) }
}

let week = BoardPeriod.week.key(containing: today, schedule: schedule)
/// What is timed, in the order printed: the commands as a member sends them, then the store's reads alone (where
/// the time goes).
let queries: [Query] = [
    Query(label: "/help (baseline: the same path, no board)", body: command("/help")),
    Query(label: "/leaderboard", body: command("/leaderboard")),
    Query(label: "/leaderboard week", body: command("/leaderboard week")),
    Query(label: "/leaderboard month", body: command("/leaderboard month")),
    Query(label: "/leaderboard all", body: command("/leaderboard all")),
    Query(label: "/leaderboard season", body: command("/leaderboard season")),
    Query(
        label: "daily summary of yesterday (closeDays)",
        // As at the rollover: the day is reopened before each run.
        prepare: { transaction in
            guard var group = try await transaction.group(chat) else { return }
            group.lastClosedPuzzle = PuzzleNumber(today.rawValue - 2)
            try await transaction.save(group)
        },
        body: { transaction in
            guard try await engine.closeDays(at: now, in: transaction) == 1 else {
                fatalError("the summary was not queued")
            }
        }),
    Query(label: "  standings (week)") { _ = try await $0.standings(in: chat, board: .tessera, period: week) },
    Query(label: "  day members (yesterday, as the summary reads them)") {
        _ = try await $0.dayMembers(in: chat, board: .tessera, puzzle: PuzzleNumber(today.rawValue - 1))
    },
    Query(label: "  results (today)") { _ = try await $0.results(in: chat, board: .tessera, puzzle: today) },
    Query(label: "  unfinished (today)") {
        _ = try await $0.unfinished(in: chat, language: .english, puzzle: today)
    },
]

func measureAll(_ store: any GameStore) async throws -> [(median: Double, slowest: Double)] {
    var times: [(median: Double, slowest: Double)] = []
    for query in queries { times.append(try await measure(store, query)) }
    return times
}

var columns = [("SQLite", try await measureAll(sqlite))]
if onPostgres {
    let database = try await PostgreSQLServer.shared.makeDatabase()
    let postgres = PostgresGameStore(
        configuration: try .init(url: database.url, password: database.password), logger: logger)
    // The pool runs for as long as the benchmark does.
    Task { await postgres.run() }
    try await postgres.migrate()
    let copying = clock.now
    let rows = try await PostgresCopy.copy(fromSQLite: sqlitePath, to: database, logger: logger)
    print(
        "  \(rows) rows copied to PostgreSQL in "
            + String(format: "%.1f", milliseconds(clock.now - copying) / 1000) + " s")
    columns.append(("PostgreSQL", try await measureAll(postgres)))
}

func cell(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
print("\n  \(runs) runs each, inside the transaction, median / slowest (ms)")
print("  " + "".padding(toLength: 52, withPad: " ", startingAt: 0) + columns.map { cell($0.0, 18) }.joined())
for (index, query) in queries.enumerated() {
    if index == 7 { print("  of which the store's reads:") }
    let times = columns.map { String(format: "%.2f / %.2f", $0.1[index].median, $0.1[index].slowest) }
    print("  " + query.label.padding(toLength: 52, withPad: " ", startingAt: 0) + times.map { cell($0, 18) }.joined())
}
print("  target: under 20 ms each")

// MARK: - The backup

// `tessera backup` of this year-long database while the store is open (issue 27), beside the same bytes copied
// with a plain read, write and fsync in the same run: what any copy of the file costs on this disk.
let copyPath = directory.appendingPathComponent("backup.sqlite").path
let backupStart = clock.now
let copied = try SQLiteBackup.backup(database: sqlitePath, to: copyPath)
let backupTime = clock.now - backupStart
let plainStart = clock.now
let bytes = try Data(contentsOf: URL(fileURLWithPath: sqlitePath))
let plainPath = directory.appendingPathComponent("plain-copy.sqlite").path
_ = FileManager.default.createFile(atPath: plainPath, contents: nil)
let plain = try FileHandle(forWritingTo: URL(fileURLWithPath: plainPath))
try plain.write(contentsOf: bytes)
try plain.synchronize()
try plain.close()
let plainTime = clock.now - plainStart
print(
    "\nBackup (tessera backup: SQLite's online backup API, integrity_check, fsync, rename) of the "
        + String(format: "%.1f MB", Double(copied.bytes) / 1_048_576) + " database, \(copied.players) players, "
        + "\(copied.games) games: " + String(format: "%.2f s", milliseconds(backupTime) / 1000))
print(
    "  baseline, the file's \(String(format: "%.1f MB", Double(bytes.count) / 1_048_576)) copied with read, write and "
        + "fsync: " + String(format: "%.2f s", milliseconds(plainTime) / 1000))
