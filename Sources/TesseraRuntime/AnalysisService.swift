import Foundation
import ServiceLifecycle
import Synchronization
import TesseraCore
import TesseraEngine

/// Works out the analyses of one platform's finished games (``BotEngine/analysisJobs(on:limit:in:)``), outside
/// the path of replies, in two lanes that each read the store again before every game (``AnalysisQueue``): one
/// for games whose first guess's total is known, one for those that need it searched. Each game's analysis runs
/// on a thread of its own at the lowest priority and spends at most the engine's budget
/// (``EngineConfiguration/analysisBudget``); a first guess's total found by a search, or its bounds, is kept,
/// so no later game searches it again. An analysis the player asked to see is posted when it is stored. A lane's
/// solver tables and memo, tens of megabytes, are kept from game to game and given up whenever it has no game.
struct AnalysisService: PlatformService {
    let context: PlatformContext
    /// How long a lane with no game waits before reading the store again.
    let interval: Duration
    private let shared = Shared()
    /// Where the service's clock started: the per-player share counts from it.
    private let started: ServiceClock.Instant
    /// Works out the lists' fingerprints that key kept totals; it builds no tables.
    private let fingerprints = GameAnalyst()

    init(context: PlatformContext, interval: Duration) {
        self.context = context
        self.interval = interval
        started = context.clock.now
    }

    func run() async throws {
        // A lane that fails ends the other: the service throws, and the group decides.
        try await withThrowingDiscardingTaskGroup { group in
            for lane in AnalysisQueue.Lane.allCases {
                group.addTask { try await run(lane) }
            }
        }
    }

    private func run(_ lane: AnalysisQueue.Lane) async throws {
        let analyst = GameAnalyst()
        do {
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                guard let job = try await next(for: lane) else {
                    analyst.release()
                    try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
                    continue
                }
                defer { shared.queue.withLock { $0.finish(job) } }
                try await analyse(job, with: analyst)
            }
        } catch is CancellationError {
            // Shutting down: the game in hand stays waiting for the next start.
        }
    }

    /// Reads the waiting games and takes the next of `lane`'s.
    private func next(for lane: AnalysisQueue.Lane) async throws -> AnalysisJob? {
        let (engine, platform) = (self.engine, self.platform)
        let limit = shared.queue.withLock { $0.readLimit }
        let jobs = try await retrier.storage("finding games to analyse") {
            try await store.write { try await engine.analysisJobs(on: platform, limit: limit, in: $0) }
        }
        var waiting: [(job: AnalysisJob, lane: AnalysisQueue.Lane)] = []
        for job in jobs {
            waiting.append((job, try await keptFirstGuess(of: job, asked: .recently).known ? .known : .search))
        }
        return shared.queue.withLock { $0.next(for: lane, among: waiting) }
    }

    /// How fresh a kept total must be: sorting games into lanes may use what this service learned before; an
    /// analysis reads the store again, since another platform's service may have kept it meanwhile.
    private enum Freshness {
        case recently
        case now
    }

    /// Where the job's first guess's total is kept outside the opening book, and that total if it is;
    /// `known` when the analysis needs no search for it (the book has it, or it was kept).
    private func keptFirstGuess(of job: AnalysisJob, asked freshness: Freshness) async throws
        -> (key: String?, kept: String?, known: Bool)
    {
        guard let key = engine.keptFirstGuessKey(of: job, analyst: fingerprints) else {
            return (nil, nil, true)
        }
        if let known = shared.keptTotals.withLock({ $0[key] }), known != nil || freshness == .recently {
            return (key, known, known != nil)
        }
        let kept = try await retrier.storage("reading a first guess's total") { try await store.setting(key) }
        shared.keptTotals.withLock { $0[key] = .some(kept) }
        return (key, kept, kept != nil)
    }

    /// Analyses a game, keeps its first guess's total if it had to be searched, stores the analysis, and rings
    /// the sender when it was posted.
    private func analyse(_ job: AnalysisJob, with analyst: GameAnalyst) async throws {
        let engine = self.engine
        // Read again: the other lane, or another platform's service, may have kept it meanwhile.
        let (key, kept, known) = try await keptFirstGuess(of: job, asked: .now)
        let seconds = started.duration(to: clock.now).seconds
        let search = known || shared.queue.withLock { $0.takeSearchShare(of: job.player, at: seconds) }
        let outcome = try await cancelWhenGracefulShutdown {
            try await onOwnThread { stop in
                engine.analyse(job, kept: kept, with: analyst, searchFirstGuess: search, stop: stop)
            }
        }
        // Kept only from a search with the first guess's whole budget (or one that came out exact): bounds from a
        // player past their share would otherwise stand for that opener in everyone's later games.
        if let key, case .success(let analysed) = outcome, analysed.searchedFirstGuess,
            search || analysed.firstGuessTotal.isExact
        {
            let text = BotEngine.keptText(analysed.firstGuessTotal)
            try await retrier.storage("keeping a first guess's total") { try await store.setSetting(key, text) }
            shared.keptTotals.withLock { $0[key] = .some(text) }
        }
        let posted = try await retrier.storage("storing an analysis") {
            try await store.write { try await engine.finish(job, outcome, in: $0) }
        }
        if posted { activity.outbox.ring() }
    }
}

/// What the lanes share.
private final class Shared: Sendable {
    let queue = Mutex(AnalysisQueue())
    /// First guesses' totals kept in the store, by setting key, as far as this service has read or kept them
    /// (nil: not kept when last read), so that sorting a queue of searches reads each opener once.
    let keptTotals = Mutex<[String: String?]>([:])
}

extension AnalysisService: CustomStringConvertible {
    var description: String { "AnalysisService(\(platform))" }
}
