import Foundation
import TesseraCore

/// Results pasted into a chat: the original Wordle's count on the group's official board; our own are
/// recognised, and only the game played here counts.
extension BotEngine {
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
    func pasted(_ share: SharedResult, context: inout Context) async throws {
        guard let group = context.group else {
            context.reply(context.texts.pasteInGroup)
            return
        }
        let name = context.player.displayName
        if isOwn(share), share.kind != .daily { return context.take(practice.pasted(in: context.turn)) }
        if isOwn(share) {
            let joined = try await addToBoard(&context)
            context.react(
                joined ? .counted : .notCounted,
                otherwise: joined ? context.texts.joined(name: name) : context.texts.alreadyJoined(name: name))
            return
        }
        let today = group.officialPuzzle(at: context.now)
        guard share.puzzle.rawValue <= today.rawValue + 1 else {
            context.reply(context.texts.officialNotOpen(puzzle: share.puzzle))
            return
        }
        guard share.puzzle.rawValue >= today.rawValue - 1 else {
            context.reply(context.texts.officialClosed(puzzle: share.puzzle, today: today))
            return
        }
        try await addToBoard(&context)
        let result = BoardResult(
            chat: group.chat, board: .official, puzzle: share.puzzle, player: context.player.id,
            language: .english, guesses: share.result.guesses, hardMode: share.isHardMode, finishedAt: context.now)
        let recorded = try await count(
            result, periods: BoardPeriod.keys(of: share.puzzle, schedule: .wordle), store: context.store)
        // A mark on the paste, not a line of chat: a text reply only when there is something to learn.
        context.react(
            recorded ? .counted : .notCounted,
            otherwise: recorded
                ? context.texts.officialCounted(name: name, share: share)
                : context.texts.officialDuplicate(name: name, puzzle: share.puzzle))
    }

    /// An edited message: edits never change what was counted, so they are not read again. A share edited
    /// into or within a group message gets a short notice; any other edit is ignored.
    func edited(context: inout Context) {
        guard context.isGroup, let share = SharedResult(parsing: context.message.text), isCounted(share) else { return }
        context.reply(context.texts.editIgnored)
    }
}
