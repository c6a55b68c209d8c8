import Foundation
import TesseraCore

/// The end of a group's week: once the word of its last day (Sunday, in the group's zone) is out, so that no
/// result of the week can still change, one post with the winner and podium, the best streak, and the days
/// everyone played. A week played on one day only (a group that began on its Sunday) has had its summary: no
/// post.
struct WeekEnd: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let schedule: DailySchedule

    /// The post of the latest week that ended among the days the group has just revealed (after downtime, older
    /// weeks pass silently); nil when no week ended.
    func post(of group: Group, revealedAfter before: PuzzleNumber, in store: Reads)
        async throws -> OutgoingMessage?
    {
        guard group.summaryEnabled else { return nil }
        var puzzle = group.lastRevealedPuzzle
        while puzzle > before {
            if BoardPeriod.week.firstPuzzle(containing: puzzle.next, schedule: schedule) == puzzle.next {
                guard let week = try await weekSummary(ending: puzzle, in: group, store: store) else { return nil }
                return OutgoingMessage(
                    chat: group.chat, chatKind: .group, layout: group.language(of: puzzle).texts.weekOver(week),
                    thread: group.topic, atMostOnce: true, silent: true)
            }
            puzzle = PuzzleNumber(puzzle.rawValue - 1)
        }
        return nil
    }

    /// The week that ends with `last`, as its board ranks it; nil when it was played on fewer than two days.
    private func weekSummary(ending last: PuzzleNumber, in group: Group, store: Reads)
        async throws -> WeekSummary?
    {
        let standings = try await store.standings(
            in: group.chat, board: .tessera, period: BoardPeriod.week.key(containing: last, schedule: schedule))
        let played = standings.filter { $0.played > 0 }
        guard !played.isEmpty else { return nil }
        // Posted once every day of the week is over: no result comes after `last`.
        let (order, keys) = Ranking.rank(played, period: .week, over: last, playedAfter: [:])
        let places = Ranking.places(order.map { keys[$0] })
        let podium = Shortlist(
            order.indices.prefix { places[$0] < 3 }.map { index in
                (place: places[index], name: played[order[index]].name, points: played[order[index]].points)
            }, count: Ranking.namesShown, by: { _, _ in false })
        // The longest streak going, shared by everyone who has it.
        let streaks = standings.map { ($0.name, $0.currentStreak(over: last)) }.filter { $0.1 >= 2 }
        let longest = streaks.map(\.1).max()
        let streak = longest.map { length in
            (
                names: Shortlist(streaks.filter { $0.1 == length }.map(\.0), count: Ranking.namesShown, by: <),
                streak: length
            )
        }
        // The days played together, as each day's post judged them (``DayAttendance``): two reads a day, once a
        // week. A board that began during the week counts its days from then.
        let first = BoardPeriod.week.firstPuzzle(containing: last, schedule: schedule)
        let members = standings.filter(\.isMember)
        let start = max(first, members.map(\.joinedPuzzle).min() ?? first)
        let attendance = Attendance(schedule: schedule)
        var playedBefore = try await attendance.players(
            of: PuzzleNumber(start.rawValue - 1), in: group, store: store)
        var everyone = 0
        var daysPlayed = 0
        for day in start.rawValue...last.rawValue {
            let puzzle = PuzzleNumber(day)
            let played = try await attendance.players(of: puzzle, in: group, store: store)
            let day = DayAttendance(
                puzzle: puzzle, played: played, playedBefore: playedBefore,
                members: members.lazy.map { (player: $0.player, joined: $0.joinedPuzzle) })
            playedBefore = played
            guard day.anyonePlayed else { continue }
            daysPlayed += 1
            if day.together { everyone += 1 }
        }
        guard daysPlayed >= 2 else { return nil }
        return WeekSummary(
            monday: schedule.day(of: first), podium: podium, bestStreak: streak, daysEveryonePlayed: everyone,
            days: last.rawValue - start.rawValue + 1)
    }
}
