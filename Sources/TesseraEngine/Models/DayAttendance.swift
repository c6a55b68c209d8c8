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
