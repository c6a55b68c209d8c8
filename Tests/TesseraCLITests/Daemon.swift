import Foundation
import TesseraCoreTesting
import TesseraTestSupport
import Testing

/// `tessera run` as a real process against the fake Bot API, a real Synapse, or both.
final class Daemon: @unchecked Sendable {
    let process = Process()
    private let errors = Pipe()
    private let ended = DispatchSemaphore(value: 0)
    /// What the daemon wrote to standard error, read as it writes on a thread of its own: a pipe read only at
    /// exit holds 64 KiB, and a daemon that logs more blocks on its next line, mid-batch.
    private let log = Log()
    let database: String

    /// - Parameter logFile: where standard error goes instead of the pipe ``exit(within:)`` returns (verbose
    ///   logs, kept to read after a test).
    init(
        fake: FakeTelegram?, matrix: (synapse: Synapse, bot: Synapse.Account)? = nil, database: String,
        token: String? = nil, secret: String = DaemonTests.secret, environment extra: [String: String] = [:],
        logFile: URL? = nil
    ) throws {
        self.database = database
        process.executableURL = TesseraProcess.executable
        process.arguments = ["run"]
        var environment = ProcessInfo.processInfo.environment
        environment["TESSERA_TELEGRAM_TOKEN"] = fake.map { token ?? $0.token }
        environment["TESSERA_TELEGRAM_API_URL"] = fake?.apiURL
        environment["TESSERA_MATRIX_HOMESERVER"] = matrix?.synapse.url
        environment["TESSERA_MATRIX_USER"] = matrix?.bot.userID
        environment["TESSERA_MATRIX_ACCESS_TOKEN"] = matrix?.bot.accessToken
        environment["TESSERA_DATABASE"] = database
        environment["TESSERA_SECRET"] = secret
        environment["TESSERA_DEFAULT_TIME_ZONE"] = "UTC"
        environment["TESSERA_LOG_LEVEL"] = "info"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        if let logFile {
            guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logFile.path])
            }
            process.standardError = try FileHandle(forWritingTo: logFile)
        } else {
            process.standardError = errors
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [ended] _ in ended.signal() }
    }

    func start() throws {
        try process.run()
        guard process.standardError is Pipe else { return log.finish() }
        let (reading, log) = (errors.fileHandleForReading, self.log)
        Thread.detachNewThread {
            while true {
                let data = reading.availableData
                if data.isEmpty { break }
                log.append(data)
            }
            log.finish()
        }
    }

    /// A test that failed before stopping its daemon does not leave it running, nor take the test runner down.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends a signal and waits (off the cooperative pool) for the process to end; returns its status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) async -> Int32 {
        let process = self.process
        return await offThePool {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Waits for the process to end by itself, up to a deadline; returns its status and what it logged.
    func exit(within seconds: Double) async -> (status: Int32?, log: String) {
        let (process, log, ended) = (self.process, self.log, self.ended)
        return await offThePool {
            guard ended.wait(timeout: .now() + seconds) == .success else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return (nil, "")
            }
            return (process.terminationStatus, log.whole())
        }
    }

    /// Standard error as the reading thread collects it; `whole()` waits for its end.
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        func append(_ more: Data) { lock.withLock { data.append(more) } }
        func finish() { done.signal() }
        func whole() -> String {
            done.wait()
            done.signal()
            return lock.withLock { String(decoding: data, as: UTF8.self) }
        }
    }
}

/// Where a daemon test keeps its data: an SQLite file, or a database of its own on the test PostgreSQL when
/// built with the PostgreSQL trait (unless `TESSERA_SKIP_POSTGRES=1`).
enum DaemonDatabase: String, CustomTestStringConvertible, Sendable {
    case sqlite = "SQLite"
    case postgres = "PostgreSQL"

    var testDescription: String { rawValue }

    static var all: [DaemonDatabase] {
        #if PostgreSQL
            PostgreSQLServer.isSkipped ? [.sqlite] : [.sqlite, .postgres]
        #else
            [.sqlite]
        #endif
    }

    /// A new database: what TESSERA_DATABASE names, and the environment the daemon needs besides.
    func make() async throws -> (location: String, environment: [String: String]) {
        switch self {
        case .sqlite:
            return (try TesseraProcess.temporaryDirectory().appendingPathComponent("tessera.sqlite").path, [:])
        case .postgres:
            let database = try await PostgreSQLServer.shared.makeDatabase()
            return (database.url, ["TESSERA_DATABASE_PASSWORD": database.password])
        }
    }
}

extension FakeTelegram {
    /// Every player guessing each word in turn: `words[0]` from all of them, then `words[1]`, and so on; a
    /// message's id is its round × 1000 + its player, so that each is distinct.
    static func rounds(of words: [String], players: Int) -> [[String: Any]] {
        words.indices.flatMap { round in
            (1...players).map { player in
                message(words[round], from: Int64(player), messageID: Int64(round * 1000 + player))
            }
        }
    }

    /// Waits until each of `players` (chats 1…players) has a board showing every one of `words` guessed, then
    /// checks that each guess shows exactly once: each player's board is one message edited after each guess.
    func expectEachGuessOnce(players: Int, words: [String], timeout: Duration = .seconds(60)) async throws {
        func latestBoards(_ sent: [SentMessage]) -> [Int64: String] {
            Dictionary(sent.map { ($0.chat, ($0.messageID, $0.text)) }) { $0.0 > $1.0 ? $0 : $1 }.mapValues(\.1)
        }
        let done = "· \(words.count)/6"
        let final: [Int64: String]
        do {
            final = latestBoards(
                try await waitForSent(timeout: timeout) { sent in
                    let boards = latestBoards(sent)
                    return boards.count == players && boards.values.allSatisfy { $0.contains(done) }
                })
        } catch is FakeTelegram.TimedOut {
            // Which boards are behind, and where they stopped: a lost guess and a slow daemon look different.
            let boards = latestBoards(try await sent())
            let behind = (1...players).map(Int64.init).filter { boards[$0]?.contains(done) != true }
            let stopped = behind.prefix(8).map { player in
                "\(player): \(boards[player].map { String($0.prefix(24)) } ?? "no board")"
            }
            let shown = players - behind.count
            Issue.record(
                "after \(timeout), \(shown) of \(players) boards show \(done); behind: \(stopped.joined(separator: ", "))"
            )
            return
        }
        #expect(final.count == players, "every player got a board")
        for (player, board) in final.sorted(by: { $0.key < $1.key }) {
            for word in words {
                let rows = board.components(separatedBy: "<code>\(word.uppercased())</code>").count - 1
                #expect(rows == 1, "player \(player) has \(word) \(rows) times")
            }
        }
    }
}
