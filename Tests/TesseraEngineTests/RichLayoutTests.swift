import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Boards laid out with tables", .onBothPaths)
struct RichLayoutTests {
    @Test("A board's text is the same lines with or without its table: a week board, as a group reads it")
    func textIsTheLines() async throws {
        var harness = try EngineHarness()
        harness.now = EngineHarness.monday
        for (user, name, misses) in [(1, "Ann", 1), (2, "Ben", 3)] as [(Int64, String, Int)] {
            try await harness.send("/join", from: user, name: name, in: -5, group: true)
            try await harness.play(user, name: name, misses: misses)
        }
        let replies = try await harness.send("/leaderboard week", from: 1, name: "Ann", in: -5, group: true)
        let board = try #require(replies.first)
        let layout = try #require(board.rich, "a week board has a table")
        #expect(board.html == layout.html)
        guard case .table(let table) = layout.blocks[1] else {
            Issue.record("the table follows the title: \(layout.blocks)")
            return
        }
        #expect(table.header == ["#", "Player", "Points", "Games"])
        #expect(table.rows.map(\.cells.count) == [4, 4])
        for row in table.rows {
            #expect(board.html.contains(row.line), "every row's line is in the text: \(row.line)")
            #expect(row.line.hasPrefix(row.cells[0] + " " + row.cells[1] + " — "), "\(row.line)")
        }
    }

    @Test("Text without a table goes as text alone: an empty board has no layout")
    func noTableNoLayout() async throws {
        let harness = try EngineHarness()
        let replies = try await harness.send("/leaderboard week", in: -5, group: true)
        let reply = try #require(replies.first)
        #expect(reply.html.hasPrefix("No results for puzzle") && reply.rich == nil, "\(reply.html)")
        // A table without rows shows nothing: the message is its text alone.
        let empty = OutgoingMessage(
            chat: ChatID(-5), chatKind: .group, layout: .board(title: "Week", header: ["#", "Player"], rows: []))
        #expect(empty.rich == nil && empty.html == "<b>Week</b>")
    }

    @Test("Rendered: each line a paragraph, well-formed alone (a stray close dropped); cells escaped; rows filled")
    func rendered() {
        let layout = RichLayout([
            .text("<b>Title\nstill bold?</b>\n\n🌱 next"),
            .table(
                .init(
                    header: ["#", "Player", "Points"],
                    rows: [
                        RichLayout.Row(cells: ["🥇", "A &lt;b&gt; &amp; <i>B", "3"], line: "🥇 A"), .note("… and 1 more"),
                    ])),
            .table(.init(header: ["#"], rows: [])),
        ])
        #expect(
            layout.html(.init(markup: .engine))
                == "<p><b>Title</b></p><p>still bold?</p><p>🌱 next</p><table><tr><th>#</th><th>Player</th>"
                + "<th>Points</th></tr><tr><td>🥇</td><td>A &lt;b&gt; &amp; <i>B</i></td><td>3</td></tr><tr><td></td>"
                + "<td>… and 1 more</td><td></td></tr></table>")
        #expect(layout.html == "<b>Title\nstill bold?</b>\n\n🌱 next\n🥇 A\n… and 1 more")
        #expect(RichLayout(json: layout.json) == layout)
        #expect(RichLayout(json: "{\"blocks\": 3}") == nil, "a stored layout another build wrote is dropped")
    }

    @Test("The week's and the season's posts: podiums as tables under the same lines as before, in both languages")
    func posts() throws {
        let week = WeekSummary(
            monday: try #require(CivilDate(year: 2026, month: 11, day: 23)),
            podium: Shortlist([(0, "Ben", 35), (1, "Lucía", 23), (2, "Dai", 21)], more: 0), bestStreak: nil,
            daysEveryonePlayed: 5,
            days: 7)
        let spanish = Language.spanish.texts.weekOver(week)
        #expect(
            spanish.html
                == "<b>🏁 Terminó la semana desde el 23 de noviembre.</b>\n🥇 Ben — 35 pts 🏆\n🥈 Lucía — 23 pts\n"
                + "🥉 Dai — 21 pts\n👪 Todos jugaron 5 de 7 días.")
        guard case .table(let table) = spanish.blocks[1] else {
            Issue.record("\(spanish.blocks)")
            return
        }
        #expect(table.header == ["#", "Jugador", "Puntos", ""])
        #expect(
            table.rows.map(\.cells) == [
                ["🥇", "Ben", "35 pts", "🏆"], ["🥈", "Lucía", "23 pts", ""], ["🥉", "Dai", "21 pts", ""],
            ])
    }
}
