import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Practice`` alone, on a ``SliceDouble``: `/practice` and `/archive` decide from the player's practice games,
/// the day's starts and the archive, and what they start leaves as writes for the engine's apply step.
@Suite("Practice and the archive, on their slice of the store")
struct PracticeFeatureTests {
    typealias Setting = FeatureSetting
    let practice = Practice(core: Setting.core)
    let ann = Setting.player(1, "Ann")
    let texts = Language.english.texts

    func turn(_ text: String, on reads: SliceDouble) -> Turn {
        Setting.turn(text, from: ann, in: nil, reads: reads)
    }

    func unfinished(number: Int) -> PracticeGame {
        PracticeGame(
            player: ann.id, number: number, kind: .practice, language: .english, answer: "plumb", hardMode: false,
            guesses: ["crane"], startedAt: Setting.now.addingTimeInterval(-600))
    }

    @Test("A first practice game: the day's start counted and the game kept, as writes; never an open day's word")
    func first() async throws {
        let reply = try await practice.practice("", in: turn("/practice", on: SliceDouble(players: [ann])))
        guard case .practiceStart(_, let until)? = reply.writes.first,
            case .practiceGame(let game)? = reply.writes.last, reply.writes.count == 2
        else {
            Issue.record("expected a start and a game: \(reply.writes)")
            return
        }
        #expect(until == PuzzleNumber(326) && game.number == 1 && game.result == nil && game.player == ann.id)
        let open = Setting.core.earliestOpenPuzzle(at: Setting.now).rawValue...PuzzleNumber(327).rawValue
        for puzzle in open {
            let word = Language.english.wordList.letters(Setting.core.answer(for: PuzzleNumber(puzzle), in: .english))
            #expect(game.answer != word, "puzzle \(puzzle)'s word is still open somewhere")
        }
        #expect(reply.player?.practiceInPlay == true)
    }

    @Test("An unfinished game is not given up unasked: a question with a button, and nothing written")
    func asksFirst() async throws {
        let reads = SliceDouble(players: [ann], practiceGames: [unfinished(number: 4)])
        let reply = try await practice.practice("", in: turn("/practice", on: reads))
        #expect(reply.writes.isEmpty && reply.player == nil)
        let question = try #require(reply.messages.first)
        #expect(question.html == texts.abandonQuestion(unfinished(number: 4), typed: nil))
        #expect(question.buttons.flatMap { $0 }.map(\.text) == [texts.abandonButton])
    }

    @Test("Confirmed, the unfinished game is given up as a loss, then the next one starts")
    func givesUp() async throws {
        let reads = SliceDouble(players: [ann], practiceGames: [unfinished(number: 4)])
        let reply = try await practice.practice("new", in: turn("/practice new", on: reads))
        let games = reply.writes.compactMap { write -> PracticeGame? in
            guard case .practiceGame(let game) = write else { return nil }
            return game
        }
        #expect(games.map(\.number) == [4, 5])
        #expect(games.first?.result == .lost && games.first?.abandoned == true)
    }

    @Test("At the day's limit no game starts, and the player is told when the next day begins")
    func limit() async throws {
        var reads = SliceDouble(players: [ann])
        let key = Setting.core.secret.tag(for: "practice|\(ann.id)|\(PuzzleNumber(326))")
        reads.practiceStarts[key] = Setting.core.configuration.practiceGamesPerDay
        let reply = try await practice.practice("", in: turn("/practice", on: reads))
        #expect(reply.writes.isEmpty)
        #expect(reply.messages.map(\.html) == [texts.practiceLimit(50, timeLeft: 12 * 3_600)])
    }

    @Test("The archive refuses an open or unknown puzzle, and says how a puzzle already played went")
    func archive() async throws {
        var reads = SliceDouble(players: [ann])
        var reply = try await practice.archive("326", in: turn("/archive 326", on: reads))
        #expect(reply.messages.map(\.html) == [texts.archiveStillOpen(PuzzleNumber(326))] && reply.writes.isEmpty)
        reply = try await practice.archive("99999", in: turn("/archive 99999", on: reads))
        #expect(reply.messages.map(\.html) == [texts.archiveNoSuchPuzzle] && reply.writes.isEmpty)
        reads.archive[ann.id] = [PuzzleNumber(300): .won(guesses: 4)]
        reply = try await practice.archive("300", in: turn("/archive 300", on: reads))
        #expect(
            reply.messages.map(\.html) == [
                texts.archivePlayed(PuzzleNumber(300), result: .won(guesses: 4), onItsDay: false)
            ])
        #expect(reply.writes.isEmpty)
    }
}
