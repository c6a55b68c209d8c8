/// What every transport does the same way when it sends: the reaction's emoji, a long reply in parts, and the
/// refusal of an edit that would need more than one message.
extension ChatTransport {
    /// Sends `message` in the parts the platform's length allows, in order, through `send` (each part with its
    /// index, and whether it is the last); returns the posted id when the message was one part, the only kind
    /// that may stay live.
    public func sendInParts(
        _ message: OutgoingMessage, _ send: (_ index: Int, _ part: Markup, _ isLast: Bool) async throws -> MessageID?
    ) async throws -> MessageID? {
        let parts = message.parts(maximumLength: traits.maximumLength)
        var first: MessageID?
        for (index, part) in parts.enumerated() {
            let posted = try await send(index, part, index == parts.count - 1)
            if index == 0 { first = posted }
        }
        return parts.count == 1 ? first : nil
    }

    /// Refuses an edit whose new text needs more than one message: the runtime then posts it anew.
    public func checkEditable(_ message: OutgoingMessage) throws {
        guard message.fits(maximumLength: traits.maximumLength) else {
            throw TransportError.editRefused("the new text needs more than one message")
        }
    }
}

extension OutgoingMessage.Reaction {
    /// 👌 for counted, 🤔 for already counted or nothing to do: both in the set Telegram lets bots react with,
    /// and plain annotations on Matrix.
    public var emoji: String {
        switch self {
        case .counted: "👌"
        case .notCounted: "🤔"
        }
    }
}
