import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Pastes`` alone, on a ``SliceDouble``: a pasted Wordle result is checked against what the board holds, and
/// what it counts leaves as writes for the engine's apply step.
@Suite("Pastes, on their slice of the store")
struct PastesFeatureTests {
    typealias Setting = FeatureSetting
    let pastes = Pastes(core: Setting.core)
    let ann = Setting.player(1, "Ann")
    let bob = Setting.player(2, "Bob")
    // At 2026-11-22 12:00 UTC the original Wordle is on 1,982.
    let paste = "Wordle 1,982 3/6\n\n⬛🟨⬛⬛⬛\n🟩🟩⬛⬛🟨\n🟩🟩🟩🟩🟩"

    func official(_ player: Player, guesses: Int?) -> BoardResult {
        BoardResult(
            chat: Setting.family, board: .official, puzzle: PuzzleNumber(1982), player: player.id, language: .english,
            guesses: guesses, hardMode: false, finishedAt: Setting.now)
    }

    func pasted(by player: Player, on reads: SliceDouble) async throws -> Reply {
        let turn = Setting.turn(paste, from: player, in: Setting.group(), reads: reads)
        let share = try #require(SharedResult(parsing: paste))
        return try await pastes.pasted(share, in: turn)
    }

    @Test("A member's first paste of a day is one write, a result on the official board; the mark says counted")
    func firstPaste() async throws {
        let reads = SliceDouble(players: [ann], groups: [Setting.group()], members: [Setting.family: [ann.id]])
        let reply = try await pasted(by: ann, on: reads)
        let periods = BoardPeriod.keys(of: PuzzleNumber(1982), schedule: .wordle)
        #expect(reply.writes == [.boardResult(official(ann, guesses: 3), periods: periods)])
        #expect(reply.messages.map(\.action) == [.react(.counted)])
    }

    @Test("The same paste again writes nothing and is marked counted; another result for the day, not counted")
    func pastedAgain() async throws {
        var reads = SliceDouble(
            players: [ann], groups: [Setting.group()], members: [Setting.family: [ann.id]],
            results: [official(ann, guesses: 3)])
        var reply = try await pasted(by: ann, on: reads)
        #expect(reply.writes.isEmpty)
        #expect(reply.messages.map(\.action) == [.react(.counted)])
        reads.results = [official(ann, guesses: 5)]
        reply = try await pasted(by: ann, on: reads)
        #expect(reply.writes.isEmpty)
        #expect(reply.messages.map(\.action) == [.react(.notCounted)])
    }

    @Test("A player back on the board finds the day's result they counted before leaving: joined, nothing recounted")
    func backAfterLeaving() async throws {
        let reads = SliceDouble(
            players: [ann, bob], groups: [Setting.group()], members: [Setting.family: [ann.id]],
            results: [official(bob, guesses: 3)])
        let reply = try await pasted(by: bob, on: reads)
        #expect(
            reply.writes == [.join(player: bob.id, chat: Setting.family, joinedPuzzle: PuzzleNumber(326))],
            "\(reply.writes)")
        #expect(reply.messages.map(\.action) == [.react(.counted)])
    }

    @Test("A new member's paste joins them, then counts: the writes in the order the engine applies them")
    func newMember() async throws {
        let reads = SliceDouble(players: [bob], groups: [Setting.group()])
        let reply = try await pasted(by: bob, on: reads)
        let periods = BoardPeriod.keys(of: PuzzleNumber(1982), schedule: .wordle)
        #expect(
            reply.writes == [
                .join(player: bob.id, chat: Setting.family, joinedPuzzle: PuzzleNumber(326)),
                .boardResult(official(bob, guesses: 3), periods: periods),
            ])
    }
}
