import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// The publisher's other puzzles pasted in a group: counted quietly, and each game's line in the day's summary.
@Suite("Other puzzles, pasted in a group", .onBothPaths)
struct OtherPuzzlesTests {
    @Test(
        "Connections, Strands and the Mini count once a player and day, with a reaction; the summary has a line for each"
    )
    func countedAndSummed() async throws {
        var bot = try EngineHarness()
        bot.now = EngineHarness.monday  // Monday 2026-11-16 12:00 UTC.
        let connections = DailySchedule.connections.puzzle(on: CivilDate(year: 2026, month: 11, day: 16)!)
        let strands = DailySchedule.strands.puzzle(on: CivilDate(year: 2026, month: 11, day: 16)!)
        let pastes: [(Int64, String, String)] = [
            (1, "Ann", "Connections\nPuzzle #\(connections.grouped)\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"),
            (2, "Ben", "Connections\nPuzzle #\(connections.grouped)\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"),
            (2, "Ben", "Strands #\(strands.grouped)\n\u{201C}Monday\u{201D}\n🔵🔵🟡🔵\n🔵🔵🔵"),
            (3, "Cat", "I solved the 11/16/2026 New York Times Mini Crossword in 0:41!"),
            (1, "Ann", "Strands #\(strands.grouped)\n\u{201C}Monday\u{201D}\n💡🔵🔵🟡\n🔵💡🔵🔵"),
        ]
        for (user, name, text) in pastes {
            let sent = try await bot.send(text, from: user, name: name, in: -1, group: true)
            #expect(sent.map(\.action) == [.react(.counted)], "\(name): \(text) → \(sent.map(\.html))")
        }
        // The same result again is already counted, and marked so kindly.
        let again = try await bot.send(pastes[0].2, from: 1, name: "Ann", in: -1, group: true)
        #expect(again.map(\.action) == [.react(.counted)])
        // A week-old Connections is not the group's day's.
        let old = "Connections\nPuzzle #\(connections.rawValue - 7)\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"
        let refused = try await bot.text(old, from: 1, name: "Ann", in: -1, group: true)
        #expect(refused.hasPrefix("That Connections is not today's here"), "\(refused)")
        // Tessera's own board never sees them.
        let board = try await bot.text("/leaderboard", from: 1, name: "Ann", in: -1, group: true)
        #expect(board.hasPrefix("No results for puzzle"), "\(board)")

        // One board a game, and each member's day of puzzles under the official board.
        let connectionsBoard = try await bot.text(
            "/leaderboard official connections", from: 3, name: "Cat", in: -1, group: true)
        #expect(
            connectionsBoard
                == "<b>🟪 Connections \(connections.grouped) · today</b>\n🥇 Ben — 0 mistakes\n🥈 Ann — 1 mistake",
            "\(connectionsBoard)")
        let strandsBoard = try await bot.text(
            "/leaderboard official strands", from: 3, name: "Cat", in: -1, group: true)
        #expect(strandsBoard.hasSuffix("\n🥇 Ben — no hints\n🥈 Ann — 2 hints"), "\(strandsBoard)")
        let day = try await bot.text("/leaderboard official", from: 3, name: "Cat", in: -1, group: true)
        #expect(
            day == """
                <b>Today's puzzles</b>
                Ann — Connections 1 mistake · Strands 2 hints
                Ben — Connections 0 mistakes · Strands no hints
                Cat — Mini 0:41
                """, "nobody pasted Wordle: only the day's puzzles")
        let official = DailySchedule.wordle.puzzle(at: bot.now, rollover: .utc)
        try await bot.send("Wordle \(official.grouped) 3/6*", from: 3, name: "Cat", in: -1, group: true)
        let withWordle = try await bot.text("/leaderboard official", from: 1, name: "Ann", in: -1, group: true)
        #expect(
            withWordle.hasSuffix(
                "\n\n<b>Today's puzzles</b>\nAnn — Connections 1 mistake · Strands 2 hints\n"
                    + "Ben — Connections 0 mistakes · Strands no hints\nCat — Wordle 3/6* · Mini 0:41"), "\(withWordle)"
        )
        let yesterday = try await bot.text(
            "/leaderboard official mini yesterday", from: 1, name: "Ann", in: -1, group: true)
        #expect(yesterday == "No results of that puzzle in this group yet.")
        let wrong = try await bot.text("/leaderboard official mini week", from: 1, name: "Ann", in: -1, group: true)
        #expect(wrong.hasPrefix("I don't know the period"))

        try await bot.send("/join", from: 4, name: "Dee", in: -1, group: true)
        try await bot.play(4, name: "Dee", misses: 2)
        let posts = try await GroupTeamTests.nextDay(&bot)
        let summary = try #require(posts.first)
        let lines = summary.components(separatedBy: "\n")
        // Every other puzzle on one line: a family's day stays short.
        #expect(
            lines.contains(
                "🟪 Connections: Ben 0 mistakes, Ann 1 mistake · 🔵 Strands: Ben no hints, Ann 2 hints · ⏱️ Mini: Cat 0:41"
            ),
            "\(summary)")
        // Pasting Connections or Strands says nothing of Tessera: Ann and Ben are on no board of it, nor missed.
        #expect(!summary.contains("Missed") && !summary.contains("😴"), "\(summary)")
        let week = try await bot.text("/leaderboard week", from: 4, name: "Dee", in: -1, group: true)
        #expect(week.contains("Dee") && !week.contains("Ann") && !week.contains("Ben"), "\(week)")
        let spanish = Language.spanish.texts
        #expect(spanish.dayPuzzles(yesterday: false) == "Los retos de hoy")
        #expect(
            spanish.otherPuzzleBoard(
                .mini, puzzle: PuzzleNumber(1), yesterday: true,
                lines: [BoardRows.row(place: "🥇", name: "Cat", result: "0:41")]
            ).html == "<b>⏱️ Mini · ayer</b>\n🥇 Cat — 0:41")
    }

    @Test("A Spanish group's lines, and a player's scores as each language words them")
    func words() {
        let spanish = Language.spanish.texts
        #expect(spanish.otherPuzzleScore(.connections, measure: nil) == "sin resolver")
        #expect(spanish.otherPuzzleScore(.connections, measure: 1) == "1 error")
        #expect(spanish.otherPuzzleScore(.strands, measure: 0) == "sin pistas")
        #expect(spanish.otherPuzzleScore(.mini, measure: 3_725) == "1:02:05")
        let english = Language.english.texts
        #expect(english.otherPuzzleScore(.connections, measure: 3) == "3 mistakes")
        #expect(english.otherPuzzleScore(.strands, measure: 1) == "1 hint")
        #expect(english.otherPuzzleScore(.mini, measure: 9) == "0:09")
    }
}
