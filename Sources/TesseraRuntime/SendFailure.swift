import TesseraEngine

/// What the sender does about one message whose send failed: decided from the error alone, so that each
/// platform error's handling reads as one table (and is tested as one). ``SendService`` carries it out.
enum SendFailure: Equatable {
    /// The platform asked to slow down: the chat (the one it named, or the message's) waits this long, and the
    /// message is tried again after it.
    case waitInChat(ChatID, for: Duration)
    /// The bot may not post there any more: the chat is marked inactive, and its messages are dropped.
    case deactivate(ChatID, reason: String)
    /// The chat has a new id: everything of it moves there.
    case move(from: ChatID, to: ChatID)
    /// The platform will never take this message: it is dropped, with an error in the log.
    case drop(reason: String)
    /// This chat's own trouble while others get through: the attempt is counted, and the chat waits on its own
    /// backoff (``retry(afterAttempts:maximum:backoff:)``) or the message is given up.
    case retryChat
    /// Nothing gets through (the network, the platform): every chat waits on the service's backoff, and
    /// nothing is given up.
    case pauseSending
    /// Nothing will work until someone fixes the configuration: the service stops.
    case stop

    /// `sendingWorks`: other sends of this pass, or any in the last minute, went through.
    init(_ error: TransportError, chat: ChatID, sendingWorks: Bool) {
        switch error {
        case .rateLimited(let delay, let limited): self = .waitInChat(limited ?? chat, for: delay)
        case .chatUnavailable(let unavailable, let reason): self = .deactivate(unavailable, reason: reason)
        case .chatMigrated(let from, let to): self = .move(from: from, to: to)
        // A picture refused was sent again as its text already (``SendService``): a refusal here is the text's.
        case .messageRejected(let reason), .editRefused(let reason), .pictureRefused(let reason):
            self = .drop(reason: reason)
        case .transient: self = sendingWorks ? .retryChat : .pauseSending
        case .fatal: self = .stop
        }
    }

    /// A chat's retry after its message failed `attempts` times: nil once it has had `maximum`, when the
    /// message is given up rather than tried forever; otherwise how long the chat waits.
    static func retry(afterAttempts attempts: Int, maximum: Int, backoff: Backoff) -> Duration? {
        attempts >= maximum ? nil : backoff.delay(forAttempt: attempts - 1)
    }
}
