public import TesseraEngine

// Groups (``GroupStorage``): the statements both dialects share.
extension SQLTransaction {
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
