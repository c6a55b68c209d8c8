import Foundation
import TesseraCore

/// The group's nudge (`/settings nudge on`, off by default): once a day, ``lead`` before the group's summary is
/// due, one post naming the members who have not played yet and played in the last ``activeDays`` days, with the
/// play button.
///
/// Only members who can still play the day are named (one whose own day of it is over cannot), a member who
/// said `/remind off` never is, and a group whose summary is off gets none. The day is considered once: a nudge
/// due while the bot was down is not posted late, and a day everyone has played gets no post.
struct Nudges {
    let core: EngineCore
    private var schedule: DailySchedule { core.configuration.schedule }

    /// How long before the group's summary the nudge comes.
    static let lead: TimeInterval = 3 * 3600
    /// Members who have not played for longer are not named: they are not expected.
    static let activeDays = 7
    /// The players read for whether they may be named, at most: past them, members are counted, not named, so
    /// a nudge of a group of thousands costs a bounded number of reads.
    static let playersRead = 3 * DaySummaries.summaryNames

    /// Queues the group's nudge when it is due, in the caller's transaction, marking the day as considered.
    /// Returns how many posts were queued.
    func queue(of group: inout Group, at now: Date, in store: any GameStoreTransaction) async throws -> Int {
        guard group.team.nudge, group.summaryEnabled else { return 0 }
        let today = group.puzzle(at: now, schedule: schedule)
        guard today > group.lastClosedPuzzle, (group.team.lastNudged ?? PuzzleNumber(0)) < today else { return 0 }
        let due = group.summaryTime(of: today, schedule: schedule)
        guard now >= due - Self.lead else { return 0 }
        group.team.lastNudged = today
        guard now < due - Self.lead / 2 else { return 0 }
        let names = try await stillToPlay(today, in: group, at: now, store: store)
        guard !names.isEmpty else { return 0 }
        let language = group.language
        try await store.enqueue([
            OutgoingMessage(
                chat: group.chat, chatKind: .group, html: language.texts.nudge(names), thread: group.topic,
                buttons: core.configuration.platform.buttons
                    ? [[GroupBoards.playButton(language)]]
                    : [], atMostOnce: true, silent: true)
        ])
        return 1
    }

    /// The members to name: no result of the day on the board and no paste of the original's of its date,
    /// their own day of it still open, a game or a paste in the last ``activeDays`` days, and not opted out;
    /// in the order of their names.
    private func stillToPlay(
        _ puzzle: PuzzleNumber, in group: Group, at now: Date, store: any GameStoreTransaction
    ) async throws -> Shortlist<String> {
        let official = group.officialPuzzle(at: now)
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        let pasters = try await store.dayMembers(in: group.chat, board: .official, puzzle: official)
        let pasted = Set(pasters.filter { $0.result != nil }.map(\.player))
        let pastingLately = Set(
            pasters.filter { ($0.lastPuzzle?.rawValue ?? .min) >= official.rawValue - Self.activeDays }.map(\.player))
        var candidates = members.filter { member in
            member.result == nil && !pasted.contains(member.player) && member.joinedPuzzle <= puzzle
                && ((member.lastPuzzle?.rawValue ?? .min) >= puzzle.rawValue - Self.activeDays
                    || pastingLately.contains(member.player))
                && member.day.isOpen(puzzle, at: now, schedule: schedule)
        }
        candidates.sort { $0.name < $1.name }
        var named: [String] = []
        var optedOut = 0
        for member in candidates.prefix(Self.playersRead) where named.count < DaySummaries.summaryNames {
            if try await store.player(member.player)?.namedInNudges == false {
                optedOut += 1
            } else {
                named.append(member.name)
            }
        }
        return Shortlist(named, more: candidates.count - named.count - optedOut)
    }
}
