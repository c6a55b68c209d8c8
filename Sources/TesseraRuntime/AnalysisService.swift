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
                for job in jobs { try await analyse(job) }
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

    private func analyse(_ job: AnalysisJob) async throws {
        let (engine, analyst) = (self.engine, self.analyst)
        let key = engine.keptFirstGuessKey(of: job, analyst: analyst)
        let kept: String? =
            if let key {
                try await retrier.storage("reading a first guess's total") { try await store.setting(key) }
            } else { nil }
        let outcome = try await cancelWhenGracefulShutdown {
            try await onOwnThread { engine.analyse(job, kept: kept, with: analyst) }
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
