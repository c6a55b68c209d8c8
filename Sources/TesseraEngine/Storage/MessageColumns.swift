public import Foundation
import TesseraPictures

/// A row of `outbox`: a queued reply as every store keeps it (``PlayerColumns`` says more).
public struct MessageColumns: Sendable, Hashable, Codable {
    public var platform: String
    public var address: String
    /// `chat_kind`
    public var chatKind: String
    public var html: String
    /// `reply_to`
    public var replyTo: String?
    public var thread: String?
    /// JSON of the rows of buttons; nil for none.
    public var buttons: String?
    /// `document_name`
    public var documentName: String?
    public var document: Data?
    /// `at_most_once`
    public var atMostOnce: Bool
    public var silent: Bool
    /// JSON of the action; nil for a plain post.
    public var action: String?
    public var live: String?
    /// `reposts_live`
    public var repostsLive: Bool
    public var effect: String?
    /// JSON of the ``RichLayout``.
    public var rich: String?
    /// JSON of the ``Picture``, drawn when the message is sent.
    public var picture: String?

    public init(
        platform: String, address: String, chatKind: String, html: String, replyTo: String?, thread: String?,
        buttons: String?, documentName: String?, document: Data?, atMostOnce: Bool, silent: Bool, action: String?,
        live: String?, repostsLive: Bool, effect: String?, rich: String?, picture: String? = nil
    ) {
        (self.platform, self.address, self.chatKind, self.html) = (platform, address, chatKind, html)
        (self.replyTo, self.thread, self.buttons) = (replyTo, thread, buttons)
        (self.documentName, self.document, self.atMostOnce, self.silent) = (documentName, document, atMostOnce, silent)
        (self.action, self.live, self.repostsLive, self.effect, self.rich) = (action, live, repostsLive, effect, rich)
        self.picture = picture
    }

    public init(_ message: OutgoingMessage) throws {
        self.init(
            platform: message.chat.platform.rawValue, address: message.chat.value,
            chatKind: message.chatKind.rawValue, html: message.html, replyTo: message.replyTo?.value,
            thread: message.thread?.value,
            buttons: message.buttons.isEmpty
                ? nil : String(decoding: try JSONEncoder().encode(message.buttons), as: UTF8.self),
            documentName: message.document?.fileName, document: message.document.map { Data($0.contents) },
            atMostOnce: message.atMostOnce, silent: message.silent,
            action: message.action == .post
                ? nil : String(decoding: try JSONEncoder().encode(message.action), as: UTF8.self),
            live: message.live, repostsLive: message.repostsLive, effect: message.effect?.rawValue,
            rich: message.rich?.json,
            picture: try message.picture.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) })
    }

    /// The message back; throws ``DamagedColumn`` for a column that cannot be read.
    public func message() throws -> OutgoingMessage {
        guard let platform = Platform(rawValue: platform) else { throw DamagedColumn("platform") }
        guard let kind = ChatMessage.ChatKind(rawValue: chatKind) else { throw DamagedColumn("chat_kind") }
        var message = OutgoingMessage(
            chat: ChatID(platform, address), chatKind: kind, html: html, replyTo: replyTo.map(MessageID.init),
            thread: thread.map(MessageID.init),
            buttons: try buttons.map { try Self.decoded($0, column: "buttons") } ?? [],
            document: documentName.map { .init(fileName: $0, contents: Array(document ?? Data())) },
            atMostOnce: atMostOnce, silent: silent,
            action: try action.map { try Self.decoded($0, column: "action") } ?? .post,
            live: live, repostsLive: repostsLive)
        // An effect this build does not know is left out: it only decorates the message.
        message.effect = effect.flatMap(OutgoingMessage.Effect.init)
        message.rich = rich.flatMap(RichLayout.init(json:))
        // A picture that cannot be read (damaged, or beyond its bounds) is left out: the text is the message.
        message.picture = picture.flatMap { try? JSONDecoder().decode(Picture.self, from: Data($0.utf8)) }
        return message
    }

    private static func decoded<Value: Decodable>(_ json: String, column: String) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        } catch {
            throw DamagedColumn(column)
        }
    }
}
