import Foundation
import TesseraCore
import TesseraPictures
import TesseraTestSupport
import Testing

/// Issue 58 through the real daemon and the fake Bot API: a family's day with pictures, from the first guess to
/// the day card with the summary.
@Suite("Pictures through the daemon", .serialized)
struct PicturesDaemonTests {
    static let environment = GroupDaemonTests.environment

    @Test(
        "A family's day: each finished game's result card in its player's chat, the group's pictures turned on by its administrator, then one day card with the summary, in finishing order and never a letter"
    )
    func familyDay() async throws {
        let fake = try await FakeTelegram.start()
        let directory = try TesseraProcess.temporaryDirectory()
        let clock = ClockFile(in: directory)
        try clock.set("2026-11-22T12:00:00Z")
        let running = try Daemon(
            fake: fake, database: directory.appendingPathComponent("tessera.sqlite").path, secret: DaemonTests.secret,
            environment: Self.environment.merging(clock.environment) { $1 })
        try running.start()
        let answer = try LiveBoardDaemonTests.answer(326)
        let misses = try LiveBoardDaemonTests.wrongWords(2, puzzle: 326)
        try await fake.setAdministrators(of: -1, [1])
        // Ben, in Madrid, plays the Spanish puzzle: his card and its caption are his language's.
        let spanish = Language.spanish.wordList
        let spanishAnswer = spanish.display(
            AnswerSchedule(wordList: spanish, secret: try #require(ScheduleSecret(DaemonTests.secret)))
                .answer(for: PuzzleNumber(326)))
        let spanishMiss = try #require(spanish.answers.lazy.map { spanish.display($0) }.first { $0 != spanishAnswer })
        let family: [(id: Int64, name: String, language: Language, answer: String, guesses: [String])] = [
            (1, "Ann", .english, answer, [answer]), (2, "Ben", .spanish, spanishAnswer, [spanishMiss, spanishAnswer]),
            (3, "Cleo", .english, answer, misses + [answer]),
        ]
        try await fake.push([FakeTelegram.message("/language es", from: 2, name: "Ben", messageID: 800)])
        try await fake.waitForSent { $0.contains { $0.replyTo == 800 } }
        var number: Int64 = 1
        for member in family {
            try await fake.push([
                FakeTelegram.message("/join", from: member.id, name: member.name, chat: -1, messageID: number)
            ])
            number += 1
        }
        // A member who is no administrator cannot turn them on; Ann can.
        try await fake.push([
            FakeTelegram.message("/settings pictures on", from: 2, name: "Ben", chat: -1, messageID: number),
            FakeTelegram.message("/settings pictures on", from: 1, name: "Ann", chat: -1, messageID: number + 1),
        ])
        let answers = try await fake.waitForSent { sent in
            sent.filter { $0.chat == -1 && $0.replyTo ?? 0 >= number }.count == 2
        }
        .filter { $0.chat == -1 && $0.replyTo ?? 0 >= number }
        #expect(answers.map(\.replyTo) == [number, number + 1])
        #expect(answers[0].text.contains("only this group's administrators"))
        #expect(answers[1].text.contains("Day card with the summary"))
        number += 2
        for member in family {
            for (index, word) in member.guesses.enumerated() {
                try await fake.push([
                    FakeTelegram.message(word.lowercased(), from: member.id, name: member.name, messageID: number)
                ])
                number += 1
                // One guess at a time, as a person plays: each waits for the board to show it.
                try await fake.waitForSent {
                    $0.contains { $0.chat == member.id && $0.text.contains("· \(index + 1)/6") }
                }
            }
            // The game over: its card, captioned with the share text, the one photo in the player's chat.
            let cards = try await fake.waitForSent { $0.contains { $0.chat == member.id && $0.photo != nil } }
                .filter { $0.chat == member.id && $0.photo != nil }
            #expect(cards.count == 1 && cards[0].text.hasPrefix("Tessera 326 \(member.guesses.count)/6"))
            #expect(cards[0].text.contains(" · Español") == (member.language == .spanish), "\(cards[0].text)")
        }
        try clock.set("2026-11-23T00:01:00Z")
        let summary = try await fake.waitForSent(timeout: .seconds(30)) {
            $0.contains { $0.chat == -1 && $0.text.contains("done with puzzle 326") }
        }.filter { $0.chat == -1 && $0.silent }
        #expect(summary.count == 1, "one post for the day: \(summary.map(\.text))")
        let post = try #require(summary.first)
        let photo = try #require(post.photo, "the day card goes with the summary")
        #expect(photo.uploaded && post.parseMode == "HTML")
        #expect(post.text.contains("1. Ann") && post.text.contains("2. Ben (Spanish)") && post.text.contains("3. Cleo"))
        #expect(post.text.split(separator: "\n").count <= 12, "a calm post: \(post.text)")
        #expect(post.text.range(of: "1. Ann")!.lowerBound < post.text.range(of: "3. Cleo")!.lowerBound)
        // The word only behind its spoiler, never in the picture's caption otherwise, nor in any group post.
        for sent in try await fake.sent() where sent.chat == -1 {
            let outsideSpoilers = [answer, spanishAnswer].reduce(sent.text) {
                $0.replacingOccurrences(of: "<tg-spoiler>\($1)</tg-spoiler>", with: "")
            }
            #expect(!outsideSpoilers.contains(answer) && !outsideSpoilers.contains(spanishAnswer))
        }
        // The card is each member's colours, Ben's from his Spanish game, Ann's crowned: the PNG the engine would
        // draw from the games as played.
        func rows(_ guesses: [String], _ language: Language, answer: String) throws -> [[LetterState]] {
            var game = Game(
                answer: try language.wordList.word(from: answer.lowercased()).get(), wordList: language.wordList,
                hardMode: false)
            return try guesses.map { try game.submit($0.lowercased()).get().feedback.states }
        }
        let expected = DayCard(
            title: "Tessera 326",
            boards: try family.map { member in
                DayCard.Board(
                    rows: try rows(member.guesses, member.language, answer: member.answer),
                    crowned: member.name == "Ann")
            }, maximumGuesses: 6, wordLength: 5, theme: .dark)
        #expect(try await fake.photo(photo.fileID) == Picture.dayCard(expected).draw().png)
        // Telegram refuses the next photo: Ann's /stats comes as its text, once, and is not tried again.
        try await fake.fail("sendPhoto", status: 400, extra: ["description": "Bad Request: IMAGE_PROCESS_FAILED"])
        try await fake.push([FakeTelegram.message("/stats", from: 1, name: "Ann", messageID: 900)])
        let stats = try await fake.waitForSent { $0.contains { $0.replyTo == 900 } }.filter { $0.replyTo == 900 }
        #expect(stats.count == 1 && stats[0].photo == nil && stats[0].text.hasPrefix("<b>Statistics</b>"))
        #expect(try await fake.stats()["calls.sendPhoto"] == 5, "three cards, the day card and the one refused")
        #expect(try await fake.undocumentedParameters() == [], "every parameter sent is documented")
        await running.stop()
        await fake.stop()
    }
}
