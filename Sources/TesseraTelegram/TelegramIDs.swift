public import TesseraEngine

// Telegram names chats, users and messages by integers; the engine keeps them as opaque text qualified by
// the platform. These convert at the transport's edge, and nowhere else.

extension PlatformID {
    /// A Telegram chat or user by its id: `ChatID.telegram(-1001234)`.
    public static func telegram(_ id: Int64) -> PlatformID { PlatformID(.telegram, String(id)) }

    /// Telegram's integer for an id this transport made; an id of another platform, or damaged, is refused.
    func telegramID() throws -> Int64 {
        guard platform == .telegram, let id = Int64(value) else {
            throw TransportError.messageRejected("\(self) is not a Telegram id; nothing was sent to it")
        }
        return id
    }
}

extension MessageID {
    /// A Telegram message by its `message_id`.
    public static func telegram(_ id: Int64) -> MessageID { MessageID(String(id)) }

    func telegramID() throws -> Int64 {
        guard let id = Int64(value) else {
            throw TransportError.messageRejected("message \(value) is not a Telegram message id")
        }
        return id
    }
}
