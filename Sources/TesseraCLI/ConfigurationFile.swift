import Foundation

/// Checks a hand-edited JSON configuration before it is used, so that a mistake is reported as a person fixes
/// it: the file, the line and column, what was found and what was expected there. (Foundation's parser says
/// "Error Domain=NSCocoaErrorDomain Code=3840".)
enum ConfigurationFile {
    static func check(_ text: String, path: String) throws {
        var reader = Reader(bytes: Array(text.utf8))
        do {
            reader.skipSpace()
            try reader.value()
            reader.skipSpace()
            guard reader.atEnd else { throw reader.mistake("the end of the file after the top-level object") }
        } catch let mistake as Mistake {
            throw CommandError(
                "The configuration file \(path) is not valid JSON: line \(mistake.line), column \(mistake.column): "
                    + "expected \(mistake.expected), found \(mistake.found). See config/tessera.example.json.")
        }
        try checkTypes(text, path: path)
    }

    /// What each setting's value may be in the file. A value of another type would be passed over without a word
    /// (`"metrics": {"listen": 9464}` would listen nowhere), so it is refused, naming the key.
    enum Kind {
        case text
        /// A whole number, or one written as text.
        case number

        var expected: String {
            switch self {
            case .text: "a string in quotes"
            case .number: "a number"
            }
        }
    }

    static let kinds: [String: Kind] = {
        var kinds: [String: Kind] = [:]
        for key in [
            "telegram.token", "telegram.api.url", "matrix.homeserver", "matrix.user", "matrix.access.token",
            "matrix.password", "database", "database.password", "secret", "game.name", "default.language",
            "default.time.zone", "log.level", "log.format", "telegram.rate.limits", "matrix.rate.limits",
            "metrics.listen", "clock.file",
        ] {
            kinds[key] = .text
        }
        for secret in ["telegram.token", "matrix.access.token", "matrix.password", "database.password"] {
            kinds[secret + ".file"] = .text
        }
        for key in [
            "default.rollover.hour", "telegram.poll.seconds", "metrics.stale.after", "practice.games.per.day",
            "analysis.steps", "analysis.first.guess.steps",
        ] {
            kinds[key] = .number
        }
        return kinds
    }()

    /// Refuses a known setting whose value is of the wrong JSON type. `text` is valid JSON already.
    static func checkTypes(_ text: String, path: String) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw CommandError("The configuration file \(path) cannot be read: \(error).")
        }
        func visit(_ value: JSONValue, key: String) throws {
            guard let kind = kinds[key] else {
                guard case .object(let members) = value else { return }
                for (name, member) in members { try visit(member, key: key.isEmpty ? name : key + "." + name) }
                return
            }
            switch (kind, value) {
            case (.text, .string), (.number, .number), (.number, .string), (_, .null): return
            default:
                let hint = key == "telegram.rate.limits" || key == "matrix.rate.limits" ? " (\"off\" or \"on\")" : ""
                throw CommandError(
                    "In the configuration file \(path), \(key) is \(value.kind), which Tessera would pass over: "
                        + "give \(kind.expected)\(hint). See config/tessera.example.json.")
            }
        }
        try visit(value, key: "")
    }

    /// A JSON value, as much as the types check needs.
    enum JSONValue: Decodable {
        case object([String: JSONValue])
        case array
        case string
        case number
        case bool(Bool)
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
                // Each attempt asks which type the value is; a failed one is an answer, not an error to report.
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if (try? container.decode(Double.self)) != nil {
                self = .number
            } else if (try? container.decode(String.self)) != nil {
                self = .string
            } else if (try? container.decode([JSONValue].self)) != nil {
                self = .array
            } else {
                self = .object(try container.decode([String: JSONValue].self))
            }
        }

        var kind: String {
            switch self {
            case .object: "an object"
            case .array: "a list"
            case .string: "a string"
            case .number: "a number"
            case .bool(let flag): "\(flag)"
            case .null: "null"
            }
        }
    }

    struct Mistake: Error {
        let line: Int
        let column: Int
        let expected: String
        let found: String
    }

    /// A recursive descent over RFC 8259's grammar that only checks; nesting deeper than ``maximumDepth`` is
    /// refused rather than overflowing the stack.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var depth = 0
        static let maximumDepth = 64

        var atEnd: Bool { index >= bytes.count }

        mutating func skipSpace() {
            while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func mistake(_ expected: String) -> Mistake {
            let before = bytes[..<min(index, bytes.count)]
            let line = before.count { $0 == 0x0A } + 1
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            // Columns count characters, not bytes: a name with accents before the mistake.
            let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1
            let found: String
            if atEnd {
                found = "the end of the file"
            } else if bytes[index] == 0x0A || bytes[index] == 0x0D {
                found = "the end of the line"
            } else {
                let rest = String(decoding: bytes[index..<min(bytes.count, index + 16)], as: UTF8.self)
                found = "\"\(rest.prefix { $0 != "\n" && $0 != "\r" }.prefix(12))\""
            }
            return Mistake(line: line, column: column, expected: expected, found: found)
        }

        mutating func value() throws {
            guard !atEnd else { throw mistake("a value (an object, a string, a number, true, false or null)") }
            switch bytes[index] {
            case UInt8(ascii: "{"): try container(close: "}", member: true)
            case UInt8(ascii: "["): try container(close: "]", member: false)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw mistake("a value (an object, a string, a number, true, false or null)")
            }
        }

        private mutating func container(close: Unicode.Scalar, member: Bool) throws {
            depth += 1
            guard depth <= Self.maximumDepth else { throw mistake("at most \(Self.maximumDepth) levels of nesting") }
            index += 1
            skipSpace()
            if !atEnd && bytes[index] == UInt8(ascii: close) {
                index += 1
                depth -= 1
                return
            }
            while true {
                if member {
                    guard !atEnd && bytes[index] == UInt8(ascii: "\"") else {
                        throw mistake("a key in double quotes")
                    }
                    try string()
                    skipSpace()
                    guard !atEnd && bytes[index] == UInt8(ascii: ":") else { throw mistake("\":\" after the key") }
                    index += 1
                    skipSpace()
                }
                try value()
                skipSpace()
                guard !atEnd else { throw mistake("\",\" or \"\(close)\"") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                    // A trailing comma, the commonest slip of a hand edit, is named as such.
                    if !atEnd && bytes[index] == UInt8(ascii: close) {
                        throw mistake(
                            member
                                ? "another key after \",\" (a trailing comma is not JSON)" : "another value after \",\""
                        )
                    }
                    continue
                }
                guard bytes[index] == UInt8(ascii: close) else { throw mistake("\",\" or \"\(close)\"") }
                index += 1
                depth -= 1
                return
            }
        }

        private mutating func string() throws {
            index += 1
            while !atEnd {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard !atEnd else { break }
                    let escape = bytes[index]
                    if escape == UInt8(ascii: "u") {
                        let digits = bytes[(index + 1)...].prefix(4)
                        guard digits.count == 4, digits.allSatisfy({ $0.isHexDigit }) else {
                            throw mistake("four hexadecimal digits after \\u")
                        }
                        index += 5
                    } else {
                        guard Array("\"\\/bfnrt".utf8).contains(escape) else {
                            throw mistake("an escape such as \\\" or \\n")
                        }
                        index += 1
                    }
                case 0x00..<0x20:
                    throw mistake("the string's closing \" on its line")
                default:
                    index += 1
                }
            }
            throw mistake("the string's closing \"")
        }

        /// Skips digits; how many there were.
        private mutating func digits() -> Int {
            let from = index
            while !atEnd && bytes[index].isDigit { index += 1 }
            return index - from
        }

        private mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard bytes[index...].starts(with: expected) else { throw mistake(word) }
            index += expected.count
        }

        private mutating func number() throws {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            if !atEnd && bytes[index] == UInt8(ascii: "0") {
                index += 1
                if !atEnd && bytes[index].isDigit { throw mistake("a number without leading zeros") }
            } else {
                guard digits() > 0 else { throw mistake("a digit") }
            }
            if !atEnd && bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw mistake("a digit after the decimal point") }
            }
            if !atEnd && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
                index += 1
                if !atEnd && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
                guard digits() > 0 else { throw mistake("a digit in the exponent") }
            }
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
