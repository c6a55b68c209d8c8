import Foundation
import TesseraCore

/// Results pasted into a chat: the original Wordle's count on the group's official board; our own are
/// recognised, and only the game played here counts.
struct Pastes: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    let core: EngineCore
    private var configuration: EngineConfiguration { core.configuration }
    private var groupBoards: GroupBoards { GroupBoards(core: core) }

    /// The game whose pasted results count on the official board.
    static let officialGameName = "wordle"

    /// Whether a share is one the bot acts on: ours or the original's. Shares of other games are chat.
    func isCounted(_ share: SharedResult) -> Bool {
        isOwn(share)
            || (share.gameName.lowercased() == Self.officialGameName && share.kind == .daily
                && share.maximumGuesses == Game.defaultMaximumGuesses)
    }

    /// A share text of this bot's own game.
    private func isOwn(_ share: SharedResult) -> Bool {
        share.gameName.lowercased() == configuration.gameName.lowercased()
    }

    /// A share pasted into a chat. In a group, the original's counts on the official board once per player
    /// and puzzle, if its puzzle is open there; our own only joins the board, where the game played here
    /// counts (never the pasted text, which anyone could write).
    func pasted(_ share: SharedResult, in turn: Turn) async throws -> Reply {
        guard let group = turn.group else { return turn.reply(turn.texts.pasteInGroup) }
        let name = turn.player.displayName
        if isOwn(share), share.kind != .daily { return Practice(core: core).pasted(in: turn) }
        if isOwn(share) {
            // Joined now or before, the game played here is what counts: the paste did what its author meant.
            var (joined, reply) = try await groupBoards.addToBoard(in: turn)
            reply.messages.append(
                turn.reaction(
                    .counted, otherwise: joined ? turn.texts.joined(name: name) : turn.texts.alreadyJoined(name: name)))
            return reply
        }
        let today = group.officialPuzzle(at: turn.now)
        guard share.puzzle.rawValue <= today.rawValue + 1 else {
            return turn.reply(turn.texts.officialNotOpen(puzzle: share.puzzle))
        }
        guard share.puzzle.rawValue >= today.rawValue - 1 else {
            return turn.reply(turn.texts.officialClosed(puzzle: share.puzzle, today: today))
        }
        let result = BoardResult(
            chat: group.chat, board: .official, puzzle: share.puzzle, player: turn.player.id,
            language: .english, guesses: share.result.guesses, hardMode: share.isHardMode, finishedAt: turn.now)
        return try await count(
            result, periods: BoardPeriod.keys(of: share.puzzle, schedule: .wordle), joining: true, in: turn,
            counted: turn.texts.officialCounted(name: name, share: share),
            duplicate: turn.texts.officialDuplicate(name: name, puzzle: share.puzzle))
    }

    /// A result of another of the publisher's puzzles pasted into a group: it counts on that game's board once per
    /// player and puzzle, for the group's date or one either side (as a Wordle paste does), quietly: a reaction,
    /// or a short reply where there are none. Only the day's results are kept, for the summary's line of each game;
    /// Tessera's boards never see them, and pasting one does not put its author on them
    /// (``BoardKind/isMembersOnly``): nobody is missed or nudged for a game they never said they play here.
    func pasted(_ share: PuzzleShare, in turn: Turn) async throws -> Reply {
        guard let group = turn.group else { return Reply() }
        let name = turn.player.displayName
        let today = share.game.schedule.puzzle(at: turn.now, rollover: DayRollover.stored(group.timeZone, 0))
        guard abs(share.puzzle.rawValue - today.rawValue) <= 1 else {
            return turn.reply(turn.texts.otherPuzzleNotToday(share.game))
        }
        let result = BoardResult(
            chat: group.chat, board: BoardKind(share.game), puzzle: share.puzzle, player: turn.player.id,
            language: .english, guesses: share.measure, hardMode: false, finishedAt: turn.now)
        let score = turn.texts.otherPuzzleScore(share.game, measure: share.measure)
        return try await count(
            result, periods: [], joining: false, in: turn,
            counted: turn.texts.otherPuzzleCounted(name: name, game: share.game, score: score),
            duplicate: turn.texts.otherPuzzleDuplicate(name: name, game: share.game))
    }

    /// Counts a pasted result on its board once per player and puzzle, its author `joining` the group's board. A
    /// mark on the paste, not a line of chat: the texts are said only where a platform has no reactions. The same
    /// result pasted again (the Copy button's, once more) is already counted, and marked so as kindly; another
    /// result for a puzzle already counted is marked as changing nothing.
    private func count(
        _ result: BoardResult, periods: [PeriodKey], joining: Bool, in turn: Turn, counted: String, duplicate: String
    ) async throws -> Reply {
        var reply = joining ? try await groupBoards.addToBoard(in: turn).reply : Reply()
        let first = try await reads(turn).result(
            of: result.player, in: result.chat, board: result.board, puzzle: result.puzzle)
        if first == nil { reply.writes.append(.boardResult(result, periods: periods)) }
        let standing = first.map { $0.guesses == result.guesses && $0.hardMode == result.hardMode } ?? true
        reply.messages.append(
            turn.reaction(standing ? .counted : .notCounted, otherwise: first == nil ? counted : duplicate))
        return reply
    }

    /// An edited message: edits never change what was counted, so they are not read again. A share edited
    /// into or within a group message gets a short notice; any other edit is ignored.
    func edited(in turn: Turn) -> Reply {
        guard turn.isGroup, let share = SharedResult(parsing: turn.message.text), isCounted(share) else {
            return Reply()
        }
        return turn.reply(turn.texts.editIgnored)
    }
}
