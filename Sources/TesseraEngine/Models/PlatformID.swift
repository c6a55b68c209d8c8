import Foundation

/// A chat platform, by the short stable name stored with every id that comes from it.
///
/// The name is kept inline, not as a `String`: every player on a board of thousands carries one, and an inline
/// name copies, compares and hashes like the integers it is made of.
@frozen
public struct Platform: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name's bytes, zero-padded: up to 16 of them.
    @usableFromInline let bytes: (UInt64, UInt64)

    /// A platform by its name: lowercase ASCII letters, digits and `-`, at most 16; nil for anything else.
    public init?(rawValue: String) { self.init(utf8: rawValue.utf8) }

    /// A platform by its name's bytes, as a store reads them.
    @inlinable
    public init?<Name: Collection<UInt8>>(utf8 name: Name) {
        guard !name.isEmpty, name.count <= 16,
            name.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
        else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for (index, byte) in name.enumerated() {
            if index < 8 {
                words.0 |= UInt64(byte) << (8 * UInt64(index))
            } else {
                words.1 |= UInt64(byte) << (8 * UInt64(index - 8))
            }
        }
        bytes = words
    }

    /// A name written in code, known to be valid (a typo stops the program at once, as any broken constant).
    public init(_ name: StaticString) {
        guard let platform = Platform(rawValue: name.description) else {
            preconditionFailure("'\(name)' is not a valid platform name")
        }
        self = platform
    }

    public var rawValue: String {
        var utf8: [UInt8] = []
        for index in 0..<16 {
            let word = index < 8 ? bytes.0 : bytes.1
            let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            if byte == 0 { break }
            utf8.append(byte)
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    public static let telegram = Platform("telegram")
    public static let matrix = Platform("matrix")
    /// The chat in a terminal (`tessera run` with no platform configured).
    public static let console = Platform("console")

    public var description: String { rawValue }

    @inlinable
    public static func == (one: Platform, other: Platform) -> Bool {
        one.bytes.0 == other.bytes.0 && one.bytes.1 == other.bytes.1
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let platform = Platform(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(name)' is not a platform name"))
        }
        self = platform
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Something a platform names, by the platform and the platform's own spelling of its id: Telegram's
/// `-1001234`, Matrix's `!room:example.org` or `@alice:example.org`. The engine never reads the spelling; only
/// the transport that made it does.
@frozen
public struct PlatformID<Entity>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let platform: Platform
    @usableFromInline let spelling: Spelling

    /// A spelling that is a plain decimal number (all of Telegram's) is kept as one: boards of thousands
    /// hash and compare their players' ids as fast as the integers they are.
    @usableFromInline
    enum Spelling: Hashable, Sendable {
        case number(Int64)
        case text(String)

        /// The payload alone: a text spelling is never a plain number, so the two cases never meet.
        @inlinable
        func hash(into hasher: inout Hasher) {
            switch self {
            case .number(let number): hasher.combine(number)
            case .text(let text): hasher.combine(text)
            }
        }
    }

    @inlinable
    public init(_ platform: Platform, _ value: String) {
        self.platform = platform
        if let number = Int64(value), String(number) == value {
            spelling = .number(number)
        } else {
            spelling = .text(value)
        }
    }

    /// An id the platform spells as a decimal number: the same as `init(platform, String(number))`.
    @inlinable
    public init(_ platform: Platform, number: Int64) {
        self.platform = platform
        spelling = .number(number)
    }

    /// The spelling as a number, when it is one: a store may keep it as an integer.
    @inlinable
    public var number: Int64? {
        if case .number(let number) = spelling { number } else { nil }
    }

    /// The platform's spelling of the id.
    @inlinable
    public var value: String {
        switch spelling {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }

    /// `platform:value`, as logs and signatures show it.
    public var description: String { "\(platform.rawValue):\(value)" }

    @inlinable
    public static func == (one: PlatformID, other: PlatformID) -> Bool {
        one.spelling == other.spelling && one.platform == other.platform
    }

    /// The spelling alone: ids of two platforms rarely share one, and `==` tells them apart.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(spelling) }

    private enum CodingKeys: String, CodingKey { case platform, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(Platform.self, forKey: .platform), try container.decode(String.self, forKey: .value))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(value, forKey: .value)
    }
}

/// The kinds of ``PlatformID``.
public enum PlatformEntity {
    public enum Chat {}
    public enum User {}
}

/// A chat on some platform: a direct chat or a group (Telegram's chat, Matrix's room).
public typealias ChatID = PlatformID<PlatformEntity.Chat>
/// A person on some platform. The same person on two platforms is two players.
public typealias UserID = PlatformID<PlatformEntity.User>

/// A message in a chat, by the platform's id for it, opaque to the engine (Telegram's `message_id`, Matrix's
/// event id). A thread (a forum topic) is named by the message that started it, as on both platforms.
public struct MessageID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { value }
}
