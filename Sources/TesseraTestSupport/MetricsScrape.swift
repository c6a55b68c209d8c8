import Foundation
import TesseraCoreTesting
import TesseraHTTP

/// What a Prometheus server would do with the bot's listener: scrape `/metrics` and probe `/healthz`; and the
/// checks an operator's tools make of the exposition: the Prometheus Python client's parser
/// (`Tests/Servers/parse_metrics.py`) and `promtool check metrics`, both installed by
/// `scripts/install-metrics-tools`, which scripts/test runs.
public struct MetricsScrape: Sendable {
    /// `http://HOST:PORT` of the listener.
    public let baseURL: String
    private let client = CurlHTTPClient()

    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    /// A path's status and body.
    public func get(_ path: String) async throws -> (status: Int, body: String, contentType: String?) {
        let response = try await client.send(HTTPRequest(url: baseURL + path, timeout: .seconds(10)))
        return (response.status, String(decoding: response.body, as: UTF8.self), response.headers["content-type"])
    }

    /// One sample of the exposition, as the parser read it.
    public struct Sample: Sendable, Decodable, Hashable {
        public let name: String
        public let labels: [String: String]
        public let value: Double
        public let type: String
        public let help: String
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The exposition parsed by the Prometheus Python client's parser; throws with its message when it cannot.
    public static func parse(_ exposition: String) async throws -> [Sample] {
        let (python, script) = (try python(), serversFolder.appendingPathComponent("parse_metrics.py").path)
        let output = try await offThePool { try run(python, [script], input: exposition) }
        guard output.status == 0 else { throw Failed(description: "the parser refused it: \(output.errors)") }
        return try JSONDecoder().decode([Sample].self, from: Data(output.standardOutput.utf8))
    }

    /// `promtool check metrics`: its exit status (0: no problem) and what it said.
    public static func promtool(_ exposition: String) async throws -> (status: Int32, said: String) {
        guard
            let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw Failed(
                description: "promtool is not installed: run scripts/install-metrics-tools (scripts/test does).")
        }
        let output = try await offThePool { try run(promtool, ["check", "metrics"], input: exposition) }
        return (output.status, output.standardOutput + output.errors)
    }

    /// The python with the Prometheus client: `TESSERA_METRICS_PYTHON`, or the one the script installs.
    static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let python = environment["TESSERA_METRICS_PYTHON"] { return python }
        let cache = environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        let python = cache + "/tessera/prometheus-client-0.26.0/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failed(
                description: "The Prometheus client is not installed (no \(python)): run "
                    + "scripts/install-metrics-tools (scripts/test does), or set TESSERA_METRICS_PYTHON.")
        }
        return python
    }

    // Sources/TesseraTestSupport/ → Tests/Servers/.
    static let serversFolder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Servers")

    private static func run(_ program: String, _ arguments: [String], input: String) throws
        -> (status: Int32, standardOutput: String, errors: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Written and read on threads of their own: a pipe's buffer is smaller than an exposition.
        let done = DispatchGroup()
        let errors = Locked<Data>()
        let writeAndRead: [@Sendable () -> Void] = [
            {
                stdin.fileHandleForWriting.write(Data(input.utf8))
                try? stdin.fileHandleForWriting.close()
            },
            { errors.set(stderr.fileHandleForReading.readDataToEndOfFile()) },
        ]
        for work in writeAndRead {
            done.enter()
            Thread.detachNewThread {
                work()
                done.leave()
            }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self),
            String(decoding: errors.get() ?? Data(), as: UTF8.self)
        )
    }
}

/// A value set once by another thread.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value? { lock.withLock { value } }
}
