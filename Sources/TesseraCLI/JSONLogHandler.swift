import Foundation
import Logging
import Synchronization

/// Writes each log event as one JSON object a line (`--log-format json`), for log shippers: `time` (RFC 3339 in
/// UTC, with milliseconds), `level`, `label`, `message`, and `metadata` (the logger's, then the event's; each
/// value a string, an array or an object). JSON's escaping keeps control characters in text from outside on
/// one line; the other characters ``EscapingLogHandler/mustBeEscaped(_:)`` names are written as `\uXXXX` too,
/// which JSON allows but does not require.
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
        var line: Data
        do {
            line = Self.escapingSeparators(
                try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        } catch {
            // Strings, arrays and objects always serialise; should one not, the event is not lost without a word.
            line = Data(#"{"level":"error","message":"A log event could not be written as JSON"}"#.utf8)
        }
        line.append(0x0A)
        write(line)
    }

    /// JSON text with the separators and direction controls in its strings as `\uXXXX` escapes.
    static func escapingSeparators(_ json: Data) -> Data {
        let text = String(decoding: json, as: UTF8.self)
        guard text.unicodeScalars.contains(where: EscapingLogHandler.mustBeEscaped) else { return json }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if EscapingLogHandler.mustBeEscaped(scalar) {
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return Data(escaped.utf8)
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
