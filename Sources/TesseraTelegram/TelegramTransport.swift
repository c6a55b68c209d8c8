import Foundation
public import Logging
import Synchronization
public import TesseraEngine
public import TesseraHTTP
import TesseraPictures

/// The Telegram Bot API as a ``ChatTransport``: long polling with `getUpdates`, replies with `sendMessage`.
///
/// Failures are classified for the service: 429 waits `retry_after`; 5xx, network errors and 409 (a webhook
/// or a second poller) are retried with backoff; 401 stops the bot with a message about the token; 403 marks
/// the chat inactive; 400 with `migrate_to_chat_id` moves the chat. The token is never logged.
public final class TelegramTransport: ChatTransport {
    public struct Configuration: Sendable {
        public var token: String
        /// The Bot API server, without a trailing slash.
        public var apiURL: String
        /// `getUpdates` long-poll seconds (the Bot API allows up to 50) and the other requests' limits.
        public var times: PollingTimes

        public init(token: String, apiURL: String = "https://api.telegram.org", pollSeconds: Int = 50) {
            self.token = token
            self.apiURL = apiURL
            self.times = PollingTimes(pollSeconds: pollSeconds, sideCallTimeout: .seconds(3))
        }
    }

    /// The name its position and heartbeat are stored under.
    public static let transportName = "telegram"
    public let name = TelegramTransport.transportName
    public let platform = Platform.telegram
    /// Buttons, edits, reactions, spoilers, forum topics and photos: everything the engine can use. A message
    /// shows 4,096 characters (UTF-16 code units) once its HTML is parsed.
    public let traits = PlatformTraits(
        spoilers: true, threads: true, messageEffects: true, pictures: true, maximumLength: 4096,
        rateLimits: .telegram)
    private let configuration: Configuration
    private let http: JSONCall
    private let logger: Logger
    private let members = TrustedAnswers<String, TelegramAPI.ChatMember>()
    /// The bot's own user id, learned by ``prepare(commandMenus:)``, to ask about its rights in a group.
    private let botID = Mutex<Int64?>(nil)
    /// Learned by ``prepare(commandMenus:)``, for links that open the direct chat.
    private let username = Mutex<String?>(nil)
    /// Whether groups show the bot every message (privacy mode off), learned by ``prepare(commandMenus:)``.
    private let seesEveryMessage = Mutex(true)
    /// Whether the bot has inline mode, for the Share button; learned by ``prepare(commandMenus:)``.
    private let inlineMode = Mutex(false)
    /// Chats that refused a rich message: their boards are sent as text from then on, without asking again
    /// (until the bot restarts, or the set reaches ``richRefusalsKept`` and starts over).
    private let refusesRichMessages = Mutex(Set<Int64>())
    static let richRefusalsKept = 10_000
    /// The photos sent, by picture: sent again by `file_id`, with no upload.
    private let photos = UploadedPictures<String>()
    /// The longest caption a photo takes, in UTF-16 code units of its text (the documented 0–1024 characters).
    static let longestCaption = 1024

    public init(configuration: Configuration, client: any HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.http = JSONCall(client: client) { TransportError.transient($0) }
        self.logger = logger
    }

    /// Gets ready to poll: removes any webhook (it would make `getUpdates` fail with 409), learns the bot's
    /// username (for `/command@bot` in groups) and publishes the command menus.
    @discardableResult
    public func prepare(commandMenus: [CommandMenu] = []) async throws -> String {
        let _: Bool = try await call("deleteWebhook", TelegramAPI.DeleteWebhook())
        let me: TelegramAPI.Me = try await call("getMe", TelegramAPI.NoParameters())
        for menu in commandMenus {
            let _: Bool = try await call(
                "setMyCommands",
                TelegramAPI.SetMyCommands(
                    commands: menu.commands.map { .init(command: $0.name, description: $0.description) },
                    languageCode: menu.languageCode)
            )
        }
        guard let username = me.username else { throw TransportError.fatal("getMe returned no username for this bot") }
        self.username.withLock { $0 = username }
        botID.withLock { $0 = me.id }
        seesEveryMessage.withLock { $0 = me.canReadAllGroupMessages != false }
        inlineMode.withLock { $0 = me.supportsInlineQueries == true }
        if me.supportsInlineQueries != true {
            logger.notice(
                """
                Inline mode is off: the Share button sends the result to the player's chat to forward, instead of \
                posting it in a chat they pick. Turn it on with @BotFather: /setinline.
                """)
        }
        logger.info("Connected to Telegram", metadata: ["bot.username": "\(username)"])
        if me.canReadAllGroupMessages == false {
            logger.notice(
                """
                Privacy mode is on: in groups where the bot is not an administrator it sees only commands, so \
                pasted Wordle results are not counted there. Turn it off with @BotFather: /setprivacy, Disable.
                """)
        }
        return username
    }

    public func receive(after position: String?) async throws -> ReceivedBatch {
        let offset = try position.map(Self.offset)
        let received: [TelegramAPI.Update] = try await call(
            "getUpdates",
            TelegramAPI.GetUpdates(
                offset: offset,
                timeout: configuration.times.pollSeconds,
                limit: 100,
                allowedUpdates: ["message", "edited_message", "callback_query", "my_chat_member", "inline_query"]
            ),
            timeout: configuration.times.pollTimeout
        )
        // Telegram may send an update again; one before the offset, or twice, was applied already.
        var seen = Set<Int64>()
        let updates = received.filter { $0.updateID >= offset ?? .min && seen.insert($0.updateID).inserted }
        if updates.count < received.count {
            logger.notice(
                "Skipped updates Telegram sent again", metadata: ["updates": "\(received.count - updates.count)"])
        }
        var messages: [ChatMessage] = []
        var migrations: [(from: ChatID, to: ChatID)] = []
        // Presses are acknowledged (Telegram shows a spinner until then) all at once, with a short limit.
        await acknowledge(updates.compactMap(\.callbackQuery).map(\.id))
        for update in updates {
            if let problem = update.problem {
                logger.warning(
                    "Skipped an update that could not be read",
                    metadata: ["update.id": "\(update.updateID)", "error": "\(problem)"])
            }
            if let newID = update.message?.migrateToChatID, let old = update.message?.chat.id {
                migrations.append((.telegram(old), .telegram(newID)))
            } else if let message = read(update) {
                messages.append(message)
            }
        }
        // Never backwards, even when Telegram sends only what was applied already.
        let next = max(updates.map { $0.updateID + 1 }.max() ?? .min, offset ?? 0)
        return ReceivedBatch(messages: messages, nextPosition: String(next), migrations: migrations)
    }

    /// The message an update brings the engine: the bot added to a group, an inline query, a button press, or a
    /// message for the bot (not another bot's, nor a command for another bot); nil for anything else.
    private func read(_ update: TelegramAPI.Update) -> ChatMessage? {
        if let membership = update.membership {
            guard let event = membershipEvent(membership), Self.chatKind(membership.chat) == .group else { return nil }
            return ChatMessage(
                chat: .telegram(membership.chat.id), chatKind: .group, sender: .telegram(membership.from.id),
                senderName: membership.from.displayName, text: "", senderLanguage: membership.from.languageCode,
                event: event)
        }
        if let query = update.inlineQuery {
            // Not from a chat: the asker's direct chat stands for it (its id is theirs on Telegram).
            guard query.from.isBot != true else { return nil }
            return ChatMessage(
                chat: .telegram(query.from.id), chatKind: .direct, sender: .telegram(query.from.id),
                senderName: query.from.displayName, text: query.query, senderLanguage: query.from.languageCode,
                event: .query(id: query.id))
        }
        if let query = update.callbackQuery { return buttonPress(query) }
        guard let message = update.message, let text = message.text, let sender = message.from,
            sender.isBot != true, let kind = Self.chatKind(message.chat)
        else { return nil }
        var command: ChatCommand?
        switch commandSyntax.read(text) {
        case .forAnotherBot: return nil
        case .command(let read): command = read
        case .text: break
        }
        return ChatMessage(
            chat: .telegram(message.chat.id), chatKind: kind, sender: .telegram(sender.id),
            senderName: sender.displayName, text: text, command: command, messageID: .telegram(message.messageID),
            thread: message.isTopicMessage == true ? message.messageThreadID.map(MessageID.telegram) : nil,
            isEdited: update.isEdit, senderLanguage: sender.languageCode)
    }

    /// `getUpdates`' offset from a stored position; anything else means the database holds another
    /// platform's position under Telegram's name.
    private static func offset(_ position: String) throws -> Int64 {
        guard let offset = Int64(position) else {
            throw TransportError.fatal(
                "The stored Telegram position '\(position)' is not an update id: the database's transport_position "
                    + "table is damaged. Delete its 'telegram' row to start from Telegram's oldest unconfirmed update.")
        }
        return offset
    }

    /// The bot added to a chat; nil for other changes of its membership.
    private func membershipEvent(_ membership: TelegramAPI.ChatMemberUpdated) -> ChatEvent? {
        let new = membership.newChatMember
        guard new.isInTheChat else { return nil }
        if membership.addsTheBot {
            // An administrator sees every message whatever its privacy mode.
            return .added(seesEveryMessage: seesEveryMessage.withLock { $0 } || new.status == "administrator")
        }
        return nil
    }

    /// Telegram's commands: `/name`, in groups also `/name@bot`; a command for another bot is not delivered.
    private var commandSyntax: CommandSyntax {
        CommandSyntax(prefixes: ["/"], botUsername: username.withLock { $0 })
    }

    private static func chatKind(_ chat: TelegramAPI.Chat) -> ChatMessage.ChatKind? {
        switch chat.type {
        case "private": .direct
        case "group", "supergroup": .group
        default: nil
        }
    }

    /// Acknowledges button presses concurrently, each within ``Configuration/sideCallTimeout``; one that
    /// fails only leaves a spinner on that button for a while.
    private func acknowledge(_ queries: [String]) async {
        // Most batches have none; an empty group still costs a suspension on every poll.
        guard !queries.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            for id in queries {
                group.addTask {
                    do {
                        try await self.answerCallbackQuery(id: id)
                    } catch {
                        self.logger.notice("Could not acknowledge a button press", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
    }

    /// A button press as a message from the presser in the button's chat; the bot's answer comes as a message.
    private func buttonPress(_ query: TelegramAPI.CallbackQuery) -> ChatMessage? {
        guard let data = query.data, let message = query.message, query.from.isBot != true,
            let kind = Self.chatKind(message.chat)
        else { return nil }
        return ChatMessage(
            chat: .telegram(message.chat.id),
            chatKind: kind,
            sender: .telegram(query.from.id),
            senderName: query.from.displayName,
            text: "",
            thread: message.isTopicMessage == true ? message.messageThreadID.map(MessageID.telegram) : nil,
            button: data,
            senderLanguage: query.from.languageCode
        )
    }

    private func react(_ reaction: OutgoingMessage.Reaction, to message: MessageID, in chat: ChatID) async throws {
        let _: Bool = try await call(
            "setMessageReaction",
            TelegramAPI.SetMessageReaction(
                chatID: try chat.telegramID(), messageID: try message.telegramID(),
                reaction: [.init(emoji: reaction.emoji)]),
            chat: chat)
    }

    @discardableResult
    /// Telegram has no idempotency key: `key` is not used, and a message whose send was cut off after Telegram
    /// took it may be posted twice.
    public func send(_ message: OutgoingMessage, key: String) async throws -> MessageID? {
        guard try await !act(message) else { return nil }
        if let document = message.document { return try await sendDocument(document, message) }
        if let picture = message.picture {
            let captioned = Self.captions(message)
            let photo = try await sendPhoto(picture, caption: captioned ? message : nil, of: message)
            // A text too long for a caption follows the picture as a message of its own.
            if captioned { return photo }
        }
        let (chat, replyTo, thread) = (
            try message.chat.telegramID(), try message.replyTo?.telegramID(), try message.thread?.telegramID()
        )
        if let rich = message.rich, let sent = try await sendRich(rich, message) { return sent }
        return try await sendInParts(message) { index, chunk, isLast in
            let reply = index == 0 ? replyTo.map { TelegramAPI.ReplyParameters(messageID: $0) } : nil
            // Buttons go under the last part, where the question ends.
            let buttons =
                isLast
                ? TelegramAPI.InlineKeyboardMarkup(
                    message.buttons, botUsername: username.withLock { $0 }, inlineMode: inlineMode.withLock { $0 })
                : nil
            var request = TelegramAPI.SendMessage(
                chatID: chat, text: TelegramText.html(chunk), parseMode: "HTML", replyParameters: reply,
                messageThreadID: thread, replyMarkup: buttons)
            if message.silent { request.disableNotification = true }
            // Effects play in private chats only, over the message's first part.
            if index == 0, message.chatKind == .direct, let effect = message.effect {
                request.messageEffectID = effect.telegramID
            }
            while true {
                do {
                    let sent: TelegramAPI.SentMessage = try await call("sendMessage", request, chat: message.chat)
                    return .telegram(sent.messageID)
                } catch TransportError.messageRejected(let reason) {
                    // The words matter more than what Telegram objected to: drop that and send again.
                    guard let fallback = Self.fallback(for: request, of: chunk, rejectedBecause: reason) else {
                        throw TransportError.messageRejected(reason)
                    }
                    // Markup is escaped by construction: a refusal of it is a defect, worth a loud line.
                    logger.log(
                        level: request.parseMode != fallback.request.parseMode ? .critical : .warning,
                        "Telegram refused a message; \(fallback.change)", metadata: ["reason": "\(reason)"])
                    request = fallback.request
                }
            }
        }
    }

    /// `sendRichMessage`: a layout with its tables, in one message. Nil when it is not sent that way: too large
    /// for a rich message, or refused by the chat (now or before), which then gets the text instead.
    private func sendRich(_ layout: RichLayout, _ message: OutgoingMessage) async throws -> MessageID? {
        let chat = try message.chat.telegramID()
        guard TelegramText.fitsRichMessage(layout), !refusesRichMessages.withLock({ $0.contains(chat) }) else {
            return nil
        }
        var request = TelegramAPI.SendRichMessage(
            chatID: chat, richMessage: .init(html: TelegramText.richHTML(layout)),
            replyParameters: try message.replyTo.map { .init(messageID: try $0.telegramID()) },
            messageThreadID: try message.thread?.telegramID(),
            replyMarkup: TelegramAPI.InlineKeyboardMarkup(
                message.buttons, botUsername: username.withLock { $0 }, inlineMode: inlineMode.withLock { $0 }))
        if message.silent { request.disableNotification = true }
        do {
            let sent: TelegramAPI.SentMessage = try await call("sendRichMessage", request, chat: message.chat)
            return .telegram(sent.messageID)
        } catch TransportError.messageRejected(let reason) {
            // A reply to a message that is gone is the text's to handle (it is sent without the reply).
            let lowercased = reason.lowercased()
            guard !(lowercased.contains("not found") && lowercased.contains("repl")) else { return nil }
            logger.info("A chat refused a rich message; its boards go as text", metadata: ["reason": "\(reason)"])
            refusesRichMessages.withLock { refusing in
                if refusing.count >= Self.richRefusalsKept { refusing.removeAll() }
                refusing.insert(chat)
            }
            return nil
        }
    }

    /// Does what a message asks besides a post (a reaction, a deletion, an answer, a tag); false for a post, which
    /// the caller sends. A reaction without the message to mark is posted as text instead.
    private func act(_ message: OutgoingMessage) async throws -> Bool {
        switch message.action {
        case .post:
            return false
        case .react(let reaction):
            guard let target = message.replyTo else { return false }
            try await react(reaction, to: target, in: message.chat)
        case .delete:
            guard let target = message.replyTo else { return true }
            let _: Bool = try await call(
                "deleteMessage",
                TelegramAPI.DeleteMessage(chatID: try message.chat.telegramID(), messageID: try target.telegramID()),
                chat: message.chat)
        case .answerQuery(let id, let title):
            try await answerQuery(id, title: title, message: message)
        case .openDirectChat:
            // The engine offers a button to the direct chat instead: only a person can start one.
            throw TransportError.messageRejected("a Telegram bot cannot open a chat with someone")
        case .postPlayerData:
            throw OutgoingMessage.ungathered
        case .tagMember(let member, let tag):
            try await setTag(tag, of: member, in: message.chat)
        }
        return true
    }

    /// `editMessageText`, with the buttons. An edit that changes nothing is done; one Telegram will not make
    /// (the message deleted, too old, or the new text too long for one message) is refused.
    public func edit(_ posted: MessageID, toRead message: OutgoingMessage, key: String) async throws {
        try checkEditable(message)
        // A photo's caption is edited; its picture stays (nothing the bot edits changes one).
        if Self.captions(message) { return try await editCaption(posted, toRead: message) }
        let text = TelegramText.html(message.markup)
        let request = TelegramAPI.EditMessageText(
            chatID: try message.chat.telegramID(), messageID: try posted.telegramID(), text: text,
            replyMarkup: TelegramAPI.InlineKeyboardMarkup(
                message.buttons, botUsername: username.withLock { $0 }, inlineMode: inlineMode.withLock { $0 }))
        do {
            let _: TelegramAPI.Ignored = try await call("editMessageText", request, chat: message.chat)
        } catch TransportError.messageRejected(let reason) {
            if reason.lowercased().contains("not modified") { return }
            throw TransportError.editRefused(reason)
        }
    }

    /// `editMessageCaption`, with the buttons; as ``edit(_:toRead:key:)``, an edit that changes nothing is done.
    private func editCaption(_ posted: MessageID, toRead message: OutgoingMessage) async throws {
        let request = TelegramAPI.EditMessageCaption(
            chatID: try message.chat.telegramID(), messageID: try posted.telegramID(),
            caption: TelegramText.html(message.markup),
            replyMarkup: TelegramAPI.InlineKeyboardMarkup(
                message.buttons, botUsername: username.withLock { $0 }, inlineMode: inlineMode.withLock { $0 }))
        do {
            let _: TelegramAPI.Ignored = try await call("editMessageCaption", request, chat: message.chat)
        } catch TransportError.messageRejected(let reason) {
            if reason.lowercased().contains("not modified") { return }
            throw TransportError.editRefused(reason)
        }
    }

    /// `answerInlineQuery`: the html as one article to post (the picture with it as its caption, when this bot
    /// has sent that picture before, it shows no letters, since the asker may post it in any group, and the html
    /// fits a caption), or none and a button that opens the direct chat.
    private func answerQuery(_ id: String, title: String, message: OutgoingMessage) async throws {
        let html = TelegramText.html(message.markup)
        let result: TelegramAPI.AnswerInlineQuery.Result =
            if let picture = message.picture, !picture.showsLetters, Self.captions(message),
                let file = photos.name(of: picture)
            {
                .cachedPhoto(.init(id: "result", photoFileID: file, title: title, caption: html))
            } else {
                .article(.init(id: "result", title: title, inputMessageContent: .init(messageText: html)))
            }
        let answer =
            message.html.isEmpty
            ? TelegramAPI.AnswerInlineQuery(
                inlineQueryID: id, results: [], button: .init(text: title, startParameter: "play"))
            : TelegramAPI.AnswerInlineQuery(inlineQueryID: id, results: [result], button: nil)
        let _: Bool = try await call("answerInlineQuery", answer)
    }

    /// What to send instead of a message (`part`) Telegram refused, when something can be left out: markup it
    /// cannot parse (rendering should prevent that), or a reply to a message that is gone. Each is left out once.
    /// Plain text never shows what a spoiler hides: each spoiler stands as ``TelegramText/hiddenSpoiler``.
    static func fallback(for request: TelegramAPI.SendMessage, of part: Markup, rejectedBecause reason: String)
        -> (request: TelegramAPI.SendMessage, change: String)?
    {
        let reason = reason.lowercased()
        var fallback = request
        if reason.contains("can't parse entities"), request.parseMode != nil {
            fallback.text = part.plainText(spoiler: TelegramText.hiddenSpoiler)
            fallback.parseMode = nil
            return (
                fallback,
                part.containsSpoiler
                    ? "sending it as plain text, without what its spoilers hide" : "sending it as plain text"
            )
        }
        if reason.contains("not found"), reason.contains("repl"), request.replyParameters != nil {
            fallback.replyParameters = nil
            return (fallback, "sending it without the reply to a message that is gone")
        }
        return nil
    }

    /// `sendDocument`: a file upload, so the body is multipart rather than JSON; the text is the caption.
    private func sendDocument(_ document: OutgoingMessage.Document, _ message: OutgoingMessage) async throws
        -> MessageID?
    {
        var form = MultipartForm()
        form.add("chat_id", String(try message.chat.telegramID()))
        form.add("caption", TelegramText.html(message.markup))
        form.add("parse_mode", "HTML")
        if let thread = message.thread { form.add("message_thread_id", String(try thread.telegramID())) }
        if let replyTo = message.replyTo {
            let parameters = try TelegramAPI.encoder.encode(
                TelegramAPI.ReplyParameters(messageID: try replyTo.telegramID()))
            form.add("reply_parameters", String(decoding: parameters, as: UTF8.self))
        }
        form.addFile(
            "document", fileName: document.fileName, contentType: "application/json", contents: document.contents)
        guard let body = form.body() else {
            throw TransportError.messageRejected("sendDocument: the upload's boundary occurs in the file; not sent")
        }
        let sent: TelegramAPI.SentMessage = try await call(
            "sendDocument", body: body, contentType: form.contentType, chat: message.chat)
        return .telegram(sent.messageID)
    }

    /// Whether a message with a picture goes as one photo captioned with its text.
    static func captions(_ message: OutgoingMessage) -> Bool {
        message.picture != nil && message.fits(maximumLength: longestCaption)
    }

    /// `sendPhoto`: the picture uploaded (a multipart body) or, sent before, named by its `file_id`; the caption,
    /// the buttons and a win's effect go with it. A photo Telegram refuses is ``TransportError/pictureRefused(_:)``.
    private func sendPhoto(_ picture: Picture, caption: OutgoingMessage?, of message: OutgoingMessage) async throws
        -> MessageID
    {
        var form = MultipartForm()
        form.add("chat_id", String(try message.chat.telegramID()))
        let known = photos.name(of: picture)
        if let known {
            form.add("photo", known)
        } else {
            form.addFile(
                "photo", fileName: picture.fileName, contentType: "image/png", contents: await picture.drawnInTurn().png
            )
        }
        if let caption {
            form.add("caption", TelegramText.html(caption.markup))
            form.add("parse_mode", "HTML")
            let buttons = TelegramAPI.InlineKeyboardMarkup(
                caption.buttons, botUsername: username.withLock { $0 }, inlineMode: inlineMode.withLock { $0 })
            if let buttons {
                form.add("reply_markup", String(decoding: try TelegramAPI.encoder.encode(buttons), as: UTF8.self))
            }
        }
        if let thread = message.thread { form.add("message_thread_id", String(try thread.telegramID())) }
        if let replyTo = message.replyTo {
            let parameters = try TelegramAPI.encoder.encode(
                TelegramAPI.ReplyParameters(messageID: try replyTo.telegramID()))
            form.add("reply_parameters", String(decoding: parameters, as: UTF8.self))
        }
        if message.silent { form.add("disable_notification", "true") }
        if message.chatKind == .direct, let effect = message.effect { form.add("message_effect_id", effect.telegramID) }
        guard let body = form.body() else {
            throw TransportError.pictureRefused("sendPhoto: the upload's boundary occurs in the picture")
        }
        let sent: TelegramAPI.SentPhoto
        do {
            sent = try await call("sendPhoto", body: body, contentType: form.contentType, chat: message.chat)
        } catch TransportError.messageRejected(let reason) {
            throw TransportError.pictureRefused(reason)
        }
        if known == nil, let largest = sent.photo?.max(by: { $0.width * $0.height < $1.width * $1.height }) {
            photos.remember(largest.fileID, for: picture)
        }
        return .telegram(sent.messageID)
    }

    public func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool {
        let status = try await member(try user.telegramID(), in: chat).status
        return status == "creator" || status == "administrator"
    }

    /// Whether the bot is the group's creator, or an administrator with `can_delete_messages`.
    public func mayDeleteMessages(in chat: ChatID) async throws -> Bool {
        guard let bot = botID.withLock({ $0 }) else { return false }
        let member = try await member(bot, in: chat)
        return member.status == "creator" || (member.status == "administrator" && member.canDeleteMessages == true)
    }

    /// `setChatMemberTag`, only where the bot is an administrator with `can_manage_tags`, and only on a regular
    /// member (an administrator's title is their own): elsewhere nothing is tried. Telegram takes at most 16
    /// characters and no emoji; an empty tag removes the member's.
    private func setTag(_ tag: String, of member: UserID, in chat: ChatID) async throws {
        guard let bot = botID.withLock({ $0 }) else { return }
        let rights = try await self.member(bot, in: chat)
        guard rights.status == "creator" || (rights.status == "administrator" && rights.canManageTags == true) else {
            logger.debug(
                "Not tagging the season's champion: the bot may not manage tags here", metadata: ["chat": "\(chat)"])
            return
        }
        let status = try await self.member(try member.telegramID(), in: chat).status
        guard status == "member" || status == "restricted" else { return }
        let _: Bool = try await call(
            "setChatMemberTag",
            TelegramAPI.SetChatMemberTag(
                chatID: try chat.telegramID(), userID: try member.telegramID(), tag: tag.isEmpty ? nil : tag),
            chat: chat)
    }

    /// `getChatMember`, trusted for a while (``TrustedAnswers``), so a burst of settings commands or guesses asks
    /// once.
    private func member(_ user: Int64, in chat: ChatID) async throws -> TelegramAPI.ChatMember {
        try await members.answer(for: "\(chat.value):\(user)", now: configuration.times.now()) {
            try await call(
                "getChatMember", TelegramAPI.GetChatMember(chatID: try chat.telegramID(), userID: user), chat: chat,
                timeout: configuration.times.sideCallTimeout)
        }
    }

    /// Acknowledges an inline-button press, which stops the spinner on the button.
    private func answerCallbackQuery(id: String) async throws {
        let _: Bool = try await call(
            "answerCallbackQuery", TelegramAPI.AnswerCallbackQuery(callbackQueryID: id),
            timeout: configuration.times.sideCallTimeout)
    }

    // MARK: - Calls

    private func call<Result: Decodable>(
        _ method: String,
        _ parameters: some Encodable,
        chat: ChatID? = nil,
        timeout: Duration? = nil
    ) async throws -> Result {
        try await call(
            method, body: Array(try TelegramAPI.encoder.encode(parameters)), contentType: "application/json",
            chat: chat,
            timeout: timeout)
    }

    private func call<Result: Decodable>(
        _ method: String,
        body: [UInt8],
        contentType: String,
        chat: ChatID? = nil,
        timeout: Duration? = nil
    ) async throws -> Result {
        let request = HTTPRequest(
            method: "POST",
            url: "\(configuration.apiURL)/bot\(configuration.token)/\(method)",
            headers: ["Content-Type": contentType],
            body: body,
            timeout: timeout ?? configuration.times.requestTimeout
        )
        let response = try await http.response(to: request, name: method)
        let envelope = try http.decode(
            TelegramAPI.Envelope<Result>.self, from: response, name: method, decoder: TelegramAPI.decoder)
        if envelope.ok, let result = envelope.result { return result }
        throw Self.classify(
            method: method,
            status: envelope.errorCode ?? response.status,
            description: envelope.description ?? "no description",
            parameters: envelope.parameters,
            chat: chat
        )
    }

    static func classify(
        method: String,
        status: Int,
        description: String,
        parameters: TelegramAPI.ResponseParameters?,
        chat: ChatID?
    ) -> TransportError {
        switch status {
        case 404 where chat != nil:
            // The token worked at start (getMe), so a 404 on sending means this server lacks the method.
            return .messageRejected(
                "\(method): 404 \(description): this Bot API server does not offer \(method); check "
                    + "TESSERA_TELEGRAM_API_URL")
        case 401, 404:
            return .fatal(
                "Telegram refused the bot token (\(status) \(description) on \(method)). Check TESSERA_TELEGRAM_TOKEN "
                    + "(a token from @BotFather looks like 123456:ABC-…) and TESSERA_TELEGRAM_API_URL."
            )
        case 409:
            return .transient(
                "409 \(description): another copy of this bot, or a webhook, is taking its updates. Stop the other one."
            )
        case 429:
            let seconds = parameters?.retryAfter.map { min(max($0, 1), Int(Int32.max)) } ?? 1
            return .rateLimited(milliseconds: seconds * 1000, chat: chat)
        case 403 where chat != nil:
            return .chatUnavailable(chat ?? .telegram(0), reason: description)
        case 400 where parameters?.migrateToChatID != nil && chat != nil:
            return .chatMigrated(from: chat ?? .telegram(0), to: .telegram(parameters?.migrateToChatID ?? 0))
        case 400..<500:
            return .messageRejected("\(method): \(status) \(description)")
        default:
            return .transient("\(method): \(status) \(description)")
        }
    }
}

extension TelegramTransport.Configuration: CustomStringConvertible, CustomReflectable {
    // The token is the bot's password: never in a description, a log line or a dump.
    public var description: String { "TelegramTransport.Configuration(token: redacted, apiURL: \(apiURL))" }
    public var customMirror: Mirror { Mirror(self, children: ["apiURL": apiURL]) }
}

extension TelegramTransport: CustomStringConvertible, CustomReflectable {
    public var description: String { "TelegramTransport(\(configuration.apiURL))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension OutgoingMessage.Effect {
    /// The id of the effect among those every Telegram user has (`getAvailableMessageEffects` lists them).
    var telegramID: String {
        switch self {
        case .celebration: "5046509860389126442"  // 🎉
        }
    }
}

extension RateLimits {
    /// Telegram's documented limits: about one message a second per chat (with short bursts), twenty a minute
    /// per group (never more than twenty in any sixty seconds), thirty a second overall.
    public static let telegram = RateLimits(
        perChat: Limit(burst: 3, perSecond: 1), perGroupPerMinute: 20, overall: Limit(burst: 30, perSecond: 30))
}
