public import Foundation
public import TesseraCore

/// Two players on the same word, each in their own direct chat, off the ranked daily (issue 59): an invitation
/// accepted or declined, or lapsing; then each side plays until it solves, runs out of guesses, gives up or sits
/// idle too long; then the result. Every step is decided here from the duel and the time alone, so a restart
/// neither loses nor repeats a result: the stored duel says where it is.
public struct Duel: Sendable, Hashable, Codable {
    /// How long an invitation waits for its answer.
    public static let invitationLasts: TimeInterval = 10 * 60
    /// How long a side may go without a guess once the duel is on: warned at ``idleWarning`` before, then it
    /// forfeits.
    public static let idleLimit: TimeInterval = 30 * 60
    public static let idleWarning: TimeInterval = 5 * 60

    /// How a side ended.
    public enum Ending: Sendable, Hashable, Codable {
        case solved(guesses: Int)
        case outOfGuesses
        case gaveUp
        case forfeited
    }

    public struct Side: Sendable, Hashable, Codable {
        public let player: UserID
        /// The colours of each guess so far: what the group's post shows, never the letters.
        public var rows: [[LetterState]]
        /// When the side last moved (accepted, or guessed): where its idle time counts from.
        public var lastMove: Date
        public var ending: Ending?
        public var endedAt: Date?
        /// Whether the side has been told it is about to forfeit: said once.
        public var warned: Bool

        public init(player: UserID, at now: Date) {
            (self.player, rows, lastMove, ending, endedAt, warned) = (player, [], now, nil, nil, false)
        }
    }

    public enum Stage: Sendable, Hashable, Codable {
        case invited
        case declined
        case lapsed
        case playing
        case finished
    }

    /// The winner of a finished duel, or nil for a draw.
    public enum Result: Sendable, Hashable {
        case won(by: UserID)
        case draw
    }

    public let challenger: UserID
    public let invitedAt: Date
    public private(set) var stage: Stage
    public private(set) var sides: [Side]

    public init(challenger: UserID, opponent: UserID, at now: Date) {
        self.challenger = challenger
        invitedAt = now
        stage = .invited
        sides = [Side(player: challenger, at: now), Side(player: opponent, at: now)]
    }

    /// The answer to the invitation; nothing once it has lapsed or been answered.
    public mutating func answer(accepting: Bool, at now: Date) {
        guard stage == .invited, now < invitedAt + Self.invitationLasts else { return }
        stage = accepting ? .playing : .declined
        for index in sides.indices { sides[index].lastMove = now }
    }

    /// A side's guess, by its colours, and whether it ended the side's game.
    public mutating func play(_ player: UserID, row: [LetterState], maximumGuesses: Int, at now: Date) {
        guard stage == .playing, let index = open(player) else { return }
        sides[index].rows.append(row)
        sides[index].lastMove = now
        sides[index].warned = false
        if row.allSatisfy({ $0 == .correct }) {
            end(index, .solved(guesses: sides[index].rows.count), at: now)
        } else if sides[index].rows.count >= maximumGuesses {
            end(index, .outOfGuesses, at: now)
        }
    }

    public mutating func giveUp(_ player: UserID, at now: Date) {
        guard stage == .playing, let index = open(player) else { return }
        end(index, .gaveUp, at: now)
    }

    /// What the clock decides by `now`: an invitation lapses, a side idle past ``idleLimit`` forfeits. Returns
    /// the players to warn now that they are close to forfeiting (each once).
    public mutating func advance(to now: Date) -> [UserID] {
        if stage == .invited, now >= invitedAt + Self.invitationLasts { stage = .lapsed }
        guard stage == .playing else { return [] }
        var warn: [UserID] = []
        for index in sides.indices where sides[index].ending == nil {
            let idle = now.timeIntervalSince(sides[index].lastMove)
            if idle >= Self.idleLimit {
                // Forfeited when its time ran out, not when the clock was read.
                end(index, .forfeited, at: sides[index].lastMove + Self.idleLimit)
            } else if idle >= Self.idleLimit - Self.idleWarning, !sides[index].warned {
                sides[index].warned = true
                warn.append(sides[index].player)
            }
        }
        return warn
    }

    /// The result once both sides have ended: a solve beats none; of two solves, fewer guesses, then the
    /// earlier finish; two solves alike to the second, or no solve at all, a draw.
    public var result: Result? {
        guard stage == .finished else { return nil }
        let (a, b) = (sides[0], sides[1])
        switch (a.solvedIn, b.solvedIn) {
        case (nil, nil): return .draw
        case (_?, nil): return .won(by: a.player)
        case (nil, _?): return .won(by: b.player)
        case (let first?, let second?):
            if first != second { return .won(by: first < second ? a.player : b.player) }
            guard let aTime = a.endedAt, let bTime = b.endedAt, aTime != bTime else { return .draw }
            return .won(by: aTime < bTime ? a.player : b.player)
        }
    }

    /// Each side's rating outcome, for ``Rating/change(_:against:_:)``.
    public func outcome(of player: UserID) -> Rating.Outcome? {
        switch result {
        case nil: nil
        case .draw: .draw
        case .won(let winner): winner == player ? .win : .loss
        }
    }

    private func open(_ player: UserID) -> Int? {
        sides.firstIndex { $0.player == player && $0.ending == nil }
    }

    private mutating func end(_ index: Int, _ ending: Ending, at time: Date) {
        sides[index].ending = ending
        sides[index].endedAt = time
        if sides.allSatisfy({ $0.ending != nil }) { stage = .finished }
    }
}

extension Duel.Side {
    var solvedIn: Int? {
        if case .solved(let guesses)? = ending { guesses } else { nil }
    }
}
