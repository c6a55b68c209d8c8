import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``DailyPlay`` alone, on a ``SliceDouble``: Ann's game of puzzle 326 is read from the double, and every guess
/// leaves as writes for the engine's apply step.
@Suite("The daily game, on its slice of the store")
struct DailyPlayFeatureTests {
    typealias Setting = FeatureSetting
    let play = DailyPlay(core: Setting.core)
    let ann = Setting.player(1, "Ann")
    let puzzle = PuzzleNumber(326)
    let texts = Language.english.texts

    var answer: String { Language.english.wordList.letters(Setting.core.answer(for: puzzle, in: .english)) }
    /// A word of the list that is not the answer.
    var miss: String { answer == "crane" ? "slate" : "crane" }

    func reads(guesses: [String] = [], hardMode: Bool = false) -> SliceDouble {
        let game = StoredGame(player: ann.id, language: .english, puzzle: puzzle, hardMode: hardMode, guesses: guesses)
        return SliceDouble(players: [ann], games: guesses.isEmpty ? [] : [game])
    }

    func guess(_ word: String, on reads: SliceDouble, in group: Group? = nil) async throws -> Reply {
        try await play.guess(word, in: Setting.turn(word, from: ann, in: group, reads: reads))
    }

    @Test("A first guess opens the game: one write, the board as the live message, the guess accepted")
    func firstGuess() async throws {
        let reply = try await guess(miss, on: reads())
        let opened = StoredGame(player: ann.id, language: .english, puzzle: puzzle, hardMode: false, guesses: [miss])
        #expect(reply.writes == [.dailyGame(opened)])
        #expect(reply.acceptedGuess == .english && reply.messages.first?.live == "board:en:326")
    }

    @Test("A word off the list or of the wrong length is refused with the reason, and nothing is written")
    func refused() async throws {
        for (word, rejection) in [("qzxvj", GuessRejection.notInWordList), ("cat", .notEnoughLetters)] {
            let reply = try await guess(word, on: reads(guesses: [miss]))
            #expect(reply.writes.isEmpty && reply.acceptedGuess == nil)
            #expect(reply.messages.map(\.html) == [texts.rejection(rejection)])
        }
    }

    @Test("The winning guess writes the game, its count on the boards and the analysis asked for, in that order")
    func win() async throws {
        let reply = try await guess(answer, on: reads(guesses: [miss]))
        var won = StoredGame(
            player: ann.id, language: .english, puzzle: puzzle, hardMode: false, guesses: [miss, answer])
        won.result = .won(guesses: 2)
        won.finishedAt = Setting.now
        #expect(
            reply.writes == [
                .dailyGame(won), .countOnBoards(won),
                .analysis(player: ann.id, language: .english, puzzle: puzzle, show: false),
            ])
        // A finished game takes no more guesses.
        var finished = reads(guesses: [miss, answer])
        finished.games[0].result = .won(guesses: 2)
        let again = try await guess(miss, on: finished)
        #expect(
            again.writes.isEmpty
                && again.messages.map(\.html) == [texts.alreadyFinished(.won(guesses: 2), maximumGuesses: 6)])
    }

    @Test(
        "Hard mode starts with a game not begun; once it has, the preference is kept for tomorrow, the game unchanged")
    func hardModeLater() async throws {
        let turn = Setting.turn("/hard on", from: ann, in: nil, reads: reads(guesses: [miss]))
        let reply = try await play.hardMode("on", in: turn)
        #expect(reply.messages.map(\.html) == [texts.hardLater] && reply.writes.isEmpty)
        #expect(reply.player?.prefersHardMode == true)
        let fresh = try await play.hardMode("on", in: Setting.turn("/hard on", from: ann, in: nil, reads: reads()))
        // Before the first guess the game is not stored: it will start from the preference.
        #expect(fresh.messages.map(\.html) == [texts.hardOn] && fresh.player?.prefersHardMode == true)
        #expect(fresh.writes.isEmpty)
    }

    @Test("/board in a group shows the rows' squares and never a letter")
    func boardInGroup() async throws {
        let turn = Setting.turn("/board", from: ann, in: Setting.group(), reads: reads(guesses: [miss]))
        let html = try #require(try await play.board(in: turn).messages.first).html
        #expect(!html.localizedCaseInsensitiveContains(miss) && !html.localizedCaseInsensitiveContains(answer))
        #expect(html.contains("⬛") || html.contains("🟨") || html.contains("🟩"))
    }
}
