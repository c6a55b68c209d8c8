import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraEngine
import TesseraHTTP
import TesseraPictures
import TesseraTelegram
import TesseraTestSupport
import Testing

@Suite("The Telegram transport, against the fake Bot API")
struct TelegramTransportTests {
    func withTransport(
        token: String? = nil, sideCallTimeout: Duration = .seconds(3),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        _ body: (TelegramTransport, FakeTelegram) async throws -> Void
    ) async throws {
        let fake = try await FakeTelegram.start()
        do {
            var configuration = TelegramTransport.Configuration(token: token ?? fake.token, apiURL: fake.apiURL)
            configuration.times.pollSeconds = 1
            configuration.times.sideCallTimeout = sideCallTimeout
            configuration.times.now = now
            let transport = TelegramTransport(
                configuration: configuration, client: CurlHTTPClient(), logger: Logger(label: "test"))
            try await body(transport, fake)
            await fake.stop()
        } catch {
            await fake.stop()
            throw error
        }
    }
    @Test("An answer that is not the Bot API's JSON, and a refused token, are told apart without a server")
    func scriptedAnswers() async throws {
        let http = ScriptedHTTPClient()
        http.answer("POST", "/sendMessage", status: 502, json: "<html>Bad Gateway</html>")
        http.answer(
            "POST", "/deleteMessage", status: 401,
            json: #"{"ok": false, "error_code": 401, "description": "Unauthorized"}"#)
        let transport = TelegramTransport(
            configuration: TelegramTransport.Configuration(token: "123:secret", apiURL: "https://api.example.org"),
            client: http, logger: Logger(label: "test"))
        let chat = ChatID(.telegram, "7")
        do {
            _ = try await transport.send(OutgoingMessage(chat: chat, chatKind: .direct, html: "hi"), key: "k1")
            Issue.record("a gateway's error page must fail the call")
        } catch TransportError.transient(let reason) {
            #expect(reason == "sendMessage: unreadable response (HTTP 502)")
        }
        var delete = OutgoingMessage(chat: chat, chatKind: .direct, html: "")
        delete.action = .delete
        delete.replyTo = MessageID("5")
        do {
            _ = try await transport.send(delete, key: "k2")
            Issue.record("a refused token must fail the call")
        } catch TransportError.fatal(let reason) {
            #expect(reason.hasPrefix("Telegram refused the bot token (401 Unauthorized on deleteMessage)"))
            #expect(!reason.contains("secret"))
        }
        #expect(
            http.requests.map(\.url) == [
                "https://api.example.org/bot123:secret/sendMessage",
                "https://api.example.org/bot123:secret/deleteMessage",
            ])
    }

    @Test("prepare learns the username; receive maps messages, skips bots and channels, confirms the offset")
    func receiving() async throws {
        try await withTransport { transport, fake in
            #expect(try await transport.prepare() == "TesseraBot")
            var bot = FakeTelegram.message("beep", from: 99)
            var botMessage = bot["message"] as? [String: Any] ?? [:]
            botMessage["from"] = ["id": 99, "is_bot": true, "first_name": "Other bot"]
            bot["message"] = botMessage
            try await fake.push([
                FakeTelegram.message("crane", from: 7, name: "Ana", messageID: 11),
                FakeTelegram.message("/guess@TesseraBot slate", from: 8, name: "Bo", chat: -100, messageID: 12),
                FakeTelegram.message("/guess@OtherBot slate", from: 8, name: "Bo", chat: -100, messageID: 13),
                bot,
                FakeTelegram.message("news", from: 5, chat: -300, chatType: "channel"),
                [
                    "message": [
                        "message_id": 1, "chat": ["id": -200, "type": "group"], "migrate_to_chat_id": -1_002_000,
                    ]
                ],
                ["message": ["this is": "not a message"]],
            ])
            let batch = try await transport.receive(after: nil)
            // Commands arrive read: a name and an argument; one for another bot does not arrive at all.
            #expect(batch.messages.map(\.text) == ["crane", "/guess@TesseraBot slate"])
            #expect(batch.messages.map(\.command) == [nil, ChatCommand(name: "guess", argument: "slate")])
            #expect(batch.messages.map(\.chatKind) == [.direct, .group])
            #expect(batch.messages.first?.senderName == "Ana")
            #expect(batch.messages.first?.messageID == .telegram(11))
            #expect(batch.migrations.map(\.from) == [ChatID.telegram(-200)])
            #expect(batch.migrations.map(\.to) == [ChatID.telegram(-1_002_000)])
            // The unreadable update is skipped but counted: the offset moves past all six.
            let again = try await transport.receive(after: batch.nextPosition)
            #expect(again.messages.isEmpty)
            #expect(again.nextPosition == batch.nextPosition)
            #expect(try await fake.stats()["pending"] == 0, "the offset confirmed every update")
        }
    }

    @Test("Texts over 4096 characters are split at line breaks, never rejected")
    func longTexts() async throws {
        try await withTransport { transport, fake in
            let line = "<b>" + String(repeating: "x", count: 90) + "</b> &amp; 🟩"
            let html = Array(repeating: line, count: 120).joined(separator: "\n")
            _ = try await transport.send(
                OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: html, replyTo: .telegram(3)))
            let single = String(repeating: "é", count: 9_000)
            _ = try await transport.send(OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: single))
            let sent = try await fake.sent()
            #expect(sent.count >= 5)
            #expect(sent.allSatisfy { $0.text.utf16.count <= 4096 * 2 })
            #expect(sent.first?.replyTo == 3)
            #expect(sent.dropFirst().allSatisfy { $0.replyTo == nil })
            var letters = 0
            for message in sent {
                let plain = OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: message.text).plainText
                letters += plain.filter { $0 == "x" || $0 == "é" }.count
            }
            #expect(letters == 120 * 90 + 9_000, "nothing was lost")
        }
    }

    @Test("A long summary with hostile names goes out in parts Telegram parses, the word hidden in every one")
    func longSummaryParts() async throws {
        try await withTransport { transport, fake in
            let names = (1...30).map { "Member \($0) " + String(repeating: "ü", count: 120) + " Ann <\u{303}" }
            let grids = names.map { "\($0.htmlEscaped) 3/6\n🟩🟨⬛⬛⬛\n🟩🟩🟩🟩🟩" }.joined(separator: "\n\n")
            let html = """
                <b>Puzzle 322 is over here.</b>
                The word was <spoiler>CRANE</spoiler>.

                <details>\(grids)</details>
                😴 Missed: \(names.map(\.htmlEscaped).joined(separator: ", "))
                """
            _ = try await transport.send(OutgoingMessage(chat: ChatID.telegram(-100), chatKind: .group, html: html))
            let sent = try await fake.sent()
            #expect(sent.count > 1)
            #expect(sent.allSatisfy { $0.parseMode == "HTML" }, "no part was refused and resent as plain text")
            #expect(
                sent.filter { $0.text.contains("<blockquote expandable>") }.count > 1,
                "\(sent.map(\.text.count))")
            for part in sent {
                #expect(
                    !part.text.replacingOccurrences(of: "<tg-spoiler>CRANE</tg-spoiler>", with: "").contains("CRANE"))
            }
        }
    }

    @Test("Markup Telegram refuses is resent as plain text without what its spoilers hide")
    func refusedMarkupKeepsSpoilers() async throws {
        try await withTransport { transport, fake in
            try await fake.fail(
                "sendMessage", status: 400,
                extra: ["description": "Bad Request: can't parse entities: unsupported start tag"])
            _ = try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(-100), chatKind: .group,
                    html: "<b>Puzzle 322</b>: the word was <spoiler>CRANE</spoiler> &amp; more"))
            let sent = try #require(try await fake.sent().first)
            #expect(sent.parseMode == nil)
            #expect(sent.text == "Puzzle 322: the word was [spoiler] & more")
        }
    }

    @Test("Edits are marked; a button press becomes a message with its data and is acknowledged; buttons go out")
    func editsAndButtons() async throws {
        try await withTransport { transport, fake in
            _ = try await transport.prepare()
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(7), chatKind: .direct, html: "Sure?",
                    buttons: [[.init(text: "Yes", data: "x:yes")], [.init(text: "No", data: "x:no")]]
                ))
            let question = try #require(try await fake.sent().first)
            #expect(
                question.buttons.map(\.text) == ["Yes", "No"] && question.buttons.map(\.data) == ["x:yes", "x:no"])
            try await fake.push([
                FakeTelegram.message("crane", from: 7, messageID: 5, edited: true),
                FakeTelegram.press("x:no", from: 7, name: "Ana", messageID: question.messageID),
            ])
            let batch = try await transport.receive(after: nil)
            #expect(batch.messages.count == 2)
            #expect(batch.messages.first?.isEdited == true && batch.messages.first?.text == "crane")
            let press = try #require(batch.messages.last)
            #expect(
                press.button == "x:no" && press.text.isEmpty && press.sender == UserID.telegram(7)
                    && press.chat == ChatID.telegram(7))
            #expect(try await fake.answeredPresses() == ["query-7-\(question.messageID)-x:no"])

            // A button that opens the direct chat is a deep link with the bot's username, checked by the fake.
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(-5), chatKind: .group, html: "Play here",
                    buttons: [[.directChat("Play", start: "play")]]))
            let link = try #require(try await fake.sent().last)
            #expect(link.text == "Play here" && link.links == ["https://t.me/TesseraBot?start=play"])
        }
    }

    @Test(
        "A live message is edited in place; an edit of a message that is gone is refused, one that changes nothing done"
    )
    func edits() async throws {
        try await withTransport { transport, fake in
            let board = OutgoingMessage(
                chat: ChatID.telegram(7), chatKind: .direct, html: "<b>Board</b> 1/6", live: "board")
            let posted = try #require(try await transport.send(board))
            var later = board
            later.html = "<b>Board</b> 2/6"
            try await transport.edit(posted, toRead: later)
            try await transport.edit(posted, toRead: later)  // "message is not modified": nothing to do
            #expect(try await fake.edits().map(\.text) == ["<b>Board</b> 2/6"])
            #expect(try await fake.sent().first?.text == "<b>Board</b> 2/6", "one message, edited")
            let gone = MessageID.telegram(try #require(Int64(posted.value)) + 99)
            await #expect(throws: TransportError.self) { try await transport.edit(gone, toRead: later) }
            do {
                try await transport.edit(gone, toRead: later)
            } catch TransportError.editRefused(let reason) {
                #expect(reason.contains("message to edit not found"))
            }
        }
    }

    @Test("Copy puts its text on the clipboard; buttons keep their colours (Bot API 10.1, checked by the fake)")
    func copyAndStyles() async throws {
        try await withTransport { transport, fake in
            _ = try await transport.prepare()
            let result = "Tessera 326 3/6\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩⬛\n🟩🟩🟩🟩🟩"
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(7), chatKind: .direct, html: "Done",
                    buttons: [
                        [.copy("Copy", copying: result)],
                        [.directChat("Play", start: "play").styled(.success)],
                        [OutgoingMessage.Button(text: "Give up", data: "x:give-up").styled(.danger)],
                    ]))
            let sent = try #require(try await fake.sent().last)
            #expect(sent.copies == [result] && sent.buttons.map(\.text) == ["Copy", "Play", "Give up"])
            #expect(sent.styles == [nil, "success", "danger"])
            #expect(sent.links == ["https://t.me/TesseraBot?start=play"])
        }
    }

    @Test("Share opens the chat picker with inline mode, and sends its data back without; queries are answered")
    func shareAndQueries() async throws {
        try await withTransport { transport, fake in
            let board = OutgoingMessage(
                chat: ChatID.telegram(7), chatKind: .direct, html: "Done",
                buttons: [[.postElsewhere("Share", query: "share")]])
            // Before prepare() the bot does not know it has inline mode: the button sends "share" back.
            try await transport.send(board)
            _ = try await transport.prepare()
            try await transport.send(board)
            let sent = try await fake.sent()
            #expect(sent[0].inlineQueries.isEmpty && sent[0].buttons.map(\.data) == ["share"])
            #expect(sent[1].inlineQueries == ["share"])

            try await fake.push([FakeTelegram.inlineQuery("share", id: "q-1", from: 7, name: "Ana")])
            let query = try #require(try await transport.receive(after: nil).messages.first)
            #expect(query.event == .query(id: "q-1") && query.chat == ChatID.telegram(7) && query.text == "share")
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(7), chatKind: .direct, html: "Tessera 326 3/6\n\n🟩🟩🟩🟩🟩",
                    action: .answerQuery(id: "q-1", title: "Share")))
            try await fake.push([FakeTelegram.inlineQuery("share", id: "q-2", from: 7, name: "Ana")])
            _ = try await transport.receive(after: nil)
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(7), chatKind: .direct, html: "",
                    action: .answerQuery(id: "q-2", title: "Play first")))
            let answers = try await fake.inlineAnswers()
            #expect(answers.map(\.id) == ["q-1", "q-2"])
            #expect(answers[0].texts == ["Tessera 326 3/6\n\n🟩🟩🟩🟩🟩"] && answers[0].buttonStart == nil)
            #expect(answers[1].texts.isEmpty && answers[1].buttonStart == "play")

            // Deleting needs the right: refused without it, done with it.
            await #expect(throws: TransportError.self) {
                try await transport.send(
                    OutgoingMessage(
                        chat: ChatID.telegram(-5), chatKind: .group, html: "", replyTo: .telegram(3), action: .delete))
            }
            #expect(try await transport.mayDeleteMessages(in: ChatID.telegram(-5)) == false)
            try await fake.allowDeleting(in: -6)
            #expect(try await transport.mayDeleteMessages(in: ChatID.telegram(-6)) == true)
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(-6), chatKind: .group, html: "", replyTo: .telegram(3), action: .delete))
            #expect(try await fake.deleted().map(\.messageID) == [3])
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    /// A finished board's result card, as a daily game's end sends it.
    static let card = Picture.resultCard(
        ResultCard(
            title: "Tessera 326 3/6",
            rows: [.init(letters: "crane", states: [.absent, .present, .absent, .absent, .correct])],
            maximumGuesses: 6, wordLength: 5, theme: .dark))

    /// A group's day card: colours only.
    static let dayCard = Picture.dayCard(
        DayCard(
            title: "Tessera 326", boards: [.init(rows: [Array(repeating: .correct, count: 5)], crowned: true)],
            maximumGuesses: 6, wordLength: 5, theme: .dark))

    @Test(
        "A picture goes as sendPhoto with its caption, buttons and effect; the same picture again by its file_id, its caption edited, and one without letters in an inline answer as a cached photo"
    )
    func photos() async throws {
        try await withTransport { transport, fake in
            var message = OutgoingMessage(
                chat: ChatID.telegram(7), chatKind: .direct, html: "Tessera 326 3/6\n\n⬛🟨⬛⬛🟩", replyTo: .telegram(3),
                buttons: [[.init(text: "📊 Stats", data: "/stats")]])
            message.picture = Self.card
            message.effect = .celebration
            let posted = try await transport.send(message)
            try await transport.send(message)
            var edited = message
            edited.html = "Tessera 326 3/6\n\n⬛🟨⬛⬛🟩\n\nedited"
            try #require(posted != nil)
            try await transport.edit(posted!, toRead: edited, key: "edit")
            let sent = try await fake.sent()
            try #require(sent.count == 2)
            let first = try #require(sent[0].photo)
            #expect(first.uploaded && !(sent[1].photo?.uploaded ?? true))
            #expect(sent[1].photo?.fileID == first.fileID)
            #expect((first.width, first.height) == (700, 902))
            // The first photo's caption reads as edited; the second's as sent.
            #expect(sent[0].text == edited.html && sent[1].text == message.html && sent[0].replyTo == 3)
            #expect(sent[0].buttons.map(\.data) == ["/stats"] && sent[0].effect == "5046509860389126442")
            #expect(try await fake.photo(first.fileID) == Self.card.draw().png, "the PNG drawn is the PNG uploaded")
            #expect(try await fake.edits().map(\.text) == [edited.html])

            // An inline answer may be posted in any group: a picture with letters is offered as its text; one
            // without, sent before, by the file_id Telegram gave it.
            var group = OutgoingMessage(chat: ChatID.telegram(-7), chatKind: .group, html: "Tessera 326")
            group.picture = Self.dayCard
            try await transport.send(group)
            let dayCard = try #require(try await fake.sent().last?.photo)
            try await fake.push(
                ["q1", "q2"].map { id in
                    [
                        "inline_query": [
                            "id": id, "from": ["id": 7, "is_bot": false, "first_name": "Ann"], "query": "share",
                            "offset": "",
                        ]
                    ]
                })
            _ = try await transport.receive(after: nil)
            for (id, picture) in [("q1", Self.card), ("q2", Self.dayCard)] {
                var answer = OutgoingMessage(
                    chat: ChatID.telegram(7), chatKind: .direct, html: message.html,
                    action: .answerQuery(id: id, title: "Share"))
                answer.picture = picture
                try await transport.send(answer)
            }
            let answers = try await fake.inlineAnswers()
            #expect(answers.map(\.photos) == [[], [dayCard.fileID]])
            #expect(answers.map(\.texts) == [[message.html], [message.html]])
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    @Test("A caption longer than a photo takes: the photo alone, then the text; a photo refused is pictureRefused")
    func photoLimits() async throws {
        try await withTransport { transport, fake in
            var long = OutgoingMessage(
                chat: ChatID.telegram(-7), chatKind: .group, html: String(repeating: "Ann 3/6\n", count: 200))
            long.picture = Self.card
            try await transport.send(long)
            let sent = try await fake.sent()
            #expect(sent.map { $0.photo != nil } == [true, false] && sent[0].text.isEmpty)
            #expect(sent[1].text.trimmingCharacters(in: .newlines) == long.html.trimmingCharacters(in: .newlines))

            try await fake.fail(
                "sendPhoto", status: 400, extra: ["description": "Bad Request: PHOTO_INVALID_DIMENSIONS"])
            var short = long
            short.html = "Ann 3/6"
            await #expect {
                try await transport.send(short)
            } throws: { error in
                guard case TransportError.pictureRefused(let reason) = error else { return false }
                return reason.contains("PHOTO_INVALID_DIMENSIONS")
            }
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    @Test("A celebrated message arrives with Telegram's 🎉 effect in a private chat, and without it in a group")
    func messageEffects() async throws {
        try await withTransport { transport, fake in
            for chat in [Int64(7), -7] {
                var message = OutgoingMessage(
                    chat: ChatID.telegram(chat), chatKind: chat > 0 ? .direct : .group, html: "Splendid")
                message.effect = .celebration
                try await transport.send(message)
            }
            let sent = try await fake.sent()
            #expect(sent.map(\.effect) == ["5046509860389126442", nil])
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    @Test(
        "A board with a table goes as a rich message; a chat that refuses one gets the text, and is not asked again"
    )
    func richMessages() async throws {
        try await withTransport { transport, fake in
            let layout = RichLayout.board(
                title: "Leaderboard · this week", header: ["#", "Player", "Points", "Games"],
                rows: [
                    RichLayout.Row(cells: ["🥇", "Ann &lt;3", "35 pts 🔥5", "5/5 won"], line: "🥇 Ann &lt;3 — 35 pts"),
                    .note("… and 2 more"),
                ],
                note: "Points: 7 − guesses")
            let board = { (chat: Int64) in
                var message = OutgoingMessage(
                    chat: ChatID.telegram(chat), chatKind: .group, layout: layout, silent: true)
                message.replyTo = MessageID.telegram(3)
                return message
            }
            try await transport.send(board(-1))
            try await fake.refuseRichMessages(in: -2)
            try await transport.send(board(-2))
            try await transport.send(board(-2))
            let sent = try await fake.sent()
            #expect(sent.count == 3)
            #expect(
                sent[0].richHTML
                    == "<p><b>Leaderboard · this week</b></p><table><tr><th>#</th><th>Player</th><th>Points</th>"
                    + "<th>Games</th></tr><tr><td>🥇</td><td>Ann &lt;3</td><td>35 pts 🔥5</td><td>5/5 won</td></tr>"
                    + "<tr><td></td><td>… and 2 more</td><td></td><td></td></tr></table><p><i>Points: 7 − guesses</i></p>"
            )
            #expect(sent[0].text.contains("🥇 | Ann <3 | 35 pts 🔥5 | 5/5 won"), "\(sent[0].text)")
            #expect(sent[0].silent && sent[0].replyTo == 3)
            // Refused: the same post as text, the reply and the silence kept.
            #expect(sent[1].richHTML == nil && sent[1].text == layout.html && sent[1].replyTo == 3 && sent[1].silent)
            #expect(sent[2].richHTML == nil)
            #expect(try await fake.stats()["calls.sendRichMessage"] == 2, "the refusing chat is asked once")
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    @Test("A layout beyond a rich message's limits (20 columns, 500 blocks) goes as text without asking")
    func richMessageLimits() async throws {
        try await withTransport { transport, fake in
            let wide = RichLayout([
                .table(.init(header: [], rows: [RichLayout.Row(cells: Array(repeating: "x", count: 21), line: "wide")]))
            ])
            let long = RichLayout([
                .table(
                    .init(header: ["#"], rows: (0..<500).map { RichLayout.Row(cells: ["\($0)"], line: "\($0)") }))
            ])
            for layout in [wide, long] {
                try await transport.send(OutgoingMessage(chat: ChatID.telegram(-1), chatKind: .group, layout: layout))
            }
            #expect(try await fake.sent().map(\.richHTML) == [nil, nil])
            #expect(try await fake.stats()["calls.sendRichMessage"] == nil)
        }
    }

    @Test(
        "A member's tag is set only where the bot may manage tags (nothing is tried elsewhere); an empty one removes it"
    )
    func memberTags() async throws {
        try await withTransport { transport, fake in
            let tag = { (chat: Int64, tag: String) in
                OutgoingMessage(
                    chat: ChatID.telegram(chat), chatKind: .group, html: "", action: .tagMember(.telegram(7), tag: tag))
            }
            _ = try await transport.prepare()
            try await transport.send(tag(-5, "Champion"))
            #expect(try await fake.tags().isEmpty)
            #expect(try await fake.stats()["calls.setChatMemberTag"] == nil, "not tried without the right")
            try await fake.allowTagging(in: -6)
            try await transport.send(tag(-6, "Campeón/a"))
            try await transport.send(tag(-6, ""))
            let tags = try await fake.tags()
            #expect(tags.map(\.chat) == [-6, -6] && tags.map(\.user) == [7, 7])
            #expect(tags.map(\.tag) == ["Campeón/a", nil])
            // An administrator's title is their own: not tried.
            try await fake.setAdministrators(of: -6, [9])
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(-6), chatKind: .group, html: "",
                    action: .tagMember(.telegram(9), tag: "Champion")
                ))
            #expect(try await fake.tags().count == 2)
            // Telegram refuses emoji in a tag: the fake does too, so an emoji in the texts would show here.
            await #expect(throws: TransportError.self) { try await transport.send(tag(-6, "👑 Champion")) }
            #expect(try await fake.undocumentedParameters() == [])
        }
    }

    @Test(
        "A spoiler becomes a tg-spoiler and details an expandable quotation; a silent post goes with disable_notification"
    )
    func spoilerAndSilent() async throws {
        try await withTransport { transport, fake in
            try await transport.send(
                OutgoingMessage(
                    chat: ChatID.telegram(-7), chatKind: .group,
                    html: "The word was <spoiler>CRANE</spoiler>.\n<details>Ann 2/6\n🟩</details>",
                    silent: true))
            _ = try await transport.send(OutgoingMessage(chat: ChatID.telegram(-7), chatKind: .group, html: "Loud"))
            let sent = try await fake.sent()
            #expect(
                sent.map(\.text) == [
                    "The word was <tg-spoiler>CRANE</tg-spoiler>.\n<blockquote expandable>Ann 2/6\n🟩</blockquote>",
                    "Loud",
                ])
            #expect(sent.map(\.silent) == [true, false])
        }
    }

    @Test("Being added to a group comes as an event, with whether the bot sees every message there")
    func addedToGroup() async throws {
        try await withTransport { transport, fake in
            _ = try await transport.prepare()
            try await fake.push([FakeTelegram.added(to: -300, by: 5, name: "Ana")])
            let batch = try await transport.receive(after: nil)
            let event = try #require(batch.messages.first)
            // The fake's bot has privacy mode on, as a new bot does.
            #expect(
                event.event == .added(seesEveryMessage: false) && event.chat == ChatID.telegram(-300))
            #expect(event.chatKind == .group && event.sender == UserID.telegram(5) && event.text.isEmpty)
        }
    }

    @Test("The sender's app language travels with their message")
    func senderLanguage() async throws {
        try await withTransport { transport, fake in
            try await fake.push([
                FakeTelegram.message("hola", from: 7, languageCode: "es"), FakeTelegram.message("hi", from: 8),
            ])
            let batch = try await transport.receive(after: nil)
            #expect(batch.messages.map(\.senderLanguage) == ["es", nil])
        }
    }

    @Test("Markup the engine left unclosed or unescaped goes out well-formed, not refused")
    func malformedMarkupRendered() async throws {
        try await withTransport { transport, fake in
            _ = try await transport.send(
                OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: "<b>unclosed & raw <\u{303}"))
            let sent = try await fake.sent()
            #expect(sent.map(\.text) == ["<b>unclosed &amp; raw &lt;\u{303}</b>"])
            #expect(sent.map(\.parseMode) == ["HTML"])
        }
    }

    @Test(
        "A slow API holds a batch up for one short side call at most: presses and checks are short and concurrent",
        .timeLimit(.minutes(1)))
    func slowSideCalls() async throws {
        try await withTransport(sideCallTimeout: .milliseconds(200)) { transport, fake in
            // The API answers neither until released: without a short limit, the batch would wait for it.
            try await fake.hold("answerCallbackQuery")
            try await fake.hold("getChatMember")
            try await fake.push((1...6).map { FakeTelegram.press("x:\($0)", from: Int64($0), messageID: 1) })
            let batch = try await transport.receive(after: nil)
            #expect(batch.messages.compactMap(\.button) == (1...6).map { "x:\($0)" })
            await #expect(throws: TransportError.self) {
                try await transport.isAdministrator(UserID.telegram(1), in: ChatID.telegram(-100))
            }
            try await fake.release("answerCallbackQuery")
            try await fake.release("getChatMember")
        }
    }

    @Test("An administrator check is trusted for a minute on the injected clock, then asked again")
    func administratorCache() async throws {
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let now: @Sendable () -> ContinuousClock.Instant = { start + elapsed.withLock { $0 } }
        try await withTransport(now: now) { transport, fake in
            try await fake.setAdministrators(of: -100, [1])
            let asked = { try await fake.stats()["getChatMember"] ?? 0 }
            #expect(try await transport.isAdministrator(UserID.telegram(1), in: ChatID.telegram(-100)))
            elapsed.withLock { $0 = .seconds(59) }
            #expect(try await transport.isAdministrator(UserID.telegram(1), in: ChatID.telegram(-100)))
            #expect(try await asked() == 1, "trusted for a minute")
            try await fake.setAdministrators(of: -100, [])
            elapsed.withLock { $0 = .seconds(61) }
            #expect(try await !transport.isAdministrator(UserID.telegram(1), in: ChatID.telegram(-100)))
            #expect(try await asked() == 2, "asked again once the minute is over")
        }
    }

    @Test("A reply to a message that is gone is sent again without the reference")
    func replyFallback() async throws {
        try await withTransport { transport, fake in
            try await fake.fail(
                "sendMessage", status: 400, extra: ["description": "Bad Request: message to be replied not found"])
            _ = try await transport.send(
                OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: "hello", replyTo: .telegram(99)))
            let sent = try await fake.sent()
            #expect(sent.map(\.text) == ["hello"] && sent.first?.replyTo == nil)
        }
    }

    @Test(
        "Failures are classified for the service",
        arguments: [
            (429, #"{"retry_after": 3}"#, "rateLimited 3"),
            (403, "{}", "chatUnavailable"),
            (400, #"{"migrate_to_chat_id": -1009}"#, "chatMigrated -1009"),
            (400, #"{"description": "Bad Request: chat not found"}"#, "messageRejected"),
            (401, "{}", "fatal"),
            // The token worked at start: a 404 on sending is a method this server lacks, not a bad token.
            (404, #"{"description": "Not Found"}"#, "messageRejected"),
            (409, "{}", "transient"),
            (500, "{}", "transient"),
            (502, "{}", "transient"),
        ]
    )
    func classification(status: Int, extraJSON: String, expected: String) async throws {
        let extra = try JSONSerialization.jsonObject(with: Data(extraJSON.utf8)) as? [String: Any] ?? [:]
        try await withTransport { transport, fake in
            try await fake.fail("sendMessage", status: status, extra: extra)
            do {
                _ = try await transport.send(
                    OutgoingMessage(chat: ChatID.telegram(7), chatKind: .direct, html: "hello"))
                Issue.record("sending succeeded despite an injected \(status)")
            } catch let error as TransportError {
                let actual: String
                switch error {
                case .rateLimited(let delay, let chat):
                    actual = "rateLimited \(delay.components.seconds)"
                    #expect(chat == ChatID.telegram(7))
                case .chatUnavailable(let chat, _):
                    actual = "chatUnavailable"
                    #expect(chat == ChatID.telegram(7))
                case .chatMigrated(let from, let to):
                    actual = "chatMigrated \(to.value)"
                    #expect(from == ChatID.telegram(7))
                case .messageRejected, .editRefused: actual = "messageRejected"
                case .pictureRefused: actual = "pictureRefused"
                case .fatal(let reason):
                    actual = "fatal"
                    #expect(reason.contains("TESSERA_TELEGRAM_TOKEN"))
                    #expect(!reason.contains(fake.token), "the token is never shown")
                case .transient: actual = "transient"
                }
                #expect(actual == expected)
            }
        }
    }

    @Test("A wrong token is fatal, and a dropped connection is transient")
    func tokenAndNetwork() async throws {
        try await withTransport(token: "999:wrong") { transport, _ in
            await #expect {
                try await transport.prepare()
            } throws: { error in
                if case .fatal = error as? TransportError { return true }
                return false
            }
        }
        try await withTransport { transport, fake in
            try await fake.drop("getUpdates")
            await #expect {
                try await transport.receive(after: nil)
            } throws: { error in
                if case .transient = error as? TransportError { return true }
                return false
            }
            try await fake.push([FakeTelegram.message("crane", from: 7)])
            #expect(try await transport.receive(after: nil).messages.count == 1, "the next poll works")
        }
    }
}

extension TelegramTransport {
    /// Telegram does not use the key; these tests send each message once.
    @discardableResult
    func send(_ message: OutgoingMessage) async throws -> MessageID? { try await send(message, key: "test") }

    func edit(_ posted: MessageID, toRead message: OutgoingMessage) async throws {
        try await edit(posted, toRead: message, key: "test")
    }
}
