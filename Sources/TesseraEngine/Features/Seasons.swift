import Foundation
import TesseraCore

/// One season of a group's board: the days from its first puzzle to its last.
struct Season: Hashable {
    let length: SeasonLength
    let first: PuzzleNumber
    let last: PuzzleNumber

    /// The season containing `puzzle`; nil when seasons are off.
    init?(_ length: SeasonLength, containing puzzle: PuzzleNumber, schedule: DailySchedule) {
        switch length {
        case .off:
            return nil
        case .month:
            first = BoardPeriod.month.firstPuzzle(containing: puzzle, schedule: schedule)
            // A month has at most 31 days: 31 days on is in the next one.
            let next = BoardPeriod.month.firstPuzzle(containing: PuzzleNumber(first.rawValue + 31), schedule: schedule)
            last = PuzzleNumber(next.rawValue - 1)
        case .fourWeeks:
            // Day 4 since the epoch was a Monday.
            let since = schedule.day(of: puzzle).daysSinceUnixEpoch - 4
            first = PuzzleNumber(puzzle.rawValue - ((since % 28) + 28) % 28)
            last = PuzzleNumber(first.rawValue + 27)
        }
        self.length = length
    }

    func previous(schedule: DailySchedule) -> Season? {
        Season(length, containing: PuzzleNumber(first.rawValue - 1), schedule: schedule)
    }

    /// The stored totals that make up the season: its month's, or its four weeks'.
    func keys(schedule: DailySchedule) -> [PeriodKey] {
        switch length {
        case .month:
            [BoardPeriod.month.key(containing: first, schedule: schedule)]
        case .fourWeeks, .off:
            stride(from: first.rawValue, through: last.rawValue, by: 7).map {
                BoardPeriod.week.key(containing: PuzzleNumber($0), schedule: schedule)
            }
        }
    }

    /// The season's standings on Tessera's board of members who played in it: its weeks' totals summed, the
    /// streak as of the latest.
    func standings(in group: Group, schedule: DailySchedule, store: any BoardReads) async throws
        -> [Standing]
    {
        var merged: [UserID: Standing] = [:]
        var order: [UserID] = []
        for key in keys(schedule: schedule) {
            for standing in try await store.standings(in: group.chat, board: .tessera, period: key)
            where standing.played > 0 {
                guard var sum = merged[standing.player] else {
                    merged[standing.player] = standing
                    order.append(standing.player)
                    continue
                }
                sum.points += standing.points
                sum.played += standing.played
                sum.wins += standing.wins
                sum.winningGuesses += standing.winningGuesses
                (sum.streak, sum.lastPuzzle) = (standing.streak, standing.lastPuzzle)
                merged[standing.player] = sum
            }
        }
        return order.compactMap { merged[$0] }
    }
}

/// The end of a group's season: once the word of its last day is out, one post with the champion and podium,
/// the most improved player, the best streak and the most skilful player; where the platform has member tags,
/// the champion wears one until the next season ends (``PlatformTraits/memberTags``). A season played on one
/// day only has had its summary: no post.
struct SeasonEnd: Feature {
    typealias Reads = any BoardReads & AnalysisReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var schedule: DailySchedule { core.configuration.schedule }

    /// Games a member needs in a season, and in the one before, to be the most improved; analysed games to be the
    /// most skilful.
    static let minimumGames = 3
    /// The members whose analyses are read for the most skilful, at most: those who played the most days. A
    /// season's end reads at most 31 days' analyses of that many.
    static let skilfulCandidates = Ranking.namesShown
    /// Champions tagged at most, when several share first place.
    static let taggedChampions = 3

    /// The post of the season that ended among the days the group has just revealed (after downtime, older
    /// seasons pass silently), with the champion's member tag, keeping who wears it in the group's team; none
    /// when no season ended.
    func posts(of group: inout Group, revealedAfter before: PuzzleNumber, in store: Reads)
        async throws -> [OutgoingMessage]
    {
        guard group.summaryEnabled, group.lastRevealedPuzzle > before,
            let latest = Season(group.team.season, containing: group.lastRevealedPuzzle, schedule: schedule)
        else { return [] }
        let ended: Season
        if latest.last == group.lastRevealedPuzzle {
            ended = latest
        } else if let previous = latest.previous(schedule: schedule), previous.last > before {
            ended = previous
        } else {
            return []
        }
        guard let summary = try await summary(of: ended, in: group, store: store) else { return [] }
        let texts = group.language.texts
        var messages = [
            OutgoingMessage(
                chat: group.chat, chatKind: .group, layout: texts.seasonOver(summary), thread: group.topic,
                atMostOnce: true, silent: true)
        ]
        messages += crown(Array(summary.champions.prefix(Self.taggedChampions)), in: &group)
        return messages
    }

    /// The tags that make `champions` the ones wearing the champion's tag, where the platform has tags: the
    /// last season's champions who are not again lose theirs. None hands every tag back (seasons turned off).
    func crown(_ champions: [UserID], in group: inout Group) -> [OutgoingMessage] {
        guard core.configuration.platform.memberTags else { return [] }
        func tag(_ player: UserID, _ tag: String) -> OutgoingMessage {
            OutgoingMessage(
                chat: group.chat, chatKind: .group, html: "", atMostOnce: true, action: .tagMember(player, tag: tag))
        }
        let untagged = group.team.champions.filter { !champions.contains($0) }.map { tag($0, "") }
        let tagged = champions.filter { !group.team.champions.contains($0) }.map {
            tag($0, group.language.texts.championTag)
        }
        group.team.champions = champions
        return untagged + tagged
    }

    /// The season as its post sums it up; nil when nobody played more than one day of it.
    func summary(of season: Season, in group: Group, store: Reads) async throws -> SeasonSummary? {
        let standings = try await season.standings(in: group, schedule: schedule, store: store)
        guard standings.contains(where: { $0.played >= 2 }) else { return nil }
        let (order, keys) = Ranking.rank(standings, period: .month, over: season.last, playedAfter: [:])
        let places = Ranking.places(order.map { keys[$0] })
        let records = try await store.records(in: group.chat, board: .tessera, from: season.first, through: season.last)
        // Ties share a place: forty members level on points are one place, and as many names as any list shows.
        let podium = Shortlist(
            order.indices.prefix { places[$0] < 3 }.map { index in
                let standing = standings[order[index]]
                return SeasonSummary.Place(
                    place: places[index], name: standing.name, points: standing.points,
                    crowns: records[standing.player]?.crowns ?? 0)
            }, count: Ranking.namesShown, by: { _, _ in false })
        let champions = order.indices.prefix { places[$0] == 0 && standings[order[$0]].points > 0 }
            .map { standings[order[$0]].player }
        let names = Dictionary(standings.map { ($0.player, $0.name) }, uniquingKeysWith: { first, _ in first })
        let longest = records.values.map(\.bestStreak).max() ?? 0
        let streak =
            longest >= 2
            ? (
                names: Shortlist(
                    records.filter { $0.value.bestStreak == longest }.compactMap { names[$0.key] },
                    count: Ranking.namesShown, by: <),
                streak: longest
            ) : nil
        return SeasonSummary(
            length: season.length, firstDay: schedule.day(of: season.first), podium: podium, champions: champions,
            mostImproved: try await mostImproved(standings, since: season, in: group, store: store),
            bestStreak: streak,
            mostSkilful: try await mostSkilful(standings, in: season, group: group, store: store))
    }

    /// The member whose average a game (a loss counting as 7 guesses) fell the most since the season before,
    /// among those with ``minimumGames`` in both.
    private func mostImproved(
        _ standings: [Standing], since season: Season, in group: Group, store: Reads
    ) async throws -> SeasonSummary.Improvement? {
        guard let previous = season.previous(schedule: schedule) else { return nil }
        let before = Dictionary(
            try await previous.standings(in: group, schedule: schedule, store: store).map { ($0.player, $0) },
            uniquingKeysWith: { first, _ in first })
        func average(_ standing: Standing) -> Double {
            Double(standing.winningGuesses + 7 * (standing.played - standing.wins)) / Double(standing.played)
        }
        var best: SeasonSummary.Improvement?
        for standing in standings.sorted(by: { $0.name < $1.name }) where standing.played >= Self.minimumGames {
            guard let earlier = before[standing.player], earlier.played >= Self.minimumGames else { continue }
            let (from, to) = (average(earlier), average(standing))
            if from - to > 0, from - to > (best.map { $0.from - $0.to } ?? 0) {
                best = SeasonSummary.Improvement(name: standing.name, from: from, to: to)
            }
        }
        return best
    }

    /// The member with the best average skill over their analysed games of the season, of those with
    /// ``minimumGames`` analysed; only the ``skilfulCandidates`` who played the most days are read.
    private func mostSkilful(
        _ standings: [Standing], in season: Season, group: Group, store: Reads
    ) async throws -> SeasonSummary.Skill? {
        let candidates = standings.sorted { ($0.played, $1.name) > ($1.played, $0.name) }
            .prefix(Self.skilfulCandidates).filter { $0.played >= Self.minimumGames }
        guard !candidates.isEmpty else { return nil }
        var skills: [UserID: [Int]] = [:]
        for day in season.first.rawValue...season.last.rawValue {
            let puzzle = PuzzleNumber(day)
            let analyses = try await store.analyses(
                of: candidates.map(\.player), language: group.language(of: puzzle), puzzle: puzzle)
            for (player, json) in analyses {
                if let report = core.decoded(json, player: player) { skills[player, default: []].append(report.skill) }
            }
        }
        var best: SeasonSummary.Skill?
        for candidate in candidates {
            guard let scores = skills[candidate.player], scores.count >= Self.minimumGames else { continue }
            let skill = Int(bounded: (Double(scores.reduce(0, +)) / Double(scores.count)).rounded())
            if skill > best?.skill ?? -1 {
                best = SeasonSummary.Skill(name: candidate.name, skill: skill, games: scores.count)
            }
        }
        return best
    }
}
