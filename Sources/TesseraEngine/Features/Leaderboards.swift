import Foundation
import TesseraCore

/// `/leaderboard [official] [today|yesterday|week|month|season|all]` in a group: today's and yesterday's results,
/// and the standings of the week, the month, the group's season (on Tessera's board) and all time, on Tessera's
/// board or the official one.
struct Leaderboards: Feature {
    typealias Reads = any BoardReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let schedule: DailySchedule

    func leaderboard(_ argument: String, in turn: Turn) async throws -> Reply {
        guard let group = turn.group else { return turn.reply(turn.texts.leaderboardPrivate) }
        var words = argument.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        var board = BoardKind.tessera
        if let first = words.first, first == "official" || first == turn.texts.officialBoardName {
            board = .official
            words.removeFirst()
            if words.first == "wordle" { words.removeFirst() }
            if let name = words.first, let game = PuzzleDayBoards.game(named: name) {
                let yesterday = words.dropFirst().first
                guard
                    words.count == 1
                        || (words.count == 2
                            && (yesterday == "yesterday" || yesterday == turn.texts.periodNames[.yesterday]))
                else { return turn.reply(turn.texts.unknownPeriod(argument)) }
                return turn.reply(
                    try await PuzzleDayBoards().board(of: game, yesterday: words.count == 2, group: group, in: turn))
            }
        }
        let period: BoardPeriod
        if board == .tessera, words.count == 1, words[0] == "season" || words[0] == turn.texts.seasonBoardName {
            return turn.reply(try await seasonBoard(group, in: turn))
        } else if words.isEmpty {
            period = .today
        } else if words.count == 1,
            let named = BoardPeriod(rawValue: words[0])
                ?? turn.texts.periodNames.first(where: { $0.value == words[0] })?.key
        {
            period = named
        } else {
            return turn.reply(turn.texts.unknownPeriod(argument))
        }
        let today =
            board == .official
            ? group.officialPuzzle(at: turn.now) : group.puzzle(at: turn.now, schedule: schedule)
        // The group's day before: closed here, as every day is by the end of the next.
        let yesterday = PuzzleNumber(today.rawValue - 1)
        var layout: RichLayout
        switch period {
        case .today:
            layout = try await todayBoard(group, board: board, today: today, yesterday: nil, in: turn)
        case .yesterday:
            // Final once no result of it can count: its word is shown (the official board takes a paste a day
            // either side of its date, so its yesterday is never final).
            let final = board == .tessera && group.lastRevealedPuzzle >= yesterday
            layout = try await todayBoard(group, board: board, today: yesterday, yesterday: final, in: turn)
        default:
            layout = try await periodBoard(group, board: board, period: period, today: today, in: turn)
        }
        // The group's run of days together, under Tessera's boards: the team's, whoever asks.
        if board == .tessera, let streak = group.team.streak, streak.days >= 2 {
            layout.append("\n" + turn.texts.groupStreak(.going(days: streak.days)))
        }
        return turn.reply(layout)
    }

    /// Today: wins by fewest guesses, then earliest finish (or paste); then losses; then games still being
    /// played here.
    private func todayBoard(
        _ group: Group, board: BoardKind, today: PuzzleNumber, yesterday final: Bool?, in turn: Turn
    ) async throws -> RichLayout {
        let texts = turn.texts
        let maximum = Game.defaultMaximumGuesses
        let results = Ranking.inFinishingOrder(
            try await reads(turn).results(in: group.chat, board: board, puzzle: today))
        // Under the official board, the day's other puzzles of each member.
        let day =
            board == .official
            ? try await PuzzleDayBoards().dayLines(wordle: results, group: group, yesterday: final != nil, in: turn)
            : []
        let dayPart = "<b>\(texts.dayPuzzles(yesterday: final != nil))</b>\n" + day.joined(separator: "\n")
        if results.isEmpty && !day.isEmpty { return RichLayout([.text(dayPart)]) }
        let playing =
            board == .official
            ? []
            : try await unfinished(in: group, puzzle: today, store: reads(turn))
        guard !results.isEmpty || !playing.isEmpty else {
            return RichLayout([.text(texts.leaderboardEmpty(board, puzzle: today))])
        }
        var lines = BoardRows.resultLines(results, texts: texts, language: group.language(of: today))
        lines += playing.prefix(max(0, Ranking.boardLines + 1 - lines.count)).enumerated().map { index, entry in
            BoardRows.row(
                place: "\(results.count + index + 1).", name: entry.name,
                result: texts.stillPlaying(guesses: entry.guesses, maximumGuesses: maximum))
        }
        let total = results.count + playing.count
        var shortened = BoardRows.shorten(lines, total: total, texts: texts)
        // The member who asks always sees their own result, even below the cut.
        if total > Ranking.boardLines,
            let asker = results.firstIndex(where: { $0.result.player == turn.player.id }),
            asker >= Ranking.boardLines
        {
            let entry = results[asker]
            let place = Ranking.places(results.prefix(asker + 1).map(\.result.guesses))[asker]
            shortened.removeLast()
            if asker > Ranking.boardLines { shortened.append(.note(texts.more(asker - Ranking.boardLines))) }
            shortened.append(
                BoardRows.row(
                    place: Ranking.place(place, medal: false), name: entry.name,
                    result: texts.score(entry.result, besides: group.language(of: today))))
            if total - asker - 1 > 0 { shortened.append(.note(texts.more(total - asker - 1))) }
        }
        var layout = texts.leaderboardToday(board, puzzle: today, yesterday: final, lines: shortened)
        if !day.isEmpty { layout.append("\n" + dayPart) }
        return layout
    }

    /// A week, a month or all time, by the points rule of ``BoardResult/points``; all time by the shrunk
    /// average of ``AllTimeRanking``.
    private func periodBoard(
        _ group: Group, board: BoardKind, period: BoardPeriod, today: PuzzleNumber, in turn: Turn
    ) async throws -> RichLayout {
        let schedule = board.schedule(self.schedule)
        let (standings, today, ended) = try await periodStandings(
            group, board: board, period: period, today: today, in: turn)
        guard !standings.isEmpty else { return RichLayout([.text(turn.texts.leaderboardEmpty(board, puzzle: today))]) }
        let first = period.firstPuzzle(containing: today, schedule: schedule)
        // Days every member's day is over: the group's, and on the official board the day before the group's date.
        let over =
            board == .official
            ? PuzzleNumber(today.rawValue - (ended ? 0 : 1)) : min(group.lastRevealedPuzzle, today)
        let key = period.key(containing: today, schedule: schedule)
        let playedAfter = try await resultsAfter(over, group, board: board, from: first, in: turn) {
            period.key(containing: $0, schedule: schedule) == key
        }
        let lines = try await standingLines(
            standings, board: board, period: period, first: first, over: over, playedAfter: playedAfter,
            in: group, turn: turn)
        return turn.texts.leaderboardPeriod(
            board, period, since: period == .all ? nil : schedule.day(of: first), ended: ended, lines: lines)
    }

    /// The group's current season (``Season``), ranked as the month's board is, with its crowns.
    private func seasonBoard(_ group: Group, in turn: Turn) async throws -> RichLayout {
        let today = group.puzzle(at: turn.now, schedule: schedule)
        guard let season = Season(group.team.season, containing: today, schedule: schedule) else {
            return RichLayout([.text(turn.texts.seasonsOff)])
        }
        let standings = try await season.standings(in: group, schedule: schedule, store: reads(turn))
        guard !standings.isEmpty else {
            return RichLayout([.text(turn.texts.leaderboardEmpty(.tessera, puzzle: today))])
        }
        let over = min(group.lastRevealedPuzzle, today)
        let playedAfter = try await resultsAfter(over, group, board: .tessera, from: season.first, in: turn) {
            $0 <= season.last
        }
        let lines = try await standingLines(
            standings, board: .tessera, period: .month, first: season.first, over: over, playedAfter: playedAfter,
            in: group, turn: turn)
        let texts = turn.texts
        return texts.leaderboardSeason(
            texts.seasonName(season.length, first: schedule.day(of: season.first)),
            until: schedule.day(of: season.last), lines: lines)
    }

    /// A period's standings as lines, best first, the first ``Ranking/boardLines`` and the asker's: with crowns on
    /// Tessera's boards but all time's, and missed days but all time's.
    private func standingLines(
        _ standings: [Standing], board: BoardKind, period: BoardPeriod, first: PuzzleNumber, over: PuzzleNumber,
        playedAfter: [UserID: Int], in group: Group, turn: Turn
    ) async throws -> [RichLayout.Row] {
        let (order, keys) = Ranking.rank(standings, period: period, over: over, playedAfter: playedAfter)
        let shown = min(order.count, Ranking.boardLines)
        let asker = order.firstIndex { standings[$0].player == turn.player.id }
        // The days with the best result, of the days whose every result is in, on Tessera's week and month: read
        // only for the lines shown.
        let listed =
            (0..<shown).map { standings[order[$0]].player } + (asker.map { [standings[order[$0]].player] } ?? [])
        let crowns =
            board == .tessera && period != .all
            ? try await reads(turn).crowns(of: listed, in: group.chat, board: board, from: first, through: over)
            : [:]
        // Equal on everything the ranking compares but the name: the same place.
        let places = Ranking.places(order.map { keys[$0] })
        func line(_ index: Int) -> RichLayout.Row {
            let standing = standings[order[index]]
            return turn.texts.standingLine(
                place: Ranking.place(places[index], medal: standing.points > 0),
                name: standing.name,
                standing: standing,
                score: period == .all ? keys[order[index]].score : nil,
                streak: standing.currentStreak(over: over),
                crowns: crowns[standing.player] ?? 0,
                missed: period == .all || !standing.isMember
                    ? nil : standing.missedDays(from: first, over: over, playedAfter: playedAfter[standing.player] ?? 0)
            )
        }
        var lines = (0..<shown).map(line)
        var hidden = order.count - shown
        if let asker, asker >= shown {
            if asker > shown { lines.append(.note(turn.texts.more(asker - shown))) }
            lines.append(line(asker))
            hidden = order.count - asker - 1
        }
        if hidden > 0 { lines.append(.note(turn.texts.more(hidden))) }
        return lines
    }

    /// The period's standings of members who played its game, and the day the board is of: on Monday, until the
    /// new week has a result, the week that just ended (`ended`).
    private func periodStandings(
        _ group: Group, board: BoardKind, period: BoardPeriod, today: PuzzleNumber, in turn: Turn
    ) async throws -> (standings: [Standing], today: PuzzleNumber, ended: Bool) {
        let schedule = board.schedule(self.schedule)
        func standings(_ day: PuzzleNumber) async throws -> [Standing] {
            // A board lists who played its game in the period: a member who only pasted official results is not
            // on Tessera's, and one with no game is never ranked above one who played. Who left keeps the
            // periods they played in; the all-time board is its members'.
            try await reads(turn).standings(
                in: group.chat, board: board, period: period.key(containing: day, schedule: schedule)
            ).filter { $0.played > 0 && ($0.isMember || period != .all) }
        }
        var (today, read) = (today, try await standings(today))
        let ended = period == .week && read.isEmpty
        if ended {
            today = PuzzleNumber(period.firstPuzzle(containing: today, schedule: schedule).rawValue - 1)
            read = try await standings(today)
        }
        if board == .official {
            // Members joined on a day of the group's own board; their missed days count from that day.
            for index in read.indices {
                let day = self.schedule.day(of: read[index].joinedPuzzle)
                read[index].joinedPuzzle = schedule.puzzle(on: day)
            }
        }
        return (read, today, ended)
    }

    /// Each member's results of the period's days after `over`, which members may still be playing: neither over
    /// nor missed. A few days at most (a member at UTC+14 is two days ahead of one at UTC−12), each one read.
    private func resultsAfter(
        _ over: PuzzleNumber, _ group: Group, board: BoardKind, from first: PuzzleNumber, in turn: Turn,
        isInPeriod: (PuzzleNumber) -> Bool
    ) async throws -> [UserID: Int] {
        var playedAfter: [UserID: Int] = [:]
        let latest =
            board == .official ? group.officialPuzzle(at: turn.now).next : self.schedule.latestPuzzle(at: turn.now)
        for number in stride(from: max(over.rawValue, first.rawValue - 1) + 1, through: latest.rawValue, by: 1) {
            let puzzle = PuzzleNumber(number)
            guard isInPeriod(puzzle) else { break }
            for entry in try await reads(turn).results(in: group.chat, board: board, puzzle: puzzle) {
                playedAfter[entry.result.player, default: 0] += 1
            }
        }
        return playedAfter
    }

    /// The games still being played on a day's board, in every language that counts there, most guesses first.
    private func unfinished(in group: Group, puzzle: PuzzleNumber, store: Reads) async throws
        -> [(name: String, guesses: Int)]
    {
        var playing: [(name: String, guesses: Int)] = []
        for language in Language.allCases where group.counts(language, for: puzzle) {
            playing += try await store.unfinished(in: group.chat, language: language, puzzle: puzzle)
        }
        return playing.sorted { ($0.guesses, $1.name) > ($1.guesses, $0.name) }
    }
}
