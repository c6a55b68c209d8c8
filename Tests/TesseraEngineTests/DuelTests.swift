import Foundation
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

/// A duel's rules alone, on a clock the test moves (issue 59): the invitation, the play, idle sides, the result.
@Suite("Duels: the rules")
struct DuelTests {
    let ann = UserID(1)
    let ben = UserID(2)
    let start = Date(timeIntervalSince1970: 1_795_348_800)
    let miss: [LetterState] = [.absent, .present, .absent, .absent, .correct]
    let solve = [LetterState](repeating: .correct, count: 5)

    func accepted() -> Duel {
        var duel = Duel(challenger: ann, opponent: ben, at: start)
        duel.answer(accepting: true, at: start + 60)
        return duel
    }

    func play(_ duel: inout Duel, _ player: UserID, _ rows: [[LetterState]], from seconds: TimeInterval) {
        for (index, row) in rows.enumerated() {
            duel.play(player, row: row, maximumGuesses: 6, at: start + seconds + Double(index))
        }
    }

    @Test("An invitation unanswered for ten minutes lapses; an answer after that changes nothing; one declined ends it")
    func invitation() {
        var duel = Duel(challenger: ann, opponent: ben, at: start)
        #expect(duel.advance(to: start + Duel.invitationLasts - 1).isEmpty && duel.stage == .invited)
        _ = duel.advance(to: start + Duel.invitationLasts)
        #expect(duel.stage == .lapsed)
        duel.answer(accepting: true, at: start + Duel.invitationLasts + 1)
        #expect(duel.stage == .lapsed && duel.result == nil)
        var declined = Duel(challenger: ann, opponent: ben, at: start)
        declined.answer(accepting: false, at: start + 5)
        #expect(declined.stage == .declined)
        declined.play(ann, row: solve, maximumGuesses: 6, at: start + 6)
        #expect(declined.sides[0].rows.isEmpty, "no play in a duel that is not on")
    }

    @Test("Fewer guesses win, whoever finished first; the same count, the earlier finish; a solve beats none")
    func winners() {
        var fewer = accepted()
        play(&fewer, ann, [miss, miss, solve], from: 100)
        play(&fewer, ben, [miss, solve], from: 500)
        #expect(fewer.result == .won(by: ben) && fewer.outcome(of: ann) == .loss)

        var earlier = accepted()
        play(&earlier, ben, [miss, solve], from: 300)
        play(&earlier, ann, [miss, solve], from: 100)
        #expect(earlier.result == .won(by: ann))

        var only = accepted()
        play(&only, ann, Array(repeating: miss, count: 6), from: 100)
        #expect(only.stage == .playing && only.result == nil, "the other side still plays")
        play(&only, ben, [miss, miss, miss, miss, miss, solve], from: 200)
        #expect(only.result == .won(by: ben))
    }

    @Test("Both out of guesses, or both solved to the second: a draw; giving up ends a side")
    func draws() {
        var out = accepted()
        play(&out, ann, Array(repeating: miss, count: 6), from: 100)
        out.giveUp(ben, at: start + 200)
        #expect(out.result == .draw && out.outcome(of: ben) == .draw)

        var together = accepted()
        // Finished in one batch: the same second.
        together.play(ann, row: solve, maximumGuesses: 6, at: start + 100)
        together.play(ben, row: solve, maximumGuesses: 6, at: start + 100)
        #expect(together.result == .draw)
    }

    @Test(
        "A side idle for 25 minutes is warned once; at 30 it forfeits, dated when its time ran out; a guess resets it")
    func idle() {
        var duel = accepted()
        play(&duel, ann, [miss], from: 120)
        let warnedAt = start + 60 + Duel.idleLimit - Duel.idleWarning
        #expect(duel.advance(to: warnedAt) == [ben])
        #expect(duel.advance(to: warnedAt + 30).isEmpty, "warned once")
        // Ann guessed at +120: she is warned later than Ben, and guesses again before her time is out.
        #expect(duel.advance(to: start + 120 + Duel.idleLimit - Duel.idleWarning) == [ann])
        duel.play(ann, row: miss, maximumGuesses: 6, at: start + 120 + Duel.idleLimit - 1)
        // The bot was down a while: Ben's forfeit is dated when his 30 minutes ran out.
        #expect(duel.advance(to: start + 3 * 3600).isEmpty, "a forfeit needs no warning")
        #expect(duel.sides[1].ending == .forfeited && duel.sides[1].endedAt == start + 60 + Duel.idleLimit)
        #expect(duel.sides[0].ending == .forfeited, "Ann too, idle since her last guess")
        #expect(duel.result == .draw)
    }
}
