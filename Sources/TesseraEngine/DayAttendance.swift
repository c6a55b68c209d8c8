import Foundation
import TesseraCore

/// Who played a group's day, and who was expected to: the one rule every post that asks reads (the day's post
/// with its missed list and days together, the group streak, the week's days together, the nudge).
///
/// A member played a day when they have a result of it on the group's board (in any language the group counts:
/// each member's own, unless it keeps to one), or pasted the original Wordle of its date, or, in a group kept
/// to one language, played the day's puzzle in another. A member is expected on a day when they were on the
/// board the day before and played it: one who missed a day is not waited for, named or counted against the
/// group until they play again, so a member who stopped playing never holds the group back.
struct DayAttendance: Hashable {
    let puzzle: PuzzleNumber
    /// Who played the day.
    let played: Set<UserID>
    /// The members who were expected and did not play.
    let missing: Set<UserID>

    /// `members`: the board's members, with the puzzle they joined it on.
    init(
        puzzle: PuzzleNumber, played: Set<UserID>, playedBefore: Set<UserID>,
        members: some Sequence<(player: UserID, joined: PuzzleNumber)>
    ) {
        self.puzzle = puzzle
        self.played = played
        var missing: Set<UserID> = []
        for member in members
        where !played.contains(member.player)
            && Self.isExpected(member.player, joined: member.joined, on: puzzle, playedBefore: playedBefore)
        {
            missing.insert(member.player)
        }
        self.missing = missing
    }

    var anyonePlayed: Bool { !played.isEmpty }
    /// Whether the day was played together: someone played it, and everyone expected did.
    var together: Bool { anyonePlayed && missing.isEmpty }

    /// Whether a member was expected on `puzzle`: on the board since before it, and played the day before.
    static func isExpected(_ player: UserID, joined: PuzzleNumber, on puzzle: PuzzleNumber, playedBefore: Set<UserID>)
        -> Bool
    {
        joined < puzzle && playedBefore.contains(player)
    }
}

/// Reads who played a group's days (``DayAttendance``) from the store: two reads a day (the board's results
/// and the original game's pastes), and in a group kept to one language one more for each other language.
struct Attendance {
    let schedule: DailySchedule

    /// Who played `puzzle` in the group. `board` and `pasted` are the day's results on the group's board and
    /// the original game's pasted for its date, when the caller has read them already.
    func players(
        of puzzle: PuzzleNumber, in group: Group, board: Set<UserID>? = nil, pasted: Set<UserID>? = nil,
        store: any GameStoreTransaction
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

    /// The attendance of one day, from its members (``GameStoreTransaction/dayMembers(in:board:puzzle:)``) and
    /// the original game's results pasted for its date, when read already.
    func day(
        _ puzzle: PuzzleNumber, in group: Group, members: [DayMember], pasted: Set<UserID>? = nil,
        store: any GameStoreTransaction
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
        in group: Group, board: BoardKind, puzzle: PuzzleNumber, store: any GameStoreTransaction
    ) async throws -> [UserID] {
        try await store.results(in: group.chat, board: board, puzzle: puzzle).map(\.result.player)
    }
}
