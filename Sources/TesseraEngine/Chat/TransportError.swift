/// A transport failure, classified.
public enum TransportError: Error, CustomStringConvertible {
    /// Worth retrying after a pause: network errors, timeouts, server errors, a competing poller.
    case transient(String)
    /// The platform asked to slow down; retry after the delay (for one chat, or for everything).
    case rateLimited(retryAfter: Duration, chat: ChatID?)
    /// The bot may not post in that chat any more (blocked, kicked); its messages are dropped.
    case chatUnavailable(ChatID, reason: String)
    /// The chat has a new id; messages go there instead.
    case chatMigrated(from: ChatID, to: ChatID)
    /// The platform refused this one message for good (malformed); it is dropped.
    case messageRejected(String)
    /// The platform would not take the message's picture (too large, an upload refused): the sender posts the
    /// text without it, once, with one warning.
    case pictureRefused(String)
    /// The platform will not edit that message (deleted, too old, no edits at all): post it anew instead.
    case editRefused(String)
    /// Nothing will work until someone fixes the configuration (a wrong token): the service stops.
    case fatal(String)

    /// The longest wait a platform's answer can ask for: a larger `retry_after` (or none that can be read) would
    /// stall the bot for as long as a hostile or broken server liked.
    public static let longestRetryAfter: Duration = .seconds(3600)

    /// ``rateLimited(retryAfter:chat:)`` for the delay a platform asked for in `milliseconds`, within one
    /// hundred milliseconds and ``longestRetryAfter``; nil (no delay given) waits a second.
    public static func rateLimited(milliseconds: Int?, chat: ChatID?) -> TransportError {
        let longest = Int(longestRetryAfter.components.seconds) * 1000
        return .rateLimited(retryAfter: .milliseconds(min(max(milliseconds ?? 1000, 100), longest)), chat: chat)
    }

    public var description: String {
        switch self {
        case .transient(let reason): "temporary failure: \(reason)"
        case .rateLimited(let delay, let chat): "rate limited for \(delay)\(chat.map { " in chat \($0)" } ?? "")"
        case .chatUnavailable(let chat, let reason): "chat \(chat) is unavailable: \(reason)"
        case .chatMigrated(let from, let to): "chat \(from) moved to \(to)"
        case .messageRejected(let reason): "message rejected: \(reason)"
        case .pictureRefused(let reason): "picture refused: \(reason)"
        case .editRefused(let reason): "edit refused: \(reason)"
        case .fatal(let reason): reason
        }
    }
}
