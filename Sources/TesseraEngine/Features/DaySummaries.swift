import Foundation
import Logging
import TesseraCore
import TesseraPictures

/// The group's day post: one calm post a day, edited in place as it completes.
///
/// At the group's rollover (or summary hour) the bot posts how the day went: the results by score, each
/// member's in the language they played, the streaks, who missed it (``DayAttendance``) and what was pasted.
/// A member holds the word back while they have no result for the puzzle and their own day of it is still
/// open. If nobody holds it, the post is final: every played language's word behind a spoiler, the crown, the
/// days together. Otherwise the post says "so far", crowns nobody and names who the word waits for and until
/// when; once the last of them has played or their day has ended (the next check of the group's days, every
/// few seconds), the final post follows. An analysis finished after the final post edits it in place to add
/// the day's most skilful game. Members still inside their day are "still playing", not "missed". These posts
/// come without a notification.
struct DaySummaries: Feature {
    typealias Reads = any BoardReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }
    private var analyses: Analyses { Analyses(core: core) }
    private var groupBoards: GroupBoards { GroupBoards(core: core) }
    private var weekEnd: WeekEnd { WeekEnd(schedule: configuration.schedule) }
    private var seasonEnd: SeasonEnd { SeasonEnd(core: core) }
    private var attendance: Attendance { Attendance(schedule: configuration.schedule) }
    private var nudges: Nudges {
        Nudges(schedule: configuration.schedule, buttons: configuration.platform.buttons)
    }

    /// A group's day as it stands at `now`: the posts due (the reveals, the day's post, a change of the group's
    /// day, the nudge, the season's and the week's end), in their order, and the group as they leave it. The step
    /// that queues the posts and saves the group is the engine's (``BotEngine/closeDays(at:on:in:)``); this reads,
    /// and changes nothing. Each day is closed, and summed up, once. After downtime only the latest due day is
    /// summed up (older ones close silently), and a day nobody played closes without a post.
    func close(_ group: Group, at now: Date, reads store: Reads) async throws
        -> (group: Group, messages: [OutgoingMessage])
    {
        var group = group
        let before = group
        var messages = try await revealOverDays(of: &group, at: now, store: store)
        let due = group.puzzleToClose(at: now, schedule: configuration.schedule)
        if due > group.lastClosedPuzzle {
            // Days closed silently after downtime end for good, in order, once nobody plays them any more.
            while group.lastRevealedPuzzle.next < due,
                try await daysHoldingTheWord(of: group.lastRevealedPuzzle.next, in: group, at: now, store: store)
                    .isEmpty
            {
                try await revealSilently(group.lastRevealedPuzzle.next, in: &group, store: store)
            }
            // Results keep counting, and the word waits, while a member may still be playing the day on their
            // own; with no summary, or where the word cannot be hidden, the day just ends then.
            if group.summaryEnabled, let post = try await dayPost(of: due, in: group, at: now, store: store) {
                messages.append(post.message)
                group.team = post.team
                if post.final { group.lastRevealedPuzzle = due }
            } else if try await daysHoldingTheWord(of: due, in: group, at: now, store: store).isEmpty {
                try await revealSilently(due, in: &group, store: store)
            }
            group.lastClosedPuzzle = due
            group.lastClosedLanguage = group.language
            let settings = group.daySettings
            group.applyPending(closed: due)
            if let announcement = groupBoards.dayChangeAnnouncement(from: settings, to: group) {
                messages.append(announcement)
            }
        }
        if let nudge = try await nudges.post(for: &group, at: now, in: store) { messages.append(nudge) }
        // A season that ends with a week (four weeks' always do) is summed up once: its post stands for the week's.
        let season = try await seasonEnd.posts(of: &group, revealedAfter: before.lastRevealedPuzzle, in: store)
        messages += season
        if season.isEmpty,
            let week = try await weekEnd.post(of: group, revealedAfter: before.lastRevealedPuzzle, in: store)
        {
            messages.append(week)
        }
        return (group, messages)
    }

    /// Reveals the group's closed days whose word nobody holds any more, oldest first: a member at UTC−12 can be
    /// two days behind a group at UTC+14, so more than one day may be waiting. Each gets its final post (members
    /// west of the group finished after its first). Returns the posts.
    private func revealOverDays(of group: inout Group, at now: Date, store: Reads) async throws
        -> [OutgoingMessage]
    {
        var posts: [OutgoingMessage] = []
        while group.lastRevealedPuzzle < group.lastClosedPuzzle {
            let puzzle = group.lastRevealedPuzzle.next
            guard try await daysHoldingTheWord(of: puzzle, in: group, at: now, store: store).isEmpty else { break }
            if group.summaryEnabled, let post = try await dayPost(of: puzzle, in: group, at: nil, store: store) {
                posts.append(post.message)
                group.team = post.team
                group.lastRevealedPuzzle = puzzle
            } else {
                try await revealSilently(puzzle, in: &group, store: store)
            }
        }
        return posts
    }

    /// Marks a closed day revealed with no post of its own (no summary, or a day closed during downtime), judging
    /// the group streak on it.
    private func revealSilently(_ puzzle: PuzzleNumber, in group: inout Group, store: Reads)
        async throws
    {
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        let day = try await attendance.day(puzzle, in: group, members: members, store: store)
        group.team.streak = GroupStreak.after(group.team.streak, day: day)
        group.lastRevealedPuzzle = puzzle
    }

    /// The days of the group's board members who hold back the word of `puzzle`: without a result for it on the
    /// board, and with their own day of it still open.
    private func daysHoldingTheWord(
        of puzzle: PuzzleNumber, in group: Group, at now: Date, store: Reads
    ) async throws -> [MemberDay] {
        try await store.memberDays(in: group.chat, withoutResultFor: puzzle, orOfficial: officialPuzzle(of: puzzle))
            .filter { $0.isOpen(puzzle, at: now, schedule: configuration.schedule) }
    }

    /// The original game's puzzle of the same date: a member who pasted its result is done with the day.
    func officialPuzzle(of puzzle: PuzzleNumber) -> PuzzleNumber {
        configuration.schedule.officialPuzzle(sameDayAs: puzzle)
    }

    /// Whether each member's own day of `puzzle` is still open: worked out once for each day; none is once
    /// the word is out (`now` nil).
    private func inTheirDay(of puzzle: PuzzleNumber, _ members: [DayMember], at now: Date?) -> [Bool] {
        guard let now else { return members.map { _ in false } }
        var open: [MemberDay: Bool] = [:]
        return members.map { member in
            if let known = open[member.day] { return known }
            let isOpen = member.day.isOpen(puzzle, at: now, schedule: configuration.schedule)
            open[member.day] = isOpen
            return isOpen
        }
    }

    /// The group's post of a closed day, and the group's team as it leaves it; nil when nobody played the day.
    /// `now` nil: the word is out, as when an analysis finished after the final post edits it.
    ///
    /// The post is final when nobody still inside their own day of the puzzle holds the word: the words, the
    /// crown and the group streak, judged then (``DayAttendance``), as one live message edited in place later.
    /// Otherwise it is the day so far.
    func dayPost(of puzzle: PuzzleNumber, in group: Group, at now: Date?, store: Reads)
        async throws -> (message: OutgoingMessage, final: Bool, highlighted: Bool, team: GroupTeam)?
    {
        // One read of the board for the day: a large group has thousands of members.
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        let results = Ranking.inFinishingOrder(
            members.compactMap { member in member.result.map { (member.name, $0) } })
        // The original game's results pasted here for the same date: their own line, and their authors, whatever
        // else they did, are done with the day: they neither hold the word nor missed it.
        let officialPuzzle = officialPuzzle(of: puzzle)
        let official = Ranking.inFinishingOrder(
            try await store.results(in: group.chat, board: .official, puzzle: officialPuzzle))
        let pasted = Set(official.map(\.result.player))
        guard !results.isEmpty || !official.isEmpty else { return nil }
        let day = try await attendance.day(puzzle, in: group, members: members, pasted: pasted, store: store)
        let absent = absentees(of: puzzle, members, day: day, at: now)
        let final = absent.waitsUntil == nil
        var team = group.team
        // Judged once, when the post is final; a post edited later reads the judgement.
        if final && group.lastRevealedPuzzle < puzzle { team.streak = GroupStreak.after(group.team.streak, day: day) }
        let word: DaySummary.Word
        var highlights: DayHighlights?
        if !configuration.platform.spoilers {
            word = .notPosted
        } else if let waitsUntil = absent.waitsUntil, let now {
            word = .later(until: LocalTime(waitsUntil, seenFrom: now, in: group.rollover.timeZone))
        } else {
            word = .shown(words(of: puzzle, played: results, in: group))
            // Only beside the word: scores say nothing of letters, but nobody reads them before the day is over.
            highlights = try await analyses.highlights(of: results, puzzle: puzzle, store: store)
        }
        let streaks = Self.streaks(results, brokenByAbsence: absent.streaksBroken)
        // The final post of a group with pictures on comes with the day card, its boards numbered as the caption
        // names their players.
        let picture =
            final && Pictures.wanted(in: group, on: configuration.platform) && !results.isEmpty
            ? try await dayCard(of: puzzle, results: results, in: group, store: store) : nil
        // In the language the day was played in, whatever the group has switched to since.
        let language = group.language(of: puzzle)
        let summary = DaySummary(
            puzzle: puzzle,
            language: language,
            final: final,
            word: word,
            highlights: highlights,
            results: Self.scoreLines(results, crowning: final, numbered: picture == nil ? 0 : DayCard.maximumBoards),
            // The day so far has its results and who is still playing; the streaks and who missed the day wait
            // for the final post, so that each is said once a day.
            streaksKept: final ? streaks.kept : Shortlist([], more: 0),
            streaksBroken: final ? streaks.broken : Shortlist([], more: 0),
            stillPlaying: Shortlist(absent.stillPlaying, count: Ranking.namesShown, by: <),
            missed: final ? Shortlist(absent.missed, count: Ranking.namesShown, by: <) : Shortlist([], more: 0),
            officialPuzzle: officialPuzzle,
            official: Shortlist(
                official.map { ($0.name, TextFormat.score($0.result)) }, count: Ranking.namesShown,
                by: { _, _ in false }),
            groupStreak: final ? team.streak.flatMap { GroupStreakNews($0, day: puzzle) } : nil,
            otherPuzzles: try await otherPuzzles(of: puzzle, in: group, store: store))
        var message = OutgoingMessage(
            chat: group.chat, chatKind: .group, html: language.texts.summary(summary), thread: group.topic,
            atMostOnce: true, silent: true)
        message.picture = picture
        if final && configuration.platform.edits && message.fits(maximumLength: configuration.platform.maximumLength) {
            message.live = Self.liveKey(of: puzzle)
        }
        return (message, final, highlights != nil, team)
    }

    /// The key of a day's final post, which a later analysis edits (``OutgoingMessage/live``).
    static func liveKey(of puzzle: PuzzleNumber) -> String { "day:\(puzzle.rawValue)" }

    /// Each played language's word of the day, the group's first.
    private func words(of puzzle: PuzzleNumber, played results: [(name: String, result: BoardResult)], in group: Group)
        -> [(language: Language, word: String)]
    {
        let played = Set(results.map(\.result.language))
        let languages = [group.language(of: puzzle)] + Language.allCases.filter { $0 != group.language(of: puzzle) }
        return languages.filter { played.contains($0) || (played.isEmpty && $0 == group.language(of: puzzle)) }.map {
            ($0, $0.wordList.display(core.answer(for: puzzle, in: $0)))
        }
    }

    /// The day card of a final post: the first ``DayCard/maximumBoards`` results' colours in finishing order, those
    /// of the fewest guesses crowned; no letter is drawn.
    private func dayCard(
        of puzzle: PuzzleNumber, results: [(name: String, result: BoardResult)], in group: Group, store: Reads
    ) async throws -> Picture {
        let drawn = results.prefix(DayCard.maximumBoards).map(\.result)
        let games = try await store.countedGames(of: drawn.map(\.player), in: group.chat, puzzle: puzzle)
        let best = results.compactMap(\.result.guesses).min()
        let language = group.language(of: puzzle)
        let boards = drawn.map { result in
            var game = Game(
                answer: core.answer(for: puzzle, in: result.language), wordList: core.guessList(result.language),
                hardMode: result.hardMode)
            core.restore(
                games[result.player]?.guesses ?? [], into: &game,
                metadata: ["player.id": "\(result.player)", "puzzle.number": "\(puzzle)"])
            return DayCard.Board(
                rows: game.rows.map(\.feedback.states), crowned: Ranking.wearsCrown(result, best: best),
                hardMode: result.hardMode)
        }
        return .dayCard(
            DayCard(
                title: "\(configuration.gameName) \(puzzle.grouped)", boards: boards,
                maximumGuesses: Game.defaultMaximumGuesses, wordLength: language.wordList.wordLength,
                theme: configuration.shareTheme))
    }

    /// The day's results by score, in finishing order: one line a score, at most ``Ranking/namesShown`` names each; with
    /// `crowning`, the lines of the fewest guesses wear the crown. The first `numbered` names in finishing order
    /// carry their place, as the day card numbers their boards.
    private static func scoreLines(_ results: [(name: String, result: BoardResult)], crowning: Bool, numbered: Int)
        -> [DaySummary.ScoreLine]
    {
        let best = results.compactMap(\.result.guesses).min()
        var lines: [(score: String, names: [DaySummary.Name], count: Int, crowned: Bool)] = []
        for (index, entry) in results.enumerated() {
            let score = TextFormat.score(entry.result)
            if lines.last?.score != score {
                lines.append((score, [], 0, crowning && Ranking.wearsCrown(entry.result, best: best)))
            }
            lines[lines.count - 1].count += 1
            if lines[lines.count - 1].names.count < Ranking.namesShown {
                lines[lines.count - 1].names.append(
                    (entry.name, entry.result.language, index < numbered ? index + 1 : nil))
            }
        }
        return lines.map {
            DaySummary.ScoreLine(
                score: $0.score, names: Shortlist($0.names, more: $0.count - $0.names.count), crowned: $0.crowned)
        }
    }

    /// The streaks the day kept and broke, longest first: a loss breaks one, and so does a day missed
    /// (`brokenByAbsence`).
    private static func streaks(
        _ results: [(name: String, result: BoardResult)], brokenByAbsence: [(String, Int)]
    ) -> (kept: Shortlist<(String, Int)>, broken: Shortlist<(String, Int)>) {
        let kept = results.filter { $0.result.streakAfter >= 2 }.map { ($0.name, $0.result.streakAfter) }
        let broken =
            results.filter { $0.result.guesses == nil && $0.result.streakBefore >= 2 }
            .map { ($0.name, $0.result.streakBefore) } + brokenByAbsence
        return (
            Shortlist(kept, count: Ranking.namesShown, by: Ranking.longestFirst),
            Shortlist(broken, count: Ranking.namesShown, by: Ranking.longestFirst)
        )
    }

    /// The other puzzles of the day's date pasted in the group: each game's results, best first, as the group's
    /// language words them.
    private func otherPuzzles(of puzzle: PuzzleNumber, in group: Group, store: Reads)
        async throws -> [(PuzzleShare.Game, Shortlist<(String, String)>)]
    {
        let date = configuration.schedule.day(of: puzzle)
        let texts = group.language(of: puzzle).texts
        let first = try await store.firstResults(
            in: group.chat,
            of: PuzzleShare.Game.allCases.map { BoardDay(BoardKind($0), $0.schedule.puzzle(on: date)) },
            limit: Ranking.namesShown)
        return PuzzleShare.Game.allCases.map { game in
            let day = first[BoardKind(game)] ?? FirstResults(results: [], count: 0)
            let scored = Ranking.inFinishingOrder(day.results).map {
                ($0.name, texts.otherPuzzleScore(game, measure: $0.result.guesses))
            }
            return (game, Shortlist(scored, more: day.count - scored.count))
        }
    }

    /// Who on the board has no result for a closed day, and what that means for the post.
    private struct Absentees {
        /// Their own day of the puzzle is open: they may still play, and the word waits for them.
        var stillPlaying: [String] = []
        /// Expected and did not play (``DayAttendance``): a member who stopped playing is not named.
        var missed: [String] = []
        /// The streaks the missed days broke.
        var streaksBroken: [(String, Int)] = []
        /// When the last day holding the word ends (``daysHoldingTheWord``); nil when none does.
        var waitsUntil: Date?
    }

    /// The members without a result for the day, in one pass over a board of thousands, keeping names, not
    /// members. A member who played the day otherwise (a paste of the original's, another language's puzzle
    /// in a group kept to one) is done with it: they neither hold the word nor missed it.
    private func absentees(of puzzle: PuzzleNumber, _ members: [DayMember], day: DayAttendance, at now: Date?)
        -> Absentees
    {
        var absent = Absentees()
        for (member, inTheirDay) in zip(members, inTheirDay(of: puzzle, members, at: now))
        where member.result == nil && !day.played.contains(member.player) {
            if inTheirDay {
                absent.stillPlaying.append(member.name)
                absent.waitsUntil = max(
                    absent.waitsUntil ?? .distantPast, member.day.end(of: puzzle, schedule: configuration.schedule))
            } else if day.missing.contains(member.player) {
                absent.missed.append(member.name)
                if member.lastPuzzle?.rawValue == puzzle.rawValue - 1 && member.streak >= 2 {
                    absent.streaksBroken.append((member.name, member.streak))
                }
            }
        }
        return absent
    }
}
