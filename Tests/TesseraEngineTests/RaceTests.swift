import Foundation
import TesseraCore
import TesseraEngine
import TesseraTesting
import Testing

/// A group race's rules alone, on a clock the test moves (issue 59): the lobby, the race, the podium.
@Suite("Races: the rules")
struct RaceTests {
    let start = Date(timeIntervalSince1970: 1_795_348_800)
    let miss: [LetterState] = [.absent, .present, .absent, .absent, .correct]
    let solve = [LetterState](repeating: .correct, count: 5)
    let family = (1...5).map { UserID(Int64($0)) }

    @Test("The lobby takes each member once until it closes; alone at the close, the race is cancelled")
    func lobby() {
        var race = Race(openedBy: family[0], at: start)
        let joined = race.join(family[1], at: start + 10)
        let again = race.join(family[1], at: start + 20)
        let late = race.join(family[2], at: start + Race.defaultLobby)
        #expect(joined && !again && !late, "each once, until the lobby closes")
        race.advance(to: start + Race.defaultLobby)
        #expect(race.stage == .running && race.runners.count == 2)
        var alone = Race(openedBy: family[0], at: start, lobby: 1)
        #expect(alone.lobbyCloses == start + 60, "a lobby lasts a minute at least")
        alone.advance(to: start + 60)
        #expect(alone.stage == .cancelled && alone.places.isEmpty)
    }

    @Test(
        "Five members from lobby to podium: fewest guesses, then time; a shared finish shares a place; the rest share the last; ratings conserved"
    )
    func podium() {
        var race = Race(openedBy: family[0], at: start)
        for member in family.dropFirst() { _ = race.join(member, at: start + 5) }
        let go = race.lobbyCloses
        race.advance(to: go)
        func play(_ member: Int, _ rows: [[LetterState]], at seconds: TimeInterval) {
            for row in rows { race.play(family[member], row: row, maximumGuesses: 6, at: go + seconds) }
        }
        play(0, [miss, miss, solve], at: 200)  // 3 guesses
        play(1, [miss, solve], at: 300)  // 2 guesses: first, though later
        play(2, [miss, miss, solve], at: 100)  // 3 guesses, earlier than member 0
        play(3, Array(repeating: miss, count: 6), at: 50)  // out of guesses
        #expect(race.stage == .running && race.places.isEmpty, "member 4 still plays")
        race.advance(to: race.endsAt)
        #expect(race.stage == .finished)
        let places = race.places
        #expect(places == [family[1]: 1, family[2]: 2, family[0]: 3, family[3]: 4, family[4]: 4])
        #expect(Rating.changes(afterRace: places, ratings: [:]).values.reduce(0, +) == 0)
        race.play(family[4], row: solve, maximumGuesses: 6, at: race.endsAt + 1)
        #expect(race.places[family[4]] == 4, "nothing counts after the race's time")
    }

    @Test("Two runners solving in one batch, to the second, share first place")
    func sharedFirst() {
        var race = Race(openedBy: family[0], at: start)
        _ = race.join(family[1], at: start)
        race.advance(to: race.lobbyCloses)
        for member in family.prefix(2) {
            race.play(member, row: solve, maximumGuesses: 6, at: race.lobbyCloses + 42)
        }
        #expect(race.places == [family[0]: 1, family[1]: 1])
    }
}
