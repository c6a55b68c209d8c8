import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// ``Analyses`` alone, on a ``SliceDouble``: `/analysis` answers from what is stored of the player's latest game,
/// and asks for an analysis only as a write for the engine's apply step.
@Suite("Analyses, on their slice of the store")
struct AnalysesFeatureTests {
    typealias Setting = FeatureSetting
    let analyses = Analyses(core: Setting.core)
    let ann = Setting.player(1, "Ann")
    let puzzle = PuzzleNumber(326)
    let texts = Language.english.texts

    /// Ann's won game of puzzle 326, and the analysis stored for it, if any.
    func won(analysis: StoredAnalysis?) -> SliceDouble {
        let game = StoredGame(
            player: ann.id, language: .english, puzzle: puzzle, hardMode: false, guesses: ["crane", "slate"],
            result: .won(guesses: 2), finishedAt: Setting.now)
        var reads = SliceDouble(
            players: [ann], games: [game], finished: [ann.id: [PlayedGame(puzzle: puzzle, result: .won(guesses: 2))]])
        reads.analysed[ann.id] = analysis.map { [puzzle: $0] }
        return reads
    }

    func analysis(_ argument: String = "", in group: Group? = nil, on reads: SliceDouble) async throws -> Reply {
        try await analyses.analysis(
            argument, focused: nil, in: Setting.turn("/analysis", from: ann, in: group, reads: reads))
    }

    @Test("In a group the analysis is refused, since it names words; nothing is read or asked for")
    func notInAGroup() async throws {
        let reply = try await analysis(in: Setting.group(), on: SliceDouble())
        #expect(reply.messages.map(\.html) == [texts.analysisPrivateOnly] && reply.writes.isEmpty)
    }

    @Test("With no finished game there is nothing to analyse")
    func noGame() async throws {
        let reply = try await analysis(on: SliceDouble(players: [ann]))
        #expect(reply.messages.map(\.html) == [texts.analysisNoGame] && reply.writes.isEmpty)
    }

    @Test("An analysis not made yet is asked for, to be shown when ready: one write, and word that it follows")
    func pending() async throws {
        for stored in [nil, StoredAnalysis.pending(show: false)] {
            let reply = try await analysis(on: won(analysis: stored))
            #expect(reply.writes == [.analysis(player: ann.id, language: .english, puzzle: puzzle, show: true)])
            #expect(reply.messages.count == 1 && reply.messages[0].html.hasPrefix("🔍"))
        }
    }

    @Test("A game that cannot be analysed, or an analysis stored unreadable, says so and asks for nothing")
    func unavailable() async throws {
        for stored in [StoredAnalysis.unavailable, .done(json: "{\"not\": \"a report\"")] {
            let reply = try await analysis(on: won(analysis: stored))
            #expect(reply.messages.map(\.html) == [texts.analysisUnavailable] && reply.writes.isEmpty)
        }
    }

    @Test("An unknown argument gets the command's usage")
    func usage() async throws {
        let reply = try await analysis("yesterday's", on: won(analysis: nil))
        #expect(reply.messages.map(\.html) == [texts.analysisUsage])
    }
}
