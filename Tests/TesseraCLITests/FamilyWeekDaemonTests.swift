import Foundation
import TesseraCore
import TesseraTestSupport
import Testing

/// A family's whole week in one group, through the real daemon, the fake Bot API and the clock file (issue 39):
/// Lucía in Madrid, who administers the group and switches it to Spanish mid-week; Ben in New York, in hard mode;
/// Dai, the grandfather in Tokyo; and Pat, who only pastes the original game's results.
///
/// With `TESSERA_TRANSCRIPTS` set to a directory, the group's posts of the week are written to `week.txt` there, as
/// the family read them, with the finish-to-word times.
@Suite("A family's week in one group, through the daemon", .serialized)
struct FamilyWeekDaemonTests {
    enum Member: Int64, CaseIterable, FamilyMember {
        case lucía = 1
        case ben, dai, pat

        var name: String { "\(self)".capitalized }
        var appLanguage: String { self == .lucía ? "es" : "en" }
    }

    /// `misses` allowed wrong words for a game of `puzzle`, each one playable in hard mode after the ones before.
    static func misses(_ count: Int, _ language: Language, _ puzzle: Int) throws -> [String] {
        let list = language.wordList
        let secret = try #require(ScheduleSecret(DaemonTests.secret))
        let answer = AnswerSchedule(wordList: list, secret: secret).answer(for: PuzzleNumber(puzzle))
        var game = Game(answer: answer, wordList: list, hardMode: true)
        var words: [String] = []
        for candidate in list.answers where words.count < count && candidate != answer {
            var trial = game
            if case .success = trial.submit(candidate) {
                game = trial
                words.append(list.letters(candidate))
            }
        }
        try #require(words.count == count)
        return words
    }

    static func win(_ language: Language, _ puzzle: Int, misses: Int) throws -> [String] {
        try Self.misses(misses, language, puzzle) + [FamilyGroupDaemonTests.answer(language, puzzle)]
    }

    @Test("Monday to Monday: the word when everyone is done, pastes counted, changes announced, boards that hold still")
    func week() async throws {
        // Sunday, 18:00 in Madrid: puzzle 326
        let family = try await FamilyChat<Member>(at: "2026-11-22T17:00:00Z", administrator: .lucía)
        let fake = family.fake
        /// Sends a message in a direct chat and waits for the bot's next message there.
        func exchange(_ text: String, from member: Member) async throws -> String {
            let before = try await fake.sent().filter { $0.chat == member.rawValue }.count
            try await family.send(text, from: member)
            let sent = try await fake.waitForSent { $0.filter { $0.chat == member.rawValue }.count > before }
            return sent.filter { $0.chat == member.rawValue }[before].text
        }
        var waits: [String] = []

        // SUNDAY 22, puzzle 326. Lucía adds the bot and sets the group to Madrid: it applies at once, and is said.
        try await fake.push([FakeTelegram.added(to: -1, by: Member.lucía.rawValue, name: "Lucía", languageCode: "es")])
        _ = try await family.post(containing: "👋")
        let zone = try await family.reply(to: "/settings timezone Europe/Madrid", from: .lucía, inGroup: true)
        #expect(zone.text == "✅ Day: Europe/Madrid, new puzzle at 00:00", "\(zone.text)")
        let moved = try await family.post(containing: "📣")
        #expect(moved.text.hasPrefix("📣 From puzzle 326, its day follows <b>Europe/Madrid</b>"), "\(moved.text)")
        #expect(moved.links.contains { $0.hasSuffix("start=play-en") }, "a button to the puzzle: \(moved.links)")
        // Item 4: Lucía, first met in the group, follows it to Madrid; her first private reply says so.
        let luciaFirst = try await family.reply(to: "/start", from: .lucía).text
        #expect(luciaFirst.contains("🕰️ Tu día sigue <b>Europe/Madrid</b>"), "\(luciaFirst)")
        // Ben first writes privately: he is told his day is UTC's and how to change it.
        let benFirst = try await family.reply(to: "/start", from: .ben).text
        #expect(benFirst.contains("🕰️ Your day follows <b>UTC</b>") && benFirst.contains("/timezone"), "\(benFirst)")
        #expect(try await family.reply(to: "/timezone America/New_York", from: .ben).text.contains("327"))
        _ = try await family.reply(to: "/hard on", from: .ben)
        for member in [Member.ben, .dai] { try await family.send("/join", from: member, inGroup: true) }
        try await family.send("/join", from: .lucía, inGroup: true)
        #expect(try await family.reply(to: "/timezone Asia/Tokyo", from: .dai).text.contains("327"))
        try await family.play(try Self.win(.english, 326, misses: 2), as: .dai, puzzle: 326)
        try await family.play(try Self.win(.english, 326, misses: 2), as: .ben, puzzle: 326)
        try await family.at("2026-11-22T23:00:30Z", "Sunday ends in Madrid")
        _ = try await family.post(containing: "Everyone here is done with puzzle 326.")

        // MONDAY 23, puzzle 327.
        try await family.at("2026-11-23T09:00:00Z", "Monday 10:00 in Madrid")
        let switchedLuciaEN = try await family.reply(to: "/start play-en", from: .lucía).text
        #expect(switchedLuciaEN.contains("<b>inglés</b>"), "\(switchedLuciaEN)")
        try await family.play(try Self.win(.english, 327, misses: 3), as: .lucía, puzzle: 327)
        try await family.play(try Self.win(.english, 327, misses: 4), as: .dai, puzzle: 327)
        try await family.send("Wordle 1,983 3/6", from: .pat, inGroup: true)
        try await fake.waitForStats { $0["setMessageReaction"] ?? 0 >= 4 }
        // Item 1: everyone but Ben is done; the summary names him and until when, in Madrid's time.
        try await family.at("2026-11-23T23:00:30Z", "Monday ends in Madrid")
        let monday = try await family.post(containing: "Puzzle 327 so far").text
        #expect(monday.contains("🔒 The word follows when Ben has played, or at 06:00."), "\(monday)")
        // Item 2: Pat's paste has its line; she did not miss the day.
        #expect(monday.contains("📋 Wordle 1,983, pasted: Pat 3/6") && !monday.contains("Missed"), "\(monday)")
        try await family.at("2026-11-24T01:00:00Z", "Monday 20:00 in New York")
        let benFinished = try await family.play(try Self.win(.english, 327, misses: 2), as: .ben, puzzle: 327)
        let reveal = try await family.post(containing: "Everyone here is done with puzzle 327.")
        #expect(
            reveal.text.contains("\n👑 3/6*: Ben\n4/6: Lucía\n5/6: Dai\n"), "the crown once he is done: \(reveal.text)")
        waits.append(
            "Madrid group, New York last (01:00 UTC): "
                + String(format: "%.1f s", reveal.time - benFinished.timeIntervalSince1970))

        // TUESDAY 24, puzzle 328. Dai plays first; then Lucía switches the group to Spanish: it waits a day.
        try await family.at("2026-11-24T08:00:00Z", "Tuesday 17:00 in Tokyo")
        try await family.play(try Self.win(.english, 328, misses: 3), as: .dai, puzzle: 328)
        let switched = try await family.reply(to: "/settings language es", from: .lucía, inGroup: true).text
        #expect(switched.contains("From puzzle 329"), "\(switched)")
        try await family.send("Wordle 1,984 X/6", from: .pat, inGroup: true)
        try await family.at("2026-11-24T23:00:30Z", "Tuesday ends in Madrid")
        let tuesday = try await family.post(containing: "Puzzle 328 so far").text
        #expect(!tuesday.contains("Missed") && tuesday.contains("pasted: Pat X/6"), "\(tuesday)")
        // Item 3: the switch is announced in both languages, with a button to the Spanish puzzle.
        let spanish = try await family.post(containing: "📣 Desde el reto 329")
        #expect(
            spanish.text.contains(
                "📣 From puzzle 329, this group's posts are in <b>Spanish</b>, and everyone still plays in their own"))
        #expect(spanish.links.contains { $0.hasSuffix("start=play-es") }, "\(spanish.links)")
        // Ben loses in hard mode after the summary: the reveal says his streak ended (item 6).
        try await family.at("2026-11-25T02:00:00Z", "Tuesday 21:00 in New York")
        try await family.play(try Self.misses(6, .english, 328), as: .ben, puzzle: 328)
        let lost = try await family.post(containing: "Everyone here is done with puzzle 328.").text
        #expect(lost.contains("💔 Streaks broken: Ben (2)") && lost.contains("😴 Missed: Lucía\n"), "\(lost)")

        // WEDNESDAY 25, puzzle 329: the first Spanish day. Dai plays English, as every day: it still counts.
        try await family.at("2026-11-25T10:00:00Z", "Wednesday 19:00 in Tokyo")
        try await family.play(try Self.win(.english, 329, misses: 2), as: .dai, puzzle: 329)
        let switchedLuciaES = try await family.reply(to: "/start play-es", from: .lucía).text
        #expect(switchedLuciaES.contains("<b>español</b>"), "\(switchedLuciaES)")
        try await family.play(try Self.win(.spanish, 329, misses: 2), as: .lucía, puzzle: 329)
        // Item 8: her Spanish share is marked, so it is not mistaken for an English one.
        let share = try await family.reply(to: "/share", from: .lucía, inGroup: true).text
        #expect(share.hasPrefix("Tessera 329 3/6 · Español\n"), "\(share)")
        try await family.send("Wordle 1,985 2/6", from: .pat, inGroup: true)
        try await family.at("2026-11-25T22:00:00Z", "Wednesday 17:00 in New York")
        let switchedBenES = try await family.reply(to: "/start play-es", from: .ben).text
        #expect(switchedBenES.contains("<b>Spanish</b>"), "\(switchedBenES)")
        try await family.play(try Self.win(.spanish, 329, misses: 1), as: .ben, puzzle: 329)
        try await family.at("2026-11-25T23:00:30Z", "Wednesday ends in Madrid")
        let wednesday = try await family.post(containing: "Todos aquí han terminado el reto 329.").text
        #expect(wednesday.contains("La palabra era <tg-spoiler>"), "everyone is done: \(wednesday)")
        #expect(wednesday.contains("; en inglés, <tg-spoiler>"), "Dai's English word too: \(wednesday)")
        #expect(wednesday.contains("Dai (inglés)") && !wednesday.contains("Rachas rotas"), "\(wednesday)")
        #expect(wednesday.contains("Rachas en marcha: Dai (4)"), "\(wednesday)")

        // THURSDAY 26, puzzle 330. Item 5: the summary at 21:00 sums up Thursday on Thursday.
        try await family.at("2026-11-26T08:00:00Z", "Thursday 09:00 in Madrid")
        let evening = try await family.reply(to: "/settings summary 21", from: .lucía, inGroup: true).text
        #expect(
            evening.contains(
                "Resumen diario: a las 21:00 · el próximo: el reto del jueves, el jueves 26 de noviembre a las 21:00"),
            "\(evening)")
        let switchedDaiES = try await family.reply(to: "/start play-es", from: .dai).text
        #expect(switchedDaiES.contains("<b>Spanish</b>"), "\(switchedDaiES)")
        try await family.play(try Self.win(.spanish, 330, misses: 3), as: .dai, puzzle: 330)
        try await family.play(try Self.win(.spanish, 330, misses: 2), as: .lucía, puzzle: 330)
        try await family.send("Wordle 1,986 4/6", from: .pat, inGroup: true)
        try await family.at("2026-11-26T20:00:30Z", "Thursday 21:00 in Madrid")
        let thursday = try await family.post(containing: "El reto 330, por ahora").text
        #expect(thursday.contains("🔒 La palabra llegará cuando haya jugado Ben, o mañana a las 06:00."), "\(thursday)")
        try await family.at("2026-11-26T22:30:00Z", "Thursday 23:30 in Madrid")
        let yesterdayThursday = try await family.reply(to: "/leaderboard ayer", from: .lucía, inGroup: true).text
        #expect(
            yesterdayThursday.hasPrefix("Clasificación · reto 329 · ayer · definitiva\n"), "\(yesterdayThursday)")
        let benThursday = try await family.play(try Self.win(.spanish, 330, misses: 1), as: .ben, puzzle: 330)
        let thursdayWord = try await family.post(containing: "Todos aquí han terminado el reto 330.")
        waits.append(
            "Summary at 21:00 Madrid, New York last (22:30 UTC): "
                + String(format: "%.1f s", thursdayWord.time - benThursday.timeIntervalSince1970))

        // FRIDAY 27, puzzle 331: Dai does not play. Lucía gives up two practice games, one without a guess. She
        // asks for the nudge; Pat pastes her Connections too.
        try await family.at("2026-11-27T12:00:00Z", "Friday 13:00 in Madrid")
        let nudgeOn = try await family.reply(to: "/settings nudge on", from: .lucía, inGroup: true).text
        #expect(nudgeOn == "✅ Aviso 3 horas antes de que acabe el día de cada miembro: activado", "\(nudgeOn)")
        // 21:00 in Tokyo: Dai's own day ends in three hours, and he has not played (he never does today).
        let nudge = try await family.post(containing: "Aún por jugar")
        #expect(nudge.text == "⏳ Aún por jugar hoy: Dai", "his day, not the group's: \(nudge.text)")
        try await family.play(try Self.win(.spanish, 331, misses: 1), as: .lucía, puzzle: 331)
        try await family.send("Wordle 1,987 5/6", from: .pat, inGroup: true)
        let connections = DailySchedule.connections.puzzle(on: CivilDate(year: 2026, month: 11, day: 27)!)
        try await family.send(
            "Connections\nPuzzle #\(connections.grouped)\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪", from: .pat,
            inGroup: true)
        _ = try await exchange("/practice", from: .lucía)
        try await family.send(try Self.misses(1, .spanish, 1)[0], from: .lucía)  // the board is edited in place
        _ = try await exchange("/practice new", from: .lucía)
        _ = try await exchange("/practice new", from: .lucía)
        let stats = try await exchange("/stats", from: .lucía)
        #expect(stats.contains("Jugadas 0 · Victorias 0 % · Abandonadas 1"), "\(stats)")
        let patStats = try await exchange("/stats", from: .pat)
        #expect(patStats.contains("<b>Wordle</b>") && patStats.contains("Played 5 · Win 80%"), "\(patStats)")
        // 18:00 in Madrid, three hours before the group's summary: noon in New York, so Ben is not named (the
        // puzzle had its one nudge).
        try await family.at("2026-11-27T17:00:10Z", "Friday 18:00 in Madrid")
        try await family.at("2026-11-27T20:00:30Z", "Friday 21:00 in Madrid")
        let friday = try await family.post(containing: "El reto 331, por ahora").text
        #expect(friday.contains("\n🟪 Connections: Pat 1 error"), "\(friday)")
        try await family.at("2026-11-27T23:00:00Z", "Friday 18:00 in New York")
        try await family.play(try Self.win(.spanish, 331, misses: 2), as: .ben, puzzle: 331)
        _ = try await family.post(containing: "Todos aquí han terminado el reto 331.")

        // SATURDAY 28, puzzle 332. Dai, in Tokyo, has already played Sunday's puzzle: his missed Friday stays.
        try await family.at("2026-11-28T10:00:00Z", "Saturday 19:00 in Tokyo")
        try await family.play(try Self.win(.spanish, 332, misses: 2), as: .dai, puzzle: 332)
        try await family.play(try Self.win(.spanish, 332, misses: 3), as: .lucía, puzzle: 332)
        try await family.send("Wordle 1,988 3/6", from: .pat, inGroup: true)
        try await family.at("2026-11-28T16:00:00Z", "Sunday 01:00 in Tokyo")
        try await family.play(try Self.win(.spanish, 333, misses: 1), as: .dai, puzzle: 333)
        let saturdayWeek = try await family.reply(to: "/leaderboard semana", from: .dai, inGroup: true).text
        try await family.at("2026-11-28T20:00:30Z", "Saturday 21:00 in Madrid")
        _ = try await family.post(containing: "El reto 332, por ahora")
        try await family.at("2026-11-28T23:30:00Z", "Saturday 18:30 in New York")
        try await family.play(try Self.win(.spanish, 332, misses: 0), as: .ben, puzzle: 332)
        _ = try await family.post(containing: "Todos aquí han terminado el reto 332.")

        // SUNDAY 29, puzzle 333. In the evening, yesterday is Saturday; the missed days have not moved.
        try await family.at("2026-11-29T11:00:00Z", "Sunday 12:00 in Madrid")
        try await family.play(try Self.win(.spanish, 333, misses: 2), as: .lucía, puzzle: 333)
        try await family.send("Wordle 1,989 4/6", from: .pat, inGroup: true)
        try await family.at("2026-11-29T20:00:30Z", "Sunday 21:00 in Madrid")
        _ = try await family.post(containing: "El reto 333, por ahora")
        try await family.at("2026-11-29T20:30:00Z", "Sunday 21:30 in Madrid")
        let sundayYesterday = try await family.reply(to: "/leaderboard ayer", from: .lucía, inGroup: true).text
        #expect(sundayYesterday.hasPrefix("Clasificación · reto 332 · ayer"), "\(sundayYesterday)")
        let sundayWeek = try await family.reply(to: "/leaderboard semana", from: .dai, inGroup: true).text
        for (when, board) in [("Saturday", saturdayWeek), ("Sunday", sundayWeek)] {
            let lines = board.components(separatedBy: "\n")
            let dai = lines.drop { !$0.contains("Dai") }.prefix(2).joined(separator: " ")
            let lucia = lines.drop { !$0.contains("Lucía") }.prefix(2).joined(separator: " ")
            #expect(dai.contains("faltó 1") && lucia.contains("faltó 1"), "\(when): \(board)")
        }
        // Item 7: Ben's Sunday ends the week; its post follows the word.
        try await family.at("2026-11-29T23:30:00Z", "Sunday 18:30 in New York")
        let benSunday = try await family.play(try Self.win(.spanish, 333, misses: 1), as: .ben, puzzle: 333)
        let sundayWord = try await family.post(containing: "Todos aquí han terminado el reto 333.")
        waits.append(
            "Sunday, New York last (23:30 UTC): "
                + String(format: "%.1f s", sundayWord.time - benSunday.timeIntervalSince1970))
        let weekPost = try await family.post(containing: "🏁 Terminó la semana desde el 23 de noviembre.").text
        // Ben and Lucía share the best streak; Pat's pastes count as playing: only Tuesday and Friday lacked one.
        #expect(weekPost.contains("🥇 | Ben | 35 pts | 🏆\n🥈 | Lucía | 23 pts | \n🥉 | Dai | 21 pts | "), "\(weekPost)")
        #expect(weekPost.contains("🔥 Mejor racha: Ben, Lucía (5)"), "\(weekPost)")
        #expect(weekPost.contains("👪 Todos jugaron 5 de 7 días."), "\(weekPost)")

        // MONDAY 30: until someone plays the new week, the week board is the one that ended.
        try await family.at("2026-11-30T09:00:00Z", "Monday 10:00 in Madrid")
        let lastWeek = try await family.reply(to: "/leaderboard semana", from: .lucía, inGroup: true).text
        #expect(lastWeek.contains("la semana pasada"), "\(lastWeek)")
        // Item 8: the archive fits a phone, with a button to older puzzles.
        let archive = try await family.reply(to: "/archive", from: .ben)
        #expect(archive.buttons.contains { $0.text == "Older ▸" }, "\(archive.buttons)")
        #expect(archive.text.components(separatedBy: "\n").count <= 16, "\(archive.text)")

        family.note("Finish to word:")
        family.note(waits.joined(separator: "\n"))
        try family.writeTranscript(named: "week.txt")
        #expect(await family.stop() == 0)
    }
}
