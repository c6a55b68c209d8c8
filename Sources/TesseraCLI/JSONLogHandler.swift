import Foundation
import Logging
import Synchronization

/// Writes each log event as one JSON object a line (`--log-format json`), for log shippers: `time` (RFC 3339 in
/// UTC, with milliseconds), `level`, `label`, `message`, and `metadata` (the logger's, then the event's; each
/// value a string, an array or an object). JSON's escaping keeps control characters in text from outside on
/// one line, as ``EscapingLogHandler`` does for the text format.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    /// Takes each line, newline included.
    let write: @Sendable (Data) -> Void

    init(label: String, write: @escaping @Sendable (Data) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let object: [String: Any] = [
            "time": Date().formatted(Self.time), "level": event.level.rawValue, "label": label,
            "message": event.message.description, "metadata": merged.mapValues(Self.json),
        ]
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        write(line)
    }

    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    private static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    /// Standard error, a whole line a write: lines from several threads never interleave.
    static let standardError: @Sendable (Data) -> Void = { line in
        standardErrorLock.withLock { _ in FileHandle.standardError.write(line) }
    }
    private static let standardErrorLock = Mutex(())
}
