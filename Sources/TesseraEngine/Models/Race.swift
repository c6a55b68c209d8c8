public import Foundation
public import TesseraCore

/// A group's race (issue 59): a lobby open for a stated time, then everyone who joined plays the same word in
/// their direct chat until the race's time is up, then the podium. Decided from the race and the time alone, as a
/// ``Duel`` is, so a restart neither loses nor repeats a result.
public struct Race: Sendable, Hashable, Codable {
    /// The lobby's time unless the group's administrators set another (`/settings race`), and the bounds of one.
    public static let defaultLobby: TimeInterval = 3 * 60
    public static let lobbyRange: ClosedRange<TimeInterval> = 60...(30 * 60)
    /// How long the race runs once the lobby closes: who has not finished by then is out of time.
    public static let lasts: TimeInterval = 30 * 60
    /// The most players one race takes: its live post lists each runner's row of colours.
    public static let maximumRunners = 20

    public enum Stage: Sendable, Hashable, Codable {
        case lobby
        /// Fewer than two joined before the lobby closed.
        case cancelled
        case running
        case finished
    }

    public struct Runner: Sendable, Hashable, Codable {
        public let player: UserID
        public var rows: [[LetterState]]
        /// The guesses it solved in; nil until then, and for a runner who did not.
        public var solvedIn: Int?
        public var endedAt: Date?
    }

    public let openedAt: Date
    public let lobbyCloses: Date
    public private(set) var stage: Stage
    public private(set) var runners: [Runner]

    /// A race opened by `player`, who is its first runner; `lobby` is clamped to ``lobbyRange``.
    public init(openedBy player: UserID, at now: Date, lobby: TimeInterval = Race.defaultLobby) {
        openedAt = now
        lobbyCloses = now + min(max(lobby, Self.lobbyRange.lowerBound), Self.lobbyRange.upperBound)
        stage = .lobby
        runners = [Runner(player: player, rows: [], solvedIn: nil, endedAt: nil)]
    }

    public var endsAt: Date { lobbyCloses + Self.lasts }

    /// Joins the lobby: false when it has closed, is full, or the player is in already.
    public mutating func join(_ player: UserID, at now: Date) -> Bool {
        guard stage == .lobby, now < lobbyCloses, runners.count < Self.maximumRunners,
            !runners.contains(where: { $0.player == player })
        else { return false }
        runners.append(Runner(player: player, rows: [], solvedIn: nil, endedAt: nil))
        return true
    }

    /// What the clock decides by `now`: the lobby closes (into the race, or cancelled), the race's time runs out.
    public mutating func advance(to now: Date) {
        if stage == .lobby, now >= lobbyCloses { stage = runners.count >= 2 ? .running : .cancelled }
        guard stage == .running, now >= endsAt else { return }
        for index in runners.indices where runners[index].endedAt == nil { runners[index].endedAt = endsAt }
        stage = .finished
    }

    public mutating func play(_ player: UserID, row: [LetterState], maximumGuesses: Int, at now: Date) {
        guard stage == .running, now < endsAt,
            let index = runners.firstIndex(where: { $0.player == player && $0.endedAt == nil })
        else { return }
        runners[index].rows.append(row)
        if row.allSatisfy({ $0 == .correct }) {
            runners[index].solvedIn = runners[index].rows.count
            runners[index].endedAt = now
        } else if runners[index].rows.count >= maximumGuesses {
            runners[index].endedAt = now
        }
        if runners.allSatisfy({ $0.endedAt != nil }) { stage = .finished }
    }

    /// Each runner's place once the race is over (1 is first): solvers by fewest guesses, then the earlier finish,
    /// those alike sharing a place; everyone who did not solve shares the last place. Empty before the end.
    public var places: [UserID: Int] {
        guard stage == .finished else { return [:] }
        let solvers = runners.filter { $0.solvedIn != nil }.sorted { key($0) < key($1) }
        var places: [UserID: Int] = [:]
        for (index, runner) in solvers.enumerated() {
            let shared = index > 0 && key(solvers[index - 1]) == key(runner)
            places[runner.player] = shared ? places[solvers[index - 1].player] : index + 1
        }
        for runner in runners where runner.solvedIn == nil { places[runner.player] = solvers.count + 1 }
        return places
    }

    private func key(_ runner: Runner) -> Key {
        Key(guesses: runner.solvedIn ?? .max, finished: runner.endedAt ?? .distantFuture)
    }

    private struct Key: Comparable {
        let guesses: Int
        let finished: Date

        static func < (a: Key, b: Key) -> Bool { (a.guesses, a.finished) < (b.guesses, b.finished) }
    }
}
