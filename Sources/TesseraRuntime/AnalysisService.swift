import Foundation
import ServiceLifecycle
import TesseraCore
import TesseraEngine

/// Works out the analyses of one platform's finished games (``BotEngine/analysisJobs(on:limit:in:)``), outside
/// the path of replies, every ``BotRuntime/Configuration/analysisInterval`` while games wait. Each runs on a
/// thread of its own (a fraction of a second for a first guess the opening book knows, a minute for one nobody
/// has studied, whose total is then kept), and an analysis the player asked to see is posted when it is stored.
/// The solver's tables, tens of megabytes, are given up whenever no game waits.
struct AnalysisService<RuntimeClock: Clock>: Service where RuntimeClock.Duration == Duration {
    let platform: Platform
    let store: any GameStore
    let engine: BotEngine
    let activity: PlatformActivity
    let interval: Duration
    let clock: RuntimeClock
    let retrier: Retrier<RuntimeClock>
    let analyst = GameAnalyst()

    /// Games taken from the store at a time.
    static var batch: Int { 16 }

    func run() async throws {
        let (engine, platform) = (self.engine, self.platform)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let jobs = try await retrier.storage("finding games to analyse") {
                try await store.write { try await engine.analysisJobs(on: platform, limit: Self.batch, in: $0) }
            }
            do {
                // Games whose first guess's total is known go first: one that needs a search (minutes) then holds
                // up none of the others taken with it.
                var quick: [AnalysisJob] = []
                var searched: [AnalysisJob] = []
                for job in jobs {
                    if try await keptFirstGuess(of: job).known { quick.append(job) } else { searched.append(job) }
                }
                for job in quick + searched { try await analyse(job) }
                if jobs.isEmpty {
                    analyst.release()
                    try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
                }
            } catch is CancellationError {
                // Shutting down: the game in hand stays waiting for the next start.
                return
            }
        }
    }

    /// Where the job's first guess's total is kept outside the opening book, and that total if it is;
    /// `known` when the analysis needs no search for it (the book has it, or it was kept).
    private func keptFirstGuess(of job: AnalysisJob) async throws -> (key: String?, kept: String?, known: Bool) {
        guard let key = engine.keptFirstGuessKey(of: job, analyst: analyst) else { return (nil, nil, true) }
        let kept = try await retrier.storage("reading a first guess's total") { try await store.setting(key) }
        return (key, kept, kept != nil)
    }

    /// Analyses a game, keeps its first guess's total if it had to be searched, stores the analysis, and rings
    /// the sender when it was posted.
    private func analyse(_ job: AnalysisJob) async throws {
        let (engine, analyst) = (self.engine, self.analyst)
        // Read again: an earlier game of the batch may have kept it.
        let (key, kept, _) = try await keptFirstGuess(of: job)
        let outcome = try await cancelWhenGracefulShutdown {
            try await onOwnThread { stop in engine.analyse(job, kept: kept, with: analyst, stop: stop) }
        }
        if let key, case .success(let analysed) = outcome, analysed.searchedFirstGuess {
            try await retrier.storage("keeping a first guess's total") {
                try await store.setSetting(key, BotEngine.keptText(analysed.firstGuessTotal))
            }
        }
        let posted = try await retrier.storage("storing an analysis") {
            try await store.write { try await engine.finish(job, outcome, in: $0) }
        }
        if posted { activity.outbox.ring() }
    }
}

extension AnalysisService: CustomStringConvertible {
    var description: String { "AnalysisService(\(platform))" }
}
