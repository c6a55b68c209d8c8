import Foundation
import TesseraCoreTesting
import Testing

@testable import TesseraCore

@Suite("The daily schedule")
struct ScheduleTests {
    func instant(_ iso: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: iso), "bad test instant \(iso)")
    }

    func rollover(_ zone: String, hour: Int = 0) throws -> DayRollover {
        let timeZone = try #require(TimeZone(identifier: zone))
        return try #require(DayRollover(timeZone: timeZone, hour: hour))
    }

    @Test("SipHash-2-4 matches the reference test vectors")
    func sipHashVectors() {
        let key = SipHash(keyBytes: Array(0...15))
        #expect(key.hash([UInt8]()) == 0x726f_db47_dd0e_0e31)
        #expect(key.hash(Array(0...14)) == 0xa129_ca61_49be_45e5)
    }

    @Test("The original Wordle's numbers fall on their known days")
    func wordleNumbers() throws {
        let wordle = DailySchedule.wordle
        #expect(wordle.day(of: PuzzleNumber(0)) == CivilDate(year: 2021, month: 6, day: 19))
        #expect(wordle.day(of: PuzzleNumber(1_000)) == CivilDate(year: 2024, month: 3, day: 15))
        #expect(wordle.puzzle(at: try instant("2024-03-15T23:30:00Z"), rollover: .utc) == PuzzleNumber(1_000))
        #expect(
            wordle.puzzle(at: try instant("2024-03-15T23:30:00Z"), rollover: try rollover("Asia/Tokyo"))
                == PuzzleNumber(1_001))
    }

    @Test("Civil dates round-trip through day numbers, across leap years and centuries")
    func civilDates() throws {
        #expect(CivilDate(year: 1970, month: 1, day: 1)?.daysSinceUnixEpoch == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1)?.daysSinceUnixEpoch == 11_017)
        let (first, last) = (CivilDate.earliest.daysSinceUnixEpoch, CivilDate.latest.daysSinceUnixEpoch)
        #expect((first, last) == (-719_162, 2_932_896), "0001-01-01 and 9999-12-31")
        for days in stride(from: first, through: last, by: 997) {
            #expect(CivilDate(daysSinceUnixEpoch: days).daysSinceUnixEpoch == days)
        }
        // Past either end, a day number stops there: no date has a year of five digits, so none overflows.
        for days in [first - 1, -800_000, .min, last + 1, 10_000_000, .max] {
            #expect(CivilDate(daysSinceUnixEpoch: days) == (days < first ? .earliest : .latest))
        }
        #expect(CivilDate(year: 0, month: 12, day: 31) == nil)
        #expect(CivilDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(CivilDate("2024-02-29") != nil)
        #expect(CivilDate("2026-02-29") == nil)
        #expect(CivilDate("2026-13-01") == nil)
        #expect(CivilDate("2026-1-01") == nil)
        #expect(CivilDate("yesterday") == nil)
        #expect(CivilDate("2026-11-22")?.description == "2026-11-22")
    }

    @Test("Puzzle 1 is 2026-01-01, and numbers count whole days")
    func numbering() throws {
        let schedule = DailySchedule.tessera
        #expect(schedule.puzzle(on: try #require(CivilDate("2026-01-01"))) == PuzzleNumber(1))
        #expect(schedule.puzzle(on: try #require(CivilDate("2026-11-22"))) == PuzzleNumber(326))
        #expect(schedule.day(of: PuzzleNumber(326)).description == "2026-11-22")
        #expect(PuzzleNumber(1_234).grouped == "1,234")
        #expect(PuzzleNumber(1_234_567).grouped == "1,234,567")
        #expect(PuzzleNumber(999).grouped == "999")
    }

    @Test("The puzzle follows the player's own zone and rollover hour")
    func zonesAndRollover() throws {
        let schedule = DailySchedule.tessera
        let moment = try instant("2026-11-22T23:30:00Z")
        #expect(schedule.puzzle(at: moment, rollover: .utc) == PuzzleNumber(326))
        #expect(schedule.puzzle(at: moment, rollover: try rollover("Europe/Madrid")) == PuzzleNumber(327))
        #expect(schedule.puzzle(at: moment, rollover: try rollover("America/Los_Angeles")) == PuzzleNumber(326))
        #expect(schedule.puzzle(at: moment, rollover: try rollover("Asia/Kolkata")) == PuzzleNumber(327))
        // With the new puzzle at 06:00, 05:59 local is still the day before.
        let early = try rollover("Europe/Madrid", hour: 6)
        #expect(schedule.puzzle(at: try instant("2026-11-22T04:59:00Z"), rollover: early) == PuzzleNumber(325))
        #expect(schedule.puzzle(at: try instant("2026-11-22T05:00:00Z"), rollover: early) == PuzzleNumber(326))
        #expect(DayRollover(timeZone: .current, hour: 24) == nil)
    }

    @Test(
        "Across daylight-saving changes the puzzle changes exactly once a day, at the local rollover hour",
        arguments: [
            ("Europe/Madrid", 0, "2026-03-27T12:00:00Z"),  // spring forward on 29 March, 02:00 → 03:00
            ("Europe/Madrid", 2, "2026-03-27T12:00:00Z"),  // rollover at an hour that does not exist that day
            ("America/New_York", 1, "2026-10-30T12:00:00Z"),  // fall back on 1 November, 02:00 → 01:00
            ("Australia/Lord_Howe", 0, "2026-04-03T12:00:00Z"),  // a half-hour change
        ]
    )
    func daylightSaving(zone: String, hour: Int, start: String) throws {
        let rollover = try rollover(zone, hour: hour)
        let schedule = DailySchedule.tessera
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = rollover.timeZone
        var moment = try instant(start)
        var previous = schedule.puzzle(at: moment, rollover: rollover)
        var changes = 0
        // Every five minutes for five days.
        for _ in 0..<(5 * 24 * 12) {
            moment += 300
            let current = schedule.puzzle(at: moment, rollover: rollover)
            if current != previous {
                changes += 1
                #expect(current.rawValue == previous.rawValue + 1, "skipped or went back at \(moment)")
                let localHour = calendar.component(.hour, from: moment)
                // On a day the rollover hour does not exist, the change comes at the first hour after it.
                #expect(localHour == hour || (localHour > hour && localHour <= hour + 1), "changed at \(moment)")
                #expect(schedule.day(of: current) == schedule.day(at: moment, rollover: rollover))
            }
            previous = current
        }
        #expect(changes == 5)
    }

    @Test("The day's answer is the same for everyone, depends on the secret, and never repeats within a cycle")
    func answers() throws {
        let list = Language.english.wordList
        let secret = try #require(ScheduleSecret("correct horse battery staple"))
        let schedule = AnswerSchedule(answers: list.answers, secret: secret)
        let again = AnswerSchedule(
            answers: list.answers, secret: try #require(ScheduleSecret("correct horse battery staple")))
        let other = AnswerSchedule(answers: list.answers, secret: try #require(ScheduleSecret("another secret")))

        let cycle = list.answers.count
        let firstCycle = (1...cycle).map { schedule.answer(for: PuzzleNumber($0)) }
        #expect(Set(firstCycle).count == cycle, "an answer repeated before the list was used up")
        #expect(firstCycle == (1...cycle).map { again.answer(for: PuzzleNumber($0)) })
        let differing = (1...cycle).filter { other.answer(for: PuzzleNumber($0)) != firstCycle[$0 - 1] }.count
        #expect(differing > cycle * 9 / 10, "another secret should give an unrelated order")
        // The next cycle is a different order of the same words.
        let secondCycle = (cycle + 1...2 * cycle).map { schedule.answer(for: PuzzleNumber($0)) }
        #expect(Set(secondCycle) == Set(list.answers))
        #expect(secondCycle != firstCycle)
        // Not the list's own order, not alphabetical.
        #expect(firstCycle != list.answers)
        #expect(ScheduleSecret("") == nil)
    }

    @Test("A keyed permutation is a bijection for every domain size")
    func permutationIsBijection() {
        let key = SipHash(k0: 1, k1: 2)
        for count in [1, 2, 3, 4, 5, 17, 64, 100, 1_000, 2_309] {
            let permutation = KeyedPermutation(count: count, key: key, tweak: 9)
            #expect(Set((0..<count).map { permutation($0) }) == Set(0..<count), "domain \(count)")
        }
    }

    // MARK: - Answer editions

    /// Answers of the lists as they were before answer editions existed, for the secret below, computed with
    /// that code: puzzles before the new lists' first puzzle must keep them.
    static let answersBeforeEditions: [Language: [(Int, String)]] = [
        .english: [
            (-5, "feces"), (0, "samba"), (1, "scrap"), (2, "alien"), (100, "knave"), (326, "gonna"),
            (327, "grind"), (328, "splat"), (334, "expel"), (335, "diary"),
        ],
        .spanish: [
            (-5, "oruga"), (0, "hurra"), (1, "pasen"), (2, "aforo"), (100, "hacer"), (326, "fango"),
            (327, "finca"), (328, "quema"), (334, "debio"), (335, "colgo"),
        ],
    ]

    @Test("New word lists keep the answer of every puzzle before their first one", arguments: Language.allCases)
    func editionsKeepPastAnswers(language: Language) throws {
        let list = language.wordList
        let secret = try #require(ScheduleSecret("correct horse battery staple"))
        let schedule = AnswerSchedule(wordList: list, secret: secret)
        let latest = try #require(list.answerEditions.last)
        // Recorded after every zone's puzzle on the day the lists changed (2026-11-23, puzzle 328 in UTC+14).
        #expect(latest.firstPuzzle > PuzzleNumber(328))
        for (puzzle, word) in try #require(Self.answersBeforeEditions[language]) {
            #expect(list.letters(schedule.answer(for: PuzzleNumber(puzzle))) == word, "puzzle \(puzzle)")
        }
        // From its first puzzle on, the new edition answers: words of the new list only.
        let newWords = Set(latest.answers)
        let next = (0..<30).map { schedule.answer(for: PuzzleNumber(latest.firstPuzzle.rawValue + $0)) }
        #expect(next.allSatisfy(newWords.contains))
    }

    @Test("A new edition changes no earlier puzzle, and serves unused words before earlier answers")
    func editionOrder() throws {
        let list = Language.english.wordList
        let secret = try #require(ScheduleSecret("a test secret"))
        let old = AnswerEdition(firstPuzzle: PuzzleNumber(1), answers: Array(list.answers[0..<300]))
        // Half of the old words and 200 new ones, from puzzle 401: the old list has been through once already.
        let new = AnswerEdition(firstPuzzle: PuzzleNumber(401), answers: Array(list.answers[150..<500]))
        let before = AnswerSchedule(editions: [old], secret: secret)
        let after = AnswerSchedule(editions: [old, new], secret: secret)

        for puzzle in -400..<401 {
            #expect(after.answer(for: PuzzleNumber(puzzle)) == before.answer(for: PuzzleNumber(puzzle)))
        }
        // Puzzles 301 to 400 started the old list's second cycle: those words are used, and so is all of the
        // first cycle; only the 200 words the old list never had are unused.
        let used = Set((1..<401).map { before.answer(for: PuzzleNumber($0)) })
        let firstCycle = (401..<751).map { after.answer(for: PuzzleNumber($0)) }
        #expect(Set(firstCycle) == Set(new.answers), "the first cycle serves every word once")
        #expect(firstCycle.prefix(200).allSatisfy { !used.contains($0) }, "unused words come first")
        #expect(firstCycle.dropFirst(200).allSatisfy(used.contains))
        let secondCycle = (751..<1_101).map { after.answer(for: PuzzleNumber($0)) }
        #expect(Set(secondCycle) == Set(new.answers))
        #expect(secondCycle != firstCycle)
    }

    @Test("A game accepts its own answer even when the word list no longer has it")
    func answerIsAlwaysAGuess() throws {
        let full = Language.english.wordList
        let list = WordList(
            language: .english, alphabet: .english, answers: [full.testWord("crane")],
            otherGuesses: [full.testWord("slate")])
        var game = Game(answer: full.testWord("gonna"), wordList: list)
        #expect(game.submit("shout") == .failure(.notInWordList))
        #expect(try game.submit("slate").get().feedback.squares == "⬛⬛🟨⬛⬛")
        #expect(try game.submit("gonna").get().feedback.squares == "🟩🟩🟩🟩🟩")
        #expect(game.result == .won(guesses: 2))
    }
}
