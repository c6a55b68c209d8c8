import Foundation
import TesseraCoreTesting
import TesseraTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tessera` on a pseudo-terminal, typed at the way a person types: a line, then what the screen shows. The
/// terminal is util-linux's `script`, which runs tessera on a pseudo-terminal of its own and relays this test's
/// keystrokes to it and the screen back. Its waits block, so they run off the pool.
final class Terminal {
    let process = Process()
    private let keyboard = Pipe()
    private let display = Pipe()
    private let ended = DispatchSemaphore(value: 0)
    /// What the terminal has shown and the test has not looked past yet.
    private var screen = ""

    init(_ arguments: [String], environment: [String: String]) throws {
        let command = ([TesseraProcess.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // Quiet, flushed at every write, the exit status of tessera, no typescript file.
        process.arguments = ["--quiet", "--flush", "--return", "--command", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = keyboard
        process.standardOutput = display
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [ended] _ in ended.signal() }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    func type(_ line: String) {
        keyboard.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits up to `seconds` for the screen to show `text`; returns what it showed up to it, or nil.
    func waitFor(_ text: String, seconds: Double) async -> String? {
        await offThePool { self.blockingWaitFor(text, seconds: seconds) }
    }

    private func blockingWaitFor(_ text: String, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let range = screen.range(of: text) {
                let shown = String(screen[..<range.upperBound])
                screen = String(screen[range.upperBound...])
                return shown
            }
            guard readScreen(until: deadline) else { return nil }
        }
    }

    /// Ctrl-D, then the exit status once the process has ended (nil if it did not within `seconds`).
    func end(within seconds: Double) async -> Int32? {
        await offThePool { self.blockingEnd(within: seconds) }
    }

    private func blockingEnd(within seconds: Double) -> Int32? {
        keyboard.fileHandleForWriting.write(Data([4]))
        let deadline = Date().addingTimeInterval(seconds)
        // Reading what it still shows, so that a full terminal never holds it up.
        while readScreen(until: deadline) {}
        guard ended.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else { return nil }
        return process.terminationStatus
    }

    /// Reads what the terminal shows next, waiting until `deadline`; false once the time is up or the terminal
    /// has closed (the process ended).
    private func readScreen(until deadline: Date) -> Bool {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { return false }
        let descriptor = display.fileHandleForReading.fileDescriptor
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(left * 1000)) > 0 else { return deadline.timeIntervalSinceNow > 0 }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        screen += String(decoding: buffer[..<count], as: UTF8.self)
        return true
    }
}

@Suite("The terminal chat on a real terminal")
struct TerminalTests {
    @Test("Each reply shows before the next line is typed, as a person types at a terminal")
    func repliesBeforeTheNextLine() async throws {
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        try clock.set("2026-11-22T12:00:00Z")
        let terminal = try Terminal(
            ["run", "--time-zone", "UTC"],
            environment: [
                "TESSERA_SECRET": DaemonTests.secret,
                "TESSERA_DATABASE": directory.appendingPathComponent("tessera.sqlite").path,
            ].merging(clock.environment) { $1 })
        #expect(await terminal.waitFor("Ctrl-D quits", seconds: 30) != nil, "the chat's help")
        terminal.type("/start")
        #expect(await terminal.waitFor("[You] ", seconds: 10) != nil, "the welcome, before anything else is typed")
        for (index, word) in try LiveBoardDaemonTests.wrongWords(3, puzzle: 326).enumerated() {
            terminal.type(word.lowercased())
            let board = await terminal.waitFor("Tessera 326 · \(index + 1)/6", seconds: 10)
            #expect(board != nil, "the board after \(word), before the next line is typed")
        }
        #expect(await terminal.end(within: 20) == 0, "Ctrl-D ends the chat")
        // Its heartbeat says it was the terminal chat: status says how to start that again.
        let status = try await TesseraProcess.run(
            ["status", "--database", directory.appendingPathComponent("tessera.sqlite").path])
        #expect(status.status != 0)
        #expect(
            status.standardError.contains("It was the terminal chat: start it again with scripts/run"),
            "\(status.standardError)")
    }
}
