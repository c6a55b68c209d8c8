import Foundation
import TesseraTestSupport
import Testing

/// Runs the built `tessera` binary the way a person does: arguments, typed lines, environment.
struct TesseraProcess {
    typealias Output = ChildProcess.Output

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
        return try await ChildProcess.run(
            executable.path, arguments, input: input, environment: base.merging(environment) { _, new in new })
    }

    /// A fresh directory for one test's progress files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
