import Foundation
import TesseraCore
import TesseraCoreTesting
import TesseraEngine
import TesseraTesting
import Testing

/// A seeded fuzz run over every parser a group member reaches (commands and their arguments, guesses, the pasted
/// results of Wordle, Tessera, Connections, Strands and the Mini, settings, names), through the engine as a
/// message arrives. A trap ends the test process, which fails the run; each message must also cost a bounded
/// number of short replies, and no group reply may show the word.
@Suite("Parser fuzzing: mutated pastes, commands and names never trap, cost little and spoil nothing", .onBothPaths)
struct ParserFuzzTests {
    /// Mutated messages a CI run reads after the corpus itself.
    static let mutations = 600
    /// Replies one message may cause, at most, and the longest one's plain text.
    static let mostReplies = 4
    static let longestReply = 4096

    /// Numbers that have broken parsers somewhere: signs, the ends of 32 and 64 bits, a year too long.
    static let numbers = [
        "0", "-1", "00", "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "30000000000000000", String(repeating: "9", count: 400), "٣", "1e9", "0x10",
    ]
    /// Pieces a mutation inserts: direction marks, controls, separators, spaces of other widths.
    static let pieces = [
        "\u{202E}", "\u{2066}", "\u{200F}", "\u{0}", "\u{1B}", "\n", ",", ".", "#", " ", "\u{A0}", "/",
    ]

    @Test("The corpus and its mutations, in a group and a direct chat")
    func fuzz() async throws {
        let bot = try EngineHarness()
        try await bot.group(-1)
        let answer = try bot.answer()
        let seeds = ParserFuzzCorpus.pastes + ParserFuzzCorpus.redTeams + ParserFuzzCorpus.typed
        var random = SplitMix64(seed: 54)
        var inputs = seeds.map { ($0, ParserFuzzCorpus.names[0]) }
        for _ in 0..<Self.mutations {
            let seed = seeds[Int(random.next() % UInt64(seeds.count))]
            let name = ParserFuzzCorpus.names[Int(random.next() % UInt64(ParserFuzzCorpus.names.count))]
            inputs.append((Self.mutate(seed, &random), name))
        }
        var slowest: (duration: Duration, text: String) = (.zero, "")
        for (index, (text, name)) in inputs.enumerated() {
            let inGroup = index % 3 != 2
            let started = ContinuousClock.now
            let replies = try await bot.send(
                text, from: Int64(index % 7 + 1), name: name, in: inGroup ? -1 : nil, group: inGroup,
                admin: index % 2 == 0)
            let duration = ContinuousClock.now - started
            if duration > slowest.duration { slowest = (duration, text) }
            #expect(
                replies.count <= Self.mostReplies,
                "input \(index) cost \(replies.count) replies: \(text.debugDescription)")
            for reply in replies {
                #expect(reply.plainText.utf16.count <= Self.longestReply, "input \(index): \(text.debugDescription)")
                try StrictHTML.check(reply.html, "input \(index): \(text.debugDescription)")
                guard reply.chatKind == .group, !text.lowercased().contains(answer) else { continue }
                #expect(
                    !reply.markup.plainText(spoiler: "").lowercased().contains(answer),
                    "input \(index) shows the word in a group: \(text.debugDescription)")
            }
        }
        print(
            "Parser fuzzing: \(inputs.count) inputs (\(seeds.count) seeds, \(Self.mutations) mutations, seed 54); "
                + "slowest \(slowest.duration): \(String(slowest.text.prefix(60)).debugDescription)")
    }

    @Test("Every pasted date and number the red teams sent reads as no day anyone plays, or a day near today")
    func pastedDays() {
        for text in ParserFuzzCorpus.redTeams {
            if let share = PuzzleShare(parsing: text), case .dated(let date) = share.day {
                #expect(CivilDate.years.contains(date.year), "\(text.debugDescription) read as \(date)")
            }
        }
        #expect(
            PuzzleShare(
                parsing: "I solved the January 1, 30000000000000000 New York Times Mini Crossword in 0:22!") == nil)
        #expect(CivilDate(year: 30_000_000_000_000_000, month: 1, day: 1) == nil)
        #expect(CivilDate.latest.adding(days: .max) == .latest)
        #expect(CivilDate.earliest.adding(days: .min) == .earliest)
        #expect(DailySchedule.tessera.day(of: PuzzleNumber(.max)) == .latest)
        #expect(PuzzleNumber(.max).next.rawValue == PuzzleNumber.range.upperBound)
        #expect(PuzzleNumber(.min).rawValue == PuzzleNumber.range.lowerBound)
    }

    /// One to three mutations of a seed: a number swapped for an extreme one, a piece inserted, a line doubled or
    /// dropped, the text cut short.
    static func mutate(_ seed: String, _ random: inout SplitMix64) -> String {
        var text = seed
        for _ in 0...(random.next() % 3) {
            switch random.next() % 5 {
            case 0:
                let runs = text.ranges(of: /[0-9]+/)
                guard !runs.isEmpty else { continue }
                let run = runs[Int(random.next() % UInt64(runs.count))]
                text.replaceSubrange(run, with: numbers[Int(random.next() % UInt64(numbers.count))])
            case 1:
                let offset = Int(random.next() % UInt64(text.count + 1))
                text.insert(
                    contentsOf: pieces[Int(random.next() % UInt64(pieces.count))],
                    at: text.index(text.startIndex, offsetBy: offset))
            case 2:
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let line = Int(random.next() % UInt64(lines.count))
                if random.next() % 2 == 0 { lines.insert(lines[line], at: line) } else { lines.remove(at: line) }
                text = lines.joined(separator: "\n")
            case 3:
                text = String(text.prefix(Int(random.next() % UInt64(text.count + 1))))
            default:
                let months = ["january", "February", "Smarch", "december", "", "13"]
                text = text.replacing("January", with: months[Int(random.next() % UInt64(months.count))])
            }
        }
        return text
    }
}
