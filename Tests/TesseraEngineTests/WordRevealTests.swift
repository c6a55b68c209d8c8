import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("When a group sees the word", .onBothPaths)
struct WordRevealTests {
    /// The zone of a whole-hour offset from UTC, as the tz database names it (its sign is the other way round).
    static func zone(_ offset: Int) -> String {
        offset == 0 ? "UTC" : offset > 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"
    }

    /// Checks the days of a group every ten minutes: the daemon does every few seconds.
    static let interval = 600.0

    @Test(
        "Random groups from UTC−12 to UTC+14: the word never comes while someone who has not played still can, and comes one check after the last such member finished or their day ended",
        arguments: 0..<24 as Range<UInt64>)
    func randomGroups(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        var bot = try EngineHarness()
        let schedule = DailySchedule.tessera
        let day = CivilDate(year: 2026, month: 11, day: 24)!
        let puzzle = schedule.puzzle(on: day)
        let start = { (zone: String, day: CivilDate) in
            schedule.start(of: day, rollover: DayRollover.stored(zone, 0))
        }
        // Before the puzzle has started anywhere.
        bot.now = start("Etc/GMT-14", day) - 3600
        let groupZone = Self.zone(Int.random(in: -12...14, using: &random))
        try await bot.group(-1, timeZone: groupZone)
        struct Member {
            let id: Int64
            let zone: String
            /// When they finish the puzzle; nil: they do not play it.
            let finish: Date?
            let dayEnds: Date
        }
        var members: [Member] = []
        for id in 1...Int64.random(in: 2...5, using: &random) {
            let zone = Self.zone(Int.random(in: -12...14, using: &random))
            let (begins, ends) = (start(zone, day), start(zone, day.adding(days: 1)))
            let plays = id == 1 || Bool.random(using: &random)
            let finish =
                plays ? begins + Double.random(in: 0..<ends.timeIntervalSince(begins), using: &random).rounded() : nil
            members.append(Member(id: id, zone: zone, finish: finish, dayEnds: ends))
            try await bot.store.write {
                try await $0.save(
                    Player(
                        id: UserID(id), displayName: "P\(id)", language: .english, timeZone: zone, rolloverHour: 0))
            }
            try await bot.send("/join", from: id, name: "P\(id)", in: -1, group: true)
        }
        // The word may come once the group's day is over and nobody who has not played still can.
        let groupCloses = start(groupZone, day.adding(days: 1))
        let allowed = members.map { $0.finish ?? $0.dayEnds }.reduce(groupCloses, max)
        let word = "<spoiler>\(try bot.answer(puzzle: puzzle).uppercased())</spoiler>"
        let engine = bot.engine
        var pending = members.filter { $0.finish != nil }.sorted { $0.finish! < $1.finish! }
        var shown: Date?
        var check = bot.now
        while shown == nil && check < allowed + 2 * Self.interval {
            check += Self.interval
            while let next = pending.first, let finish = next.finish, finish <= check {
                pending.removeFirst()
                bot.now = finish
                try await bot.send(try bot.answer(puzzle: puzzle), from: next.id, name: "P\(next.id)")
            }
            let instant = check
            _ = try await bot.store.write { try await engine.closeDays(at: instant, in: $0) }
            let posts = try await bot.store.pendingMessages(limit: 100, now: instant)
            if posts.contains(where: { $0.message.chat == ChatID(-1) && $0.message.html.contains(word) }) {
                shown = instant
            }
        }
        let arrangement = members.map { "\($0.zone) \($0.finish.map { "\($0)" } ?? "-")" }
        let posted = try #require(shown, "group \(groupZone): \(arrangement)")
        #expect(posted >= allowed, "too early: group \(groupZone): \(arrangement)")
        #expect(posted < allowed + Self.interval, "too late: group \(groupZone): \(arrangement)")
    }
}
