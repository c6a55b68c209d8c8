import Foundation
import TesseraCoreTesting

/// A program run to its end for a test: `psql`, a word list's pipeline, the metrics parser, `tessera` itself.
public enum ChildProcess {
    public struct Output: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Runs `program` with `input` on its standard input and `environment` (nil: this process's), and waits,
    /// off the pool, for it to end.
    public static func run(
        _ program: String, _ arguments: [String], input: String = "", environment: [String: String]? = nil
    ) async throws -> Output {
        try await offThePool { try blockingRun(program, arguments, input: input, environment: environment) }
    }

    private static func blockingRun(
        _ program: String, _ arguments: [String], input: String, environment: [String: String]?
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Written and read on threads of their own: a pipe holds less than an exposition or a pipeline's words,
        // and a program that fills one while the other is waited for never ends.
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
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errors.get() ?? Data(), as: UTF8.self))
    }
}

/// A value set once by another thread.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value? { lock.withLock { value } }
}
