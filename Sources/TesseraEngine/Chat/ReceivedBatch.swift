/// Updates received together.
public struct ReceivedBatch: Sendable {
    /// The messages for the engine; updates the bot does not handle are left out but still counted in
    /// ``nextPosition``.
    public var messages: [ChatMessage]
    /// The position to pass to the next receive.
    public var nextPosition: String
    /// Chats the platform moved (a group becoming a supergroup): their data moves along.
    public var migrations: [(from: ChatID, to: ChatID)]

    public init(messages: [ChatMessage], nextPosition: String, migrations: [(from: ChatID, to: ChatID)] = []) {
        self.messages = messages
        self.nextPosition = nextPosition
        self.migrations = migrations
    }
}
