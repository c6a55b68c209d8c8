import Foundation
import TesseraCore

/// The group's nudge (`/settings nudge on`, off by default): one post with the play button naming the members
/// whose own day of a puzzle ends within the next ``GroupTeam/nudgeLead``, who have not played it (``DayAttendance``), and who
/// play this bot's puzzle (a game in the last ``activeDays`` days: a member who only pastes the original's is
/// never told to play).
///
/// Each member's window is their own day's, in their zone, not the group's. A puzzle gets one nudge at most,
/// in the first window where someone fits; nobody is named more than ``timesAWeek`` times in seven days, a
/// member who said `/remind off` never is, and a group whose summary is off gets none. If nobody fits, nothing
/// is posted; a window missed while the bot was down is not made up late.
///
/// The rule is decided from values (``puzzles(of:at:)``, ``candidates(for:members:played:nudged:at:)``,
/// ``nudge(_:candidates:optedOut:)``); ``post(for:at:in:)`` is the thin step that reads their inputs and
/// returns the decision: the post, and the group's team as it leaves it.
struct Nudges: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let schedule: DailySchedule
    /// Whether the platform shows buttons: the nudge carries the play button where it does.
    let buttons: Bool

    /// Members who have not played for longer are not named: they are not expected.
    static let activeDays = 7
    /// The most times one member is named in seven days.
    static let timesAWeek = 2
    /// The candidates whose `/remind off` is read, at most, in one statement: past them, members are counted,
    /// not named, so a nudge of a group of thousands reads a bounded number of players.
    static let playersRead = 3 * Ranking.namesShown

    /// A nudge decided: the puzzle it is for and the members it names, in the order of their names.
    struct Nudge: Equatable {
        let puzzle: PuzzleNumber
        let players: [UserID]
        let names: [String]
        /// Candidates not named: past the names shown, not counting those who said `/remind off`.
        let more: Int

        /// The group's team once the nudge is posted: the puzzle nudged, and who was named in the seven days up
        /// to it (all the team keeps, ``GroupTeam/nudged``).
        func recorded(in team: GroupTeam) -> GroupTeam {
            var team = team
            team.lastNudged = puzzle
            team.nudged =
                Nudges.lastSevenDays(of: team.nudged, through: puzzle)
                + players.map { NudgedMember(player: $0, puzzle: puzzle) }
            return team
        }
    }

    // MARK: - The step: reads, decides, applies

    /// The group's nudge when one is due, recording who it named in the group's team: one of the posts of
    /// ``DaySummaries/close(_:at:reads:)``, which the engine queues with the group saved.
    ///
    /// A puzzle is read in full only when some member's day of it without a result is in its window (one read of
    /// the distinct days), so a check every few seconds costs little; then its members, who played it, and the
    /// candidates' `/remind off`, each in one read.
    func post(for group: inout Group, at now: Date, in store: Reads) async throws
        -> OutgoingMessage?
    {
        for puzzle in puzzles(of: group, at: now) {
            let official = schedule.officialPuzzle(sameDayAs: puzzle)
            let days = try await store.memberDays(in: group.chat, withoutResultFor: puzzle, orOfficial: official)
            guard days.contains(where: { inWindow($0, of: puzzle, at: now) }) else { continue }
            let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
            let played = try await Attendance(schedule: schedule).players(
                of: puzzle, in: group, board: Set(members.filter { $0.result != nil }.map(\.player)), store: store)
            let candidates = candidates(
                for: puzzle, members: members, played: played, nudged: group.team.nudged, at: now)
            let read = try await store.players(candidates.prefix(Self.playersRead).map(\.player))
            let optedOut = Set(read.filter { !$0.namedInNudges }.map(\.id))
            guard let nudge = Self.nudge(puzzle, candidates: candidates, optedOut: optedOut) else { continue }
            group.team = nudge.recorded(in: group.team)
            return message(for: nudge, in: group)
        }
        return nil
    }

    // MARK: - The rule

    /// The puzzles a nudge may be for, oldest first: those members may still be playing (a closed day whose word
    /// waits, and today's), after the last one nudged; none when the nudge or the summary is off.
    func puzzles(of group: Group, at now: Date) -> [PuzzleNumber] {
        guard group.team.nudge, group.summaryEnabled else { return [] }
        let today = group.puzzle(at: now, schedule: schedule)
        // At most two days behind the group's: nobody's day is further from it.
        let first = max(
            group.lastRevealedPuzzle.next, (group.team.lastNudged ?? PuzzleNumber(0)).next,
            PuzzleNumber(today.rawValue - 2))
        guard first <= today else { return [] }
        return (first.rawValue...today.rawValue).map(PuzzleNumber.init)
    }

    /// Whether a member's day of `puzzle` is open and ends within the nudge's window: in its first half, so a
    /// window found late (after downtime) is let go.
    func inWindow(_ day: MemberDay, of puzzle: PuzzleNumber, at now: Date) -> Bool {
        guard day.isOpen(puzzle, at: now, schedule: schedule) else { return false }
        let left = day.end(of: puzzle, schedule: schedule).timeIntervalSince(now)
        return left <= GroupTeam.nudgeLead && left > GroupTeam.nudgeLead / 2
    }

    /// The members who may be named for `puzzle`, in the order of their names: not among `played`
    /// (``Attendance``), on the board by then, a game in the last ``activeDays`` days, named fewer than
    /// ``timesAWeek`` times in the seven days up to it (`nudged`), and their own day of it in its window.
    func candidates(
        for puzzle: PuzzleNumber, members: [DayMember], played: Set<UserID>, nudged: [NudgedMember], at now: Date
    ) -> [DayMember] {
        var times: [UserID: Int] = [:]
        for entry in Self.lastSevenDays(of: nudged, through: puzzle) { times[entry.player, default: 0] += 1 }
        return members.filter { member in
            !played.contains(member.player) && member.joinedPuzzle <= puzzle
                && (member.lastPuzzle?.rawValue ?? .min) >= puzzle.rawValue - Self.activeDays
                && times[member.player, default: 0] < Self.timesAWeek
                && inWindow(member.day, of: puzzle, at: now)
        }
        .sorted { $0.name < $1.name }
    }

    /// The nudge for `puzzle`: the first ``Ranking/namesShown`` candidates who did not say `/remind off`
    /// (`optedOut`, read for the first ``playersRead``), the rest counted; nil when it would name nobody.
    static func nudge(_ puzzle: PuzzleNumber, candidates: [DayMember], optedOut: Set<UserID>) -> Nudge? {
        var named: [DayMember] = []
        var skipped = 0
        for member in candidates.prefix(playersRead) where named.count < Ranking.namesShown {
            if optedOut.contains(member.player) { skipped += 1 } else { named.append(member) }
        }
        guard !named.isEmpty else { return nil }
        return Nudge(
            puzzle: puzzle, players: named.map(\.player), names: named.map(\.name),
            more: candidates.count - named.count - skipped)
    }

    /// The nudge's post: silent, at most once, with the play button where the platform has buttons.
    func message(for nudge: Nudge, in group: Group) -> OutgoingMessage {
        let language = group.language
        return OutgoingMessage(
            chat: group.chat, chatKind: .group, html: language.texts.nudge(Shortlist(nudge.names, more: nudge.more)),
            thread: group.topic, buttons: buttons ? [[OutgoingMessage.Button.play(language)]] : [], atMostOnce: true,
            silent: true)
    }

    /// Who the nudges of the seven days up to `puzzle` named.
    static func lastSevenDays(of nudged: [NudgedMember], through puzzle: PuzzleNumber) -> [NudgedMember] {
        nudged.filter { $0.puzzle.rawValue > puzzle.rawValue - 7 }
    }
}
