import Foundation
import TesseraCoreTesting
import TesseraTestSupport
import Testing

/// `tessera run` as a real process against the fake Bot API, a real Synapse, or both.
final class Daemon: @unchecked Sendable {
    let process = Process()
    private let errors = Pipe()
    private let ended = DispatchSemaphore(value: 0)
    let database: String

    /// - Parameter logFile: where standard error goes instead of a pipe read at exit (for verbose logs,
    ///   which could fill a pipe).
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

    func start() throws { try process.run() }

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
        let (process, errors, ended) = (self.process, self.errors, self.ended)
        return await offThePool {
            guard ended.wait(timeout: .now() + seconds) == .success else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return (nil, "")
            }
            return (
                process.terminationStatus,
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            )
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
        let final = latestBoards(
            try await waitForSent(timeout: timeout) { sent in
                let boards = latestBoards(sent)
                return boards.count == players && boards.values.allSatisfy { $0.contains("· \(words.count)/6") }
            })
        #expect(final.count == players, "every player got a board")
        for (player, board) in final.sorted(by: { $0.key < $1.key }) {
            for word in words {
                let rows = board.components(separatedBy: "<code>\(word.uppercased())</code>").count - 1
                #expect(rows == 1, "player \(player) has \(word) \(rows) times")
            }
        }
    }
}
