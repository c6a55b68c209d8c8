import Foundation
import TesseraCoreTesting
import Testing

/// Runs the built `tessera` binary the way a person does: arguments, typed lines, environment.
struct TesseraProcess {
    struct Output: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The binary sits beside the test bundle in the build directory.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !directory.path.hasSuffix(".xctest") && directory.path != "/" {
            let candidate = directory.appendingPathComponent("tessera")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("tessera")
    }()

    static func run(
        _ arguments: [String],
        input: String = "",
        environment: [String: String] = [:]
    ) async throws -> Output {
        var base = ProcessInfo.processInfo.environment
        base.removeValue(forKey: "TESSERA_SECRET")
        return try await runCommand(
            executable.path, arguments, input: input, environment: base.merging(environment) { _, new in new })
    }

    /// Runs any program with exactly `environment` (nil: this process's) and waits for it.
    ///
    /// The wait is a blocking one (pipes, then the process's end), so it runs on a thread of its own, never on
    /// the cooperative pool: two commands that take a minute would otherwise stall every test in the process.
    static func runCommand(
        _ program: String, _ arguments: [String], input: String = "", environment: [String: String]? = nil
    ) async throws -> Output {
        try await offThePool { try runBlocking(program, arguments, input: input, environment: environment) }
    }

    private static func runBlocking(
        _ program: String, _ arguments: [String], input: String, environment: [String: String]?
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errors, as: UTF8.self)
        )
    }

    /// A fresh directory for one test's progress files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
