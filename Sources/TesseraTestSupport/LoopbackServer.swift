public import Foundation
import TesseraCoreTesting

/// A test server from `Tests/Servers`, started on a free loopback port for one test and stopped after it.
///
/// Starting and stopping block (a pipe read, a wait for exit), so they run on a dispatch queue: the
/// cooperative pool has only two threads here, and the tests run in parallel.
public struct LoopbackServer: Sendable {
    public let process: Process
    public let port: Int
    /// The server's standard input, held open for as long as this process runs: a server may end itself when it
    /// closes, so none outlives a test run that crashed.
    private let input: Pipe

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public static func start(_ script: String, arguments: [String] = []) async throws -> LoopbackServer {
        // Sources/TesseraTestSupport/ → Tests/Servers/; the benchmarks compile these files through a symlink.
        let path = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Servers/\(script)")
            .path
        return try await offThePool { try launch(path, arguments) }
    }

    private static func launch(_ path: String, _ arguments: [String]) throws -> LoopbackServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
        let output = Pipe()
        process.standardOutput = output
        let input = Pipe()
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: "\n").first.flatMap({ Int($0.dropFirst("PORT ".count)) }) else {
            process.terminate()
            throw ServerDidNotStart(output: text)
        }
        return LoopbackServer(process: process, port: port, input: input)
    }

    public func stop() async {
        let process = self.process
        await offThePool {
            // SIGKILL: a child started from another thread may inherit a blocked SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs `body` with a server, stopping it afterwards whatever happens.
    @discardableResult
    public static func with<T>(_ script: String, arguments: [String] = [], _ body: (LoopbackServer) async throws -> T)
        async throws -> T
    {
        let server = try await start(script, arguments: arguments)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    public struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        public var description: String { "the test server did not start; it printed: \(output)" }
    }
}

/// A server started by a test that did not come up: what it was, why, and the end of its log.
public struct LoggedServerDidNotStart: Error, CustomStringConvertible {
    let server: String
    let log: URL
    let underlying: any Error

    public init(_ server: String, log: URL, underlying: any Error) {
        self.server = server
        self.log = log
        self.underlying = underlying
    }

    public var description: String {
        do {
            let tail = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").suffix(15)
            return "\(server) did not start (\(underlying)); the end of its log:\n" + tail.joined(separator: "\n")
        } catch {
            return "\(server) did not start (\(underlying)), and its log \(log.path) cannot be read: \(error)"
        }
    }
}
