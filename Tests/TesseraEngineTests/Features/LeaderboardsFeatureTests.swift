import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Leaderboards`` (with ``PuzzleDayBoards`` under the official board) alone, on a ``SliceDouble``: a family's
/// boards on Sunday 2026-11-22, puzzle 326.
@Suite("Leaderboards, on their slice of the store")
struct LeaderboardsFeatureTests {
    typealias Setting = FeatureSetting
    let leaderboards = Leaderboards(schedule: .tessera)
    let today = PuzzleNumber(326)
    let ann = Setting.player(1, "Ann")
    let bob = Setting.player(2, "Bob")
    let cleo = Setting.player(3, "Cleo")

    func result(_ player: Player, _ guesses: Int?, puzzle: PuzzleNumber? = nil, minutesIn: Int) -> BoardResult {
        BoardResult(
            chat: Setting.family, board: .tessera, puzzle: puzzle ?? today, player: player.id, language: .english,
            guesses: guesses, hardMode: false, finishedAt: Setting.now.addingTimeInterval(Double(minutesIn - 60) * 60))
    }

    func family(results: [BoardResult] = [], games: [StoredGame] = []) -> SliceDouble {
        SliceDouble(
            players: [ann, bob, cleo], games: games, groups: [Setting.group()],
            members: [Setting.family: [ann.id, bob.id, cleo.id]], results: results)
    }

    func board(_ argument: String, asked by: Player? = nil, on reads: SliceDouble) async throws -> String {
        let asker = by ?? ann
        let turn = Setting.turn("/leaderboard \(argument)", from: asker, in: Setting.group(), reads: reads)
        let reply = try await leaderboards.leaderboard(argument, in: turn)
        #expect(reply.writes.isEmpty && reply.player == nil && reply.group == nil, "a board changes nothing")
        return try #require(reply.messages.first).html
    }

    /// Each row's names in the order the board lists them.
    func order(_ html: String, of players: [Player]) -> [String] {
        html.split(separator: "\n").compactMap { line in players.first { line.contains($0.displayName) }?.displayName }
    }

    @Test("Today: wins by fewest guesses, then the earlier finish; a game in play last, with no letters")
    func today() async throws {
        let playing = StoredGame(
            player: cleo.id, language: .english, puzzle: today, hardMode: false, guesses: ["crane", "sloth"])
        let reads = family(
            results: [result(bob, 4, minutesIn: 5), result(ann, 3, minutesIn: 50)], games: [playing])
        let html = try await board("", on: reads)
        #expect(order(html, of: [ann, bob, cleo]) == ["Ann", "Bob", "Cleo"])
        #expect(!html.localizedCaseInsensitiveContains("crane") && !html.localizedCaseInsensitiveContains("sloth"))
    }

    @Test("A tie in guesses goes to the earlier finish")
    func tie() async throws {
        let reads = family(results: [result(ann, 4, minutesIn: 50), result(bob, 4, minutesIn: 5)])
        #expect(order(try await board("", on: reads), of: [ann, bob]) == ["Bob", "Ann"])
    }

    @Test("The week ranks the standings by points, and crowns count the days of fewest guesses")
    func week() async throws {
        let week = BoardPeriod.week.key(containing: today, schedule: .tessera)
        var reads = family(results: [
            result(ann, 2, puzzle: PuzzleNumber(321), minutesIn: 0),
            result(bob, 3, puzzle: PuzzleNumber(321), minutesIn: 0),
        ])
        reads.standings[week] = [
            Standing(
                player: ann.id, name: "Ann", points: 5, played: 1, wins: 1, winningGuesses: 2, streak: 1,
                lastPuzzle: PuzzleNumber(321), joinedPuzzle: PuzzleNumber(300)),
            Standing(
                player: bob.id, name: "Bob", points: 4, played: 1, wins: 1, winningGuesses: 3, streak: 1,
                lastPuzzle: PuzzleNumber(321), joinedPuzzle: PuzzleNumber(300)),
        ]
        let html = try await board("week", on: reads)
        #expect(order(html, of: [ann, bob]) == ["Ann", "Bob"])
        let annsRow = try #require(html.split(separator: "\n").first { $0.contains("Ann") })
        #expect(
            annsRow.contains("👑") && !html.split(separator: "\n").contains { $0.contains("Bob") && $0.contains("👑") })
    }

    @Test("An unknown period is refused with the word it did not know; a direct chat is told boards are for groups")
    func refusals() async throws {
        let html = try await board("fortnight", on: family())
        #expect(html == Language.english.texts.unknownPeriod("fortnight"))
        let direct = Setting.turn("/leaderboard", from: ann, in: nil, reads: family())
        let reply = try await leaderboards.leaderboard("", in: direct)
        #expect(reply.messages.map(\.html) == [Language.english.texts.leaderboardPrivate])
    }

    @Test("The official Connections board lists the group's pasted Connections results, fewest mistakes first")
    func officialConnections() async throws {
        let date = Setting.core.configuration.schedule.day(of: today)
        let puzzle = PuzzleShare.Game.connections.schedule.puzzle(on: date)
        func pasted(_ player: Player, _ mistakes: Int) -> BoardResult {
            BoardResult(
                chat: Setting.family, board: BoardKind(.connections), puzzle: puzzle, player: player.id,
                language: .english, guesses: mistakes, hardMode: false, finishedAt: Setting.now)
        }
        let html = try await board("official connections", on: family(results: [pasted(bob, 2), pasted(cleo, 0)]))
        #expect(order(html, of: [ann, bob, cleo]) == ["Cleo", "Bob"])
    }
}
