public import TesseraEngine

// Groups (``GroupStorage``): the statements both dialects share.
extension SQLTransaction {
    public func group(_ chat: ChatID) async throws -> Group? {
        try await session.one(
            """
            SELECT \(unescaped: SQLColumns.groupSelection) FROM chat JOIN chat_group ON chat_group.id = chat.id
            WHERE chat.platform = \(chat.platform.rawValue) AND chat.address = \(chat.value)
            """, table: "chat_group"
        ) { try $0.group() }
    }

    public func save(_ group: Group) async throws {
        let columns = SQLColumns(
            GroupColumns(group), leading: [("id", .integer(try await storedRowID(of: group.chat)))],
            omitting: ["platform", "address"])
        try await session.execute(columns.upsert(into: "chat_group", keys: ["id"]))
    }

    public func groups(of player: UserID) async throws -> [Group] {
        guard let key = try await rowID(of: player) else { return [] }
        return try await session.all(
            """
            SELECT \(unescaped: SQLColumns.groupSelection) FROM chat_member
            JOIN chat_group ON chat_group.id = chat_member.chat_id JOIN chat ON chat.id = chat_member.chat_id
            WHERE chat_member.player_id = \(key)
            """, table: "chat_group"
        ) { try $0.group() }
    }

    public func followers(of chat: ChatID) async throws -> [Player] {
        try await session.all(
            "SELECT * FROM player WHERE platform = \(chat.platform.rawValue) AND follows_group = \(chat.value)",
            table: "player"
        ) { try $0.player() }
    }

    public func removeMember(_ player: UserID, from chat: ChatID) async throws -> Bool {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return false }
        return try await !session.rows(
            "DELETE FROM chat_member WHERE chat_id = \(chatKey) AND player_id = \(key) RETURNING 1"
        ).isEmpty
    }
}
