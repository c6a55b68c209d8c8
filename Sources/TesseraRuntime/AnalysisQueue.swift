import TesseraEngine

/// Which waiting game each lane of the ``AnalysisService`` analyses next: the decisions alone, without the store
/// or the solver, so that tests can check the order.
///
/// - Two lanes, each on a thread of its own: **known** takes games whose first guess's total is known (the
///   opening book's, or one kept from an earlier search), whose analysis is cheap; **search** takes the others.
///   So a cheap game never waits behind a search, whatever anyone presses.
/// - Known games go oldest first. Searches go by player, in turn: the player whose last search started longest
///   ago (or never) goes next, with their oldest game. A player's searches are their share: one waits at most a
///   budget's time for each other player's search ahead of it, however many games someone else queues.
/// - A player's share: ``searchesPerPlayerPerDay`` searches of a first guess's total in any 24 hours get the
///   budget's ``Solver/Budget/firstGuessSteps``; past them, the player's unknown openers get a game's steps
///   (bounds not kept, so that the opener's full search is still made for a later game), so one account cannot
///   keep the search lane busy for long.
/// - Each lane reads the store again before every game. The read takes ``window`` games more than the searches
///   seen waiting and the games in hand, so that searches at the head of the store's order never hide a known
///   game behind them.
struct AnalysisQueue: Sendable {
    enum Lane: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case known
        case search

        var description: String {
            switch self {
            case .known: "known"
            case .search: "search"
            }
        }
    }

    /// Games a read takes beyond the searches waiting and the games in hand.
    static let window = 16

    /// Deep searches of a first guess's total a player may start in any 24 hours.
    static let searchesPerPlayerPerDay = 3

    private var inHand: Set<AnalysisJob.ID> = []
    /// When each player's deep searches of the last 24 hours started, in seconds on the service's clock.
    private var deepSearches: [UserID: [Double]] = [:]
    /// When each player waiting for a search last had one started (the count of searches started then).
    private var lastSearch: [UserID: Int] = [:]
    private var searchesStarted = 0
    private var searchesWaiting = 0

    /// How many waiting games the next read should take.
    var readLimit: Int { Self.window + searchesWaiting + inHand.count }

    /// The game `lane` should analyse next of `waiting` (as read, each with its lane), now in hand; nil when the
    /// lane has none.
    mutating func next(for lane: Lane, among waiting: [(job: AnalysisJob, lane: Lane)]) -> AnalysisJob? {
        let searches = waiting.filter { $0.lane == .search }
        searchesWaiting = searches.count
        // Forget the turns of players with no search waiting: the record stays as small as the queue.
        let searching = Set(searches.map(\.job.player))
        lastSearch = lastSearch.filter { searching.contains($0.key) }
        let open = waiting.filter { $0.lane == lane && !inHand.contains($0.job.id) }.map(\.job)
        let chosen: AnalysisJob?
        switch lane {
        case .known:
            chosen = open.min { $0.finishedAt < $1.finishedAt }
        case .search:
            // Players in turn, then each one's oldest game.
            chosen = open.min {
                let (first, second) = (lastSearch[$0.player] ?? -1, lastSearch[$1.player] ?? -1)
                return first < second || (first == second && $0.finishedAt < $1.finishedAt)
            }
            if let chosen {
                lastSearch[chosen.player] = searchesStarted
                searchesStarted += 1
            }
        }
        if let chosen { inHand.insert(chosen.id) }
        return chosen
    }

    /// Whether `player` may have a deep search of a first guess's total at `seconds` (on the service's clock),
    /// which then counts against their share.
    mutating func takeSearchShare(of player: UserID, at seconds: Double) -> Bool {
        let day = 86_400.0
        deepSearches = deepSearches.compactMapValues { starts in
            let recent = starts.filter { $0 > seconds - day }
            return recent.isEmpty ? nil : recent
        }
        guard (deepSearches[player]?.count ?? 0) < Self.searchesPerPlayerPerDay else { return false }
        deepSearches[player, default: []].append(seconds)
        return true
    }

    /// A game in hand is done with (analysed, or left for the next try).
    mutating func finish(_ job: AnalysisJob) { inHand.remove(job.id) }
}
