import Foundation
import Logging
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraMatrix
import TesseraPictures
import TesseraTestSupport
import Testing

/// The Matrix transport against a real Synapse on loopback, with real people talking to it.
@Suite(
    "The Matrix transport, against a real Synapse homeserver", .serialized,
    .disabled(
        if: ProcessInfo.processInfo.environment["TESSERA_SKIP_MATRIX"] == "1",
        "TESSERA_SKIP_MATRIX=1: the tests against Synapse are switched off"))
struct MatrixSynapseTests {
    func transport(_ synapse: Synapse, _ bot: Synapse.Account) -> MatrixTransport {
        var configuration = MatrixTransport.Configuration(
            homeserver: synapse.url, userID: bot.userID, accessToken: bot.accessToken)
        configuration.times.pollSeconds = 2
        return MatrixTransport(configuration: configuration, client: CurlHTTPClient(), logger: Logger(label: "test"))
    }

    /// The bot and Alice in a direct room she made, which the bot has joined; the bot's transport.
    func directRoom(_ synapse: Synapse) async throws -> (
        bot: Synapse.Account, alice: Synapse.Account, room: String, transport: MatrixTransport
    ) {
        let bot = try await synapse.register("tessera")
        let alice = try await synapse.register("alice")
        let room = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
        try await synapse.join(room, as: bot)
        return (bot, alice, room, transport(synapse, bot))
    }

    /// Receives until `done` holds for what arrived, at most `polls` long polls; returns every message and the
    /// last position.
    func receive(
        _ transport: MatrixTransport, after position: String?, polls: Int = 10,
        until done: ([ChatMessage]) -> Bool
    ) async throws -> (messages: [ChatMessage], position: String?) {
        var position = position
        var messages: [ChatMessage] = []
        for _ in 0..<polls where !done(messages) {
            let batch = try await transport.receive(after: position)
            messages += batch.messages
            position = batch.nextPosition
        }
        return (messages, position)
    }

    /// Receives until the bot has joined a room it was invited to (at most ten polls); the position after.
    func receiveUntilJoined(
        _ room: String, transport: MatrixTransport, after position: String, synapse: Synapse,
        as member: Synapse.Account, bot: Synapse.Account
    ) async throws -> String? {
        var position = position
        for _ in 0..<10 {
            position = try await transport.receive(after: position).nextPosition
            let events = try await synapse.events(in: room, as: member)
            if events.contains(where: {
                $0["type"] as? String == "m.room.member" && $0["state_key"] as? String == bot.userID
                    && ($0["content"] as? [String: Any])?["membership"] as? String == "join"
            }) {
                return position
            }
        }
        Issue.record("the bot did not join \(room) it was invited to")
        return position
    }

    @Test("Invites are joined; the first start answers no history; direct rooms and groups are told apart")
    func receiving() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let bob = try await synapse.register("bob")
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            let transport = transport(synapse, bot)
            try await transport.prepare()
            // Sent before the bot ever synced: history, never answered.
            try await synapse.join(direct, as: bot)
            try await synapse.say("old news", in: direct, as: alice)
            let first = try await transport.receive(after: nil)
            #expect(first.messages.isEmpty)

            let group = try await synapse.createRoom(as: alice, inviting: [bot.userID, bob.userID])
            try await synapse.join(group, as: bob)
            // The bot joins the group when its invite arrives.
            var position = try await receiveUntilJoined(
                group, transport: transport, after: first.nextPosition, synapse: synapse, as: alice, bot: bot)
            var messages: [ChatMessage]
            try await synapse.say("crane", in: direct, as: alice)
            try await synapse.say("!leaderboard week", in: group, as: bob)
            (messages, position) = try await receive(transport, after: position) { $0.count >= 2 }
            #expect(position != nil)
            let guess = try #require(messages.first { $0.text == "crane" })
            #expect(guess.chat == ChatID(.matrix, direct) && guess.chatKind == .direct)
            #expect(guess.sender == UserID(.matrix, alice.userID) && guess.senderName == "alice")
            #expect(guess.command == nil && guess.messageID != nil)
            let asked = try #require(messages.first { $0.chat == ChatID(.matrix, group) })
            #expect(asked.chatKind == .group)
            #expect(asked.command == ChatCommand(name: "leaderboard", argument: "week"))
            #expect(!messages.contains { $0.text == "old news" })
        }
    }

    @Test("A room is direct only while the bot and one person are in it: is_direct on a room of four decides nothing")
    func forgedDirectRooms() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let alice = try await synapse.register("alice")
            let others = [try await synapse.register("bob"), try await synapse.register("carol")]
            let transport = transport(synapse, bot)
            try await transport.prepare()
            var position: String? = try await transport.receive(after: nil).nextPosition
            // Alice invites the bot "as a direct chat" to a room of four.
            let forged = try await synapse.createRoom(
                as: alice, inviting: [bot.userID] + others.map(\.userID), direct: true)
            for person in others { try await synapse.join(forged, as: person) }
            position = try await receiveUntilJoined(
                forged, transport: transport, after: position ?? "", synapse: synapse, as: alice, bot: bot)
            // A real direct room, which then grows.
            let direct = try await synapse.createRoom(as: alice, inviting: [bot.userID], direct: true)
            position = try await receiveUntilJoined(
                direct, transport: transport, after: position ?? "", synapse: synapse, as: alice, bot: bot)
            try await synapse.say("crane", in: forged, as: alice)
            try await synapse.say("slate", in: direct, as: alice)
            var messages: [ChatMessage]
            (messages, position) = try await receive(transport, after: position) { $0.count >= 2 }
            #expect(messages.first { $0.text == "crane" }?.chatKind == .group, "four people: a group")
            #expect(messages.first { $0.text == "slate" }?.chatKind == .direct)
            try await synapse.invite(others[0].userID, to: direct, as: alice)
            try await synapse.join(direct, as: others[0])
            try await synapse.say("pious", in: direct, as: alice)
            (messages, position) = try await receive(transport, after: position) { $0.count >= 1 }
            #expect(messages.first { $0.text == "pious" }?.chatKind == .group, "grown past two: a group")
            // A message queued for the room while it was direct (an analysis naming the word) is refused now.
            let late = OutgoingMessage(
                chat: ChatID(.matrix, direct), chatKind: .direct, html: "Analysis: the word was SLATE")
            await #expect(throws: TransportError.self) { try await transport.send(late, key: "late.1") }
            await #expect(throws: TransportError.self) {
                try await transport.edit(MessageID("$posted"), toRead: late, key: "late.2")
            }
            let events = try await synapse.events(in: direct, as: alice)
            #expect(
                !events.contains {
                    ($0["content"] as? [String: Any])?["body"] as? String == "Analysis: the word was SLATE"
                })
            // Opening a direct chat with Alice passes over both rooms: a new one, where only she is invited.
            let opened = try await transport.send(
                OutgoingMessage(
                    chat: ChatID(.matrix, forged), chatKind: .group, html: "Your board",
                    action: .openDirectChat(with: UserID(.matrix, alice.userID))), key: "open.1")
            let (room, isDirect) = try await synapse.waitForInvite(to: alice, from: bot.userID)
            #expect(isDirect && room != forged && room != direct && opened != nil)
        }
    }

    @Test("A sync position the homeserver refuses is dropped: the bot starts again from now and hears what follows")
    func refusedPosition() async throws {
        try await Synapse.with { synapse in
            let (_, alice, room, transport) = try await directRoom(synapse)
            try await transport.prepare()
            // A position of another server, or of a database restored from an older backup.
            let restarted = try await transport.receive(after: "s99999999_garbage_0_0")
            #expect(restarted.messages.isEmpty, "history is not answered")
            #expect(restarted.nextPosition != "s99999999_garbage_0_0")
            try await synapse.say("crane", in: room, as: alice)
            let (messages, _) = try await receive(transport, after: restarted.nextPosition) { !$0.isEmpty }
            #expect(messages.map(\.text) == ["crane"])
        }
    }

    @Test("A burst of invites is joined in one receive, and every direct one is remembered")
    func manyInvites() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let transport = transport(synapse, bot)
            try await transport.prepare()
            var position = try await transport.receive(after: nil).nextPosition
            var rooms: [(person: Synapse.Account, room: String)] = []
            for index in 0..<20 {
                let person = try await synapse.register("p\(index)")
                rooms.append((person, try await synapse.createRoom(as: person, inviting: [bot.userID], direct: true)))
            }
            for _ in 0..<5 {
                position = try await transport.receive(after: position).nextPosition
                let joined = try await synapse.events(in: rooms[19].room, as: rooms[19].person).contains {
                    $0["type"] as? String == "m.room.member" && $0["state_key"] as? String == bot.userID
                        && ($0["content"] as? [String: Any])?["membership"] as? String == "join"
                }
                if joined { break }
            }
            for (person, room) in rooms {
                try await synapse.say("hello", in: room, as: person)
            }
            let (messages, _) = try await receive(transport, after: position) { $0.count >= 20 }
            #expect(messages.count == 20 && messages.allSatisfy { $0.chatKind == .direct })
            // Each is where a direct chat with its person is opened: no new room is created for any of them, and
            // the welcome its invite was answered with is not posted again.
            let reply = try await transport.send(
                OutgoingMessage(
                    chat: ChatID(.matrix, rooms[7].room), chatKind: .direct, html: "Welcome",
                    action: .openDirectChat(with: UserID(.matrix, rooms[7].person.userID))), key: "open.7")
            #expect(reply == nil, "welcomed as it joined")
            await #expect(throws: Synapse.NotSeen.self, "no invite to another room") {
                try await synapse.waitForInvite(to: rooms[7].person, from: bot.userID, timeout: .seconds(1))
            }
        }
    }

    @Test("Notices with HTML; the same key posts once; an edit replaces; a reaction marks; a spoiler stays hidden")
    func sending() async throws {
        try await Synapse.with { synapse in
            let (bot, alice, room, transport) = try await directRoom(synapse)
            let chat = ChatID(.matrix, room)
            let board = OutgoingMessage(chat: chat, chatKind: .direct, html: "<b>Board</b> 1/6")
            let posted = try #require(try await transport.send(board, key: "outbox.1"))
            // Sent again after a crash, with the same key: the homeserver returns the same event.
            #expect(try await transport.send(board, key: "outbox.1") == posted)
            var later = board
            later.html = "<b>Board</b> 2/6"
            try await transport.edit(posted, toRead: later, key: "outbox.2.edit")
            let guess = try await synapse.say("crane", in: room, as: alice)
            try await transport.send(
                OutgoingMessage(
                    chat: chat, chatKind: .direct, html: "Counted", replyTo: MessageID(guess), action: .react(.counted)),
                key: "outbox.3")
            try await transport.send(
                OutgoingMessage(chat: chat, chatKind: .direct, html: "The word: <spoiler>CRANE</spoiler>"),
                key: "outbox.4")

            let events = try await synapse.events(in: room, as: alice).filter { $0["sender"] as? String == bot.userID }
            func content(_ event: [String: Any]) -> [String: Any] { event["content"] as? [String: Any] ?? [:] }
            let notices = events.filter { content($0)["msgtype"] as? String == "m.notice" }
            #expect(notices.filter { content($0)["body"] as? String == "Board 1/6" }.count == 1, "posted once")
            #expect(content(notices[0])["formatted_body"] as? String == "<b>Board</b> 1/6")
            let edit = try #require(notices.first { content($0)["m.new_content"] != nil })
            #expect((content(edit)["m.relates_to"] as? [String: Any])?["rel_type"] as? String == "m.replace")
            #expect((content(edit)["m.relates_to"] as? [String: Any])?["event_id"] as? String == posted.value)
            #expect((content(edit)["m.new_content"] as? [String: Any])?["body"] as? String == "Board 2/6")
            let reaction = try #require(events.first { $0["type"] as? String == "m.reaction" })
            let relation = content(reaction)["m.relates_to"] as? [String: Any]
            #expect(relation?["key"] as? String == "👌" && relation?["event_id"] as? String == guess)
            let spoiler = try #require(notices.last)
            #expect(content(spoiler)["body"] as? String == "The word: [spoiler]")
            #expect((content(spoiler)["formatted_body"] as? String)?.contains("data-mx-spoiler>CRANE") == true)

            // Longer than one event may be: in parts at line breaks, each posted once, even when sent again.
            let lines = (1...3).map { "line \($0) " + String(repeating: "x", count: 4000) }
            let long = OutgoingMessage(chat: chat, chatKind: .direct, html: lines.joined(separator: "\n"))
            #expect(try await transport.send(long, key: "outbox.5") == nil, "no one event shows it all to edit")
            _ = try await transport.send(long, key: "outbox.5")
            let parts = try await synapse.events(in: room, as: alice).compactMap { content($0)["body"] as? String }
                .filter { $0.hasPrefix("line ") }
            #expect(parts == lines)
        }
    }

    @Test(
        "A picture is uploaded once and posted as m.image: its text the body and caption, its size in info; an edit keeps the image"
    )
    func pictures() async throws {
        try await Synapse.with { synapse in
            let (bot, alice, room, transport) = try await directRoom(synapse)
            var card = OutgoingMessage(
                chat: ChatID(.matrix, room), chatKind: .direct, html: "Tessera 326 3/6\n\n⬛🟨⬛⬛🟩")
            card.picture = .resultCard(
                ResultCard(
                    title: "Tessera 326 3/6",
                    rows: [.init(letters: "crane", states: [.absent, .present, .absent, .absent, .correct])],
                    maximumGuesses: 6, wordLength: 5, theme: .dark))
            let drawn = try #require(card.picture).draw()
            let posted = try #require(try await transport.send(card, key: "outbox.1"))
            var edited = card
            edited.html += "\n\nanalysed"
            try await transport.edit(posted, toRead: edited, key: "outbox.1.edit")

            let events = try await synapse.events(in: room, as: alice).filter { $0["sender"] as? String == bot.userID }
            func content(_ event: [String: Any]) -> [String: Any] { event["content"] as? [String: Any] ?? [:] }
            let images = events.filter { content($0)["msgtype"] as? String == "m.image" }
            #expect(images.count == 2, "the post and its edit")
            let image = content(try #require(images.first))
            #expect(
                image["body"] as? String == "Tessera 326 3/6\n\n⬛🟨⬛⬛🟩"
                    && image["filename"] as? String == "tessera-result.png")
            let info = image["info"] as? [String: Any] ?? [:]
            #expect(info["mimetype"] as? String == "image/png")
            #expect((info["w"] as? NSNumber)?.intValue == drawn.width)
            #expect((info["h"] as? NSNumber)?.intValue == drawn.height)
            #expect((info["size"] as? NSNumber)?.intValue == drawn.png.count)
            let url = try #require(image["url"] as? String)
            #expect(try await synapse.download(url, as: alice) == drawn.png, "the homeserver holds the PNG drawn")
            // The edit names the same upload: the picture went up once.
            let replaced = content(try #require(images.last))["m.new_content"] as? [String: Any] ?? [:]
            #expect(replaced["url"] as? String == url && replaced["msgtype"] as? String == "m.image")
            #expect((replaced["body"] as? String)?.hasSuffix("analysed") == true)
        }
    }

    @Test("Power levels decide who administers a room and who may delete; a kicked bot's room is unavailable")
    func rights() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let (people, room) = try await synapse.group(of: ["alice", "bob"], inviting: bot)
            let (alice, bob) = (people[0], people[1])
            try await synapse.join(room, as: bot)
            let chat = ChatID(.matrix, room)
            let before = transport(synapse, bot)
            #expect(try await before.isAdministrator(UserID(.matrix, alice.userID), in: chat))
            #expect(try await !before.isAdministrator(UserID(.matrix, bob.userID), in: chat))
            #expect(try await !before.mayDeleteMessages(in: chat))
            try await synapse.setPowerLevel(50, of: bot.userID, in: room, as: alice)
            // A new transport: answers are trusted for a minute.
            let after = transport(synapse, bot)
            #expect(try await after.mayDeleteMessages(in: chat))
            let guess = try await synapse.say("/guess crane", in: room, as: bob)
            try await after.send(
                OutgoingMessage(chat: chat, chatKind: .group, html: "", replyTo: MessageID(guess), action: .delete),
                key: "outbox.9")
            let redacted = try await synapse.events(in: room, as: alice).first { $0["event_id"] as? String == guess }
            #expect((redacted?["content"] as? [String: Any])?.isEmpty == true, "the guess was redacted")

            // Kicked, the bot may not post there: the room is unavailable, and the service marks it inactive.
            try await synapse.kick(bot.userID, from: room, as: alice)
            do {
                try await after.send(OutgoingMessage(chat: chat, chatKind: .group, html: "hello"), key: "outbox.10")
                Issue.record("a room the bot was kicked from must refuse its messages")
            } catch TransportError.chatUnavailable(let unavailable, _) {
                #expect(unavailable == chat)
            }

            var refused = MatrixTransport.Configuration(
                homeserver: synapse.url, userID: bot.userID, accessToken: "syt_not_a_token")
            refused.times.pollSeconds = 1
            let stranger = MatrixTransport(
                configuration: refused, client: CurlHTTPClient(), logger: Logger(label: "test"))
            do {
                try await stranger.prepare()
                Issue.record("a refused token must stop the bot")
            } catch TransportError.fatal(let reason) {
                #expect(reason.contains("TESSERA_MATRIX_ACCESS_TOKEN") && !reason.contains("syt_not_a_token"))
            }
        }
    }

    @Test("A room upgrade moves the group: the tombstone is a migration, and the bot joins the new room")
    func roomUpgrade() async throws {
        try await Synapse.with { synapse in
            let bot = try await synapse.register("tessera")
            let (people, old) = try await synapse.group(of: ["alice", "bob"], inviting: bot)
            let alice = people[0]
            try await synapse.join(old, as: bot)
            let transport = transport(synapse, bot)
            var position = try await transport.receive(after: nil).nextPosition
            let new = try await synapse.upgrade(old, to: "11", as: alice)
            // An invite-only room's members need an invite to the new one, which clients send as they upgrade.
            try await synapse.invite(bot.userID, to: new, as: alice)
            var migrations: [(from: ChatID, to: ChatID)] = []
            for _ in 0..<5 where migrations.isEmpty {
                let batch = try await transport.receive(after: position)
                migrations += batch.migrations
                position = batch.nextPosition
            }
            _ = try await transport.receive(after: position)
            #expect(migrations.map(\.from) == [ChatID(.matrix, old)])
            #expect(migrations.map(\.to) == [ChatID(.matrix, new)])
            let members = try await synapse.events(in: new, as: alice).filter {
                $0["type"] as? String == "m.room.member" && $0["state_key"] as? String == bot.userID
            }
            #expect(
                members.contains { ($0["content"] as? [String: Any])?["membership"] as? String == "join" },
                "the bot is in the new room")
        }
    }

    @Test("After an outage every message since is received, not only the homeserver's default last ten")
    func outage() async throws {
        try await Synapse.with { synapse in
            let (_, alice, room, transport) = try await directRoom(synapse)
            let position = try await transport.receive(after: nil).nextPosition
            // The bot is away while 25 messages arrive.
            for index in 0..<25 { try await synapse.say("!stats \(index)", in: room, as: alice) }
            let (messages, _) = try await receive(transport, after: position) { $0.count >= 25 }
            #expect(messages.map(\.command?.argument) == (0..<25).map { "\($0)" })
        }
    }

    @Test("A real 429: a lowered rate limit is met with its delay, and sending works again once it is lifted")
    func rateLimit() async throws {
        try await Synapse.with { synapse in
            let admin = try await synapse.registerAdministrator("admin")
            let (bot, _, room, transport) = try await directRoom(synapse)
            let chat = ChatID(.matrix, room)
            try await synapse.overrideRateLimit(of: bot.userID, perSecond: 1, burst: 1, as: admin)
            var limited: Duration?
            for index in 0..<5 where limited == nil {
                do {
                    try await transport.send(
                        OutgoingMessage(chat: chat, chatKind: .direct, html: "hello \(index)"), key: "rate.\(index)")
                } catch TransportError.rateLimited(let delay, let limitedChat) {
                    limited = delay
                    #expect(limitedChat == chat)
                }
            }
            let delay = try #require(limited, "five messages at once against one a second")
            #expect(delay > .zero && delay <= .seconds(2))
            try await synapse.overrideRateLimit(of: bot.userID, perSecond: nil, burst: nil, as: admin)
            for index in 0..<5 {
                try await transport.send(
                    OutgoingMessage(chat: chat, chatKind: .direct, html: "again \(index)"), key: "again.\(index)")
            }
        }
    }
}
