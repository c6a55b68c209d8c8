import Foundation
import GRDB
import GRDBSQLite
import TesseraCore
import TesseraEngine
import TesseraSQL

/// Analyses (``AnalysisStorage``) as SQLite runs them: the waiting games and saving one; the rest are shared
/// (`SQLTransaction+Analyses.swift`).
extension SQLiteTransaction {
    /// The row of one game an analysis is of: a daily game in `game`, or a practice game in `practice_game`.
    struct AnalysedRow {
        let table: String
        let clause: String
        let arguments: StatementArguments

        static func daily(_ key: Int64, _ language: Language, _ puzzle: PuzzleNumber) -> AnalysedRow {
            AnalysedRow(
                table: "game", clause: "player_id = ? AND language = ? AND puzzle = ?",
                arguments: [key, language.rawValue, puzzle.rawValue])
        }

        static func practice(_ key: Int64, _ number: Int) -> AnalysedRow {
            AnalysedRow(table: "practice_game", clause: "player_id = ? AND number = ?", arguments: [key, number])
        }
    }

    /// Waiting games of a table, in the order ``GameStoreTransaction/pendingAnalyses(on:limit:)`` gives.
    private func pendingAnalyses(in table: String, on platform: Platform?, limit: Int) throws -> [Row] {
        try db.cachedRows(
            sql: """
                SELECT \(table).*, player.platform, player.account FROM \(table)
                JOIN player ON player.id = \(table).player_id
                WHERE \(table).analysis_state IN \(AnalysisState.waitingList) AND (?1 IS NULL OR player.platform = ?1)
                ORDER BY \(table).analysis_state DESC, \(table).finished_at LIMIT ?2
                """,
            arguments: [platform?.rawValue, limit])
    }

    func pendingAnalyses(on platform: Platform?, limit: Int) throws -> [StoredGame] {
        try pendingAnalyses(in: "game", on: platform, limit: limit).map { row in
            try Self.game(row, of: try Self.user(row))
        }
    }

    func pendingPracticeAnalyses(on platform: Platform?, limit: Int) throws -> [PracticeGame] {
        try pendingAnalyses(in: "practice_game", on: platform, limit: limit).map { row in
            try Self.checked("practice_game") { try SQLRow(row).practiceGame(of: try Self.user(row)) }
        }
    }

    func saveAnalysis(_ json: String?, of player: UserID, language: Language, puzzle: PuzzleNumber) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        return try saveAnalysis(json, of: .daily(key, language, puzzle))
    }

    func savePracticeAnalysis(_ json: String?, of player: UserID, number: Int) throws -> Bool {
        guard let key = try rowID(of: player) else { return false }
        return try saveAnalysis(json, of: .practice(key, number))
    }

    private func saveAnalysis(_ json: String?, of row: AnalysedRow) throws -> Bool {
        let state = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT analysis_state FROM \(row.table) WHERE \(row.clause)"),
            arguments: row.arguments)
        guard let state, state == AnalysisState.pending.rawValue || state == AnalysisState.shown.rawValue else {
            return false
        }
        try db.executeCached(
            sql: "UPDATE \(row.table) SET analysis_state = ?, analysis = ? WHERE \(row.clause)",
            arguments: [AnalysisState.finished(json).rawValue, json] + row.arguments)
        return state == AnalysisState.shown.rawValue
    }

    func analyses(of player: UserID) throws -> [DailyGameKey: String] {
        guard let key = try rowID(of: player) else { return [:] }
        var analyses: [DailyGameKey: String] = [:]
        for row in try db.cachedRows(
            sql:
                "SELECT language, puzzle, analysis FROM game WHERE player_id = ? AND analysis_state = \(AnalysisState.done.rawValue)",
            arguments: [key])
        {
            let code: String = try row.required("language", in: "game")
            guard let language = Language(rawValue: code) else {
                throw SQLiteStoreError.damagedRow(table: "game", column: "language")
            }
            analyses[DailyGameKey(language: language, puzzle: PuzzleNumber(try row.required("puzzle", in: "game")))] =
                try row.required("analysis", in: "game")
        }
        return analyses
    }

    func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) throws -> [UserID: String] {
        var analyses: [UserID: String] = [:]
        for player in players {
            analyses[player] = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT analysis FROM game
                        WHERE player_id = (SELECT id FROM player WHERE platform = ? AND account = ?)
                            AND language = ? AND puzzle = ? AND analysis_state = \(AnalysisState.done.rawValue)
                        """),
                arguments: [player.platform.rawValue, Self.account(player), language.rawValue, puzzle.rawValue])
        }
        return analyses
    }
}
