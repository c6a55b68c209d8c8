import Foundation
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
        let output = try await ChildProcess.run(python, [script], input: exposition)
        guard output.status == 0 else { throw Failed(description: "the parser refused it: \(output.standardError)") }
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
        let output = try await ChildProcess.run(promtool, ["check", "metrics"], input: exposition)
        return (output.status, output.standardOutput + output.standardError)
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
}
