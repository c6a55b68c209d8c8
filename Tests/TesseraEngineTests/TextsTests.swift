import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

@Suite("Texts as their readers write them")
struct TextsTests {
    @Test("Spanish as a Spanish speaker writes it: language names in lowercase, dates and numbers in Spanish forms")
    func spanishForms() throws {
        let texts = Language.spanish.texts
        var group = Group(
            chat: ChatID(-1), timeZone: "Europe/Madrid", rolloverHour: 0, language: .english,
            lastClosedPuzzle: PuzzleNumber(12_344))
        var pending = group.nextDaySettings
        pending.language = .spanish
        group.pending = pending
        group.pendingFrom = PuzzleNumber(12_345)
        let share = try #require(SharedResult(parsing: "Wordle 1,982 3/6*"))
        let running = [
            texts.languageIs(.spanish), texts.languageChanged(.english), texts.unknownLanguage("xx"),
            texts.settings(group, next: nil), texts.groupPlays(.english),
            texts.score(
                BoardResult(
                    chat: ChatID(-1), puzzle: PuzzleNumber(1), player: UserID(1), language: .english,
                    guesses: 3, hardMode: false, finishedAt: Date()), besides: .spanish),
            texts.playing(.english), texts.officialCounted(name: "Ana", share: share),
            texts.leaderboardPeriod(
                .tessera, .week, since: CivilDate(year: 2026, month: 11, day: 30), ended: false, lines: []
            ).html,
        ]
        for text in running {
            for name in ["Español", "Inglés", "English"] {
                #expect(!text.contains(name), "a language is named in lowercase in running text: \(text)")
            }
            #expect(!text.contains("2026-11-30") && !text.contains("1,982"), "no English forms: \(text)")
        }
        #expect(running[8].contains("(desde el 30 de noviembre)"), "\(running[8])")
        #expect(running[7].contains("Wordle 1982 3/6*"), "four digits together: \(running[7])")
        #expect(
            running[3].contains("Desde el reto 12\u{00A0}345"), "five in groups, as the RAE recommends: \(running[3])")
        #expect(Spanish.number(1_234_567) == "1\u{00A0}234\u{00A0}567" && Spanish.number(2026) == "2026")
    }

    @Test("/start in a direct chat fits a phone screen and names only what works there", arguments: Language.allCases)
    func startFitsAPhone(language: Language) {
        let welcome = language.texts.welcome(gameName: "Tessera", wordLength: 5, maximumGuesses: 6)
        #expect(welcome.split(separator: "\n", omittingEmptySubsequences: false).count <= 10, "\(welcome)")
        for groupOnly in ["/join", "/leave", "/leaderboard", "/settings"] {
            #expect(!welcome.contains(groupOnly), "\(groupOnly) works in groups only: \(welcome)")
        }
        #expect(welcome.contains("/help"), "the way to every command")
    }
}
