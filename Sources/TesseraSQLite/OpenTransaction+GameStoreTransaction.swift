import Foundation
import GRDB
import TesseraCore
import TesseraEngine
import TesseraSQL

/// The engine's transaction: each call runs its SQL (``SQLiteTransaction``) on the open transaction's connection.
extension OpenTransaction: SQLTransaction {
    private func sql<Result: Sendable>(
        _ body: @escaping @Sendable (SQLiteTransaction) throws -> Result
    ) async throws -> Result {
        try await run { db in try body(SQLiteTransaction(db: db)) }
    }

    func load(_ needs: BatchNeeds) async throws -> BatchValues {
        guard !needs.isEmpty else { return BatchValues() }
        return try await sql { try $0.load(needs) }
    }

    func apply(_ changes: BatchChanges) async throws {
        guard !changes.isEmpty else { return }
        do {
            // The shared statements first (each at once, on this connection), then SQLite's own.
            for chat in changes.activeChats { try await noteActivity(in: chat) }
            for player in changes.players.values { try await save(player) }
            for game in changes.games.values { try await save(game) }
            for group in changes.groups.values { try await save(group) }
            for (key, show) in changes.analyses {
                try await requestAnalysis(of: key.player, language: key.language, puzzle: key.puzzle, show: show)
            }
            for (result, totals) in changes.results { _ = try await record(result, totals: totals) }
            try await enqueue(changes.messages)
        } catch let error where !SQLiteGameStore.isTransient(error) {
            throw BatchWriteFailure(error: error)
        }
    }

    func pendingAnalyses(on platform: Platform?, limit: Int) async throws -> [StoredGame] {
        try await sql { try $0.pendingAnalyses(on: platform, limit: limit) }
    }
    func pendingPracticeAnalyses(on platform: Platform?, limit: Int) async throws -> [PracticeGame] {
        try await sql { try $0.pendingPracticeAnalyses(on: platform, limit: limit) }
    }
    func savePracticeAnalysis(_ json: String?, of player: UserID, number: Int) async throws -> Bool {
        try await sql { try $0.savePracticeAnalysis(json, of: player, number: number) }
    }
    func saveAnalysis(_ json: String?, of player: UserID, language: Language, puzzle: PuzzleNumber) async throws
        -> Bool
    {
        try await sql { try $0.saveAnalysis(json, of: player, language: language, puzzle: puzzle) }
    }
    func analyses(of players: [UserID], language: Language, puzzle: PuzzleNumber) async throws -> [UserID: String] {
        try await sql { try $0.analyses(of: players, language: language, puzzle: puzzle) }
    }
    func activeGroups(on platform: Platform?) async throws -> [Group] {
        try await sql { try $0.activeGroups(on: platform) }
    }
    func groups(crowning player: UserID) async throws -> [Group] { try await sql { try $0.groups(crowning: player) } }
    func addMember(_ player: UserID, to chat: ChatID, joinedPuzzle: PuzzleNumber) async throws -> Bool {
        try await sql { try $0.addMember(player, to: chat, joinedPuzzle: joinedPuzzle) }
    }
    func standings(in chat: ChatID, board: BoardKind, period: PeriodKey) async throws -> [Standing] {
        try await sql { try $0.standings(in: chat, board: board, period: period) }
    }
    func memberDays(in chat: ChatID, withoutResultFor puzzle: PuzzleNumber, orOfficial official: PuzzleNumber)
        async throws -> [MemberDay]
    {
        try await sql { try $0.memberDays(in: chat, withoutResultFor: puzzle, orOfficial: official) }
    }
    func results(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [(
        name: String, result: BoardResult
    )] { try await sql { try $0.results(in: chat, board: board, puzzle: puzzle) } }
    func crowns(
        of players: [UserID], in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber
    ) async throws -> [UserID: Int] {
        try await sql { try $0.crowns(of: players, in: chat, board: board, from: first, through: last) }
    }
    func firstResults(in chat: ChatID, of days: [BoardDay], limit: Int) async throws -> [BoardKind: FirstResults] {
        try await sql { try $0.firstResults(in: chat, of: days, limit: limit) }
    }
    func dayMembers(in chat: ChatID, board: BoardKind, puzzle: PuzzleNumber) async throws -> [DayMember] {
        try await sql { try $0.dayMembers(in: chat, board: board, puzzle: puzzle) }
    }
    func records(in chat: ChatID, board: BoardKind, from first: PuzzleNumber, through last: PuzzleNumber)
        async throws -> [UserID: BoardRecord]
    { try await sql { try $0.records(in: chat, board: board, from: first, through: last) } }
    func unfinished(in chat: ChatID, language: Language, puzzle: PuzzleNumber) async throws -> [(
        name: String, guesses: Int
    )] { try await sql { try $0.unfinished(in: chat, language: language, puzzle: puzzle) } }
    func analyses(of player: UserID) async throws -> [DailyGameKey: String] {
        try await sql { try $0.analyses(of: player) }
    }
    func forget(_ player: UserID) async throws -> Bool {
        defer { ids.forgetAll() }
        let directChat = try await self.player(player)?.directChat
        return try await sql { try $0.forget(player, directChat: directChat) }
    }
    func playersWithReminders() async throws -> [Player] { try await sql { try $0.playersWithReminders() } }
    func moveChat(from old: ChatID, to new: ChatID) async throws {
        defer { ids.forgetAll() }
        try await sql { try $0.moveChat(from: old, to: new) }
    }

    /// A savepoint around `body`, which may suspend: SQLite's own savepoint statements, as GRDB's
    /// `inSavepoint` takes only a synchronous body.
    func isolated(_ body: () async throws -> Void) async throws {
        try await run { db in try db.execute(sql: "SAVEPOINT isolated") }
        do {
            try await body()
        } catch {
            // Rows the body created are gone again, and so must their ids be.
            ids.forgetAll()
            try await run { db in try db.execute(sql: "ROLLBACK TO SAVEPOINT isolated; RELEASE SAVEPOINT isolated") }
            throw error
        }
        try await run { db in try db.execute(sql: "RELEASE SAVEPOINT isolated") }
    }
}
