import Foundation
public import Logging
import Synchronization
public import TesseraEngine
public import TesseraHTTP
import TesseraPictures

/// The Matrix Client-Server API as a ``ChatTransport``: `/sync` long polling, replies as `m.notice` events.
///
/// The position is `/sync`'s `next_batch`. The first start skips history: it learns the rooms and joins
/// pending invites, and answers nothing sent before. Each message is sent with its outbox key as the
/// transaction id, so a resend after a crash is deduplicated by the homeserver. Invites are joined as they
/// come. A room is direct only while the bot and one person are its joined members: `is_direct` is the inviter's
/// word, which any inviter can give for any room, so it decides nothing. Administrators are members whose power
/// level may change the room's state.
///
/// Failures are classified for the service: `M_LIMIT_EXCEEDED` waits `retry_after_ms` (or `Retry-After`);
/// `M_UNKNOWN_TOKEN` stops the bot with a message about the token; `M_FORBIDDEN` on sending marks the room
/// inactive; 5xx and network errors are retried with backoff. The access token is never logged.
public final class MatrixTransport: ChatTransport {
    public struct Configuration: Sendable {
        /// The homeserver's client URL, without a trailing slash: `https://matrix.example.org`.
        public var homeserver: String
        /// The bot's full user id: `@tessera:example.org`.
        public var userID: String
        public var accessToken: String
        /// `/sync`'s long-poll seconds and the other requests' limits.
        public var times = PollingTimes(pollSeconds: defaultPollSeconds, sideCallTimeout: .seconds(5))

        public static let defaultPollSeconds = 30

        public init(homeserver: String, userID: String, accessToken: String) {
            self.homeserver = homeserver
            self.userID = userID
            self.accessToken = accessToken
        }
    }

    /// The name its position and heartbeat are stored under.
    public static let transportName = "matrix"
    public let name = MatrixTransport.transportName
    public let platform = Platform.matrix
    /// No buttons, member tags nor message effects; edits (`m.replace`), reactions (`m.annotation`), direct rooms the bot opens itself, spoilers
    /// (`data-mx-spoiler`) and threads (`m.thread`). An event may take 64 KiB: 8,000 characters of text, each up
    /// to four bytes and written twice (plain and HTML), leave room for markup. About a message a second per
    /// room and ten overall, with no per-group window: a homeserver's own limits are its own (Synapse's
    /// `rc_message`), and its `429` is waited out as it says.
    public let traits = PlatformTraits(
        buttons: false, edits: true, reactions: true, opensDirectChats: true, spoilers: true, threads: true,
        memberTags: false, pictures: true, maximumLength: 8000, rateLimits: matrixRateLimits)

    static let matrixRateLimits = RateLimits(
        perChat: .init(burst: 3, perSecond: 1), perGroupPerMinute: .max, overall: .init(burst: 10, perSecond: 10))

    private let configuration: Configuration
    private let http: JSONCall
    private let logger: Logger

    /// What the bot knows of each room it is in.
    private struct Room {
        /// Joined members and their display names ("" for none).
        var members: [String: String] = [:]
        /// Whether the members, as they are now, were read whole (from a first sync or the server).
        var loaded = false
        /// Whether the bot has said, since it started, that it cannot read this room's encrypted messages.
        var toldUnreadable = false
    }
    private let rooms = Mutex<[String: Room]>([:])
    /// The pictures uploaded: posted again (an edit) without drawing or uploading them anew.
    private let uploads = UploadedPictures<Upload>()

    /// An upload's content URI, and the `info` an `m.image` gives of it.
    private struct Upload: Sendable {
        let url: String
        let info: JSON
    }
    /// Rooms joined or created since their first sync: that one cuts their history short, which is no loss.
    private let justJoined = Mutex<Set<String>>([])
    /// Rooms the bot was invited to as a direct chat: the bot's own `m.direct`, by the person it is with. Where
    /// the bot opens a direct chat with someone; a room that has grown past the two of them is passed over.
    private let direct = Mutex<[String: [String]]>([:])
    private let powerLevels = TrustedAnswers<String, MatrixAPI.PowerLevels>()

    public init(configuration: Configuration, client: any HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.http = JSONCall(client: client) { TransportError.transient($0) }
        self.logger = logger
    }

    /// Logs in with a password once, for an access token to keep (the device stays logged in).
    public static func logIn(
        homeserver: String, userID: String, password: String, client: any HTTPClient, logger: Logger
    ) async throws -> String {
        let transport = MatrixTransport(
            configuration: Configuration(homeserver: homeserver, userID: userID, accessToken: ""), client: client,
            logger: logger)
        let body: JSON = [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": .string(userID)],
            "password": .string(password), "initial_device_display_name": "Tessera",
        ]
        let loggedIn: MatrixAPI.LoggedIn = try await transport.call("POST", "/login", body: body, authorized: false)
        logger.info(
            "Logged in to Matrix",
            metadata: ["matrix.user": "\(loggedIn.userID)", "matrix.device": "\(loggedIn.deviceID ?? "")"])
        return loggedIn.accessToken
    }

    /// Checks the token and the user it belongs to, and reads the bot's direct rooms (`m.direct`).
    public func prepare() async throws {
        let me: MatrixAPI.WhoAmI = try await call("GET", "/account/whoami")
        guard me.userID == configuration.userID else {
            throw TransportError.fatal(
                "The Matrix access token belongs to \(me.userID), not TESSERA_MATRIX_USER \(configuration.userID). "
                    + "Use the token of the bot's own account.")
        }
        do {
            let stored: JSON = try await call("GET", "/user/\(Self.escaped(me.userID))/account_data/m.direct")
            let rooms = (stored.object ?? [:]).mapValues { $0.array?.compactMap(\.string) ?? [] }
            direct.withLock { $0 = rooms }
        } catch TransportError.messageRejected {
            // M_NOT_FOUND: no direct rooms yet.
        }
        logger.info("Connected to Matrix", metadata: ["matrix.user": "\(me.userID)"])
    }

    // MARK: - Receiving

    public func receive(after position: String?) async throws -> ReceivedBatch {
        let first = position == nil
        var query = [
            "filter": Self.filter(history: first ? 1 : nil),
            "timeout": first ? "0" : String(configuration.times.pollSeconds * 1000),
            "set_presence": "offline",
        ]
        if let position { query["since"] = position }
        let sync: MatrixAPI.Sync
        do {
            sync = try await call(
                "GET", "/sync", query: query,
                timeout: configuration.times.pollTimeout)
        } catch TransportError.messageRejected(let reason) where position != nil {
            // A position the homeserver no longer knows (its database restored, or a token of another server)
            // would be refused for ever: start again from now, as a first start does.
            logger.warning(
                """
                The homeserver refused the stored sync position; starting again from now. Messages sent since the \
                bot last received are not answered.
                """,
                metadata: ["reason": "\(reason)"])
            return try await receive(after: nil)
        }
        var messages: [ChatMessage] = []
        var migrations: [(from: ChatID, to: ChatID)] = []
        if let invites = sync.rooms?.invite, !invites.isEmpty {
            for joined in try await join(invites.mapValues { $0.inviteState?.parsed ?? [] }) {
                if let arrival = arrival(joined) { messages.append(arrival) }
            }
        }
        for room in (sync.rooms?.leave ?? [:]).keys {
            rooms.withLock { $0[room] = nil }
        }
        for (room, joined) in sync.rooms?.join ?? [:] {
            let read = try await read(joined, in: room, first: first)
            messages += read.messages
            migrations += read.migrations
        }
        return ReceivedBatch(messages: messages, nextPosition: sync.nextBatch, migrations: migrations)
    }

    /// What one joined room's part of a sync brings: its state applied, a tombstone's migration (and the new room
    /// joined), and the messages for the engine. History before the first start is not answered.
    private func read(_ joined: MatrixAPI.Sync.JoinedRoom, in room: String, first: Bool) async throws
        -> (messages: [ChatMessage], migrations: [(from: ChatID, to: ChatID)])
    {
        var messages: [ChatMessage] = []
        var migrations: [(from: ChatID, to: ChatID)] = []
        let justJoined = self.justJoined.withLock { $0.remove(room) != nil }
        // A first sync's state is the whole of it; later ones carry what changed.
        if first { rooms.withLock { $0[room, default: Room()].loaded = true } }
        for event in joined.state?.parsed ?? [] { apply(event, in: room) }
        if !first, !justJoined, joined.timeline?.limited == true {
            // More happened than one sync carries (after a long outage): say so rather than skip it quietly.
            logger.warning(
                "The homeserver left out older messages of a room; they are not answered",
                metadata: ["chat.id": "matrix:\(room)", "timeline.limit": "\(Self.timelineLimit)"])
        }
        for event in joined.timeline?.parsed ?? [] {
            if event.stateKey != nil {
                apply(event, in: room)
                if event.type == "m.room.tombstone", let replacement = event.content["replacement_room"]?.string {
                    migrations.append((ChatID(.matrix, room), ChatID(.matrix, replacement)))
                    _ = try await join([replacement: []])
                }
                continue
            }
            // History before the first start is not answered.
            guard !first, let sender = event.sender, sender != configuration.userID else { continue }
            switch event.type {
            case "m.room.message":
                if let message = try await message(event, from: sender, in: room) { messages.append(message) }
            case "m.room.encrypted":
                // Said once a room while the bot runs: everyone there reads the same notice.
                let told = rooms.withLock { rooms in
                    defer { rooms[room, default: Room()].toldUnreadable = true }
                    return rooms[room]?.toldUnreadable == true
                }
                if !told { messages.append(try await unreadable(event, from: sender, in: room)) }
            default:
                break
            }
        }
        return (messages, migrations)
    }

    /// Only what the bot reads: messages and the state that says who is in a room; no presence, receipts,
    /// typing or account data. On the first start the timeline is cut short: history is not answered. After
    /// that, up to ``timelineLimit`` events a room in one sync (homeservers default to about ten).
    static func filter(history: Int?) -> String {
        let state: JSON = ["types": ["m.room.member", "m.room.tombstone"]]
        let timeline: JSON = [
            "types": ["m.room.message", "m.room.encrypted", "m.room.member", "m.room.tombstone"],
            "limit": .number(Double(history ?? timelineLimit)),
        ]
        let none: JSON = ["not_types": ["*"]]
        let filter: JSON = [
            "presence": none, "account_data": none,
            "room": ["state": state, "timeline": timeline, "ephemeral": none, "account_data": none],
        ]
        return String(decoding: (try? JSONEncoder().encode(filter)) ?? Data(), as: UTF8.self)
    }

    /// A room the bot joined on an invite: who invited it, whether as a direct chat, and whether the room is
    /// encrypted, so that its messages are unreadable to the bot.
    struct Joined {
        let room: String
        let inviter: String?
        let isDirect: Bool
        let encrypted: Bool
    }

    /// Joins rooms the bot was invited to, several at a time; the invites as a direct chat are remembered in the
    /// bot's `m.direct`, written once for all of them. Returns the rooms joined.
    private func join(_ invites: [String: [MatrixAPI.Event]]) async throws -> [Joined] {
        let joined = try await withThrowingTaskGroup(of: Joined?.self) { group in
            var pending = invites.makeIterator()
            var joined: [Joined] = []
            func next() {
                guard let (room, invite) = pending.next() else { return }
                group.addTask { try await self.join(room, invite: invite) }
            }
            for _ in 0..<Self.concurrentJoins { next() }
            while let room = try await group.next() {
                if let room { joined.append(room) }
                next()
            }
            return joined
        }
        try await rememberDirect(
            joined.compactMap { room in room.isDirect ? room.inviter.map { (room.room, $0) } : nil })
        return joined
    }

    /// Invites joined at once: a burst of hundreds is joined in a few seconds, not one at a time.
    static let concurrentJoins = 8

    /// Joins a room, and reads what its invite said; nil when it could not be joined.
    private func join(_ room: String, invite: [MatrixAPI.Event]) async throws -> Joined? {
        do {
            let _: JSON = try await call("POST", "/join/\(Self.escaped(room))", body: [:])
        } catch TransportError.messageRejected(let reason) {
            // The invite was withdrawn, or the room is gone: nothing to join, and nothing to retry.
            logger.notice("Could not join a room", metadata: ["chat.id": "matrix:\(room)", "reason": "\(reason)"])
            return nil
        }
        justJoined.withLock { _ = $0.insert(room) }
        let own = invite.first { $0.type == "m.room.member" && $0.stateKey == configuration.userID }
        let isDirect = own?.content["is_direct"]?.bool == true
        // Homeservers give an invite the room's encryption among its stripped state.
        let encrypted = invite.contains { $0.type == "m.room.encryption" }
        if isDirect && !encrypted {
            // Welcomed by the /start this join answers (``arrival(_:)``), through the outbox: not again when the
            // bot is asked to open the person's direct chat.
            let _: JSON = try await call(
                "PUT", Self.welcomedPath(user: configuration.userID, room: room), body: ["at": "invite"])
        }
        logger.info(
            "Joined a room",
            metadata: [
                "chat.id": "matrix:\(room)", "invited.as.direct": "\(isDirect)", "room.encrypted": "\(encrypted)",
            ])
        return Joined(room: room, inviter: own?.sender, isDirect: isDirect, encrypted: encrypted)
    }

    /// What the bot says on joining a room, as it does on Telegram: a group gets the greeting with its setup
    /// steps, a direct chat the welcome (as `/start` would), and an encrypted room at once where to play instead.
    private func arrival(_ joined: Joined) -> ChatMessage? {
        guard let inviter = joined.inviter else { return nil }
        let (chat, sender, name) = (ChatID(.matrix, joined.room), UserID(.matrix, inviter), Self.localpart(inviter))
        if joined.encrypted {
            // Said now, and not again at the room's first message.
            rooms.withLock { $0[joined.room, default: Room()].toldUnreadable = true }
            return ChatMessage(
                chat: chat, chatKind: joined.isDirect ? .direct : .group, sender: sender, senderName: name, text: "",
                event: .unreadable)
        }
        if joined.isDirect {
            return ChatMessage(
                chat: chat, chatKind: .direct, sender: sender, senderName: name, text: "/start",
                command: ChatCommand(name: "start", argument: ""))
        }
        return ChatMessage(
            chat: chat, chatKind: .group, sender: sender, senderName: name, text: "",
            event: .added(seesEveryMessage: true))
    }

    /// Records direct rooms in the bot's `m.direct`, as clients do, so they are known after a restart: one write.
    private func rememberDirect(_ rooms: [(room: String, inviter: String)]) async throws {
        let updated = direct.withLock { direct -> JSON? in
            var changed = false
            for (room, person) in rooms where direct[person]?.contains(room) != true {
                direct[person, default: []].append(room)
                changed = true
            }
            return changed ? .object(direct.mapValues { .array($0.map(JSON.string)) }) : nil
        }
        guard let updated else { return }
        let _: JSON = try await call(
            "PUT", "/user/\(Self.escaped(configuration.userID))/account_data/m.direct", body: updated)
    }

    /// The person's direct room with the bot: the latest known where nobody else has joined, or a new one they
    /// are invited to (unencrypted: the bot cannot read encrypted messages). A new room is recorded before
    /// anything is posted in it, so a retry after a crash posts there instead of opening another. Its history
    /// is visible to members from their invite on: someone invited later does not read the games played there.
    private func directRoom(with person: String) async throws -> String {
        for known in direct.withLock({ $0[person] ?? [] }).reversed() {
            let others = try await members(of: known).keys.filter { $0 != person && $0 != configuration.userID }
            if others.isEmpty { return known }
        }
        let visibility: JSON = [
            "type": "m.room.history_visibility", "state_key": "", "content": ["history_visibility": "invited"],
        ]
        let created: MatrixAPI.RoomCreated = try await call(
            "POST", "/createRoom",
            body: [
                "preset": "trusted_private_chat", "is_direct": true, "invite": [.string(person)],
                "initial_state": [visibility],
            ])
        justJoined.withLock { _ = $0.insert(created.roomID) }
        try await rememberDirect([(created.roomID, person)])
        logger.info("Opened a direct room", metadata: ["chat.id": "matrix:\(created.roomID)"])
        return created.roomID
    }

    /// Whether the bot has posted its welcome in a direct room: a mark in the bot's account data for the room,
    /// set once the welcome is out, so that a restart knows it too. A welcome the bot crashed before marking
    /// is posted again with its outbox key, which the homeserver takes once.
    private func isWelcomed(_ room: String) async throws -> Bool {
        do {
            let _: JSON = try await call("GET", Self.welcomedPath(user: configuration.userID, room: room))
            return true
        } catch TransportError.messageRejected {
            // M_NOT_FOUND: not welcomed yet.
            return false
        }
    }

    static func welcomedPath(user: String, room: String) -> String {
        "/user/\(escaped(user))/rooms/\(escaped(room))/account_data/org.tessera.welcomed"
    }

    /// Keeps a room's members as state events change them.
    private func apply(_ event: MatrixAPI.Event, in room: String) {
        guard event.type == "m.room.member", let user = event.stateKey else { return }
        let membership = event.content["membership"]?.string
        rooms.withLock { rooms in
            if membership == "join" {
                rooms[room, default: Room()].members[user] = event.content["displayname"]?.string ?? ""
            } else {
                rooms[room, default: Room()].members[user] = nil
            }
        }
    }

    /// A room's members, read from the server the first time the room is seen since the start.
    private func members(of room: String) async throws -> [String: String] {
        if let known = rooms.withLock({ $0[room] }), known.loaded { return known.members }
        let joined: MatrixAPI.JoinedMembers = try await call(
            "GET", "/rooms/\(Self.escaped(room))/joined_members", timeout: configuration.times.sideCallTimeout)
        let members = joined.joined.mapValues { $0.displayName ?? "" }
        rooms.withLock { rooms in
            rooms[room, default: Room()].members = members
            rooms[room, default: Room()].loaded = true
        }
        return members
    }

    /// An encrypted message, which the bot cannot read, as an event the engine answers.
    private func unreadable(_ event: MatrixAPI.Event, from sender: String, in room: String) async throws
        -> ChatMessage
    {
        let (kind, name) = try await describe(sender, in: room)
        return ChatMessage(
            chat: ChatID(.matrix, room), chatKind: kind, sender: UserID(.matrix, sender), senderName: name, text: "",
            messageID: event.id.map(MessageID.init), event: .unreadable)
    }

    /// Whether a room is direct (the bot and one person are its joined members), and a member's name in it.
    private func describe(_ sender: String, in room: String) async throws -> (ChatMessage.ChatKind, String) {
        let members = try await members(of: room)
        let isDirect = members.count == 2 && members[configuration.userID] != nil && members[sender] != nil
        let name = members[sender].flatMap { $0.isEmpty ? nil : $0 } ?? Self.localpart(sender)
        return (isDirect ? .direct : .group, name)
    }

    private func message(_ event: MatrixAPI.Event, from sender: String, in room: String) async throws
        -> ChatMessage?
    {
        let content = event.content
        // Other bots speak in notices; the bot answers only what people type.
        guard content["msgtype"]?.string == "m.text", var text = content["body"]?.string else { return nil }
        let relation = content["m.relates_to"]
        var isEdited = false
        if relation?["rel_type"]?.string == "m.replace" {
            guard let replaced = content["m.new_content"]?["body"]?.string else { return nil }
            text = replaced
            isEdited = true
        } else if relation?["m.in_reply_to"] != nil {
            text = Self.withoutReplyFallback(text)
        }
        let (kind, name) = try await describe(sender, in: room)
        var command: ChatCommand?
        if case .command(let read) = Self.commandSyntax.read(text) { command = read }
        return ChatMessage(
            chat: ChatID(.matrix, room),
            chatKind: kind,
            sender: UserID(.matrix, sender),
            senderName: name,
            text: text,
            command: command,
            messageID: event.id.map(MessageID.init),
            thread: relation?["rel_type"]?.string == "m.thread"
                ? relation?["event_id"]?.string.map(MessageID.init) : nil,
            isEdited: isEdited
        )
    }

    /// Events a room may bring in one sync: a busy group's messages during an outage.
    static let timelineLimit = 500

    /// `!guess`, as Matrix bots are addressed, and `/guess` too; the bot writes `!guess` (clients take a line
    /// starting with `/` for a command of their own).
    static let commandSyntax = CommandSyntax(prefixes: ["!", "/"], writing: "!")

    /// A reply's body starts with the quoted message (`> <@alice:example.org> …`) and a blank line.
    static func withoutReplyFallback(_ body: String) -> String {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first?.hasPrefix("> ") == true else { return body }
        let rest = lines.drop { $0.hasPrefix(">") }.drop { $0.isEmpty }
        return rest.joined(separator: "\n")
    }

    /// `alice` of `@alice:example.org`: a name for someone who has not set one.
    static func localpart(_ user: String) -> String {
        String(user.dropFirst(user.hasPrefix("@") ? 1 : 0).prefix { $0 != ":" })
    }

    // MARK: - Sending

    @discardableResult
    public func send(_ message: OutgoingMessage, key: String) async throws -> MessageID? {
        let room = try Self.room(message.chat)
        switch message.action {
        case .post:
            break
        case .react(let reaction):
            // Without the message to mark, the text says it instead.
            guard let target = message.replyTo else { break }
            let content: JSON = [
                "m.relates_to": [
                    "rel_type": "m.annotation", "event_id": .string(target.value),
                    "key": .string(reaction.emoji),
                ]
            ]
            _ = try await sendEvent("m.reaction", content, in: room, key: key, chat: message.chat)
            return nil
        case .delete:
            guard let target = message.replyTo else { return nil }
            let _: JSON = try await call(
                "PUT", "/rooms/\(Self.escaped(room))/redact/\(Self.escaped(target.value))/\(Self.escaped(key))",
                body: ["reason": "It showed letters of an open puzzle"], chat: message.chat)
            return nil
        case .answerQuery:
            throw TransportError.messageRejected("Matrix has no inline queries to answer")
        case .postPlayerData:
            throw OutgoingMessage.ungathered
        case .tagMember:
            throw TransportError.messageRejected("Matrix has no member tags")
        case .openDirectChat(let person):
            let room = try await directRoom(with: person.value)
            // Welcomed once: asked again (a second !play, a !guess), the room is only reused.
            guard try await !isWelcomed(room) else { return nil }
            let content = Self.content(message.html)
            let posted = try await sendEvent(
                "m.room.message", .object(content), in: room, key: key, chat: ChatID(.matrix, room))
            let _: JSON = try await call(
                "PUT", Self.welcomedPath(user: configuration.userID, room: room), body: ["at": .string(posted)])
            return MessageID(posted)
        }
        try await checkStillDirect(message, room: room)
        if let document = message.document {
            return try await sendDocument(document, caption: message, in: room, key: key)
        }
        if let picture = message.picture {
            var content = try await imageContent(picture, caption: message)
            content["m.relates_to"] = Self.relation(replyTo: message.replyTo, thread: message.thread)
            return MessageID(
                try await sendEvent("m.room.message", .object(content), in: room, key: key, chat: message.chat))
        }
        // A long reply goes in parts, each with a transaction id of its own.
        return try await sendInParts(message) { index, part, isLast in
            var content = Self.content(part.html(), layout: index == 0 && isLast ? message.rich : nil)
            content["m.relates_to"] = Self.relation(
                replyTo: index == 0 ? message.replyTo : nil, thread: message.thread)
            let event = try await sendEvent(
                "m.room.message", .object(content), in: room, key: index == 0 ? key : "\(key).\(index)",
                chat: message.chat)
            return MessageID(event)
        }
    }

    /// Refuses a message for a direct room (a board, an analysis: it may name the word) once anyone else has
    /// joined the room: queued while the room was direct, it is checked against the members as they are at
    /// sending, which the sync keeps.
    private func checkStillDirect(_ message: OutgoingMessage, room: String) async throws {
        guard message.chatKind == .direct else { return }
        let others = try await members(of: room).keys.filter { $0 != configuration.userID }
        guard others.count <= 1 else {
            throw TransportError.messageRejected(
                "the direct room has \(others.count) other members now, and the message may show a word")
        }
    }

    /// An edit (`m.replace`): clients show the new content in place of the old; the outer body is the
    /// fallback for those that do not.
    public func edit(_ posted: MessageID, toRead message: OutgoingMessage, key: String) async throws {
        let room = try Self.room(message.chat)
        try await checkStillDirect(message, room: room)
        try checkEditable(message)
        // A picture's post is edited as its image with the new caption (clients that show no edited images show
        // the fallback body, the text).
        let new =
            if let picture = message.picture { try await imageContent(picture, caption: message) } else {
                Self.content(message.html)
            }
        var content = new
        content["body"] = .string("* " + (new["body"]?.string ?? ""))
        content["formatted_body"] = .string("* " + (new["formatted_body"]?.string ?? ""))
        content["m.new_content"] = .object(new)
        content["m.relates_to"] = ["rel_type": "m.replace", "event_id": .string(posted.value)]
        do {
            _ = try await sendEvent("m.room.message", .object(content), in: room, key: key, chat: message.chat)
        } catch TransportError.messageRejected(let reason) {
            throw TransportError.editRefused(reason)
        }
    }

    /// A notice: the kind of message bots send, which other bots do not answer. Commands are written as
    /// Matrix bots' are.
    /// A layout's tables show in clients that read HTML; the body stays its text, for the others.
    static func content(_ engineHTML: String, layout: RichLayout? = nil) -> [String: JSON] {
        let markup = Markup(html: commandSyntax.written(engineHTML))
        let formatted = layout.map { commandSyntax.written(MatrixText.html($0)) } ?? MatrixText.html(markup)
        return [
            "msgtype": "m.notice", "body": .string(MatrixText.plain(markup)), "format": "org.matrix.custom.html",
            "formatted_body": .string(formatted),
        ]
    }

    static func relation(replyTo: MessageID?, thread: MessageID?) -> JSON? {
        let reply: JSON? = replyTo.map { ["event_id": .string($0.value)] }
        if let thread {
            var relation: [String: JSON] = ["rel_type": "m.thread", "event_id": .string(thread.value)]
            relation["is_falling_back"] = .bool(reply == nil)
            relation["m.in_reply_to"] = reply ?? ["event_id": .string(thread.value)]
            return .object(relation)
        }
        return reply.map { ["m.in_reply_to": $0] }
    }

    /// An `m.image` of the picture, uploaded to the media repository unless it was before: its `body` is the
    /// message's text, which clients show as the caption (and as the alternative text where they show no
    /// pictures), with the text's HTML beside it; `info` gives its size in pixels and bytes. An upload the
    /// server refuses is ``TransportError/pictureRefused(_:)``.
    private func imageContent(_ picture: Picture, caption message: OutgoingMessage) async throws -> [String: JSON] {
        var content = Self.content(message.html)
        let upload: Upload
        if let known = uploads.name(of: picture) {
            upload = known
        } else {
            upload = try await self.upload(picture, for: message.chat)
        }
        content["msgtype"] = "m.image"
        content["filename"] = .string(picture.fileName)
        content["url"] = .string(upload.url)
        content["info"] = upload.info
        return content
    }

    /// Draws the picture and uploads it to the media repository; a refusal is ``TransportError/pictureRefused(_:)``.
    private func upload(_ picture: Picture, for chat: ChatID) async throws -> Upload {
        let drawn = await picture.drawnInTurn()
        let uploaded: MatrixAPI.Uploaded
        do {
            uploaded = try await call(
                "POST", "/_matrix/media/v3/upload", query: ["filename": picture.fileName], rawBody: drawn.png,
                contentType: "image/png", chat: chat)
        } catch TransportError.messageRejected(let reason) {
            throw TransportError.pictureRefused(reason)
        }
        let upload = Upload(
            url: uploaded.contentURI,
            info: [
                "mimetype": "image/png", "w": .number(Double(drawn.width)), "h": .number(Double(drawn.height)),
                "size": .number(Double(drawn.png.count)),
            ])
        uploads.remember(upload, for: picture)
        return upload
    }

    /// Uploads the file, then posts the caption and the file.
    private func sendDocument(
        _ document: OutgoingMessage.Document, caption message: OutgoingMessage, in room: String, key: String
    ) async throws -> MessageID? {
        let uploaded: MatrixAPI.Uploaded = try await call(
            "POST", "/_matrix/media/v3/upload", query: ["filename": document.fileName],
            rawBody: document.contents, contentType: "application/json", chat: message.chat)
        var caption = Self.content(message.html)
        caption["m.relates_to"] = Self.relation(replyTo: message.replyTo, thread: message.thread)
        _ = try await sendEvent("m.room.message", .object(caption), in: room, key: key + ".caption", chat: message.chat)
        let file: JSON = [
            "msgtype": "m.file", "body": .string(document.fileName), "filename": .string(document.fileName),
            "url": .string(uploaded.contentURI),
            "info": ["mimetype": "application/json", "size": .number(Double(document.contents.count))],
        ]
        return MessageID(try await sendEvent("m.room.message", file, in: room, key: key, chat: message.chat))
    }

    private func sendEvent(_ type: String, _ content: JSON, in room: String, key: String, chat: ChatID) async throws
        -> String
    {
        let sent: MatrixAPI.EventSent = try await call(
            "PUT", "/rooms/\(Self.escaped(room))/send/\(type)/\(Self.escaped(key))", body: content, chat: chat)
        return sent.eventID
    }

    private static func room(_ chat: ChatID) throws -> String {
        guard chat.platform == .matrix, chat.value.hasPrefix("!") else {
            throw TransportError.messageRejected("\(chat) is not a Matrix room; nothing was sent to it")
        }
        return chat.value
    }

    // MARK: - Rooms' rights

    public func isAdministrator(_ user: UserID, in chat: ChatID) async throws -> Bool {
        let levels = try await powerLevels(in: chat)
        return levels.level(of: user.value) >= levels.stateDefault
    }

    public func mayDeleteMessages(in chat: ChatID) async throws -> Bool {
        let levels = try await powerLevels(in: chat)
        return levels.level(of: configuration.userID) >= levels.redact
    }

    /// A room's `m.room.power_levels`, trusted for a while (``TrustedAnswers``).
    private func powerLevels(in chat: ChatID) async throws -> MatrixAPI.PowerLevels {
        let room = try Self.room(chat)
        return try await powerLevels.answer(for: room, now: configuration.times.now()) {
            try await askPowerLevels(of: room, chat: chat)
        }
    }

    private func askPowerLevels(of room: String, chat: ChatID) async throws -> MatrixAPI.PowerLevels {
        let content: JSON = try await call(
            "GET", "/rooms/\(Self.escaped(room))/state/m.room.power_levels/", chat: chat,
            timeout: configuration.times.sideCallTimeout)
        // The create event with its sender (`format=event`): from room version 12 on, creators outrank levels.
        let create: JSON = try await call(
            "GET", "/rooms/\(Self.escaped(room))/state/m.room.create/", query: ["format": "event"], chat: chat,
            timeout: configuration.times.sideCallTimeout)
        var levels = MatrixAPI.PowerLevels(content: content)
        levels.creators = MatrixAPI.PowerLevels.privilegedCreators(
            of: create["content"] ?? [:], sender: create["sender"]?.string)
        return levels
    }

    // MARK: - Calls

    /// A call to the Client-Server API (`/_matrix/client/v3` unless the path is absolute).
    private func call<Result: Decodable>(
        _ method: String, _ path: String, query: [String: String] = [:], body: JSON? = nil,
        authorized: Bool = true, chat: ChatID? = nil, timeout: Duration? = nil
    ) async throws -> Result {
        try await call(
            method, path, query: query, rawBody: try body.map { Array(try JSONEncoder().encode($0)) },
            contentType: "application/json", authorized: authorized, chat: chat, timeout: timeout)
    }

    private func call<Result: Decodable>(
        _ method: String, _ path: String, query: [String: String] = [:], rawBody: [UInt8]?, contentType: String,
        authorized: Bool = true, chat: ChatID? = nil, timeout: Duration? = nil
    ) async throws -> Result {
        let endpoint = path.hasPrefix("/_matrix/") ? path : "/_matrix/client/v3" + path
        let queryString = query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.escaped($0.value))" }
            .joined(separator: "&")
        var headers = ["Content-Type": contentType]
        if authorized { headers["Authorization"] = "Bearer \(configuration.accessToken)" }
        let request = HTTPRequest(
            method: method,
            url: configuration.homeserver + endpoint + (queryString.isEmpty ? "" : "?" + queryString),
            headers: headers, body: rawBody ?? (method == "GET" ? nil : Array("{}".utf8)),
            timeout: timeout ?? configuration.times.requestTimeout)
        let response = try await http.response(to: request, name: "\(method) \(path)")
        if (200..<300).contains(response.status) {
            return try http.decode(Result.self, from: response, name: "\(method) \(path)")
        }
        let failure = try? JSONDecoder().decode(MatrixAPI.Failure.self, from: Data(response.body))
        throw Self.classify(
            call: "\(method) \(path)", status: response.status, failure: failure,
            retryAfter: response.headers["retry-after"], chat: chat)
    }

    static func classify(
        call: String, status: Int, failure: MatrixAPI.Failure?, retryAfter: String?, chat: ChatID?
    ) -> TransportError {
        let code = failure?.errcode ?? "HTTP \(status)"
        let description = "\(call): \(code) \(failure?.error ?? "")"
        switch (status, failure?.errcode) {
        case (429, _), (_, "M_LIMIT_EXCEEDED"?):
            // A header's seconds are read as a bounded number: `Retry-After: 9223372036854775807` must not trap.
            let header = retryAfter.flatMap { Int($0) }.map { min(max($0, 0), Int(Int32.max)) * 1000 }
            return .rateLimited(milliseconds: failure?.retryAfterMilliseconds ?? header, chat: chat)
        case (_, "M_UNKNOWN_TOKEN"?), (_, "M_MISSING_TOKEN"?), (401, _):
            return .fatal(
                "The homeserver refused the bot's access token (\(code) on \(call)). Check "
                    + "TESSERA_MATRIX_ACCESS_TOKEN (or log in again with TESSERA_MATRIX_PASSWORD) and "
                    + "TESSERA_MATRIX_HOMESERVER.")
        case (_, "M_FORBIDDEN"?) where chat != nil:
            return .chatUnavailable(chat ?? ChatID(.matrix, ""), reason: description)
        case (500..<600, _):
            return .transient(description)
        default:
            return .messageRejected(description)
        }
    }

    /// A path segment or query value, percent-encoded: room, event and user ids carry `!`, `$`, `@` and `:`.
    static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension MatrixTransport.Configuration: CustomStringConvertible, CustomReflectable {
    // The access token is the bot's password: never in a description, a log line or a dump.
    public var description: String {
        "MatrixTransport.Configuration(homeserver: \(homeserver), userID: \(userID), accessToken: redacted)"
    }
    public var customMirror: Mirror { Mirror(self, children: ["homeserver": homeserver, "userID": userID]) }
}

extension MatrixTransport: CustomStringConvertible, CustomReflectable {
    public var description: String { "MatrixTransport(\(configuration.homeserver))" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
