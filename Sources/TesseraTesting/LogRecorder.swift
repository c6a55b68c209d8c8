public import Logging
public import Synchronization

/// A logger whose lines are kept in memory, for tests that assert on what an operator would read.
public final class LogRecorder: Sendable {
    public struct Line: Sendable {
        public let level: Logger.Level
        public let message: String
        /// Every metadata value as `key=value`, sorted by key, space-separated.
        public let metadata: String
    }

    public let lines = Mutex<[Line]>([])

    public init() {}

    public func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test") { _ in self.handler() }
        logger.logLevel = level
        return logger
    }

    /// A handler that records here, for wrapping in another handler under test.
    public func handler() -> any LogHandler {
        Handler(recorder: self)
    }

    public func lines(at level: Logger.Level) -> [Line] {
        lines.withLock { $0.filter { $0.level == level } }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = Line(
                level: event.level, message: "\(event.message)",
                metadata: all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            recorder.lines.withLock { $0.append(line) }
        }
    }
}
