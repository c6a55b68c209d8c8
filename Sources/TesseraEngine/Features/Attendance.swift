import Foundation
import TesseraCore

/// Reads who played a group's days (``DayAttendance``) from the store: two reads a day (the board's results
/// and the original game's pastes), and in a group kept to one language one more for each other language.
struct Attendance: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let schedule: DailySchedule

    /// Who played `puzzle` in the group. `board` and `pasted` are the day's results on the group's board and
    /// the original game's pasted for its date, when the caller has read them already.
    func players(
        of puzzle: PuzzleNumber, in group: Group, board: Set<UserID>? = nil, pasted: Set<UserID>? = nil,
        store: Reads
    ) async throws -> Set<UserID> {
        var played: Set<UserID>
        if let board {
            played = board
        } else {
            played = Set(try await results(in: group, board: .tessera, puzzle: puzzle, store: store))
        }
        if let pasted {
            played.formUnion(pasted)
        } else {
            let official = schedule.officialPuzzle(sameDayAs: puzzle)
            played.formUnion(try await results(in: group, board: .official, puzzle: official, store: store))
        }
        if group.team.languageOnly {
            for other in Language.allCases where other != group.language(of: puzzle) {
                played.formUnion(try await store.members(in: group.chat, playing: other, puzzle: puzzle))
            }
        }
        return played
    }

    /// The attendance of one day, from its members (``BoardReads/dayMembers(in:board:puzzle:)``) and
    /// the original game's results pasted for its date, when read already.
    func day(
        _ puzzle: PuzzleNumber, in group: Group, members: [DayMember], pasted: Set<UserID>? = nil,
        store: Reads
    ) async throws -> DayAttendance {
        let played = try await players(
            of: puzzle, in: group, board: Set(members.filter { $0.result != nil }.map(\.player)), pasted: pasted,
            store: store)
        let before = try await players(of: PuzzleNumber(puzzle.rawValue - 1), in: group, store: store)
        return DayAttendance(
            puzzle: puzzle, played: played, playedBefore: before,
            members: members.lazy.map { (player: $0.player, joined: $0.joinedPuzzle) })
    }

    private func results(
        in group: Group, board: BoardKind, puzzle: PuzzleNumber, store: Reads
    ) async throws -> [UserID] {
        try await store.results(in: group.chat, board: board, puzzle: puzzle).map(\.result.player)
    }
}
