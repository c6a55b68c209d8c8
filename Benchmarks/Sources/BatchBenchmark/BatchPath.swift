import Foundation
import TesseraCore
import TesseraEngine
import TesseraPostgres

// How this build of Tessera applies a batch, as its receive service does (ReceiveService.apply): the one file of
// the benchmark that changes between builds. Issue 42's build declares what the batch reads, loads it with the
// position and writes the changes with the new one (BatchWork); the build before it handled each message on the
// store in a savepoint of its own. To measure the build before, run this benchmark in a worktree of it with
// BatchPath-before.swift.txt in this file's place.

/// Applies `messages` as one batch moving the position from `position` to `next`; returns the guesses accepted.
func applyBatch(
    _ messages: [ChatMessage], from position: String?, to next: String, at now: Date, engine: BotEngine,
    store: any GameStore
) async throws -> Int {
    let plan = engine.plan(for: messages, at: now)
    return try await store.processBatch(transport: "benchmark", from: position, to: next, loading: plan.needs) {
        transaction, values in
        let work = BatchWork(plan, loaded: values, store: transaction)
        let outcomes = try await engine.handle(messages, at: { now }, in: work)
        return (outcomes.filter { $0.acceptedGuess != nil }.count, work.changes)
    } ?? 0
}

/// The statements the store counted itself, where it counts them.
func statementsSent(_ store: any GameStore) -> Int? {
    (store as? PostgresGameStore)?.statementsSent
}

let buildName = "issue 42 (batches loaded and written at once)"
