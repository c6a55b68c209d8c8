import Foundation
import TesseraCore

/// The group's nudge (`/settings nudge on`, off by default): one post with the play button naming the members
/// whose own day of a puzzle ends within the next ``lead``, who have not played it (``DayAttendance``), and who
/// play this bot's puzzle (a game in the last ``activeDays`` days: a member who only pastes the original's is
/// never told to play).
///
/// Each member's window is their own day's, in their zone, not the group's. A puzzle gets one nudge at most,
/// in the first window where someone fits; nobody is named more than ``timesAWeek`` times in seven days, a
/// member who said `/remind off` never is, and a group whose summary is off gets none. If nobody fits, nothing
/// is posted; a window missed while the bot was down is not made up late.
struct Nudges {
    let core: EngineCore
    private var schedule: DailySchedule { core.configuration.schedule }

    /// How long before a member's day ends they may be named.
    static let lead: TimeInterval = 3 * 3600
    /// Members who have not played for longer are not named: they are not expected.
    static let activeDays = 7
    /// The most times one member is named in seven days.
    static let timesAWeek = 2
    /// The players read for whether they may be named, at most: past them, members are counted, not named, so
    /// a nudge of a group of thousands costs a bounded number of reads.
    static let playersRead = 3 * DaySummaries.summaryNames

    /// Queues the group's nudge when one is due, in the caller's transaction, recording who it named. Returns how
    /// many posts were queued.
    ///
    /// The puzzles members may still be playing are considered: a closed day whose word waits, and today's. A
    /// puzzle is read in full only when some member's day of it without a result is in its window (one read of
    /// the distinct days), so a check every few seconds costs little.
    func queue(of group: inout Group, at now: Date, in store: any GameStoreTransaction) async throws -> Int {
        guard group.team.nudge, group.summaryEnabled else { return 0 }
        let today = group.puzzle(at: now, schedule: schedule)
        // At most two days behind the group's: nobody's day is further from it.
        let first = max(
            group.lastRevealedPuzzle.next, (group.team.lastNudged ?? PuzzleNumber(0)).next,
            PuzzleNumber(today.rawValue - 2))
        guard first <= today else { return 0 }
        for day in first.rawValue...today.rawValue {
            let puzzle = PuzzleNumber(day)
            let official = schedule.officialPuzzle(sameDayAs: puzzle)
            let days = try await store.memberDays(in: group.chat, withoutResultFor: puzzle, orOfficial: official)
            guard days.contains(where: { inWindow($0, of: puzzle, at: now) }) else { continue }
            let named = try await stillToPlay(puzzle, in: group, at: now, store: store)
            guard !named.players.isEmpty else { continue }
            group.team.lastNudged = puzzle
            group.team.nudged =
                Self.lastSevenDays(of: group.team.nudged, through: puzzle)
                + named.players.map { NudgedMember(player: $0, puzzle: puzzle) }
            let language = group.language
            try await store.enqueue([
                OutgoingMessage(
                    chat: group.chat, chatKind: .group, html: language.texts.nudge(named.names), thread: group.topic,
                    buttons: core.configuration.platform.buttons
                        ? [[GroupBoards.playButton(language)]]
                        : [], atMostOnce: true, silent: true)
            ])
            return 1
        }
        return 0
    }

    /// Who the nudges of the seven days up to `puzzle` named: all the team keeps (``GroupTeam/nudged``).
    private static func lastSevenDays(of nudged: [NudgedMember], through puzzle: PuzzleNumber) -> [NudgedMember] {
        nudged.filter { $0.puzzle.rawValue > puzzle.rawValue - 7 }
    }

    /// Whether a member's day of `puzzle` is open and ends within the nudge's window: in its first half, so a
    /// window found late (after downtime) is let go.
    private func inWindow(_ day: MemberDay, of puzzle: PuzzleNumber, at now: Date) -> Bool {
        guard day.isOpen(puzzle, at: now, schedule: schedule) else { return false }
        let left = day.end(of: puzzle, schedule: schedule).timeIntervalSince(now)
        return left <= Self.lead && left > Self.lead / 2
    }

    /// The members to name: no result of the day on the board and no paste of the original's of its date, their
    /// own day of it in its window, a game in the last ``activeDays`` days, named fewer than ``timesAWeek`` times
    /// in seven days, and not opted out; in the order of their names.
    private func stillToPlay(
        _ puzzle: PuzzleNumber, in group: Group, at now: Date, store: any GameStoreTransaction
    ) async throws -> (players: [UserID], names: Shortlist<String>) {
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        let played = try await Attendance(schedule: schedule).players(
            of: puzzle, in: group, board: Set(members.filter { $0.result != nil }.map(\.player)), store: store)
        var times: [UserID: Int] = [:]
        for entry in Self.lastSevenDays(of: group.team.nudged, through: puzzle) { times[entry.player, default: 0] += 1 }
        var candidates = members.filter { member in
            !played.contains(member.player) && member.joinedPuzzle <= puzzle
                && (member.lastPuzzle?.rawValue ?? .min) >= puzzle.rawValue - Self.activeDays
                && times[member.player, default: 0] < Self.timesAWeek
                && inWindow(member.day, of: puzzle, at: now)
        }
        candidates.sort { $0.name < $1.name }
        var named: [DayMember] = []
        var optedOut = 0
        for member in candidates.prefix(Self.playersRead) where named.count < DaySummaries.summaryNames {
            if try await store.player(member.player)?.namedInNudges == false {
                optedOut += 1
            } else {
                named.append(member)
            }
        }
        return (named.map(\.player), Shortlist(named.map(\.name), more: candidates.count - named.count - optedOut))
    }
}
