import Foundation
import Synchronization
import TesseraCore
public import TesseraEngine

// Rows read and written through their column types (``PlayerColumns``, ``GameColumns``, ``GroupColumns``): a
// property's name in snake case is its column's, so a new field is a property and a migration step, never a
// position in a tuple or an edit in each statement.

/// A Codable property's column: `displayName` is `display_name`. Run for every column of every row read (a
/// row written names its columns once a type, ``RowNames``), so on bytes: a name without capitals is its own.
func columnName(_ key: some CodingKey) -> String {
    let name = key.stringValue
    guard name.utf8.contains(where: { (65...90).contains($0) }) else { return name }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count + 4)
    for byte in name.utf8 {
        if (65...90).contains(byte) {
            bytes.append(UInt8(ascii: "_"))
            bytes.append(byte + 32)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension SQLRow {
    /// The row as a column type; throws ``DamagedColumn`` naming a column it lacks or cannot read.
    public func decode<Row: Decodable>(_ type: Row.Type) throws -> Row {
        try Row(from: RowDecoder(row: self))
    }
}

/// The columns and values of a row type, in the order of its properties.
public struct SQLColumns: Sendable {
    public private(set) var names: [String] = []
    public private(set) var values: [SQLValue] = []

    /// A row type's columns and values, after `leading` ones (a row's key: `player_id`). A column `replacing`
    /// names is bound as that value instead (SQLite's numeric accounts); one `omitting` names is left out (a
    /// column of another table the row type carries).
    public init(
        _ row: some Encodable, leading: [(String, SQLValue)] = [], replacing overrides: [String: SQLValue] = [:],
        omitting omitted: Set<String> = []
    ) {
        let known = RowNames.known(of: type(of: row))
        let encoder = RowEncoder(naming: known == nil)
        // Only the types the row types hold reach here: each is encoded, none throws.
        try? row.encode(to: encoder)
        let rowNames = known ?? RowNames.remember(encoder.storage.names, of: type(of: row))
        precondition(encoder.storage.values.count == rowNames.count, "\(type(of: row)) encodes each property once")
        names.reserveCapacity(leading.count + rowNames.count)
        values.reserveCapacity(leading.count + rowNames.count)
        for (name, value) in leading {
            names.append(name)
            values.append(value)
        }
        for (name, value) in zip(rowNames, encoder.storage.values) where omitted.isEmpty || !omitted.contains(name) {
            names.append(name)
            values.append(overrides.isEmpty ? value : overrides[name] ?? value)
        }
    }

    /// `INSERT INTO table (…) VALUES (…)`: one new row.
    public func insert(into table: String) -> SQLQuery {
        SQLQuery(sql: statement(into: table).sql, binds: values)
    }

    /// `INSERT INTO table (…) VALUES (…) ON CONFLICT (keys) DO UPDATE SET …` every other column: one row stored,
    /// new or changed, in either dialect.
    public func upsert(into table: String, keys: [String]) -> SQLQuery {
        SQLQuery(sql: statement(into: table, keys: keys).sql, binds: values)
    }

    /// The statement of a write to `table`, written once: every row written to a table has the same columns, so
    /// a write after the first only binds its values.
    private func statement(into table: String, keys: [String]? = nil) -> RowWrite {
        let target = RowWrite.Target(table: table, keys: keys)
        if let known = RowWrite.known.withLock({ $0[target] }), known.names == names { return known }
        let write = RowWrite(target, names: names)
        RowWrite.known.withLock { $0[target] = write }
        return write
    }
}

/// The column names of each row type, in the order its properties encode: worked out from its first row, so a
/// row written after that only gives its values.
private enum RowNames {
    static let known = Mutex<[ObjectIdentifier: [String]]>([:])

    static func known(of type: Any.Type) -> [String]? { known.withLock { $0[ObjectIdentifier(type)] } }

    static func remember(_ names: [String], of type: Any.Type) -> [String] {
        known.withLock { $0[ObjectIdentifier(type)] = names }
        return names
    }
}

/// A row's write as SQL: an insert, or an upsert on its keys.
private struct RowWrite: Sendable {
    /// A table, and the keys of an upsert into it (nil for an insert).
    struct Target: Hashable {
        let table: String
        let keys: [String]?
    }

    /// The last write of each kind to each table.
    static let known = Mutex<[Target: RowWrite]>([:])

    let names: [String]
    let sql: String

    init(_ target: Target, names: [String]) {
        self.names = names
        let insert =
            "INSERT INTO \(target.table) (\(names.joined(separator: ", "))) VALUES (\(SQLQuery.placeholders(names.count)))"
        guard let keys = target.keys else {
            sql = insert
            return
        }
        let updates = names.filter { !keys.contains($0) }.map { "\($0) = excluded.\($0)" }
        sql = "\(insert) ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
    }
}

// MARK: - Decoding

private struct RowDecoder: Decoder {
    let row: SQLRow
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw DamagedColumn("(a list)") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw DamagedColumn("(a value)") }

    struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: SQLRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { (try? row.value(columnName(key))) != nil }

        func decodeNil(forKey key: Key) throws -> Bool { try row.value(columnName(key)) == .null }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let column = columnName(key)
            // SQLite keeps an account spelled as a number as an integer.
            if case .integer(let number) = try row.value(column) { return String(number) }
            return try row.string(column)
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row.int(columnName(key)) }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row.bool(columnName(key)) }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let column = columnName(key)
            switch try row.value(column) {
            case .real(let number): return number
            case .integer(let number): return Double(number)
            default: throw DamagedColumn(column)
            }
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let column = columnName(key)
            guard T.self == Data.self, case .bytes(let bytes) = try row.value(column), let data = bytes as? T else {
                throw DamagedColumn(column)
            }
            return data
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { throw DamagedColumn(columnName(key)) }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DamagedColumn(columnName(key))
        }

        func superDecoder() throws -> any Decoder { throw DamagedColumn("(super)") }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw DamagedColumn(columnName(key)) }
    }
}

// MARK: - Encoding

private final class RowEncoder: Encoder {
    final class Storage {
        /// Whether to name the columns: only for a row type's first row (``RowNames``).
        let naming: Bool
        var names: [String] = []
        var values: [SQLValue] = []

        init(naming: Bool) { self.naming = naming }
    }

    let storage: Storage

    init(naming: Bool) { storage = Storage(naming: naming) }
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Columns<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("a row type is keyed") }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("a row type is keyed") }

    struct Columns<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] { [] }

        private func put(_ value: SQLValue, _ key: Key) {
            if storage.naming { storage.names.append(columnName(key)) }
            storage.values.append(value)
        }

        mutating func encodeNil(forKey key: Key) { put(.null, key) }
        mutating func encode(_ value: String, forKey key: Key) { put(.text(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Bool, forKey key: Key) { put(.boolean(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) { put(.real(value), key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) { put(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { put(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { put(value.sqlValue, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { put(value.sqlValue, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) {
            if let value { encode(value, forKey: key) } else { put(.null, key) }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            guard let bytes = value as? Data else {
                preconditionFailure("\(columnName(key)): a row type holds text, integers, booleans, reals and bytes")
            }
            put(.bytes(bytes), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { preconditionFailure("\(columnName(key)): a row type is flat") }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("\(columnName(key)): a row type is flat")
        }

        mutating func superEncoder() -> any Encoder { preconditionFailure("a row type is flat") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("a row type is flat") }
    }
}

extension SQLRow {
    /// The player a row names by its `platform` and `account` columns.
    public func user() throws -> UserID {
        guard let platform = Platform(rawValue: try string("platform")) else { throw DamagedColumn("platform") }
        if case .integer(let number) = try value("account") { return UserID(platform, number: number) }
        return UserID(platform, try string("account"))
    }

    /// A `player` row as the player it stores.
    public func player() throws -> Player { try decode(PlayerColumns.self).player() }

    /// A `game` row of `player`'s.
    public func game(of player: UserID) throws -> StoredGame {
        try adding(["platform": .text(player.platform.rawValue), "account": .text(player.value)])
            .decode(GameColumns.self).game()
    }

    /// A `chat_group` row with its chat's platform id (``SQLColumns/groupSelection``).
    public func group() throws -> Group { try decode(GroupColumns.self).group() }

    /// A queued message (``SQLColumns/messageSelection``) with its `id`, and the `live_post` that shows its live
    /// message when it has one; its key is `prefix` and the id.
    public func outboxEntry(keyPrefix prefix: String) throws -> OutboxEntry {
        let id = Int64(try int("id"))
        return OutboxEntry(
            id: id, message: try decode(MessageColumns.self).message(),
            livePost: try optionalString("live_post").map(MessageID.init), key: "\(prefix).\(id)")
    }

    /// A `practice_game` row of `player`'s.
    public func practiceGame(of player: UserID) throws -> PracticeGame {
        try decode(PracticeGameColumns.self).game(of: player)
    }
}

// The columns of each row type, as a sample row names them (its values unused): what statements select and
// write of it, never listed by hand.
extension SQLColumns {
    /// The columns of `player` but its id, as ``PlayerColumns`` names them, its key (`platform`, `account`) first.
    public static let playerColumns = SQLColumns(
        PlayerColumns(
            Player(id: UserID(.telegram, ""), displayName: "", language: .english, timeZone: "", rolloverHour: 0))
    ).names

    /// The columns of `game` but its player's key, as ``GameColumns`` names them.
    public static let gameColumns = SQLColumns(
        GameColumns(
            platform: "", account: "", language: "", puzzle: 0, hardMode: false, guesses: "", wonIn: nil, lost: false,
            finishedAt: nil),
        omitting: ["platform", "account"]
    ).names

    /// The columns of `chat_group` but its id, as ``GroupColumns`` names them.
    public static let groupColumns = SQLColumns(
        GroupColumns(
            Group(
                chat: ChatID(.telegram, ""), timeZone: "", rolloverHour: 0, language: .english,
                lastClosedPuzzle: PuzzleNumber(0))),
        omitting: ["platform", "address"]
    ).names

    /// The columns of `board_result` but its chat's and player's keys, as ``ResultColumns`` names them.
    public static let resultColumns = SQLColumns(
        ResultColumns(
            BoardResult(
                chat: ChatID(.telegram, ""), puzzle: PuzzleNumber(0), player: UserID(.telegram, ""),
                language: .english, guesses: nil, hardMode: false, finishedAt: Date(timeIntervalSince1970: 0))),
        omitting: ["platform", "address"]
    ).names

    /// The columns of `board_total` but its key (``totalsKey``), as ``TotalsColumns`` names them.
    public static let totalsColumns = SQLColumns(TotalsColumns(BoardTotals(), through: PuzzleNumber(0))).names

    /// The columns of `outbox` but its id, as ``MessageColumns`` names them.
    public static let messageColumns = SQLColumns(
        MessageColumns(
            platform: "", address: "", chatKind: "", html: "", replyTo: nil, thread: nil, buttons: nil,
            documentName: nil, document: nil, atMostOnce: false, silent: false, action: nil, live: nil,
            repostsLive: false, effect: nil, rich: nil)
    ).names

    /// `columns` of a table named `table` in a join, separated by commas.
    public static func list(_ columns: [String], of table: String? = nil) -> String {
        guard let table else { return columns.joined(separator: ", ") }
        return columns.map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The columns of `game` a game reads (not its analysis: large, and read alone), for ``SQLRow/game(of:)``.
    public static let gameSelection = list(gameColumns)

    /// ``gameSelection`` of a table named in a join with others that have such columns (`player.language`).
    public static func gameSelection(of table: String) -> String { list(gameColumns, of: table) }

    /// The columns of `board_result` a result reads, but for its chat's platform id, of a table named `table`.
    public static func resultSelection(of table: String) -> String { list(resultColumns, of: table) }

    /// What a statement selects of a group (its chat and `chat_group` joined, under those names): its chat's
    /// platform id and its settings, for ``SQLRow/group()``.
    public static let groupSelection =
        "chat.platform AS platform, chat.address AS address, " + list(groupColumns, of: "chat_group")

    /// What a statement selects of a queued message: its id and its columns, for ``SQLRow/outboxEntry(keyPrefix:)``.
    public static let messageSelection = list(["id"] + messageColumns, of: "outbox")
}

/// The columns of `practice_game` a practice game reads, as ``PracticeGameColumns`` names them.
let practiceGameColumns = SQLColumns(
    PracticeGameColumns(
        PracticeGame(
            player: UserID(.telegram, ""), number: 0, kind: .practice, language: .english, answer: "",
            hardMode: false, guesses: [], result: nil, startedAt: Date(timeIntervalSince1970: 0), finishedAt: nil,
            abandoned: false, hasFocus: false))
).names.joined(separator: ", ")
