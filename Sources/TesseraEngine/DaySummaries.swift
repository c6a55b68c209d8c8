public import Foundation
import TesseraCore

/// The daily summary: when a group's day closes, the bot posts how it went; the word follows only when nobody
/// on the group's board can still play that puzzle without having played it.
///
/// The results are posted at the group's rollover (or summary hour). A member holds the word back while they
/// have no result for the puzzle on the board and their own day of it is still open; one who has finished does
/// not. If nobody holds it, the word is in the same post; otherwise the post names who it waits for and until
/// when, and a short post reveals it as soon as the last of them has played or their day has ended (the next
/// check of the group's days, every few seconds). Members still inside their day are "still playing", not
/// "missed". The word is always behind a spoiler, and these posts come without a notification.
struct DaySummaries {
    let core: EngineCore
    private var configuration: BotEngine.Configuration { core.configuration }
    private var analyses: Analyses { Analyses(core: core) }
    private var groupBoards: GroupBoards { GroupBoards(core: core) }
    private var weekEnd: WeekEnd { WeekEnd(schedule: configuration.schedule) }
    private var seasonEnd: SeasonEnd { SeasonEnd(core: core) }
    private var groupStreaks: GroupStreaks { GroupStreaks(schedule: configuration.schedule) }

    /// Grids shown in a summary before the rest are counted.
    static let summaryGrids = 30
    /// Names shown in each list of a summary (winners, streaks, who missed) before the rest are counted: a
    /// large group has thousands of members.
    static let summaryNames = 20

    /// Closes the day of every active group (of `platform`, when given) whose summary is due, queueing its summary
    /// in the outbox in the caller's transaction, and queues the nudges due (``Nudges``): each day is closed, and
    /// summed up, once. After downtime only the latest due day is summed up (older ones close silently), and a
    /// day nobody played closes without a post.
    ///
    /// Returns how many posts were queued.
    func closeDays(at now: Date, on platform: Platform? = nil, in store: any GameStoreTransaction)
        async throws -> Int
    {
        try await store.removeReplayGuards(before: core.earliestOpenPuzzle(at: now))
        var queued = 0
        for var group in try await store.activeGroups(on: platform) {
            let before = group
            queued += try await revealOverDays(of: &group, at: now, store: store)
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
                if group.summaryEnabled, let summary = try await summary(of: due, in: group, at: now, store: store) {
                    try await store.enqueue([post(summary.html, in: group)])
                    queued += 1
                    group.team = summary.team
                    if !summary.wordWaits { group.lastRevealedPuzzle = due }
                } else if try await daysHoldingTheWord(of: due, in: group, at: now, store: store).isEmpty {
                    try await revealSilently(due, in: &group, store: store)
                }
                group.lastClosedPuzzle = due
                group.lastClosedLanguage = group.language
                let settings = group.daySettings
                group.applyPending(closed: due)
                if let announcement = groupBoards.dayChangeAnnouncement(from: settings, to: group) {
                    try await store.enqueue([announcement])
                    queued += 1
                }
            }
            queued += try await Nudges(core: core).queue(of: &group, at: now, in: store)
            // A season that ends with a week (four weeks' always do) is summed up once: its post stands for the week's.
            let seasonPosts = try await seasonEnd.queue(of: &group, revealedAfter: before.lastRevealedPuzzle, in: store)
            queued += seasonPosts
            if seasonPosts == 0 {
                queued += try await weekEnd.queue(of: group, revealedAfter: before.lastRevealedPuzzle, in: store)
            }
            if group != before { try await store.save(group) }
        }
        return queued
    }

    /// Reveals the group's closed days whose word nobody holds any more, oldest first: a member at UTC−12 can be
    /// two days behind a group at UTC+14, so more than one day may be waiting. Each gets the post with its
    /// word and final standings (members west of the group finished after its summary). Returns the posts.
    private func revealOverDays(of group: inout Group, at now: Date, store: any GameStoreTransaction) async throws
        -> Int
    {
        var queued = 0
        while group.lastRevealedPuzzle < group.lastClosedPuzzle {
            let puzzle = group.lastRevealedPuzzle.next
            guard try await daysHoldingTheWord(of: puzzle, in: group, at: now, store: store).isEmpty else { break }
            let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
            let results = Leaderboards.inFinishingOrder(
                members.compactMap { member in member.result.map { (member.name, $0) } })
            let before = group.team.streak
            group.team.streak = try await groupStreaks.after(puzzle, members, official: nil, in: group, store: store)
            if group.summaryEnabled && configuration.platform.spoilers && !results.isEmpty {
                // In the language the day was played in, whatever the group has switched to since.
                let language = group.language(of: puzzle)
                let word = language.wordList.display(core.answer(for: puzzle, in: language))
                let highlights = try await analyses.highlights(
                    of: results, language: language, puzzle: puzzle, store: store)
                try await store.enqueue([
                    post(
                        language.texts.reveal(
                            DayReveal(
                                puzzle: puzzle, answer: word, highlights: highlights,
                                standings: Leaderboards.resultLines(results).map(\.line),
                                streaksBroken: streaksBrokenAfterSummary(of: puzzle, members, in: group),
                                groupStreak: GroupStreakNews(before: before, after: group.team.streak, day: puzzle))),
                        in: group)
                ])
                queued += 1
            }
            group.lastRevealedPuzzle = puzzle
        }
        return queued
    }

    /// Marks a closed day revealed with no post of its own (no summary, or a day closed during downtime), judging
    /// the group streak on it.
    private func revealSilently(_ puzzle: PuzzleNumber, in group: inout Group, store: any GameStoreTransaction)
        async throws
    {
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        group.team.streak = try await groupStreaks.after(puzzle, members, official: nil, in: group, store: store)
        group.lastRevealedPuzzle = puzzle
    }

    /// The streaks the summary could not name: lost after it was posted, or ended by a day of the puzzle that was
    /// still open then and is over now without a result (the word is revealed only once no such day is open).
    private func streaksBrokenAfterSummary(of puzzle: PuzzleNumber, _ members: [DayMember], in group: Group)
        -> Shortlist<(String, Int)>
    {
        let summarised = group.summaryTime(of: puzzle, schedule: configuration.schedule)
        var broken: [(String, Int)] = []
        for member in members {
            if let result = member.result {
                if result.guesses == nil && result.finishedAt > summarised && result.streakBefore >= 2 {
                    broken.append((member.name, result.streakBefore))
                }
            } else if member.joinedPuzzle <= puzzle && end(of: puzzle, on: member.day) > summarised
                && member.lastPuzzle?.rawValue == puzzle.rawValue - 1 && member.streak >= 2
            {
                broken.append((member.name, member.streak))
            }
        }
        return Shortlist(broken, count: Self.summaryNames, by: Self.longestFirst)
    }

    /// Streaks by length, then name.
    static func longestFirst(_ a: (String, Int), _ b: (String, Int)) -> Bool { a.1 != b.1 ? a.1 > b.1 : a.0 < b.0 }

    /// What the bot posts unprompted: once at most, whatever a crash does, and without a notification.
    private func post(_ html: String, in group: Group) -> OutgoingMessage {
        OutgoingMessage(
            chat: group.chat, chatKind: .group, html: html, thread: group.topic, atMostOnce: true, silent: true)
    }

    /// The days of the group's board members who hold back the word of `puzzle`: without a result for it on the
    /// board, and with their own day of it still open.
    private func daysHoldingTheWord(
        of puzzle: PuzzleNumber, in group: Group, at now: Date, store: any GameStoreTransaction
    ) async throws -> [MemberDay] {
        try await store.memberDays(in: group.chat, withoutResultFor: puzzle, orOfficial: officialPuzzle(of: puzzle))
            .filter { $0.isOpen(puzzle, at: now, schedule: configuration.schedule) }
    }

    /// The original game's puzzle of the same date: a member who pasted its result is done with the day.
    func officialPuzzle(of puzzle: PuzzleNumber) -> PuzzleNumber {
        configuration.schedule.officialPuzzle(sameDayAs: puzzle)
    }

    /// When a member's own day of `puzzle` ends: on the later of their zone and a pending one.
    private func end(of puzzle: PuzzleNumber, on day: MemberDay) -> Date {
        let next = configuration.schedule.day(of: puzzle).adding(days: 1)
        return [day.timeZone, day.pendingTimeZone].compactMap { $0 }.map { zone in
            configuration.schedule.start(of: next, rollover: Player.rollover(zone, day.rolloverHour))
        }.max() ?? .distantPast
    }

    /// Whether each member's own day of `puzzle` is still open: worked out once for each day.
    private func inTheirDay(of puzzle: PuzzleNumber, _ members: [DayMember], at now: Date) -> [Bool] {
        var open: [MemberDay: Bool] = [:]
        return members.map { member in
            if let known = open[member.day] { return known }
            let isOpen = member.day.isOpen(puzzle, at: now, schedule: configuration.schedule)
            open[member.day] = isOpen
            return isOpen
        }
    }

    /// The text of a closed day's summary, and whether the word waits for members still inside their own day of
    /// the puzzle (it is in the text only when none is; those without a result are still playing); nil when
    /// nobody on the board has a result for it.
    func summary(of puzzle: PuzzleNumber, in group: Group, at now: Date, store: any GameStoreTransaction)
        async throws -> (html: String, wordWaits: Bool, team: GroupTeam)?
    {
        // One read of the board for the day: a large group has thousands of members.
        let members = try await store.dayMembers(in: group.chat, board: .tessera, puzzle: puzzle)
        let results = Leaderboards.inFinishingOrder(
            members.compactMap { member in member.result.map { (member.name, $0) } })
        guard !results.isEmpty else { return nil }
        let list = group.language.wordList
        let answer = core.answer(for: puzzle, in: group.language)
        let grids = try await grids(of: results.prefix(Self.summaryGrids), puzzle: puzzle, store: store)
        // The original game's results pasted here for the same date: their own line, and their authors, whatever
        // else they did, are done with the day: they neither hold the word nor missed it.
        let officialPuzzle = officialPuzzle(of: puzzle)
        let official = Leaderboards.inFinishingOrder(
            try await store.results(in: group.chat, board: .official, puzzle: officialPuzzle))
        let pasted = Set(official.map(\.result.player))
        let absent = try await absentees(of: puzzle, members, pasted: pasted, in: group, at: now, store: store)
        let wordWaits = absent.waitsUntil != nil
        let standing = Self.winnersAndStreaks(results, brokenByAbsence: absent.streaksBroken)
        let word = word(list.display(answer), waitsUntil: absent.waitsUntil, in: group, at: now)
        // Only beside the word: scores say nothing of letters, but nobody reads them before the day is over.
        // So is the group streak: a member who may still play can still keep it going.
        var highlights: DayHighlights?
        var team = group.team
        if !wordWaits {
            team.streak = try await groupStreaks.after(puzzle, members, official: pasted, in: group, store: store)
        }
        if case .shown = word {
            highlights = try await analyses.highlights(
                of: results, language: group.language, puzzle: puzzle, store: store)
        }
        let html = group.language.texts.summary(
            DaySummary(
                puzzle: puzzle,
                dayEnded: now >= dayEnd(of: puzzle, in: group),
                word: word,
                highlights: highlights,
                winners: standing.winners,
                grids: grids,
                moreGrids: results.count - grids.count,
                streaksKept: standing.kept,
                streaksBroken: standing.broken,
                stillPlaying: Shortlist(absent.stillPlaying, count: Self.summaryNames, by: <),
                missed: Shortlist(absent.missed, count: Self.summaryNames, by: <),
                playedOtherLanguage: Shortlist(absent.playedOtherLanguage, count: Self.summaryNames) { $0.0 < $1.0 },
                officialPuzzle: officialPuzzle,
                official: Shortlist(
                    official.map { ($0.name, TextFormat.score($0.result)) }, count: Self.summaryNames,
                    by: { _, _ in false }),
                groupStreak: wordWaits
                    ? nil : GroupStreakNews(before: group.team.streak, after: team.streak, day: puzzle),
                otherPuzzles: try await otherPuzzles(of: puzzle, in: group, store: store)
            ))
        return (html, wordWaits, team)
    }

    /// The day's winners (everyone with the fewest guesses, in finishing order, like the grids), and the streaks
    /// it kept and broke, longest first: a loss breaks one, and so does a day missed (`brokenByAbsence`).
    private static func winnersAndStreaks(
        _ results: [(name: String, result: BoardResult)], brokenByAbsence: [(String, Int)]
    ) -> (winners: Shortlist<String>, kept: Shortlist<(String, Int)>, broken: Shortlist<(String, Int)>) {
        let best = results.compactMap(\.result.guesses).min()
        let winners = results.filter { best != nil && $0.result.guesses == best }.map(\.name)
        let kept = results.filter { $0.result.streakAfter >= 2 }.map { ($0.name, $0.result.streakAfter) }
        let broken =
            results.filter { $0.result.guesses == nil && $0.result.streakBefore >= 2 }
            .map { ($0.name, $0.result.streakBefore) } + brokenByAbsence
        return (
            Shortlist(winners, count: summaryNames, by: { _, _ in false }),
            Shortlist(kept, count: summaryNames, by: longestFirst),
            Shortlist(broken, count: summaryNames, by: longestFirst)
        )
    }

    /// The other puzzles of the day's date pasted in the group: each game's results, best first, as the group's
    /// language words them.
    private func otherPuzzles(of puzzle: PuzzleNumber, in group: Group, store: any GameStoreTransaction)
        async throws -> [(PuzzleShare.Game, Shortlist<(String, String)>)]
    {
        let date = configuration.schedule.day(of: puzzle)
        let texts = group.language.texts
        let first = try await store.firstResults(
            in: group.chat,
            of: PuzzleShare.Game.allCases.map { BoardDay(BoardKind($0), $0.schedule.puzzle(on: date)) },
            limit: Self.summaryNames)
        return PuzzleShare.Game.allCases.map { game in
            let day = first[BoardKind(game)] ?? FirstResults(results: [], count: 0)
            let scored = Leaderboards.inFinishingOrder(day.results).map {
                ($0.name, texts.otherPuzzleScore(game, measure: $0.result.guesses))
            }
            return (game, Shortlist(scored, more: day.count - scored.count))
        }
    }

    /// The grids of the day's first results, each drawn from its stored guesses. On the first day of a new
    /// language a game of the one before counts too: each grid in its own language.
    private func grids(
        of shown: ArraySlice<(name: String, result: BoardResult)>, puzzle: PuzzleNumber,
        store: any GameStoreTransaction
    ) async throws -> [DaySummary.Grid] {
        var guesses: [Language: [UserID: [String]]] = [:]
        for language in Set(shown.map(\.result.language)) {
            guesses[language] = try await store.guesses(
                of: shown.filter { $0.result.language == language }.map(\.result.player), language: language,
                puzzle: puzzle)
        }
        return shown.map { entry in
            let language = entry.result.language
            let list = language.wordList
            var game = Game(
                answer: core.answer(for: puzzle, in: language), wordList: list, hardMode: entry.result.hardMode)
            for guess in guesses[language]?[entry.result.player] ?? [] {
                if case .success(let word) = list.word(from: guess) { game.restore(word) }
            }
            let squares = game.rows.map { String($0.feedback.states.map(configuration.shareTheme.square(for:))) }
            return DaySummary.Grid(name: entry.name, score: TextFormat.score(entry.result), squares: squares)
        }
    }

    /// The word as the summary gives it: behind a spoiler, or when it follows, or not at all where a platform
    /// cannot hide it.
    private func word(_ word: String, waitsUntil: Date?, in group: Group, at now: Date) -> DaySummary.Word {
        if !configuration.platform.spoilers { return .notPosted }
        guard let waitsUntil else { return .shown(word) }
        return .later(until: LocalTime(waitsUntil, seenFrom: now, in: group.rollover.timeZone))
    }

    /// When the group's own day of a puzzle ends.
    private func dayEnd(of puzzle: PuzzleNumber, in group: Group) -> Date {
        configuration.schedule.start(of: configuration.schedule.day(of: puzzle.next), rollover: group.rollover)
    }

    /// A result as the summary writes it: `3/6`, `X/6`, with `*` for hard mode.
    /// Who on the board has no result for a closed day, and what that means for the summary.
    private struct Absentees {
        /// Their own day of the puzzle is open: they may still play, and the word waits for them.
        var stillPlaying: [String] = []
        var missed: [String] = []
        var playedOtherLanguage: [(String, Language)] = []
        /// The streaks the missed days broke.
        var streaksBroken: [(String, Int)] = []
        /// When the last day holding the word ends (``daysHoldingTheWord``); nil when none does.
        var waitsUntil: Date?
    }

    /// The members without a result for the day, in one pass over a board of thousands, keeping names, not
    /// members. A member who pasted the original game's result of the same date is done with the day: they
    /// neither hold the word nor missed it; one who played the puzzle in another language did not miss it.
    private func absentees(
        of puzzle: PuzzleNumber, _ members: [DayMember], pasted: Set<UserID>, in group: Group, at now: Date,
        store: any GameStoreTransaction
    ) async throws -> Absentees {
        var absent = Absentees()
        var dayOver: [DayMember] = []
        for (member, inTheirDay) in zip(members, inTheirDay(of: puzzle, members, at: now)) where member.result == nil {
            if inTheirDay {
                guard !pasted.contains(member.player) else { continue }
                absent.stillPlaying.append(member.name)
                absent.waitsUntil = max(absent.waitsUntil ?? .distantPast, end(of: puzzle, on: member.day))
            } else if member.joinedPuzzle <= puzzle {
                if member.lastPuzzle?.rawValue == puzzle.rawValue - 1 && member.streak >= 2 {
                    absent.streaksBroken.append((member.name, member.streak))
                }
                if !pasted.contains(member.player) { dayOver.append(member) }
            }
        }
        var elsewhere: [UserID: Language] = [:]
        if !dayOver.isEmpty {
            for other in Language.allCases where other != group.language {
                for player in try await store.members(in: group.chat, playing: other, puzzle: puzzle) {
                    elsewhere[player] = elsewhere[player] ?? other
                }
            }
        }
        for member in dayOver {
            if let other = elsewhere[member.player] {
                absent.playedOtherLanguage.append((member.name, other))
            } else {
                absent.missed.append(member.name)
            }
        }
        return absent
    }
}
