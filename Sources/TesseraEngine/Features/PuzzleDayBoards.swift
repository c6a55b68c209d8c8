import Foundation
import TesseraCore

/// The boards of the publisher's puzzles that members paste, beside the original Wordle's: one a game
/// (`/leaderboard official connections|strands|mini [yesterday]`), and the day's puzzles of every member under
/// the official Wordle board (`Ann — Wordle 3/6 · Connections 0 mistakes · Strands no hints · Mini 0:41`).
/// They rank pasted results only: Tessera's own boards never see them.
struct PuzzleDayBoards: Feature {
    typealias Reads = any BoardReads
    static func slice(_ reads: any StoreReads) -> Reads { reads }

    /// The games a board of `/leaderboard official` names, as their players call them in every language.
    static func game(named word: String) -> PuzzleShare.Game? {
        PuzzleShare.Game.allCases.first { TextFormat.name(of: $0).lowercased() == word }
    }

    /// One game's results of a day (the group's date, or the day before): fewest mistakes, hints or seconds first,
    /// unsolved last, equal results sharing a place, the earlier paste listed first.
    func board(of game: PuzzleShare.Game, yesterday: Bool, group: Group, in turn: Turn) async throws -> RichLayout {
        let day = date(of: group, at: turn.now, yesterday: yesterday)
        let puzzle = game.schedule.puzzle(on: day)
        let results = Ranking.inFinishingOrder(
            try await reads(turn).results(in: group.chat, board: BoardKind(game), puzzle: puzzle))
        guard !results.isEmpty else {
            return RichLayout([.text(turn.texts.leaderboardEmpty(BoardKind(game), puzzle: puzzle))])
        }
        let shown = Array(results.prefix(Ranking.boardLines + 1))
        let places = Ranking.places(shown.map(\.result.guesses))
        let lines = shown.enumerated().map { index, entry in
            BoardRows.row(
                place: Ranking.place(places[index], medal: entry.result.guesses != nil), name: entry.name,
                result: turn.texts.otherPuzzleScore(game, measure: entry.result.guesses))
        }
        return turn.texts.otherPuzzleBoard(
            game, puzzle: puzzle, yesterday: yesterday,
            lines: BoardRows.shorten(lines, total: results.count, texts: turn.texts))
    }

    /// Every member's results of the day's puzzles, one line each, in the order of their names: empty when
    /// nobody pasted another game than Wordle that day (the Wordle board says it all then). Four reads.
    func dayLines(
        wordle: [(name: String, result: BoardResult)], group: Group, yesterday: Bool, in turn: Turn
    ) async throws -> [String] {
        let day = date(of: group, at: turn.now, yesterday: yesterday)
        var parts: [UserID: (name: String, scores: [String])] = [:]
        for entry in wordle { parts[entry.result.player] = (entry.name, ["Wordle " + TextFormat.score(entry.result)]) }
        var others = false
        for game in PuzzleShare.Game.allCases {
            for entry in try await reads(turn).results(
                in: group.chat, board: BoardKind(game), puzzle: game.schedule.puzzle(on: day))
            {
                others = true
                let score =
                    TextFormat.name(of: game) + " " + turn.texts.otherPuzzleScore(game, measure: entry.result.guesses)
                parts[entry.result.player, default: (entry.name, [])].scores.append(score)
            }
        }
        guard others else { return [] }
        let members = parts.values.sorted { $0.name < $1.name }
        let lines = members.prefix(Ranking.boardLines + 1).map {
            RichLayout.Row.note("\(TextFormat.boardName($0.name)) — " + $0.scores.joined(separator: " · "))
        }
        return BoardRows.shorten(lines, total: members.count, texts: turn.texts).map(\.line)
    }

    /// The group's date, as the official board counts it, or the day before.
    private func date(of group: Group, at now: Date, yesterday: Bool) -> CivilDate {
        let today = DailySchedule.wordle.day(of: group.officialPuzzle(at: now))
        return yesterday ? today.adding(days: -1) : today
    }
}
