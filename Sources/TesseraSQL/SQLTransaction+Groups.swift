public import TesseraEngine

// Groups (``GroupStorage``): the statements both dialects share.
extension SQLTransaction {
    public func removeMember(_ player: UserID, from chat: ChatID) async throws -> Bool {
        guard let key = try await rowID(of: player), let chatKey = try await rowID(of: chat) else { return false }
        return try await !session.rows(
            "DELETE FROM chat_member WHERE chat_id = \(chatKey) AND player_id = \(key) RETURNING 1"
        ).isEmpty
    }
}
