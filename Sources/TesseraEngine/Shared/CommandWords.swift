import Foundation
import TesseraCore

/// What the words after a command mean, wherever they are typed: on and off, a zone's name, a language's.
enum CommandWords {
    /// `on` or `off` (and their Spanish and plain-English words); `empty` for no argument; nil for anything else,
    /// which changes nothing.
    static func onOff(_ argument: String, empty: Bool?) -> Bool? {
        switch argument.lowercased() {
        case "": empty
        case "on", "yes", "sí", "si": true
        case "off", "no": false
        default: nil
        }
    }

    /// An IANA zone name, matched without regard to case: `europe/madrid` is Europe/Madrid.
    static func knownTimeZone(_ text: String) -> String? {
        // The longest IANA name has 30 characters: a longer text is none, and is not compared with each.
        guard text.utf8.count <= 64 else { return nil }
        if TimeZone(identifier: text) != nil, text.contains("/") || text == "UTC" { return text }
        let lowercased = text.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowercased }
    }

    /// A language as typed after a command: its code (`es`) or its own name (`Español`), in any case.
    static func language(named text: String) -> Language? {
        let lowered = text.lowercased()
        return Language(rawValue: lowered) ?? Language.allCases.first { $0.name.lowercased() == lowered }
    }
}
