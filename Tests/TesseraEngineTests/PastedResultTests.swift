import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Results pasted from the Wordle app", .onBothPaths)
struct PastedResultTests {
    // At the harness's instant, 2026-11-22 12:00 UTC, the original Wordle is on 1,982.

    @Test("Every variant the parser reads counts on the group's official board, ranked like today's board")
    func variants() async throws {
        let bot = try EngineHarness()
        let pastes: [(name: String, text: String, shown: String)] = [
            ("Ana", "Wordle 1,982 3/6*\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛⬛🟨\n🟩🟩🟩🟩🟩", "Wordle 1,982 3/6*"),
            ("Ben", "Wordle 1.982 4/6\n\n⬜⬜⬜⬜⬜\n⬜🟨⬜⬜⬜\n🟩🟩⬜🟩⬜\n🟩🟩🟩🟩🟩", "Wordle 1,982 4/6"),
            ("Cy", "got it!\nWordle 1 982 2/6\n\n🟧🟦⬛⬛⬛\n🟧🟧🟧🟧🟧\nyour turn", "Wordle 1,982 2/6"),
            ("Di", "Wordle 1982 X/6\n" + String(repeating: "⬛⬛⬛⬛⬛\n", count: 6), "Wordle 1,982 X/6"),
            (
                "Ed",
                "Wordle 1,982 2/6\n:black_large_square::large_green_square::black_large_square::black_large_square:"
                    + ":black_large_square:\n" + String(repeating: ":large_green_square:", count: 5),
                "Wordle 1,982 2/6"
            ),
            ("Flo", "Wordle 1,981 5/6", "Wordle 1,981 5/6"),
            ("Gus", "Wordle 1,983 1/6\n\n🟩🟩🟩🟩🟩", "Wordle 1,983 1/6"),
        ]
        for (index, paste) in pastes.enumerated() {
            let reply = try await bot.text(paste.text, from: Int64(10 + index), name: paste.name, in: -1, group: true)
            #expect(reply == "✅ \(paste.name): \(paste.shown) is on the official board (/leaderboard official).")
        }
        let board = try await bot.text("/leaderboard official", in: -1, group: true)
        #expect(
            board == """
                <b>Official Wordle 1,982</b>
                🥇 Cy — 2/6
                🥇 Ed — 2/6
                🥉 Ana — 3/6*
                4. Ben — 4/6
                5. Di — X/6
                """)
        #expect(
            try await bot.text("/leaderboard", in: -1, group: true).hasPrefix("No results for puzzle 326"),
            "pasted results stay off the group's own board")
        let week = try await bot.text("/leaderboard official week", in: -1, group: true)
        #expect(
            week.hasPrefix(
                "<b>Official Wordle · this week (since 2026-11-16)</b>\n🥇 Cy — 5 pts 🔥1\n   1/1 won · avg 2.0"))
        #expect(week.contains("🥉 Ana — 5 pts"), "hard mode earns its bonus: \(week)")
        #expect(week.contains("🥇 Ed — 5 pts"), "equal on every count, Cy and Ed share first place: \(week)")
        // Di's loss scores nothing; Gus, whose 1,983 falls on Monday, in next week, has no game this week.
        #expect(week.contains("6. Di — 0 pts"), "\(week)")
        #expect(!week.contains("Gus"), "a board lists who played in its period: \(week)")
    }

    @Test("One result per player and Wordle number: a second paste or an edit changes nothing, with a short notice")
    func duplicatesAndEdits() async throws {
        let bot = try EngineHarness()
        let first = "Wordle 1,982 4/6\n\n⬛⬛⬛⬛⬛\n⬛🟨⬛⬛⬛\n🟩🟩⬛🟩⬛\n🟩🟩🟩🟩🟩"
        #expect(try await bot.text(first, in: -1, group: true).hasPrefix("✅ Alice"))
        #expect(
            try await bot.text("Wordle 1,982 1/6\n\n🟩🟩🟩🟩🟩", in: -1, group: true)
                == "Alice, your Wordle 1,982 already counts here; the first result stands.")
        #expect(try await bot.text(first, in: -1, group: true).contains("already counts"))
        // The mark: the same result again is counted already, another one changes nothing.
        #expect(try await bot.send(first, in: -1, group: true).map(\.action) == [.react(.counted)])
        #expect(
            try await bot.send("Wordle 1,982 1/6\n\n🟩🟩🟩🟩🟩", in: -1, group: true).map(\.action)
                == [.react(.notCounted)])
        #expect(
            try await bot.text("Wordle 1,982 2/6\n\n⬛🟩⬛⬛⬛\n🟩🟩🟩🟩🟩", in: -1, group: true, edited: true)
                == "Edits do not count: the result as first posted stands.")
        #expect(try await bot.send("Wordle 1,981 2/6", in: -1, group: true, edited: true).count == 1)
        #expect(try await bot.send("fixed a typo", in: -1, group: true, edited: true).isEmpty, "other edits: silence")
        #expect(try await bot.send("/guess crane", in: -1, group: true, edited: true).isEmpty)
        #expect(try await bot.text("/leaderboard official", in: -1, group: true).contains("Alice — 4/6"))
        #expect(
            try await bot.text("Wordle 1,982 3/6", in: -2, group: true).hasPrefix("✅"),
            "another group has its own official board")
    }

    @Test("Yesterday's Wordle pasted after today's joins the streak instead of resetting it; a late gap fills")
    func lateResultsJoinTheirStreak() async throws {
        let bot = try EngineHarness()
        func streak(_ user: Int64) async throws -> Int? {
            try await bot.store.write {
                try await $0.standing(of: UserID(user), in: ChatID(-1), board: .official)
            }?.streak
        }
        _ = try await bot.send("Wordle 1,982 3/6", in: -1, group: true)
        #expect(try await streak(1) == 1)
        _ = try await bot.send("Wordle 1,981 4/6", in: -1, group: true)
        #expect(try await streak(1) == 2, "yesterday's win, pasted late, continues into today's")
        let week = try await bot.store.write { try await $0.standing(of: UserID(1), in: ChatID(-1), board: .official) }
        #expect(week?.played == 2 && week?.points == 7 && week?.lastPuzzle == PuzzleNumber(1982))

        // Bob: tomorrow's win (a day ahead of the group), then a late loss, then the day between, won.
        _ = try await bot.send("Wordle 1,983 2/6", from: 2, name: "Bob", in: -1, group: true)
        _ = try await bot.send("Wordle 1,981 X/6", from: 2, name: "Bob", in: -1, group: true)
        #expect(try await streak(2) == 1, "a loss before a gap changes nothing")
        _ = try await bot.send("Wordle 1,982 5/6", from: 2, name: "Bob", in: -1, group: true)
        #expect(try await streak(2) == 2, "the filled gap joins 1,982 and 1,983; the loss before ends it there")
        let results = try await bot.store.write {
            try await $0.results(in: ChatID(-1), board: .official, puzzle: PuzzleNumber(1982))
        }
        #expect(
            results.map(\.result.streakBefore).sorted() == [0, 0], "1,982 followed a loss for Bob, nothing for Alice")
    }

    @Test("Wordle numbers that are not out yet or long closed are refused; other games are just chat")
    func window() async throws {
        let bot = try EngineHarness()
        #expect(
            try await bot.text("Wordle 1,984 3/6", in: -1, group: true)
                == "Wordle 1,984 is not out yet here, so it does not count.")
        #expect(
            try await bot.text("Wordle 1,900 3/6", in: -1, group: true)
                == "Wordle 1,900 is closed; only today's Wordle 1,982, or one a day either side, counts.")
        #expect(try await bot.send("Quordle 1,982 5/9", in: -1, group: true).isEmpty)
        #expect(
            try await bot.send("Wordle 1,982 2/6\n\n🟩🟩🟩🟩🟩", in: -1, group: true).isEmpty,
            "a grid that contradicts the score")
        #expect(try await bot.send("I did Wordle today, 3 tries", in: -1, group: true).isEmpty)
        #expect(try await bot.text("Wordle 1,982 3/6").hasPrefix("Results count in groups"), "a paste in a direct chat")
        #expect(try await bot.text("/leaderboard official", in: -1, group: true).hasPrefix("No Wordle 1,982 results"))
    }

    @Test("Our own share text is recognised: it joins the board, and only the game played here counts")
    func ownShares() async throws {
        let bot = try EngineHarness()
        try await bot.play(1, name: "Alice", misses: 2)
        let share = try await bot.text("/share")
        #expect(share.hasPrefix("Tessera 326 3/6"))
        let joined = try await bot.send(share, in: -1, group: true)
        #expect(
            joined.map(\.action) == [.react(.counted)] && joined.first?.replyTo == MessageID(7),
            "a reaction on the paste")
        #expect(joined.first?.html == "Alice joined this group's board: your results of each day count here.")
        let again = try await bot.send(share, in: -1, group: true)
        #expect(
            again.map(\.action) == [.react(.counted)] && again.first?.html.contains("already") == true,
            "pasting the Copy button's result again: already counted, said kindly with a mark, not a line")
        #expect(try await bot.text("/leaderboard", in: -1, group: true).contains("Alice — 3/6"))
        #expect(try await bot.text("/leaderboard official", in: -1, group: true).hasPrefix("No Wordle"))

        let forged = "Tessera 326 1/6\n\n🟩🟩🟩🟩🟩"
        #expect(
            try await bot.text(forged, from: 2, name: "Bob", in: -1, group: true).hasPrefix(
                "Bob joined this group's board"))
        let board = try await bot.text("/leaderboard", in: -1, group: true)
        #expect(!board.contains("Bob"), "a forged share of a game not played here counts nothing: \(board)")
    }

    @Test("Spanish groups read /leaderboard oficial and answer in Spanish")
    func spanish() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1, language: .spanish)
        #expect(
            try await bot.text("Wordle 1.982 3/6", in: -1, group: true, appLanguage: "es")
                == "✅ Alice: Wordle 1982 3/6 entra en la clasificación oficial (/leaderboard oficial).")
        #expect(
            try await bot.text("/leaderboard oficial semana", in: -1, group: true).hasPrefix(
                "<b>Wordle oficial · esta semana"))
        #expect(
            try await bot.text("/leaderboard official", in: -1, group: true).hasPrefix("<b>Wordle oficial 1982</b>"))
    }
}

extension PastedResultTests {
    @Test(
        "A member who pasted the day's Wordle never missed it: the summary lists the pastes, /stats has a Wordle section"
    )
    func pastesBelong() async throws {
        let bot = try EngineHarness()
        try await bot.send("/join", from: 1, name: "Ann", in: -1, group: true)
        try await bot.play(1, name: "Ann", misses: 1)
        // Pat only pastes: yesterday's and today's Wordle (1,982 is 2026-11-22, puzzle 326's date).
        for paste in ["Wordle 1,981 X/6", "Wordle 1,982 3/6*"] {
            _ = try await bot.send(paste, from: 2, name: "Pat", in: -1, group: true)
        }
        _ = try await bot.send("/join", from: 3, name: "Sam", in: -1, group: true)
        let engine = bot.engine
        let closing = bot.now + 12 * 3600 + 60
        #expect(try await bot.store.write { try await engine.closeDays(at: closing, in: $0) } == 1)
        let summary = try #require(try await bot.store.pendingMessages(limit: 10, now: closing).last?.message.html)
        // Sam, who joined today without playing, is not expected yet: nobody missed the day.
        #expect(summary.contains("\n📋 Wordle 1,982, pasted: Pat 3/6*"), "\(summary)")
        #expect(!summary.contains("Missed") && !summary.contains("1,981"), "\(summary)")

        let stats = try await bot.text("/stats", from: 2, name: "Pat")
        #expect(
            stats.contains(
                "<b>Wordle</b> (the results you pasted in groups)\nPlayed 2 · Win 50% · Current streak 1 · Max streak 1"
            ),
            "\(stats)")
        #expect(try await !bot.text("/stats", from: 1, name: "Ann").contains("<b>Wordle</b>"), "nothing pasted")
    }
}
