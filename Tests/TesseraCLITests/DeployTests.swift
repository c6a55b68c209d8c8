import Foundation
import TesseraCoreTesting
import TesseraSQLite
import TesseraTestSupport
import Testing

/// Tessera installed and configured the way an operator does it: the systemd unit's install steps, a
/// hand-edited configuration, an unprivileged user (docs/operating.md, "Deployment").
@Suite("Installing and configuring tessera", .serialized)
struct DeployTests {
    /// The repository, found from this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// An unprivileged user to run as: `nobody`, as a dynamic user of systemd's would be.
    static let unprivileged = "65534"
    static var isRoot: Bool { getuid() == 0 }

    /// `tessera ARGUMENTS` as the unprivileged user, through setpriv.
    static func runUnprivileged(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> TesseraProcess.Output
    {
        try await ChildProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=\(unprivileged)", "--regid=\(unprivileged)", "--clear-groups", "--",
                TesseraProcess.executable.path,
            ]
                + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"].merging(environment) { $1 })
    }

    @Test("A hand-edited configuration with a mistake names the file, the line, the column and what was expected")
    func malformedConfiguration() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let cases: [(String, String)] = [
            (
                "{\n  \"game\": {\n    \"name\": \"Tessera\",\n  },\n}\n",
                "line 4, column 3: expected another key after \",\" (a trailing comma is not JSON), found \"},\""
            ),
            ("{\n  \"log\": {\"level\": \"info\"}\n  \"game\": {}\n}\n", "line 3, column 3: expected \",\" or \"}\""),
            ("{\n  \"default\": {\"language\": en}\n}\n", "line 2, column 27: expected a value"),
            (
                "{\"game\": {\"name\": \"Tessera}}\n",
                "line 1, column 29: expected the string's closing \" on its line, found the end of the line"
            ),
            (
                "",
                "line 1, column 1: expected a value (an object, a string, a number, true, false or null), found the end"
            ),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let file = directory.appendingPathComponent("tessera-\(index).json")
            try Data(text.utf8).write(to: file)
            let output = try await TesseraProcess.run(["run", "--config", file.path])
            #expect(output.status != 0)
            #expect(
                output.standardError.hasPrefix(
                    "Error: The configuration file \(file.path) is not valid JSON: \(message)"),
                "\(output.standardError)")
            #expect(!output.standardError.contains("NSCocoaErrorDomain"))
        }
    }

    @Test(
        "A file that exists but cannot be read is 'permission denied', with the path and the user",
        .enabled(if: isRoot, "needs root to run as another user"))
    func unreadableFiles() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let config = directory.appendingPathComponent("tessera.json")
        try Data("{}".utf8).write(to: config)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let denied = try await Self.runUnprivileged(["run", "--config", config.path])
        #expect(denied.status != 0)
        #expect(
            denied.standardError.hasPrefix(
                "Error: Permission denied: the configuration file \(config.path) cannot be read by user nobody "
                    + "(uid 65534)."), "\(denied.standardError)")
        let token = directory.appendingPathComponent("telegram-token")
        try Data("123:abc".utf8).write(to: token)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token.path)
        let secret = try await Self.runUnprivileged(["run"], environment: ["TESSERA_TELEGRAM_TOKEN_FILE": token.path])
        #expect(
            secret.standardError.hasPrefix("Error: Permission denied: the Telegram token file \(token.path)"),
            "\(secret.standardError)")
        let missing = try await Self.runUnprivileged([
            "run", "--config", directory.appendingPathComponent("no.json").path,
        ])
        #expect(missing.standardError.contains("does not exist"), "\(missing.standardError)")
    }

    @Test("The example configuration runs Telegram alone; a Matrix section without credentials is skipped in one line")
    func exampleConfiguration() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let log = directory.appendingPathComponent("log")
        for example in ["tessera.example.json", "matrix.example.json"] {
            let running = try Daemon(
                fake: fake, database: directory.appendingPathComponent("\(example).sqlite").path,
                environment: ["TESSERA_CONFIG": Self.repository.appendingPathComponent("config/\(example)").path],
                logFile: log)
            try running.start()
            let polls = try await fake.stats()["getUpdates"] ?? 0
            try await fake.waitForStats { ($0["getUpdates"] ?? 0) > polls }
            #expect(await running.stop() == 0)
            let logged = try String(contentsOf: log, encoding: .utf8)
            #expect(!logged.contains("error"), "\(example): \(logged)")
            if example == "matrix.example.json" {
                let skipped = logged.split(separator: "\n").filter { $0.contains("Matrix is configured") }
                #expect(skipped.count == 1, "\(logged)")
                #expect(skipped.first?.contains("TESSERA_MATRIX_ACCESS_TOKEN_FILE") == true)
            }
        }
        await fake.stop()
    }

    @Test(
        "The unit's install steps, into a temporary root: the service's user reads the configuration and keeps its state",
        .enabled(if: isRoot, "needs root to run as another user"))
    func systemdInstall() async throws {
        let root = try TesseraProcess.temporaryDirectory()
        let install = Process()
        install.executableURL = Self.repository.appendingPathComponent("deploy/install")
        install.arguments = ["--root", root.path, "--binary", TesseraProcess.executable.path]
        install.standardOutput = FileHandle.nullDevice
        try await offThePool {
            try install.run()
            install.waitUntilExit()
        }
        #expect(install.terminationStatus == 0)
        let unit = root.appendingPathComponent("etc/systemd/system/tessera.service")
        let config = root.appendingPathComponent("etc/tessera/tessera.json")
        let binary = root.appendingPathComponent("usr/local/bin/tessera")
        for (path, mode) in [
            (config.path, 0o644), (config.deletingLastPathComponent().path, 0o755), (binary.path, 0o755),
        ] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
        // What systemd does for the unit: a state directory of the service's own, the token as a credential, and
        // the configuration named by TESSERA_CONFIG.
        let state = root.appendingPathComponent("var/lib/tessera")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o700, .ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: state.path)
        let unitText = try String(contentsOf: unit, encoding: .utf8)
        #expect(unitText.contains("Environment=TESSERA_CONFIG=/etc/tessera/tessera.json"))
        #expect(unitText.contains("ConfigurationDirectory=tessera") && unitText.contains("StateDirectory=tessera"))
        // The page the unit names as its documentation was installed with it.
        let documentation = unitText.split(separator: "\n").first { $0.hasPrefix("Documentation=file://") }
        let page = try #require(documentation?.dropFirst("Documentation=file://".count))
        #expect(FileManager.default.fileExists(atPath: root.path + page), "\(page)")
        let fake = try await FakeTelegram.start()
        let credentials = root.appendingPathComponent("run/credentials/tessera.service")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try Data(fake.token.utf8).write(to: credentials.appendingPathComponent("telegram-token"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o400, .ownerAccountID: 65534],
            ofItemAtPath: credentials.appendingPathComponent("telegram-token").path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(Self.unprivileged)", "--regid=\(Self.unprivileged)", "--clear-groups", "--", binary.path, "run",
        ]
        process.environment = [
            "TESSERA_CONFIG": config.path, "STATE_DIRECTORY": state.path,
            "TESSERA_TELEGRAM_TOKEN_FILE": credentials.appendingPathComponent("telegram-token").path,
            "TESSERA_TELEGRAM_API_URL": fake.apiURL, "HOME": "/nonexistent",
        ]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try await fake.waitForStats { ($0["getUpdates"] ?? 0) > 0 }
        let database = state.appendingPathComponent("tessera.sqlite")
        let owner = try FileManager.default.attributesOfItem(atPath: database.path)[.ownerAccountID] as? Int
        #expect(owner == 65534, "the database is the service user's")

        // The daily backup, as tessera-backup.service runs it: the same user, while the bot runs; of two older
        // copies the newest stays beside the new one (TESSERA_BACKUPS_KEPT=2).
        let backups = state.appendingPathComponent("backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        for old in ["tessera-20260101T000000Z.sqlite", "tessera-20260102T000000Z.sqlite"] {
            _ = try SQLiteBackup.backup(database: database.path, to: backups.appendingPathComponent(old).path)
        }
        _ = try await ChildProcess.run(
            "/usr/bin/chown", ["-R", "\(Self.unprivileged):\(Self.unprivileged)", backups.path])
        let backup = try await ChildProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=\(Self.unprivileged)", "--regid=\(Self.unprivileged)", "--clear-groups", "--",
                root.appendingPathComponent("usr/local/bin/tessera-backup").path,
            ],
            environment: [
                "TESSERA": binary.path, "TESSERA_CONFIG": config.path, "STATE_DIRECTORY": state.path,
                "TESSERA_BACKUPS_KEPT": "2", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin",
            ])
        #expect(backup.status == 0, "\(backup)")
        #expect(backup.standardOutput.hasPrefix("Backed up \(database.path) to \(backups.path)/tessera-"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()
        #expect(kept.count == 2 && kept.first == "tessera-20260102T000000Z.sqlite", "\(kept)")
        let newest = try #require(kept.last)
        let made = try FileManager.default.attributesOfItem(atPath: backups.appendingPathComponent(newest).path)
        #expect(made[.ownerAccountID] as? Int == 65534 && made[.posixPermissions] as? Int == 0o600)
        kill(process.processIdentifier, SIGTERM)
        await offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        await fake.stop()

        // systemd reads the unit as it is installed: every directive known, the binary where ExecStart says. The
        // system's own units, which the unit's After= and WantedBy= name, come from this machine.
        let units = root.appendingPathComponent("usr/lib/systemd/system")
        try FileManager.default.createDirectory(
            at: units.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "/lib/systemd/system"), to: units)
        let verify = Process()
        verify.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        verify.arguments = [
            "verify", "--root", root.path, "tessera.service", "tessera-backup.service", "tessera-backup.timer",
        ]
        let messages = Pipe()
        verify.standardError = messages
        verify.standardOutput = messages
        let said = try await offThePool {
            try verify.run()
            let said = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            verify.waitUntilExit()
            return said
        }
        #expect(verify.terminationStatus == 0 && said.isEmpty, "no error and no warning: \(said)")
    }
}
