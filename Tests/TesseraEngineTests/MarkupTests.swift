import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraTesting
import Testing

@Suite("Markup: escaped by scalars, split into whole parts, spoilers never shown", .onBothPaths)
struct MarkupTests {
    /// Names that are one `Character` starting with a markup character: a combining mark, a zero-width joiner
    /// or a variation selector after `<`, `&` or `>`, and tags spelled with one inside.
    static let hostileNames = [
        "Ann <\u{303}", "<\u{200D}b>", "<\u{FE0F}", "&\u{301}amp;", ">\u{303}", "</spoiler>\u{303}",
        "<spoiler\u{303}>", "<\u{303}/b>", "a&\u{200D}lt;", "\u{303}", "<b\u{FE0F}>",
    ]

    @Test("Escaping works on scalars: no markup character survives, whatever mark follows it", arguments: hostileNames)
    func escaping(name: String) throws {
        let escaped = name.htmlEscaped
        #expect(!escaped.unicodeScalars.contains("<") && !escaped.unicodeScalars.contains(">"))
        let html = "<b>\(escaped)</b> <spoiler>CRANE</spoiler>"
        try StrictHTML.check(Markup(html: html).html())
        #expect(Markup(html: html).plainText == name + " CRANE", "read back as written")
        #expect(Markup(html: html).plainText(spoiler: "[spoiler]") == name + " [spoiler]")
    }

    @Test("Hostile names and arguments come out escaped everywhere they are echoed: boards, summaries, settings")
    func hostileEchoes() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday
        let names = Array(Self.hostileNames.prefix(6))
        for (index, name) in names.enumerated() {
            let user = Int64(index + 1)
            try await bot.send("/join", from: user, name: name, in: -1, group: true)
            if index < 4 { try await bot.play(user, name: name, misses: index) }
        }
        var replies: [OutgoingMessage] = []
        for argument in names {
            replies += try await bot.send("/timezone \(argument)")
            replies += try await bot.send("/language \(argument)")
            replies += try await bot.send("/leaderboard \(argument)", in: -1, group: true)
            replies += try await bot.send("/settings timezone \(argument)", in: -1, group: true, admin: true)
        }
        replies += try await bot.send("/leaderboard", in: -1, group: true)
        replies += try await bot.send("/leaderboard week", in: -1, group: true)
        let engine = bot.engine
        let closing = EngineHarness.monday + 86_400
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        replies += try await bot.store.pendingMessages(limit: 10, now: closing).map(\.message)
        for reply in replies { try StrictHTML.check(reply.html) }
        let shown = replies.map(\.plainText).joined(separator: "\n")
        for name in names { #expect(shown.contains(name), "\(name.debugDescription) is shown as written") }
        let summary = try #require(replies.last)
        #expect(summary.markup.containsSpoiler && summary.html.contains("<spoiler>"))
    }

    @Test("A tag followed by a combining mark still closes: the mark is text, the spoiler stays one element")
    func marksAfterTags() throws {
        let markup = Markup(html: "<b>\u{303}x</b> <spoiler>\u{303}CRANE</spoiler>\u{303} done")
        #expect(
            markup.nodes == [
                .element(.bold, [.text("\u{303}x")]), .text(" "), .element(.spoiler, [.text("\u{303}CRANE")]),
                .text("\u{303} done"),
            ])
        try StrictHTML.check(markup.html())
    }

    @Test("What is not markup is text: unknown tags, stray closes and bare ampersands are escaped on the way out")
    func notMarkup() throws {
        let markup = Markup(html: "<script>1 & 2</b> <i>x")
        #expect(markup.nodes == [.text("<script>1 & 2 "), .element(.italic, [.text("x")])])
        #expect(markup.html() == "&lt;script&gt;1 &amp; 2 <i>x</i>")
        // An unclosed spoiler hides everything after it.
        #expect(Markup(html: "a <spoiler>CRANE and more").plainText(spoiler: "▒") == "a ▒")
    }

    @Test("Each platform's dialect names the elements its own way and escapes every text")
    func dialects() throws {
        let markup = Markup(html: "<details>Ann &lt;\u{303}\n🟩</details> <spoiler>CRANE</spoiler>")
        let dialect = Markup.Dialect(
            tags: [.spoiler: ("<tg-spoiler>", "</tg-spoiler>"), .details: ("<blockquote expandable>", "</blockquote>")])
        #expect(
            markup.html(dialect)
                == "<blockquote expandable>Ann &lt;\u{303}\n🟩</blockquote> <tg-spoiler>CRANE</tg-spoiler>")
        #expect(markup.containsSpoiler && !Markup(html: "<b>x</b>").containsSpoiler)
    }

    @Test("A long summary splits into parts that are each well-formed; folded grids close and reopen; spoilers whole")
    func splitting() throws {
        let names = (1...25).map { "Member number \($0) " + String(repeating: "ü", count: 120) + " <\u{303}" }
        var lines = ["<b>Puzzle 322 is over here.</b>", "The word was <spoiler>CRANE</spoiler>.", "", "<details>"]
        lines[3] += names.map { "\($0.htmlEscaped) 3/6\n🟩🟨⬛⬛⬛\n⬛🟩🟩⬛🟨\n🟩🟩🟩🟩🟩" }.joined(separator: "\n\n")
        lines[3] += "</details>"
        lines.append("😴 Missed: " + names.map(\.htmlEscaped).joined(separator: ", "))
        let message = OutgoingMessage(chat: ChatID(-1), chatKind: .group, html: lines.joined(separator: "\n"))
        #expect(message.plainText.utf16.count > 4096)
        let parts = message.parts(maximumLength: 4096)
        #expect(parts.count > 1)
        for part in parts {
            #expect(part.plainText.utf16.count <= 4096)
            try StrictHTML.check(part.html())
        }
        #expect(parts.filter { $0.html().contains("<details>") }.count > 1, "the folded grids span parts")
        #expect(parts.map(\.plainText).joined(separator: "\n") == message.plainText, "nothing dropped")
        #expect(parts.allSatisfy { !$0.plainText(spoiler: "▒").contains("CRANE") })
    }

    @Test("A spoiler longer than a message is cut into spoilers; a line longer than one is cut between characters")
    func longSpoilersAndLines() throws {
        let secret = String(repeating: "CRANE ", count: 30)
        let message = OutgoingMessage(
            chat: ChatID(1), chatKind: .direct,
            html: "x <spoiler>\(secret)</spoiler>\n<b>" + String(repeating: "é", count: 70) + "</b>")
        let parts = message.parts(maximumLength: 50)
        #expect(parts.allSatisfy { $0.plainText.utf16.count <= 50 })
        #expect(parts.allSatisfy { !$0.plainText(spoiler: "").contains("C") }, "every piece of it is hidden")
        #expect(parts.map(\.plainText).joined() == "x " + secret + String(repeating: "é", count: 70))
        for part in parts { try StrictHTML.check(part.html()) }
        // A spoiler that fits in a message is never cut: it moves to the next part whole.
        let whole = OutgoingMessage(
            chat: ChatID(1), chatKind: .direct,
            html: String(repeating: "a", count: 40) + " <spoiler>CRANE CRANE</spoiler>")
        #expect(whole.parts(maximumLength: 50).last == Markup(nodes: [.element(.spoiler, [.text("CRANE CRANE")])]))
    }

    @Test("Random markup and text: every part of every split is well-formed, fits, and loses nothing")
    func randomSplits() throws {
        var random = SplitMix64(seed: 22)
        let atoms = [
            "<b>", "</b>", "<i>", "</i>", "<spoiler>", "</spoiler>", "<details>", "</details>", "<pre>", "</pre>",
            "\n", "\n\n", "&amp;", "&lt;\u{303}", "<\u{303}", "&\u{200D}", "word ", "🟩🟨", "é\u{301}", "\u{FE0F}",
            String(repeating: "x", count: 30),
        ]
        for _ in 0..<300 {
            let html = (0..<Int.random(in: 1...60, using: &random)).map { _ in atoms.randomElement(using: &random)! }
                .joined()
            let markup = Markup(html: html)
            let maximum = Int.random(in: 8...80, using: &random)
            let parts = markup.parts(maximumLength: maximum)
            for part in parts {
                try StrictHTML.check(part.html(), "\(html.debugDescription) at \(maximum)")
                #expect(part.plainText.utf16.count <= maximum || parts.count == 1, "\(html.debugDescription)")
                #expect(Markup(html: part.html()) == part, "a part reads back as itself")
            }
            let joined = parts.map(\.plainText).joined()
            #expect(
                joined.filter { $0 != "\n" } == markup.plainText.filter { $0 != "\n" },
                "nothing but line breaks dropped: \(html.debugDescription) at \(maximum)")
        }
    }
}

/// The rules a strict HTML reader (Telegram's) applies: every `<` starts a known tag, every `&` an entity,
/// and tags nest. It reads scalars, as such readers do.
enum StrictHTML {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static let tags: Set<String> = ["b", "i", "code", "pre", "spoiler", "details"]

    static func check(_ html: String, _ context: String = "") throws {
        var open: [String] = []
        var scalars = html.unicodeScalars[...]
        func fail(_ what: String) -> Malformed {
            Malformed(description: "\(what) in \(html.debugDescription) \(context)")
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                guard let end = scalars.firstIndex(of: ">") else { throw fail("an unclosed <") }
                var name = String(String.UnicodeScalarView(scalars[..<end]))
                scalars = scalars[scalars.index(after: end)...]
                if name.hasPrefix("/") {
                    name.removeFirst()
                    guard open.popLast() == name else { throw fail("a close of <\(name)> that is not open") }
                } else {
                    guard tags.contains(name) else { throw fail("an unknown tag <\(name)>") }
                    open.append(name)
                }
            case ">": throw fail("a bare >")
            case "&":
                guard let end = scalars.firstIndex(of: ";"),
                    ["amp", "lt", "gt", "quot"].contains(String(String.UnicodeScalarView(scalars[..<end])))
                else { throw fail("a bare &") }
            default: continue
            }
        }
        guard open.isEmpty else { throw fail("unclosed <\(open.joined(separator: "><"))>") }
    }
}
