import Foundation
import TesseraEngine

/// The parts of the Bot API's JSON that Tessera reads and writes (https://core.telegram.org/bots/api).
///
/// The API's keys are snake case and these types' properties are Swift's camel case (`chat_id` is `chatID`):
/// ``encoder`` and ``decoder`` convert between them, so only a property named otherwise has a coding key.
enum TelegramAPI {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        // Foundation's own conversion gives `chatId`; Swift spells it `chatID`.
        decoder.keyDecodingStrategy = .custom { path in
            let parts = (path.last?.stringValue ?? "").split(separator: "_", omittingEmptySubsequences: false)
            let camel = parts.enumerated().map { index, part in
                index == 0 ? String(part) : part == "id" ? "ID" : part.prefix(1).uppercased() + part.dropFirst()
            }
            return CodingKeyName(stringValue: camel.joined())
        }
        return decoder
    }

    private struct CodingKeyName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Every response: `ok` with a `result`, or an error code, a description and sometimes parameters.
    struct Envelope<Result: Decodable>: Decodable {
        let ok: Bool
        let result: Result?
        let errorCode: Int?
        let description: String?
        let parameters: ResponseParameters?

    }

    struct ResponseParameters: Decodable {
        let retryAfter: Int?
        let migrateToChatID: Int64?

    }

    /// An update: a new or edited message, or a press of an inline button. One that could not be read still
    /// has an id, so the offset moves past it.
    struct Update: Decodable {
        let updateID: Int64
        let message: Message?
        /// Whether ``message`` is an edit of an earlier one (`edited_message`).
        let isEdit: Bool
        let callbackQuery: CallbackQuery?
        /// The bot's own membership of a chat changed (`my_chat_member`).
        let membership: ChatMemberUpdated?
        /// Someone typed the bot's name to post through it (`inline_query`).
        let inlineQuery: InlineQuery?
        let problem: String?

        enum CodingKeys: String, CodingKey {
            case message, updateID, editedMessage, callbackQuery, inlineQuery
            /// `my_chat_member`, as ``TelegramAPI/decoder`` names it.
            case membership = "myChatMember"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            updateID = try container.decode(Int64.self, forKey: .updateID)
            var message: Message?
            var isEdit = false
            var callbackQuery: CallbackQuery?
            var membership: ChatMemberUpdated?
            var inlineQuery: InlineQuery?
            var problem: String?
            do {
                let new = try container.decodeIfPresent(Message.self, forKey: .message)
                let edited = try container.decodeIfPresent(Message.self, forKey: .editedMessage)
                message = new ?? edited
                isEdit = new == nil && edited != nil
                callbackQuery = try container.decodeIfPresent(CallbackQuery.self, forKey: .callbackQuery)
                membership = try container.decodeIfPresent(ChatMemberUpdated.self, forKey: .membership)
                inlineQuery = try container.decodeIfPresent(InlineQuery.self, forKey: .inlineQuery)
            } catch {
                message = nil
                callbackQuery = nil
                problem = "\(error)"
            }
            self.message = message
            self.isEdit = isEdit
            self.callbackQuery = callbackQuery
            self.membership = membership
            self.inlineQuery = inlineQuery
            self.problem = problem
        }
    }

    /// A change of a chat member's status; for `my_chat_member`, the bot's own.
    struct ChatMemberUpdated: Decodable {
        struct Member: Decodable {
            let status: String

            var isInTheChat: Bool { ["creator", "member", "administrator", "restricted"].contains(status) }
        }

        let chat: Chat
        let from: User
        let oldChatMember: Member
        let newChatMember: Member

        /// The bot was added: from outside the chat to inside it.
        var addsTheBot: Bool { !oldChatMember.isInTheChat && newChatMember.isInTheChat }
    }

    /// Someone typed `@bot …` in a chat, or pressed a button that does it for them.
    struct InlineQuery: Decodable {
        let id: String
        let from: User
        let query: String
    }

    /// A press of an inline button under one of the bot's messages.
    struct CallbackQuery: Decodable {
        let id: String
        let from: User
        /// The message with the button; missing when it is too old for the bot to see.
        let message: Message?
        let data: String?
    }

    struct Message: Decodable {
        let messageID: Int64
        let from: User?
        let chat: Chat
        let text: String?
        let migrateToChatID: Int64?
        /// The forum topic, when ``isTopicMessage`` (the id also appears on replies in plain groups).
        let messageThreadID: Int64?
        let isTopicMessage: Bool?

    }

    struct User: Decodable {
        let id: Int64
        let isBot: Bool?
        let firstName: String?
        let lastName: String?
        let username: String?
        let languageCode: String?

        /// The name people see: first and last name, else the username, else the id.
        var displayName: String {
            let name = [firstName, lastName].compactMap { $0 }.joined(separator: " ").trimmingCharacters(
                in: .whitespaces)
            return name.isEmpty ? (username.map { "@\($0)" } ?? "Player \(id)") : name
        }
    }

    struct Chat: Decodable {
        let id: Int64
        let type: String
    }

    struct Me: Decodable {
        let id: Int64
        let username: String?
        /// False while privacy mode is on: in groups the bot then sees commands, not pasted results.
        let canReadAllGroupMessages: Bool?
        /// Inline mode (@BotFather: /setinline), which the Share button needs to post in another chat.
        let supportsInlineQueries: Bool?

    }

    struct SentMessage: Decodable {
        let messageID: Int64

    }

    /// A photo sent: its sizes, the largest last, whose `file_id` sends it again without an upload.
    struct SentPhoto: Decodable {
        struct PhotoSize: Decodable {
            let fileID: String
            let width: Int
            let height: Int
        }

        let messageID: Int64
        let photo: [PhotoSize]?
    }

    /// `editMessageCaption`: the caption of a photo the bot sent, with its buttons.
    struct EditMessageCaption: Encodable {
        let chatID: Int64
        let messageID: Int64
        let caption: String
        let parseMode = "HTML"
        let replyMarkup: InlineKeyboardMarkup?
    }

    /// A result whose content does not matter (`editMessageText` returns the edited message, or `true` for one
    /// sent through inline mode): any JSON value is accepted.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    // MARK: - Requests

    struct GetUpdates: Encodable {
        let offset: Int64?
        let timeout: Int
        let limit: Int
        let allowedUpdates: [String]

    }

    struct SendMessage: Encodable {
        let chatID: Int64
        var text: String
        var parseMode: String?
        var replyParameters: ReplyParameters?
        let messageThreadID: Int64?
        let replyMarkup: InlineKeyboardMarkup?
        let linkPreviewOptions = LinkPreviewOptions()
        var disableNotification: Bool? = nil
        var messageEffectID: String? = nil
    }

    /// `sendRichMessage` (Bot API 10.1): a message with tables, written in HTML.
    struct SendRichMessage: Encodable {
        struct InputRichMessage: Encodable {
            let html: String
            /// Names are not links, hashtags or commands.
            let skipEntityDetection = true
        }

        let chatID: Int64
        let richMessage: InputRichMessage
        let replyParameters: ReplyParameters?
        let messageThreadID: Int64?
        let replyMarkup: InlineKeyboardMarkup?
        var disableNotification: Bool? = nil
    }

    struct EditMessageText: Encodable {
        let chatID: Int64
        let messageID: Int64
        let text: String
        let parseMode = "HTML"
        let replyMarkup: InlineKeyboardMarkup?
        let linkPreviewOptions = LinkPreviewOptions()

    }

    struct DeleteMessage: Encodable {
        let chatID: Int64
        let messageID: Int64

    }

    /// `answerInlineQuery` with at most one article, or none and a button that opens the direct chat.
    struct AnswerInlineQuery: Encodable {
        struct Article: Encodable {
            struct Content: Encodable {
                let messageText: String
                let parseMode = "HTML"

            }

            let type = "article"
            let id: String
            let title: String
            let inputMessageContent: Content

        }

        struct ResultsButton: Encodable {
            let text: String
            let startParameter: String

        }

        /// `InlineQueryResultCachedPhoto`: a picture Telegram already holds, with its caption.
        struct CachedPhoto: Encodable {
            let type = "photo"
            let id: String
            let photoFileID: String
            let title: String
            let caption: String
            let parseMode = "HTML"
        }

        enum Result: Encodable {
            case article(Article)
            case cachedPhoto(CachedPhoto)

            func encode(to encoder: any Encoder) throws {
                switch self {
                case .article(let article): try article.encode(to: encoder)
                case .cachedPhoto(let photo): try photo.encode(to: encoder)
                }
            }
        }

        let inlineQueryID: String
        let results: [Result]
        /// The answer is the asker's own result, and changes as they play: not cached, not shared.
        let cacheTime = 0
        let isPersonal = true
        let button: ResultsButton?

    }

    struct SetMessageReaction: Encodable {
        struct Emoji: Encodable {
            let type = "emoji"
            let emoji: String
        }

        let chatID: Int64
        let messageID: Int64
        let reaction: [Emoji]

    }

    struct InlineKeyboardMarkup: Encodable {
        struct Button: Encodable {
            struct CopyText: Encodable {
                let text: String
            }

            let text: String
            /// One of four: data sent back when pressed, a link to open, a query to post through the bot in a
            /// chat the presser picks, or text to copy.
            var callbackData: String?
            var url: String?
            var switchInlineQuery: String?
            var copyText: CopyText?
            /// `success` (green) or `danger` (red); nil: the app's own.
            var style: String?
        }

        let inlineKeyboard: [[Button]]

        /// nil for a message without buttons. A button that opens the direct chat becomes a deep link,
        /// `https://t.me/<bot>?start=<parameter>`; one that posts elsewhere opens the chat picker when the bot
        /// has inline mode, and sends its data back otherwise.
        init?(_ rows: [[OutgoingMessage.Button]], botUsername: String?, inlineMode: Bool) {
            guard !rows.isEmpty else { return nil }
            inlineKeyboard = rows.map { row in
                row.compactMap { button in
                    var made: Button
                    if let query = button.postQuery, inlineMode {
                        made = Button(text: button.text, switchInlineQuery: query)
                    } else if let copied = button.copyText {
                        made = Button(text: button.text, copyText: Button.CopyText(text: copied))
                    } else if let start = button.directChatStart {
                        guard let botUsername else { return nil }
                        made = Button(text: button.text, url: "https://t.me/\(botUsername)?start=\(start)")
                    } else {
                        made = Button(text: button.text, callbackData: button.data)
                    }
                    made.style = button.style?.rawValue
                    return made
                }
            }
        }
    }

    struct ReplyParameters: Encodable {
        let messageID: Int64
        let allowSendingWithoutReply = true

    }

    struct LinkPreviewOptions: Encodable {
        let isDisabled = true

    }

    struct AnswerCallbackQuery: Encodable {
        let callbackQueryID: String

    }

    struct SetMyCommands: Encodable {
        struct Command: Encodable {
            let command: String
            let description: String
        }

        let commands: [Command]
        /// nil: the menu for everyone whose language has no menu of its own.
        let languageCode: String?

    }

    struct DeleteWebhook: Encodable {
        let dropPendingUpdates = false

    }

    struct GetChatMember: Encodable {
        let chatID: Int64
        let userID: Int64

    }

    struct ChatMember: Decodable {
        /// creator, administrator, member, restricted, left or kicked.
        let status: String
        /// For an administrator: whether it may delete other members' messages.
        let canDeleteMessages: Bool?
        /// For an administrator: whether it may set the tags of other members (Bot API 9.5).
        let canManageTags: Bool?
    }

    /// A tag beside a regular member's name; none removes it.
    struct SetChatMemberTag: Encodable {
        let chatID: Int64
        let userID: Int64
        let tag: String?
    }

    struct NoParameters: Encodable {}
}
