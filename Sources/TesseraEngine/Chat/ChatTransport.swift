/// A chat platform as the engine needs it: a stream of messages in order, and a way to send replies.
///
/// Adapters implement it (`TelegramTransport`, `ConsoleTransport`); they classify failures as
/// ``TransportError`` so the service knows whether to wait, retry, drop or stop.
public protocol ChatTransport: Sendable {
    /// A stable name under which the store keeps this transport's position.
    var name: String { get }

    /// The platform whose chats and people it serves: the outbox messages it sends are those to its chats.
    var platform: Platform { get }

    /// What the platform can do, for the engine to adapt what it sends.
    var traits: PlatformTraits { get }

    /// Waits for the updates after `position` (long polling), and returns them with the position that
    /// follows them. Returning means nothing is confirmed yet: the caller stores the new position with the
    /// updates' effects and passes it to the next call.
    ///
    /// A position is the platform's own token (Telegram's next `update_id`, Matrix's `next_batch`), opaque to
    /// everyone else; nil is the first start. The transport never returns an update at or before `position`,
    /// nor one twice in a batch, even when its platform sends it again.
    func receive(after position: String?) async throws -> ReceivedBatch

    /// Sends one message; returns the platform's id of the message it posted, when it posted one.
    ///
    /// `key` is the same each time this message is sent again (a retry, a restart after a crash) and never
    /// names another message: a platform that deduplicates by the client's key (Matrix's transaction id)
    /// posts it once.
    @discardableResult
    func send(_ message: OutgoingMessage, key: String) async throws -> MessageID?

    /// Edits a message the bot posted to read as `message` (its text and buttons). Throws
    /// ``TransportError/editRefused(_:)`` when the platform will not (the message is gone or too old); the
    /// service then posts it anew. A platform without edits always throws that.
    func edit(_ posted: MessageID, toRead message: OutgoingMessage, key: String) async throws

    /// Whether a user administers a group chat (may change its settings). Implementations may cache the
    /// answer briefly.
    func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool

    /// Whether the bot may delete other members' messages in a group. Implementations may cache the answer
    /// briefly.
    func mayDeleteMessages(in chat: ChatID) async throws -> Bool
}
