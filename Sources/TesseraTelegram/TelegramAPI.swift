import Foundation
import TesseraEngine

/// The parts of the Bot API's JSON that Tessera reads (https://core.telegram.org/bots/api).
enum TelegramAPI {
    /// Every response: `ok` with a `result`, or an error code, a description and sometimes parameters.
    struct Envelope<Result: Decodable>: Decodable {
        let ok: Bool
        let result: Result?
        let errorCode: Int?
        let description: String?
        let parameters: ResponseParameters?

        enum CodingKeys: String, CodingKey {
            case ok, result, description, parameters
            case errorCode = "error_code"
        }
    }

    struct ResponseParameters: Decodable {
        let retryAfter: Int?
        let migrateToChatID: Int64?

        enum CodingKeys: String, CodingKey {
            case retryAfter = "retry_after"
            case migrateToChatID = "migrate_to_chat_id"
        }
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
            case message
            case updateID = "update_id"
            case editedMessage = "edited_message"
            case callbackQuery = "callback_query"
            case membership = "my_chat_member"
            case inlineQuery = "inline_query"
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

        enum CodingKeys: String, CodingKey {
            case chat, from
            case oldChatMember = "old_chat_member"
            case newChatMember = "new_chat_member"
        }

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

        enum CodingKeys: String, CodingKey {
            case from, chat, text
            case messageID = "message_id"
            case migrateToChatID = "migrate_to_chat_id"
            case messageThreadID = "message_thread_id"
            case isTopicMessage = "is_topic_message"
        }
    }

    struct User: Decodable {
        let id: Int64
        let isBot: Bool?
        let firstName: String?
        let lastName: String?
        let username: String?
        let languageCode: String?

        enum CodingKeys: String, CodingKey {
            case id, username
            case languageCode = "language_code"
            case isBot = "is_bot"
            case firstName = "first_name"
            case lastName = "last_name"
        }

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

        enum CodingKeys: String, CodingKey {
            case id, username
            case canReadAllGroupMessages = "can_read_all_group_messages"
            case supportsInlineQueries = "supports_inline_queries"
        }
    }

    struct SentMessage: Decodable {
        let messageID: Int64

        enum CodingKeys: String, CodingKey {
            case messageID = "message_id"
        }
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

        enum CodingKeys: String, CodingKey {
            case offset, timeout, limit
            case allowedUpdates = "allowed_updates"
        }
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

        enum CodingKeys: String, CodingKey {
            case text
            case disableNotification = "disable_notification"
            case chatID = "chat_id"
            case messageThreadID = "message_thread_id"
            case parseMode = "parse_mode"
            case replyParameters = "reply_parameters"
            case replyMarkup = "reply_markup"
            case linkPreviewOptions = "link_preview_options"
        }
    }

    struct EditMessageText: Encodable {
        let chatID: Int64
        let messageID: Int64
        let text: String
        let parseMode = "HTML"
        let replyMarkup: InlineKeyboardMarkup?
        let linkPreviewOptions = LinkPreviewOptions()

        enum CodingKeys: String, CodingKey {
            case text
            case chatID = "chat_id"
            case messageID = "message_id"
            case parseMode = "parse_mode"
            case replyMarkup = "reply_markup"
            case linkPreviewOptions = "link_preview_options"
        }
    }

    struct DeleteMessage: Encodable {
        let chatID: Int64
        let messageID: Int64

        enum CodingKeys: String, CodingKey {
            case chatID = "chat_id"
            case messageID = "message_id"
        }
    }

    /// `answerInlineQuery` with at most one article, or none and a button that opens the direct chat.
    struct AnswerInlineQuery: Encodable {
        struct Article: Encodable {
            struct Content: Encodable {
                let messageText: String
                let parseMode = "HTML"

                enum CodingKeys: String, CodingKey {
                    case messageText = "message_text"
                    case parseMode = "parse_mode"
                }
            }

            let type = "article"
            let id: String
            let title: String
            let inputMessageContent: Content

            enum CodingKeys: String, CodingKey {
                case type, id, title
                case inputMessageContent = "input_message_content"
            }
        }

        struct ResultsButton: Encodable {
            let text: String
            let startParameter: String

            enum CodingKeys: String, CodingKey {
                case text
                case startParameter = "start_parameter"
            }
        }

        let inlineQueryID: String
        let results: [Article]
        /// The answer is the asker's own result, and changes as they play: not cached, not shared.
        let cacheTime = 0
        let isPersonal = true
        let button: ResultsButton?

        enum CodingKeys: String, CodingKey {
            case results, button
            case inlineQueryID = "inline_query_id"
            case cacheTime = "cache_time"
            case isPersonal = "is_personal"
        }
    }

    struct SetMessageReaction: Encodable {
        struct Emoji: Encodable {
            let type = "emoji"
            let emoji: String
        }

        let chatID: Int64
        let messageID: Int64
        let reaction: [Emoji]

        enum CodingKeys: String, CodingKey {
            case reaction
            case chatID = "chat_id"
            case messageID = "message_id"
        }
    }

    struct InlineKeyboardMarkup: Encodable {
        struct Button: Encodable {
            let text: String
            /// One of three: data sent back when pressed, a link to open, or a query to post through the bot in
            /// a chat the presser picks.
            var callbackData: String?
            var url: String?
            var switchInlineQuery: String?

            enum CodingKeys: String, CodingKey {
                case text, url
                case callbackData = "callback_data"
                case switchInlineQuery = "switch_inline_query"
            }
        }

        let inlineKeyboard: [[Button]]

        enum CodingKeys: String, CodingKey {
            case inlineKeyboard = "inline_keyboard"
        }

        /// nil for a message without buttons. A button that opens the direct chat becomes a deep link,
        /// `https://t.me/<bot>?start=<parameter>`; one that posts elsewhere opens the chat picker when the bot
        /// has inline mode, and sends its data back otherwise.
        init?(_ rows: [[OutgoingMessage.Button]], botUsername: String?, inlineMode: Bool) {
            guard !rows.isEmpty else { return nil }
            inlineKeyboard = rows.map { row in
                row.compactMap { button in
                    if let query = button.postQuery, inlineMode {
                        return Button(text: button.text, switchInlineQuery: query)
                    }
                    guard let start = button.directChatStart else {
                        return Button(text: button.text, callbackData: button.data)
                    }
                    guard let botUsername else { return nil }
                    return Button(text: button.text, url: "https://t.me/\(botUsername)?start=\(start)")
                }
            }
        }
    }

    struct ReplyParameters: Encodable {
        let messageID: Int64
        let allowSendingWithoutReply = true

        enum CodingKeys: String, CodingKey {
            case messageID = "message_id"
            case allowSendingWithoutReply = "allow_sending_without_reply"
        }
    }

    struct LinkPreviewOptions: Encodable {
        let isDisabled = true

        enum CodingKeys: String, CodingKey {
            case isDisabled = "is_disabled"
        }
    }

    struct AnswerCallbackQuery: Encodable {
        let callbackQueryID: String

        enum CodingKeys: String, CodingKey {
            case callbackQueryID = "callback_query_id"
        }
    }

    struct SetMyCommands: Encodable {
        struct Command: Encodable {
            let command: String
            let description: String
        }

        let commands: [Command]
        /// nil: the menu for everyone whose language has no menu of its own.
        let languageCode: String?

        enum CodingKeys: String, CodingKey {
            case commands
            case languageCode = "language_code"
        }
    }

    struct DeleteWebhook: Encodable {
        let dropPendingUpdates = false

        enum CodingKeys: String, CodingKey {
            case dropPendingUpdates = "drop_pending_updates"
        }
    }

    struct GetChatMember: Encodable {
        let chatID: Int64
        let userID: Int64

        enum CodingKeys: String, CodingKey {
            case chatID = "chat_id"
            case userID = "user_id"
        }
    }

    struct ChatMember: Decodable {
        /// creator, administrator, member, restricted, left or kicked.
        let status: String
        /// For an administrator: whether it may delete other members' messages.
        let canDeleteMessages: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case canDeleteMessages = "can_delete_messages"
        }
    }

    struct NoParameters: Encodable {}
}
