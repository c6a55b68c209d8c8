public import TesseraEngine

// The outbox (``OutboxStorage``): the statements both dialects share.
extension SQLTransaction {
    public func pendingCount(in chat: ChatID) async throws -> Int {
        try await session.one(
            "SELECT count(*) AS pending FROM outbox WHERE platform = \(chat.platform.rawValue) AND address = \(chat.value)",
            table: "outbox"
        ) { try $0.int("pending") } ?? 0
    }

    public func enqueue(_ messages: [OutgoingMessage]) async throws {
        for message in messages {
            try await session.execute(SQLColumns(try MessageColumns(message)).insert(into: "outbox"))
        }
    }

    public func noteActivity(in chat: ChatID) async throws {
        try await session.execute(
            """
            UPDATE chat SET active = TRUE
            WHERE platform = \(chat.platform.rawValue) AND address = \(chat.value) AND NOT active
            """)
    }
}
