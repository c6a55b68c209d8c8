import Foundation
import TesseraHTTP

/// The fake Bot API of `Tests/Servers/fake_telegram.py`, with its control API for tests.
public struct FakeTelegram: Sendable {
    public let server: LoopbackServer
    public let token: String
    private let client = CurlHTTPClient()

    public var apiURL: String { server.baseURL }

    public static func start(token: String = "123456:TEST-token", username: String = "TesseraBot") async throws
        -> FakeTelegram
    {
        FakeTelegram(
            server: try await LoopbackServer.start("fake_telegram.py", arguments: [token, username]), token: token)
    }

    public func stop() async { await server.stop() }

    /// The bot added to a group by a person (`my_chat_member`, from "left" to "member").
    public static func added(to chat: Int64, by user: Int64, name: String = "Player", languageCode: String? = nil)
        -> [String: Any]
    {
        membership(in: chat, by: user, name: name, languageCode: languageCode, from: "left", to: ["status": "member"])
    }

    private static func membership(
        in chat: Int64, by user: Int64, name: String, languageCode: String? = nil, from old: String,
        to new: [String: Any]
    ) -> [String: Any] {
        let bot: [String: Any] = ["id": 42, "is_bot": true, "first_name": "Tessera"]
        var from: [String: Any] = ["id": user, "is_bot": false, "first_name": name]
        if let languageCode { from["language_code"] = languageCode }
        return [
            "my_chat_member": [
                "chat": ["id": chat, "type": "supergroup", "title": "Group \(chat)"],
                "from": from,
                "date": 0,
                "old_chat_member": ["status": old, "user": bot],
                "new_chat_member": new.merging(["user": bot]) { a, _ in a },
            ]
        ]
    }

    /// A person typing `@bot query` (or pressing a button that does), as an `inline_query` update.
    public static func inlineQuery(_ query: String, id: String, from user: Int64, name: String = "Player")
        -> [String: Any]
    {
        [
            "inline_query": [
                "id": id, "from": ["id": user, "is_bot": false, "first_name": name], "query": query, "offset": "",
            ]
        ]
    }

    /// A message a person sends; the fake assigns the update id.
    public static func message(
        _ text: String,
        from user: Int64,
        name: String = "Player",
        chat: Int64? = nil,
        chatType: String? = nil,
        messageID: Int64 = 1,
        topic: Int64? = nil,
        edited: Bool = false,
        languageCode: String? = nil
    ) -> [String: Any] {
        let chatID = chat ?? user
        var from: [String: Any] = ["id": user, "is_bot": false, "first_name": name]
        if let languageCode { from["language_code"] = languageCode }
        var message: [String: Any] = [
            "message_id": messageID,
            "from": from,
            "chat": ["id": chatID, "type": chatType ?? (chatID < 0 ? "supergroup" : "private")],
            "text": text,
        ]
        if let topic {
            message["message_thread_id"] = topic
            message["is_topic_message"] = true
        }
        if edited { message["edit_date"] = Int(Date().timeIntervalSince1970) }
        return [edited ? "edited_message" : "message": message]
    }

    /// A press of an inline button under the bot's message `messageID`; the fake assigns the update id.
    public static func press(
        _ data: String, from user: Int64, name: String = "Player", chat: Int64? = nil, messageID: Int64
    ) -> [String: Any] {
        let chatID = chat ?? user
        return [
            "callback_query": [
                "id": "query-\(user)-\(messageID)-\(data)",
                "from": ["id": user, "is_bot": false, "first_name": name],
                "message": [
                    "message_id": messageID, "date": 0,
                    "chat": ["id": chatID, "type": chatID < 0 ? "supergroup" : "private"],
                ],
                "chat_instance": "instance-\(chatID)",
                "data": data,
            ]
        ]
    }

    /// Sets who administers a group; everyone else is a plain member.
    public func setAdministrators(of chat: Int64, _ users: [Int64]) async throws {
        _ = try await control("admins", ["chat_id": chat, "user_ids": users])
    }

    public func push(_ updates: [[String: Any]]) async throws {
        _ = try await control("updates", ["updates": updates])
    }

    /// Makes the next `count` calls of `method` fail with `status`.
    public func fail(_ method: String, status: Int, count: Int = 1, extra: [String: Any] = [:]) async throws {
        _ = try await control(
            "fail", ["method": method, "status": status, "count": count].merging(extra) { a, _ in a })
    }

    /// Leaves the calls of `method` unanswered until ``release(_:)``, as a slow API would.
    public func hold(_ method: String) async throws {
        _ = try await control("hold", ["method": method])
    }

    /// Answers the held calls of `method`, and holds no more.
    public func release(_ method: String) async throws {
        _ = try await control("release", ["method": method])
    }

    /// Makes the next `count` calls of `method` lose their connection mid-response.
    public func drop(_ method: String, count: Int = 1) async throws {
        _ = try await control("drop", ["method": method, "count": count])
    }

    public struct SentMessage: Sendable {
        public let messageID: Int64
        public let chat: Int64
        /// The text, or a document's caption.
        public let text: String
        /// The inline buttons under it, row after row: their texts and callback data.
        public let buttons: [(text: String, data: String)]
        /// The links of its buttons that open a URL, row after row.
        public let links: [String]
        /// The queries of its buttons that post through the bot in another chat (`switch_inline_query`).
        public let inlineQueries: [String]
        /// The texts of its buttons that copy to the clipboard (`copy_text`).
        public let copies: [String]
        /// Each button's `style`, row after row; nil where it has none.
        public let styles: [String?]
        /// An uploaded document: its file name and content.
        public let document: (name: String, content: String)?
        public let replyTo: Int64?
        /// The forum topic it was posted in.
        public let topic: Int64?
        /// Sent with `disable_notification`.
        public let silent: Bool
        /// `HTML`, or nil for plain text.
        public let parseMode: String?
        /// The `message_effect_id` it arrived with.
        public let effect: String?
        /// A rich message's HTML (`sendRichMessage`); its ``text`` is what a reader sees, a line a paragraph or
        /// table row, cells between ` | `.
        public let richHTML: String?
        /// A photo (`sendPhoto`), whose caption is ``text``.
        public let photo: Photo?
        public let time: Double
    }

    /// A photo as the fake Bot API received it: its `file_id`, whether it was uploaded (or named by a `file_id`
    /// it gave before), and its size from its PNG header.
    public struct Photo: Sendable, Hashable {
        public let fileID: String
        public let uploaded: Bool
        public let width: Int
        public let height: Int
        public let bytes: Int
    }

    /// A photo's PNG file, by its `file_id`.
    public func photo(_ fileID: String) async throws -> [UInt8] {
        let result = try await control("photo?file_id=\(fileID)", nil) as? [String: Any]
        return (result?["png_base64"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
    }

    public func sent() async throws -> [SentMessage] {
        let result = try await control("sent", nil)
        return (result as? [[String: Any]] ?? []).map { entry in
            let rows = (entry["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]] ?? []
            let document = entry["document"] as? [String: Any]
            return SentMessage(
                messageID: (entry["message_id"] as? NSNumber)?.int64Value ?? 0,
                chat: (entry["chat_id"] as? NSNumber)?.int64Value ?? 0,
                text: entry["text"] as? String ?? "",
                buttons: rows.joined().map {
                    (text: $0["text"] as? String ?? "", data: $0["callback_data"] as? String ?? "")
                },
                links: rows.joined().compactMap { $0["url"] as? String },
                inlineQueries: rows.joined().compactMap { $0["switch_inline_query"] as? String },
                copies: rows.joined().compactMap { ($0["copy_text"] as? [String: Any])?["text"] as? String },
                styles: rows.joined().map { $0["style"] as? String },
                document: document.map {
                    (name: $0["file_name"] as? String ?? "", content: $0["content"] as? String ?? "")
                },
                replyTo: ((entry["reply_parameters"] as? [String: Any])?["message_id"] as? NSNumber)?.int64Value,
                topic: (entry["message_thread_id"] as? NSNumber)?.int64Value,
                silent: entry["disable_notification"] as? Bool ?? false,
                parseMode: entry["parse_mode"] as? String,
                effect: entry["message_effect_id"] as? String,
                richHTML: entry["rich_html"] as? String,
                photo: (entry["photo"] as? [String: Any]).map {
                    Photo(
                        fileID: $0["file_id"] as? String ?? "", uploaded: $0["uploaded"] as? Bool ?? false,
                        width: ($0["width"] as? NSNumber)?.intValue ?? 0,
                        height: ($0["height"] as? NSNumber)?.intValue ?? 0,
                        bytes: ($0["size"] as? NSNumber)?.intValue ?? 0)
                },
                time: entry["time"] as? Double ?? 0
            )
        }
    }

    /// The command menus the bot set, by language code ("" for the default menu): command names in order.
    public func commandMenus() async throws -> [String: [String]] {
        (try await control("commands", nil) as? [String: [[String: Any]]] ?? [:]).mapValues { menu in
            menu.compactMap { $0["command"] as? String }
        }
    }

    /// The ids of the button presses the bot acknowledged.
    public func answeredPresses() async throws -> [String] {
        try await control("answered", nil) as? [String] ?? []
    }

    /// The reactions the bot set, in order: the chat, the message and the emoji.
    public func reactions() async throws -> [(chat: Int64, messageID: Int64, emoji: String?)] {
        (try await control("reactions", nil) as? [[String: Any]] ?? []).map { entry in
            (
                chat: (entry["chat_id"] as? NSNumber)?.int64Value ?? 0,
                messageID: (entry["message_id"] as? NSNumber)?.int64Value ?? 0, emoji: entry["emoji"] as? String
            )
        }
    }

    /// The edits the bot made, in order: the chat, the message and its new text.
    public func edits() async throws -> [(chat: Int64, messageID: Int64, text: String)] {
        (try await control("edits", nil) as? [[String: Any]] ?? []).map { entry in
            (
                chat: (entry["chat_id"] as? NSNumber)?.int64Value ?? 0,
                messageID: (entry["message_id"] as? NSNumber)?.int64Value ?? 0, text: entry["text"] as? String ?? ""
            )
        }
    }

    /// The messages the bot deleted: their chats and ids.
    public func deleted() async throws -> [(chat: Int64, messageID: Int64)] {
        (try await control("deleted", nil) as? [[String: Any]] ?? []).map { entry in
            (
                chat: (entry["chat_id"] as? NSNumber)?.int64Value ?? 0,
                messageID: (entry["message_id"] as? NSNumber)?.int64Value ?? 0
            )
        }
    }

    /// The inline queries the bot answered: the query id, the texts offered (an article's text, a photo's
    /// caption), the `file_id`s of the photos offered, and the start parameter of the button shown instead, if any.
    public func inlineAnswers() async throws -> [(id: String, texts: [String], photos: [String], buttonStart: String?)]
    {
        (try await control("inline_answers", nil) as? [[String: Any]] ?? []).map { entry in
            let results = entry["results"] as? [[String: Any]] ?? []
            return (
                id: entry["inline_query_id"] as? String ?? "",
                texts: results.compactMap {
                    ($0["input_message_content"] as? [String: Any])?["message_text"] as? String
                        ?? $0["caption"] as? String
                },
                photos: results.compactMap { $0["photo_file_id"] as? String },
                buttonStart: (entry["button"] as? [String: Any])?["start_parameter"] as? String
            )
        }
    }

    /// Makes the bot an administrator of a group with the right to delete messages, as `getChatMember` says.
    public func allowDeleting(in chat: Int64) async throws {
        _ = try await control("can_delete", ["chat_id": chat])
    }

    /// Makes the bot an administrator of a group with the right to manage members' tags, as `getChatMember` says.
    public func allowTagging(in chat: Int64) async throws {
        _ = try await control("can_tag", ["chat_id": chat])
    }

    /// Makes a chat refuse rich messages (`sendRichMessage` answers 400) from now on.
    public func refuseRichMessages(in chat: Int64) async throws {
        _ = try await control("refuse_rich", ["chat_id": chat])
    }

    /// Every member's tag the bot set, in order: nil for one it removed.
    public func tags() async throws -> [(chat: Int64, user: Int64, tag: String?)] {
        (try await control("tags", nil) as? [[String: Any]] ?? []).map { entry in
            (
                chat: (entry["chat_id"] as? NSNumber)?.int64Value ?? 0,
                user: (entry["user_id"] as? NSNumber)?.int64Value ?? 0, tag: entry["tag"] as? String
            )
        }
    }

    /// How many messages the bot sent read, as last edited, with `text` in them.
    public func countSent(containing text: String) async throws -> Int {
        (try await control("count", ["contains": text]) as? NSNumber)?.intValue ?? 0
    }

    /// The parameters the bot sent that the documentation does not list for their method (`method.name`).
    public func undocumentedParameters() async throws -> [String] {
        try await control("undocumented", nil) as? [String] ?? []
    }

    public func stats() async throws -> [String: Int] {
        (try await control("stats", nil) as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.intValue }
    }

    /// Waits until `condition` holds for the counters (`polls_waiting`: long polls the API holds open now),
    /// up to a deadline (then it throws).
    @discardableResult
    public func waitForStats(
        timeout: Duration = .seconds(20),
        until condition: ([String: Int]) -> Bool
    ) async throws -> [String: Int] {
        try await poll(timeout: timeout, stats, until: condition)
    }

    /// Seconds from each update becoming available to the reply that answers it.
    public func latencies() async throws -> [Double] {
        (try await control("latencies", nil) as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
    }

    /// Waits until `condition` holds for the sent messages, up to a deadline (then it throws).
    @discardableResult
    public func waitForSent(
        timeout: Duration = .seconds(20),
        until condition: ([SentMessage]) -> Bool
    ) async throws -> [SentMessage] {
        try await poll(timeout: timeout, sent, until: condition)
    }

    /// Asks the fake again (any of its readers: `fake.wait(for: fake.inlineAnswers) { !$0.isEmpty }`) until the
    /// answer satisfies `condition`; throws ``TimedOut`` when the time is up.
    public func wait<Answer>(
        timeout: Duration = .seconds(20), for ask: () async throws -> Answer, until condition: (Answer) -> Bool
    ) async throws -> Answer {
        try await poll(timeout: timeout, ask, until: condition)
    }

    /// What a wait throws when the fake never reached the condition: a test fails there, not later, and never
    /// passes merely slowly.
    public struct TimedOut: Error, CustomStringConvertible {
        public let timeout: Duration
        public let lastAnswer: String
        public var description: String { "the fake did not reach the condition within \(timeout); last: \(lastAnswer)" }
    }

    /// Asks the fake until the answer satisfies `condition`; throws ``TimedOut`` when the time is up. Between
    /// two asks it waits for the fake's state to change (`/control/changes`, a long poll the fake answers when
    /// the bot calls it or a test controls it), so it asks again as soon as the bot has acted, and never spins.
    /// An answer that does not come from the fake (a `tessera status` run, say) is asked again every second.
    private func poll<Answer>(
        timeout: Duration, _ ask: () async throws -> Answer, until condition: (Answer) -> Bool
    ) async throws -> Answer {
        let deadline = ContinuousClock.now + timeout
        // Read before asking: a change between the ask and the wait still ends the wait.
        var seen = try await changes(since: -1, within: .zero)
        while true {
            let answer = try await ask()
            if condition(answer) { return answer }
            let left = ContinuousClock.now.duration(to: deadline)
            if left <= .zero {
                throw TimedOut(timeout: timeout, lastAnswer: String(String(describing: answer).prefix(2000)))
            }
            seen = try await changes(since: seen, within: min(left, .seconds(1)))
        }
    }

    /// How many times the fake's state has changed, once that is more than `since` or `limit` has passed.
    private func changes(since: Int, within limit: Duration) async throws -> Int {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return (try await control("changes", ["since": since, "timeout": seconds]) as? NSNumber)?.intValue ?? since
    }

    private func control(_ action: String, _ body: [String: Any]?) async throws -> Any? {
        let response = try await client.send(
            HTTPRequest(
                method: body == nil ? "GET" : "POST",
                url: "\(server.baseURL)/control/\(action)",
                headers: ["Content-Type": "application/json"],
                body: try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) },
                timeout: .seconds(10)
            )
        )
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["result"]
    }
}
