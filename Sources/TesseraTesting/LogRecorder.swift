import InMemoryLogging
public import Logging

/// A logger whose lines are kept in memory (swift-log's `InMemoryLogHandler`), for tests that assert on what an
/// operator would read, with each line's metadata as one text to search.
public struct LogRecorder: Sendable {
    public struct Line: Sendable {
        public let level: Logger.Level
        public let message: String
        /// Every metadata value as `key=value`, sorted by key, space-separated.
        public let metadata: String
    }

    /// Every copy records into the same store.
    private let recorded = InMemoryLogHandler()

    public init() {}

    public func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test") { _ in handler() }
        logger.logLevel = level
        return logger
    }

    /// A handler that records here, at every level, for wrapping in another handler under test.
    public func handler() -> any LogHandler {
        var handler = recorded
        handler.logLevel = .trace
        return handler
    }

    public var lines: [Line] {
        recorded.entries.map { entry in
            Line(
                level: entry.level, message: "\(entry.message)",
                metadata: entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                    separator: " "))
        }
    }

    public func lines(at level: Logger.Level) -> [Line] {
        lines.filter { $0.level == level }
    }
}
