import Foundation
import TesseraCore
import TesseraEngine
import TesseraPictures
import TesseraTesting
import Testing

/// Pictures through the engine and the store's outbox: a finished game's result card, the statistics chart and
/// the group's day card, each a value the transport draws when it sends it, and who gets them.
@Suite("Pictures: the result card, the statistics chart and the day card", .onBothPaths)
struct PicturesTests {
    func harness(pictures: Bool = true) throws -> EngineHarness {
        try EngineHarness {
            $0.platform.pictures = pictures
            $0.platform.messageEffects = true
        }
    }

    @Test(
        "A daily game's end comes with its result card below the board, captioned with the share text, confetti on it")
    func resultCard() async throws {
        let bot = try harness()
        let (miss, answer) = (try bot.wrongWord(), try bot.answer())
        try await bot.send(miss)
        let replies = try await bot.send(answer)
        // The board, edited in place, then the card: no 🎉 of its own, the card carries the effect.
        #expect(replies.count == 2, "\(replies.map(\.html))")
        #expect(replies[0].live == "board:en:326" && replies[0].picture == nil)
        let card = replies[1]
        guard case .resultCard(let drawn)? = card.picture else {
            Issue.record("no result card: \(replies.map(\.html))")
            return
        }
        #expect(drawn.title == "TESSERA 326 2/6")
        #expect(drawn.rows.map { String($0.letters) } == [miss.uppercased(), answer.uppercased()])
        #expect(drawn.rows.last?.states == Array(repeating: .correct, count: 5))
        #expect(card.html.hasPrefix("Tessera 326 2/6\n\n") && card.html.hasSuffix("🟩🟩🟩🟩🟩"))
        #expect(card.effect == .celebration && card.live == nil)
    }

    @Test("/settings pictures off in the direct chat: the next game ends on the board and its 🎉 alone")
    func playerTurnsThemOff() async throws {
        var bot = try harness()
        let off = try await bot.text("/settings pictures off")
        #expect(off.contains("No pictures"))
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.nextDay()
        let replies = try await bot.send(try bot.answer())
        #expect(replies.allSatisfy { $0.picture == nil })
        #expect(replies.map(\.html).last == "🎉")
        #expect(try await bot.text("/settings pictures on").contains("result card"))
    }

    @Test("On a platform without pictures nothing carries one: the text is the message")
    func platformWithout() async throws {
        let bot = try harness(pictures: false)
        try await bot.play(1, name: "Alice", misses: 2)
        let replies = try await bot.send("/stats")
        #expect(replies.allSatisfy { $0.picture == nil } && replies.count == 1)
    }

    @Test(
        "/stats comes as the chart, the last game's bar highlighted, in the player's language, captioned with the figures"
    )
    func statisticsChart() async throws {
        let bot = try harness()
        try await bot.play(1, name: "Alice", misses: 2)
        let replies = try await bot.send("/stats")
        let stats = try #require(replies.first)
        guard case .statistics(let chart)? = stats.picture else {
            Issue.record("no chart: \(stats.html)")
            return
        }
        #expect(chart.statistics.played == 1 && chart.statistics.guessDistribution[2] == 1)
        #expect(chart.highlighted == 3 && chart.labels.played == "PLAYED")
        #expect(stats.html.contains("Played"))
        try await bot.send("/language es")
        let spanish = try #require(try await bot.send("/stats").first)
        guard case .statistics(let chart)? = spanish.picture else { return }
        #expect(chart.labels.distribution == "DISTRIBUCIÓN DE INTENTOS")
    }

    @Test(
        "A group's day card: off until an administrator turns it on; then one final post with every board's colours in finishing order, numbered as the caption names them, never a letter"
    )
    func dayCard() async throws {
        var bot = try harness()
        try await bot.group(-100)
        for (user, name) in [(1, "Alice"), (2, "Bob"), (3, "Cleo")] {
            try await bot.send("/join", from: Int64(user), name: name, in: -100, group: true)
        }
        #expect(try await bot.text("/settings pictures on", in: -100, group: true, admin: false).contains("only"))
        let saved = try await bot.text("/settings pictures on", in: -100, group: true, admin: true)
        #expect(saved.contains("Day card"))
        try await bot.play(2, name: "Bob", misses: 3)
        try await bot.play(1, name: "Alice", misses: 1)
        try await bot.play(3, name: "Cleo", misses: 6)
        let answer = try bot.answer()
        bot.now += 86_400
        let (engine, now) = (bot.engine, bot.now)
        _ = try await bot.store.write { try await engine.closeDays(at: now, in: $0) }
        let posted = try await bot.store.pendingMessages(limit: 100, now: now).map(\.message)
        let withPictures = posted.filter { $0.picture != nil }
        #expect(withPictures.count == 1, "one day card: \(posted.map(\.html))")
        let post = try #require(withPictures.first)
        guard case .dayCard(let card)? = post.picture else {
            Issue.record("not a day card")
            return
        }
        // Alice 2/6 (crowned), Bob 4/6, Cleo X/6: the card's order and the caption's numbers.
        #expect(card.boards.map(\.rows.count) == [2, 4, 6])
        #expect(card.boards.map(\.crowned) == [true, false, false])
        #expect(post.html.contains("1. Alice") && post.html.contains("2. Bob") && post.html.contains("3. Cleo"))
        // No letter anywhere in what the picture is drawn from: only colours and the title.
        let json = String(decoding: try JSONEncoder().encode(post.picture), as: UTF8.self)
        #expect(!json.lowercased().contains(answer) && card.title == "TESSERA 326")
    }

    @Test("A group that never turned pictures on gets its summary as text, its names unnumbered")
    func groupDefault() async throws {
        var bot = try harness()
        try await bot.group(-100)
        try await bot.send("/join", from: 1, name: "Alice", in: -100, group: true)
        try await bot.play(1, name: "Alice", misses: 1)
        bot.now += 86_400
        let (engine, now) = (bot.engine, bot.now)
        _ = try await bot.store.write { try await engine.closeDays(at: now, in: $0) }
        let posted = try await bot.store.pendingMessages(limit: 100, now: now).map(\.message)
        #expect(!posted.isEmpty && posted.allSatisfy { $0.picture == nil })
        #expect(!posted.contains { $0.html.contains("1. Alice") })
    }

    @Test("A queued picture that cannot be read back (damaged, or beyond its bounds) is left out; the text stays")
    func damagedPicture() throws {
        var columns = try MessageColumns(
            OutgoingMessage(chat: ChatID(5), chatKind: .direct, html: "Tessera 326 2/6"))
        for damaged in [
            "{not json",
            #"{"resultCard":{"_0":{"title":"T","rows":[],"maximumGuesses":6,"wordLength":100000,"theme":"dark"}}}"#,
        ] {
            columns.picture = damaged
            let message = try columns.message()
            #expect(message.picture == nil && message.html == "Tessera 326 2/6")
        }
        var card = OutgoingMessage(chat: ChatID(5), chatKind: .direct, html: "Tessera 326 2/6")
        card.picture = .resultCard(
            ResultCard(
                title: "Tessera 326 2/6", rows: [.init(letters: "crane", states: Array(repeating: .correct, count: 5))],
                maximumGuesses: 6, wordLength: 5, theme: .dark))
        #expect(try MessageColumns(card).message() == card, "a picture read back is the picture queued")
    }
}
