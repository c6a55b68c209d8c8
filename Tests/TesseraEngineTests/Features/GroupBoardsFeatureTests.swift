import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``GroupBoards``' membership alone, on a ``SliceDouble``: joining and leaving decide from the player's groups
/// and leave as writes; a finished game counts on joining.
@Suite("Group boards, on their slice of the store")
struct GroupBoardsFeatureTests {
    typealias Setting = FeatureSetting
    let boards = GroupBoards(core: Setting.core)
    let ann = Setting.player(1, "Ann")

    @Test("/join puts a player on the board once, and counts the game they finished today; /leave takes them off")
    func joinAndLeave() async throws {
        let puzzle = PuzzleNumber(326)
        let won = StoredGame(
            player: ann.id, language: .english, puzzle: puzzle, hardMode: true, guesses: ["crane", "slate"],
            result: .won(guesses: 2), finishedAt: Setting.now - 600)
        var reads = SliceDouble(players: [ann], games: [won], groups: [Setting.group()])
        let joined = try await boards.join(in: Setting.turn("/join", from: ann, in: Setting.group(), reads: reads))
        let counted = BoardResult(
            chat: Setting.family, puzzle: puzzle, player: ann.id, language: .english, guesses: 2, hardMode: true,
            finishedAt: Setting.now - 600)
        #expect(
            joined.writes == [
                .join(player: ann.id, chat: Setting.family, joinedPuzzle: puzzle),
                .boardResult(counted, periods: BoardPeriod.keys(of: puzzle, schedule: .tessera)),
            ])
        #expect(joined.messages.map(\.action) == [.react(.counted)])

        reads.members = [Setting.family: [ann.id]]
        let again = try await boards.join(in: Setting.turn("/join", from: ann, in: Setting.group(), reads: reads))
        #expect(again.writes.isEmpty && again.messages.map(\.action) == [.react(.notCounted)])

        let left = try await boards.leave(in: Setting.turn("/leave", from: ann, in: Setting.group(), reads: reads))
        #expect(left.writes == [.leave(player: ann.id, chat: Setting.family)])
        reads.members = [:]
        let notThere = try await boards.leave(in: Setting.turn("/leave", from: ann, in: Setting.group(), reads: reads))
        #expect(notThere.writes.isEmpty && notThere.messages.map(\.action) == [.react(.notCounted)])
    }

    @Test("A group that requires hard mode does not count a normal game on joining")
    func hardModeRequired() async throws {
        var group = Setting.group()
        group.hardModeRequired = true
        let normal = StoredGame(
            player: ann.id, language: .english, puzzle: PuzzleNumber(326), hardMode: false, guesses: ["crane"],
            result: .won(guesses: 1), finishedAt: Setting.now)
        let reads = SliceDouble(players: [ann], games: [normal], groups: [group])
        let joined = try await boards.join(in: Setting.turn("/join", from: ann, in: group, reads: reads))
        #expect(joined.writes == [.join(player: ann.id, chat: Setting.family, joinedPuzzle: PuzzleNumber(326))])
    }
}
