import Logging

/// Wraps the log handler that writes lines, escaping control characters in messages and metadata values, so
/// text from outside (a name, a button's data, an API's error) can neither cut a line short nor forge one.
struct EscapingLogHandler: LogHandler {
    var base: any LogHandler

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(Self.escaping(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.escaping)
        base.log(event: event)
    }

    static func escaping(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(escaping(text))
        case .stringConvertible(let convertible): .string(escaping(convertible.description))
        case .array(let values): .array(values.map(escaping))
        case .dictionary(let values): .dictionary(values.mapValues(escaping))
        }
    }

    /// `\n`, `\t` and the like as their escapes, other characters that ``mustBeEscaped(_:)`` as `\u{…}`: a line
    /// stays one line, and reads in the order it was written.
    static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustBeEscaped) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where mustBeEscaped(scalar): escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// What text from outside may not put raw in a log line, whatever the format: control characters, the
    /// Unicode line and paragraph separators (tools that split on them cut an event in two), and the
    /// direction controls (U+202E and its kin, which make a line read other than it was written).
    static func mustBeEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isBidiControl
        }
    }
}
