/// A language Tessera plays in.
public enum Language: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case spanish = "es"

    /// The language of an IETF tag (`es`, `es-419`, `en-GB`), if Tessera plays in it.
    public init?(tag: String) {
        let primary = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        guard let primary, let language = Language(rawValue: primary) else { return nil }
        self = language
    }

    /// The language's name in itself, as players see it.
    public var name: String {
        switch self {
        case .english: "English"
        case .spanish: "Español"
        }
    }

    /// The language's words. Loaded on first use (a few milliseconds), then shared.
    public var wordList: WordList {
        switch self {
        case .english: WordList.english
        case .spanish: WordList.spanish
        }
    }
}

extension WordList {
    static let english = WordList(language: .english, alphabet: .english, source: .english)
    static let spanish = WordList(language: .spanish, alphabet: .spanish, source: .spanish)
}
