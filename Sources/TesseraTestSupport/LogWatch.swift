public import Foundation

/// Waits on what a process writes to a log file, as ``FakeTelegram`` waits on what the bot sent: reading
/// again until the condition holds, failing at a deadline rather than passing merely slowly.
public enum LogWatch {
    public struct TimedOut: Error, CustomStringConvertible {
        public let text: String
        public let log: String
        public var description: String { "the log never said \"\(text)\"; it reads:\n\(log.suffix(4000))" }
    }

    /// Returns once the file at `log` contains `text`; throws ``TimedOut`` after `timeout`.
    public static func wait(for text: String, in log: URL, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let contents = try String(contentsOf: log, encoding: .utf8)
            if contents.contains(text) { return }
            if ContinuousClock.now > deadline { throw TimedOut(text: text, log: contents) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
