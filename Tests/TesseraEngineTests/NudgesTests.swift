import Foundation
import TesseraCore
import TesseraTesting
import Testing

@testable import TesseraEngine

/// The nudge's rule on values alone, without an engine or a store: which puzzles it may be for, who may be
/// named, who is, and what the team keeps. `GroupTeamTests` plays the same rule through the engine.
@Suite("The nudge decides from values")
struct NudgesTests {
    static let nudges = Nudges(schedule: .tessera, buttons: true)
    static let puzzle = PuzzleNumber(320)

    static func group(nudge: Bool = true, summary: Bool = true, nudged: [NudgedMember] = []) -> Group {
        Group(
            chat: ChatID(-1), timeZone: "Europe/Madrid", rolloverHour: 0, language: .english,
            summaryEnabled: summary, lastClosedPuzzle: PuzzleNumber(319), lastRevealedPuzzle: PuzzleNumber(319),
            team: GroupTeam(nudge: nudge, nudged: nudged))
    }

    /// A member of the board since puzzle 300 who last played `lastPuzzle`, in `zone`.
    static func member(
        _ id: Int64, _ name: String, in zone: String = "America/New_York", joined: Int = 300, lastPuzzle: Int? = 319
    ) -> DayMember {
        DayMember(
            player: UserID(id), name: name, joinedPuzzle: PuzzleNumber(joined),
            day: MemberDay(timeZone: zone, rolloverHour: 0), result: nil, streak: 0,
            lastPuzzle: lastPuzzle.map(PuzzleNumber.init))
    }

    /// 21:05 in New York on Monday: New York's day of 320 ends within three hours, Madrid's is over.
    static let newYorkEvening = EngineHarness.monday + 14 * 3600 + 300

    @Test("Puzzles: none with the nudge or the summary off; else from after the last nudged, two days back at most")
    func puzzles() {
        let nudges = Self.nudges
        #expect(nudges.puzzles(of: Self.group(nudge: false), at: EngineHarness.monday).isEmpty)
        #expect(nudges.puzzles(of: Self.group(summary: false), at: EngineHarness.monday).isEmpty)
        #expect(nudges.puzzles(of: Self.group(), at: EngineHarness.monday) == [PuzzleNumber(320)])
        var behind = Self.group()
        behind.lastRevealedPuzzle = PuzzleNumber(310)
        #expect(nudges.puzzles(of: behind, at: EngineHarness.monday).map(\.rawValue) == [318, 319, 320])
        behind.team.lastNudged = PuzzleNumber(320)
        #expect(nudges.puzzles(of: behind, at: EngineHarness.monday).isEmpty, "a puzzle gets one nudge at most")
    }

    @Test("Candidates: own day in its window, not played, on the board, active this week, named under twice")
    func candidates() {
        let members = [
            Self.member(1, "Zoe"),
            Self.member(2, "Ann", in: "Europe/Madrid"),  // her day ended at Madrid's midnight
            Self.member(3, "Ben"),
            Self.member(4, "Cat", lastPuzzle: 312),  // last played eight days ago: not expected
            Self.member(5, "Dee", lastPuzzle: nil),  // only pastes
            Self.member(6, "Eve", joined: 321),
            Self.member(7, "Fay"),  // named twice this week
            Self.member(8, "Gus"),  // played
        ]
        let nudged =
            [317, 318].map { NudgedMember(player: UserID(7), puzzle: PuzzleNumber($0)) }
            + [NudgedMember(player: UserID(1), puzzle: PuzzleNumber(313))]  // eight days ago: forgotten
        let named = Self.nudges.candidates(
            for: Self.puzzle, members: members, played: [UserID(8)], nudged: nudged, at: Self.newYorkEvening)
        #expect(named.map(\.name) == ["Ben", "Zoe"], "in the order of their names")
        // At Madrid's 21:05, New York's day has nine hours left: nobody yet.
        let early = Self.nudges.candidates(
            for: Self.puzzle, members: members, played: [], nudged: [], at: EngineHarness.monday + 8 * 3600 + 300)
        #expect(early.map(\.name) == ["Ann"])
        // A window found after downtime, in its second half, is let go.
        let late = Self.nudges.candidates(
            for: Self.puzzle, members: members, played: [], nudged: [], at: Self.newYorkEvening + 2 * 3600)
        #expect(late.isEmpty)
    }

    @Test("The nudge names who did not say /remind off, the first twenty, and counts the rest")
    func naming() throws {
        let few = [Self.member(1, "Ann"), Self.member(2, "Ben"), Self.member(3, "Cat")]
        let nudge = try #require(Nudges.nudge(Self.puzzle, candidates: few, optedOut: [UserID(2)]))
        #expect(nudge.names == ["Ann", "Cat"] && nudge.players == [UserID(1), UserID(3)])
        #expect(nudge.more == 0, "who said /remind off is neither named nor counted")
        #expect(Nudges.nudge(Self.puzzle, candidates: few, optedOut: Set(few.map(\.player))) == nil)
        #expect(Nudges.nudge(Self.puzzle, candidates: [], optedOut: []) == nil)

        let many = (1...100).map { Self.member(Int64($0), String(format: "P%03d", $0)) }
        // The first 30 opted out: the next twenty are named; the rest, past the first 60 read, are counted.
        let optedOut = Set(many.prefix(30).map(\.player))
        let large = try #require(Nudges.nudge(Self.puzzle, candidates: many, optedOut: optedOut))
        #expect(large.names == (31...50).map { String(format: "P%03d", $0) })
        #expect(large.more == 100 - 20 - 30)
        // Past the players read, nobody is named, however many remain.
        let unread = try #require(
            Nudges.nudge(Self.puzzle, candidates: many, optedOut: Set(many.prefix(59).map(\.player))))
        #expect(unread.names == ["P060"] && unread.more == 100 - 1 - 59)
        #expect(Nudges.nudge(Self.puzzle, candidates: many, optedOut: Set(many.prefix(60).map(\.player))) == nil)
    }

    @Test("A nudge posted records its puzzle and who it named, keeping seven days of names")
    func recorded() throws {
        let old = [NudgedMember(player: UserID(9), puzzle: PuzzleNumber(313))]
        let recent = [NudgedMember(player: UserID(8), puzzle: PuzzleNumber(314))]
        let group = Self.group(nudged: old + recent)
        let nudge = try #require(
            Nudges.nudge(Self.puzzle, candidates: [Self.member(1, "Ann")], optedOut: []))
        let team = nudge.recorded(in: group.team)
        #expect(team.lastNudged == Self.puzzle)
        #expect(team.nudged == recent + [NudgedMember(player: UserID(1), puzzle: Self.puzzle)])
        let message = Self.nudges.message(for: nudge, in: group)
        #expect(message.html == "⏳ Still to play today: Ann" && message.silent && message.atMostOnce)
        #expect(message.buttons.joined().map(\.directChatStart) == ["play-en"])
        let noButtons = Nudges(schedule: .tessera, buttons: false).message(for: nudge, in: group)
        #expect(noButtons.buttons.isEmpty)
    }
}
