import Foundation
import Logging
import Synchronization
import TesseraEngine
import TesseraHTTP
import TesseraTestSupport
import Testing

@testable import TesseraMatrix

@Suite("The Matrix transport's own rules: texts, commands, relations, failures")
struct MatrixTransportTests {
    @Test("A spoiler is hidden in the formatted body and never in the plain body notifications show")
    func spoilers() {
        let html = "Puzzle 326: the word was <spoiler><b>CRANE</b></spoiler>.\n<details>🟩🟩</details>"
        #expect(
            MatrixText.html(Markup(html: html))
                == "Puzzle 326: the word was <span data-mx-spoiler><b>CRANE</b></span>.<br><blockquote>🟩🟩</blockquote>")
        let plain = MatrixText.plain(Markup(html: html))
        #expect(plain == "Puzzle 326: the word was [spoiler].\n🟩🟩")
        #expect(!plain.contains("CRANE"))
        // Unclosed, everything after it stays hidden.
        #expect(MatrixText.plain(Markup(html: "a <spoiler>CRANE and more")) == "a [spoiler]")
        #expect(MatrixText.plain(Markup(html: "1 &lt; 2 &amp; <i>so</i>")) == "1 < 2 & so")
    }

    @Test("The bot writes commands as Matrix bots' are, in the body and the formatted body")
    func writtenCommands() {
        let content = MatrixTransport.content("Send one word, or <b>/help</b> for the commands. 3/6")
        #expect(content["body"]?.string == "Send one word, or !help for the commands. 3/6")
        #expect(content["formatted_body"]?.string == "Send one word, or <b>!help</b> for the commands. 3/6")
    }

    @Test(
        "Commands are read with ! or /; anything else is text",
        arguments: [
            ("!guess crane", ChatCommand(name: "guess", argument: "crane")),
            ("/help", ChatCommand(name: "help", argument: "")),
            ("  !leaderboard week ", ChatCommand(name: "leaderboard", argument: "week")),
        ])
    func commands(text: String, expected: ChatCommand) {
        #expect(MatrixTransport.commandSyntax.read(text) == .command(expected))
    }

    @Test("A board's table is in the formatted body, with its header; the body is its lines of text")
    func tables() {
        let layout = RichLayout.board(
            title: "Leaderboard", header: ["#", "Player"],
            rows: [RichLayout.Row(cells: ["🥇", "Ann"], line: "🥇 Ann — 3/6")], note: "See /help")
        let content = MatrixTransport.content(layout.html, layout: layout)
        #expect(content["body"]?.string == "Leaderboard\n🥇 Ann — 3/6\nSee !help")
        #expect(
            content["formatted_body"]?.string
                == "<p><b>Leaderboard</b></p><table><thead><tr><th>#</th><th>Player</th></tr></thead><tbody><tr>"
                + "<td>🥇</td><td>Ann</td></tr></tbody></table><p><i>See !help</i></p>")
    }

    @Test("Bare words and pasted results are no commands")
    func texts() {
        for text in ["crane", "Wordle 1,234 3/6", "! guess", "!"] {
            #expect(MatrixTransport.commandSyntax.read(text) == .text, "\(text)")
        }
    }

    @Test("A reply's quoted fallback is dropped; a text that only starts with > is kept")
    func replyFallback() {
        #expect(
            MatrixTransport.withoutReplyFallback("> <@alice:example.org> crane\n> second line\n\n!share") == "!share")
        #expect(MatrixTransport.withoutReplyFallback("crane") == "crane")
        #expect(MatrixTransport.withoutReplyFallback(">nope") == ">nope")
    }

    @Test("Names fall back to the user id's localpart")
    func localparts() {
        #expect(MatrixTransport.localpart("@alice:example.org") == "alice")
        #expect(MatrixTransport.localpart("bob") == "bob")
    }

    @Test("Replies and threads are relations; a thread without a reply falls back to its root")
    func relations() {
        #expect(MatrixTransport.relation(replyTo: nil, thread: nil) == nil)
        #expect(
            MatrixTransport.relation(replyTo: MessageID("$a"), thread: nil)
                == ["m.in_reply_to": ["event_id": "$a"]])
        #expect(
            MatrixTransport.relation(replyTo: nil, thread: MessageID("$root"))
                == [
                    "rel_type": "m.thread", "event_id": "$root", "is_falling_back": true,
                    "m.in_reply_to": ["event_id": "$root"],
                ])
        #expect(
            MatrixTransport.relation(replyTo: MessageID("$a"), thread: MessageID("$root"))
                == [
                    "rel_type": "m.thread", "event_id": "$root", "is_falling_back": false,
                    "m.in_reply_to": ["event_id": "$a"],
                ])
    }

    @Test("The sync filter asks for messages and membership only, and cuts history short on the first start")
    func filter() throws {
        let first = try JSONDecoder().decode(JSON.self, from: Data(MatrixTransport.filter(history: 1).utf8))
        let later = try JSONDecoder().decode(JSON.self, from: Data(MatrixTransport.filter(history: nil).utf8))
        #expect(first["room"]?["timeline"]?["limit"]?.int == 1)
        #expect(later["room"]?["timeline"]?["limit"]?.int == MatrixTransport.timelineLimit)
        #expect(
            later["room"]?["timeline"]?["types"] == [
                "m.room.message", "m.room.encrypted", "m.room.member", "m.room.tombstone",
            ])
        #expect(later["presence"]?["not_types"] == ["*"] && later["room"]?["ephemeral"]?["not_types"] == ["*"])
    }

    @Test("Failures are classified for the service; the token is never in a message")
    func failures() {
        let room = ChatID(.matrix, "!room:example.org")
        func failure(_ code: String, retryAfter: Int? = nil) -> MatrixAPI.Failure {
            MatrixAPI.Failure(errcode: code, error: "because", retryAfterMilliseconds: retryAfter)
        }
        switch MatrixTransport.classify(
            call: "PUT /send", status: 429, failure: failure("M_LIMIT_EXCEEDED", retryAfter: 2500), retryAfter: nil,
            chat: room)
        {
        case .rateLimited(let delay, let chat): #expect(delay == .milliseconds(2500) && chat == room)
        default: Issue.record("429 with retry_after_ms is a rate limit")
        }
        switch MatrixTransport.classify(call: "PUT /send", status: 429, failure: nil, retryAfter: "3", chat: nil) {
        case .rateLimited(let delay, _): #expect(delay == .seconds(3), "the Retry-After header, without a body")
        default: Issue.record("429 with Retry-After is a rate limit")
        }
        switch MatrixTransport.classify(
            call: "GET /sync", status: 401, failure: failure("M_UNKNOWN_TOKEN"), retryAfter: nil, chat: nil)
        {
        case .fatal(let reason): #expect(reason.contains("TESSERA_MATRIX_ACCESS_TOKEN"))
        default: Issue.record("an unknown token stops the bot")
        }
        switch MatrixTransport.classify(
            call: "PUT /send", status: 403, failure: failure("M_FORBIDDEN"), retryAfter: nil, chat: room)
        {
        case .chatUnavailable(let chat, _): #expect(chat == room)
        default: Issue.record("M_FORBIDDEN on sending marks the room inactive")
        }
        switch MatrixTransport.classify(call: "GET /sync", status: 502, failure: nil, retryAfter: nil, chat: nil) {
        case .transient: break
        default: Issue.record("5xx is retried")
        }
        switch MatrixTransport.classify(
            call: "PUT /send", status: 400, failure: failure("M_BAD_JSON"), retryAfter: nil, chat: room)
        {
        case .messageRejected(let reason): #expect(reason.contains("M_BAD_JSON"))
        default: Issue.record("a malformed message is dropped")
        }
    }

    @Test("Power levels: the spec's defaults, users' own levels, and creators above all from room version 12")
    func powerLevels() {
        var levels = MatrixAPI.PowerLevels(content: ["users": ["@admin:x": 100, "@mod:x": 50], "users_default": 0])
        #expect(levels.level(of: "@admin:x") == 100 && levels.level(of: "@someone:x") == 0)
        #expect(levels.stateDefault == 50 && levels.redact == 50)
        #expect(levels.level(of: "@mod:x") >= levels.stateDefault)
        #expect(MatrixAPI.PowerLevels.privilegedCreators(of: ["room_version": "10"], sender: "@alice:x").isEmpty)
        levels.creators = MatrixAPI.PowerLevels.privilegedCreators(
            of: ["room_version": "12", "additional_creators": ["@carol:x"]], sender: "@alice:x")
        #expect(levels.creators == ["@alice:x", "@carol:x"] && levels.level(of: "@alice:x") > 100)
    }

    @Test("A room's power levels are asked once a minute, on the configured clock, and the answer is used meanwhile")
    func powerLevelsCached() async throws {
        let http = ScriptedHTTPClient()
        http.answer("GET", "/state/m.room.power_levels/", json: #"{"users": {"@ann:example.org": 100}}"#)
        http.answer(
            "GET", "/state/m.room.create/",
            json: #"{"sender": "@ann:example.org", "content": {"room_version": "10"}}"#)
        let now = Mutex(ContinuousClock.now)
        var configuration = MatrixTransport.Configuration(
            homeserver: "https://matrix.example.org", userID: "@tessera:example.org", accessToken: "secret")
        configuration.times.now = { now.withLock { $0 } }
        let matrix = MatrixTransport(configuration: configuration, client: http, logger: Logger(label: "test"))
        let room = ChatID(.matrix, "!room:example.org")
        let ann = UserID(.matrix, "@ann:example.org")
        #expect(try await matrix.isAdministrator(ann, in: room))
        #expect(try await !matrix.mayDeleteMessages(in: room))
        #expect(http.requests.count == 2, "the levels and the create event, once: \(http.requests.map(\.url))")
        // A demotion shows after the minute, not before.
        http.answer("GET", "/state/m.room.power_levels/", json: #"{"users": {}}"#)
        now.withLock { $0 += .seconds(59) }
        #expect(try await matrix.isAdministrator(ann, in: room))
        now.withLock { $0 += .seconds(2) }
        #expect(try await !matrix.isAdministrator(ann, in: room))
        #expect(http.requests.count == 4)
        #expect(http.requests.allSatisfy { $0.headers["Authorization"] == "Bearer secret" })
    }

    @Test("The configuration never shows the access token")
    func redaction() {
        let configuration = MatrixTransport.Configuration(
            homeserver: "https://matrix.example.org", userID: "@tessera:example.org", accessToken: "syt_secret")
        #expect(!"\(configuration)".contains("syt_secret"))
        #expect(!String(reflecting: configuration).contains("syt_secret"))
    }
}
