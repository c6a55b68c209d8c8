public import TesseraCore
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

    public func players(_ ids: [UserID]) async throws -> [Player] {
        var players: [Player] = []
        for (platform, accounts) in Dictionary(grouping: ids, by: \.platform) {
            players += try await session.all(
                """
                SELECT * FROM player WHERE platform = \(platform.rawValue)
                AND account IN (\(list: accounts.map { session.account($0) }))
                """, table: "player"
            ) { try $0.player() }
        }
        return players
    }

    public func members(in chat: ChatID, playing language: Language, puzzle: PuzzleNumber) async throws -> Set<UserID> {
        guard let chatKey = try await rowID(of: chat) else { return [] }
        // Driven by the games of the puzzle in that language (game_by_puzzle), not by a large group's members:
        // the other language's games are few there.
        return Set(
            try await session.all(
                """
                SELECT p.platform, p.account FROM game g
                JOIN chat_member m ON m.chat_id = \(chatKey) AND m.player_id = g.player_id
                JOIN player p ON p.id = g.player_id
                WHERE g.puzzle = \(puzzle.rawValue) AND g.language = \(language.rawValue) AND g.guesses <> ''
                """, table: "player"
            ) { try $0.user() })
    }

    public func removeMember(_ player: UserID, from chat: ChatID) async throws -> Bool {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return false }
        return try await session.changes(
            "DELETE FROM chat_member WHERE chat_id = \(chatKey) AND player_id = \(key)") > 0
    }
}
