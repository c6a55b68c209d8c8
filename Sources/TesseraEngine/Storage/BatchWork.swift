import Foundation
import Logging
import Synchronization
public import TesseraCore

/// One batch's work on the values its store loaded at once (``BatchNeeds``), each message's changes kept to be
/// written together at the end (``changes``): a batch costs the same few round trips, whatever its size.
///
/// It answers only ``MessageStorage``, and of it only what was loaded. A message that reads anything else, or
/// asks for the store itself (``whole``, ``reads``), is handled again on the store, in a savepoint, after what the batch
/// changed so far is written; the values of the messages still to come are loaded again, in one read, before the
/// next. So a message sees what the messages before it did, whichever way each was handled.
public final class BatchWork: MessageStorage {
    /// Thrown inside a message's fast handling for what the loaded values do not cover: handled on the store.
    struct NeedsStore: Error {}

    /// The store failed under the batch (loading, or writing what earlier messages changed): the whole batch
    /// fails, as a failed transaction does, and is tried again; never only the message that happened to be next.
    public struct StoreFailure: Error {
        public let error: any Error
    }

    private struct State {
        /// nil once a message was handled on the store: loaded again before the next.
        var values: BatchValues?
        /// What ``values`` were loaded for.
        var loaded: BatchNeeds
        var changes = BatchChanges()
        /// The next message's place in ``BatchWork/needs``.
        var next = 0
        /// What the message being handled changed, as it was before: undone, newest first, when it fails. (A copy
        /// of the state before each message would copy every value loaded, for each message of the batch.)
        var undo: [Undo] = []

        mutating func rollBack(to mark: Int) {
            while undo.count > mark {
                switch undo.removeLast() {
                case .player(let id, let value, let change):
                    values?.players[id] = value
                    changes.players[id] = change
                case .game(let key, let value, let change, let analysis):
                    values?.games[key] = value
                    changes.games[key] = change
                    changes.analyses[key] = analysis
                case .group(let chat, let value, let change):
                    values?.groups[chat] = value
                    changes.groups[chat] = change
                case .messages(let count, let waiting):
                    changes.messages.removeLast(changes.messages.count - count)
                    for (chat, count) in waiting { values?.pendingCounts[chat] = count }
                case .active(let chat):
                    changes.activeChats.remove(chat)
                case .record(let totals):
                    changes.results.removeLast()
                    for (period, total) in totals { values?.totals[period] = total }
                }
            }
        }
    }

    /// One change of a message, as it was before.
    private enum Undo {
        case player(UserID, Player?, Player?)
        case game(GameKey, StoredGame?, StoredGame?, Bool?)
        case group(ChatID, Group?, Group?)
        /// The replies queued before, and the counts of waiting messages of the chats queued to.
        case messages(Int, [ChatID: Int?])
        /// A chat noted active that was not.
        case active(ChatID)
        /// A result counted, and the totals it replaced.
        case record([TotalsKey: BoardTotals?])
    }

    private let store: any GameStoreTransaction
    /// What each message of the batch needs, in order.
    private let needs: [BatchNeeds]
    private let state: Mutex<State>

    /// `plan`: what the batch's messages need, as the store loaded it (`values`).
    public init(_ plan: BatchPlan, loaded values: BatchValues, store: any GameStoreTransaction) {
        self.store = store
        self.needs = plan.messages
        self.state = Mutex(State(values: values, loaded: plan.needs))
    }

    /// What the batch changed and has not written yet.
    public var changes: BatchChanges { state.withLock { $0.changes } }

    /// Handles one message: on the loaded values, or, when it needs more, on the store in a savepoint. An error
    /// of the message undoes its changes only and is rethrown; a failure of the store throws ``StoreFailure``.
    public func run(_ body: (any MessageStorage) async throws -> Void) async throws {
        let stale = state.withLock { state in
            defer { state.next += 1 }
            return state.values == nil ? BatchNeeds.union(needs.dropFirst(state.next)) : nil
        }
        if let stale {
            let values: BatchValues
            do { values = try await store.load(stale) } catch { throw StoreFailure(error: error) }
            state.withLock { ($0.values, $0.loaded) = (values, stale) }
        }
        do {
            try await body(self)
            state.withLock { $0.undo.removeAll(keepingCapacity: true) }
            return
        } catch is NeedsStore {
            state.withLock { $0.rollBack(to: 0) }
        } catch {
            state.withLock { $0.rollBack(to: 0) }
            throw error
        }
        let earlier = state.withLock { state in
            defer { (state.values, state.changes) = (nil, BatchChanges()) }
            return state.changes
        }
        do {
            if !earlier.isEmpty { try await store.apply(earlier) }
        } catch {
            throw StoreFailure(error: error)
        }
        try await store.isolated { try await body(store) }
    }

    /// The loaded value at `key`, if `known` says it was loaded (or the batch saved it); else the store is needed.
    private func loaded<Value>(_ read: (BatchValues) -> Value?, known: (BatchNeeds) -> Bool) throws -> Value? {
        try state.withLock { state in
            guard let values = state.values else { throw NeedsStore() }
            if let value = read(values) { return value }
            guard known(state.loaded) else { throw NeedsStore() }
            return nil
        }
    }

    private func change(_ body: (inout State) throws -> Void) throws {
        try state.withLock { state in
            guard state.values != nil else { throw NeedsStore() }
            try body(&state)
        }
    }

    // MARK: - What the loaded values answer

    /// Not loaded: the message is handled on the store.
    public var whole: any GameStoreTransaction { get throws { throw NeedsStore() } }
    public var reads: any StoreReads { get throws { throw NeedsStore() } }

    public func player(_ id: UserID) async throws -> Player? {
        try loaded({ $0.players[id] }, known: { $0.players.contains(id) })
    }

    public func save(_ player: Player) async throws {
        try change { state in
            state.undo.append(.player(player.id, state.values?.players[player.id], state.changes.players[player.id]))
            state.values?.players[player.id] = player
            state.changes.players[player.id] = player
        }
    }

    public func game(of player: UserID, language: Language, puzzle: PuzzleNumber) async throws -> StoredGame? {
        let key = GameKey(player: player, language: language, puzzle: puzzle)
        return try loaded(
            { $0.games[key] }, known: { $0.players.contains(player) && $0.puzzles?.contains(puzzle) == true })
    }

    public func save(_ game: StoredGame) async throws {
        try change { state in
            let key = game.key
            state.undo.append(
                .game(key, state.values?.games[key], state.changes.games[key], state.changes.analyses[key]))
            state.values?.games[key] = game
            state.changes.games[key] = game
        }
    }

    public func requestAnalysis(of player: UserID, language: Language, puzzle: PuzzleNumber, show: Bool) async throws {
        let key = GameKey(player: player, language: language, puzzle: puzzle)
        try change { state in
            // Only of a game this batch writes: the request goes with it.
            guard state.changes.games[key] != nil else { throw NeedsStore() }
            state.undo.append(
                .game(key, state.values?.games[key], state.changes.games[key], state.changes.analyses[key]))
            state.changes.analyses[key] = state.changes.analyses[key] == true || show
        }
    }

    public func group(_ chat: ChatID) async throws -> Group? {
        try loaded({ $0.groups[chat] }, known: { $0.groups.contains(chat) })
    }

    public func save(_ group: Group) async throws {
        try change { state in
            state.undo.append(.group(group.chat, state.values?.groups[group.chat], state.changes.groups[group.chat]))
            state.values?.groups[group.chat] = group
            state.changes.groups[group.chat] = group
        }
    }

    public func groups(of player: UserID) async throws -> [Group] {
        try loaded(
            { values in values.memberships[player].map { $0.compactMap { values.groups[$0] } } },
            known: { $0.players.contains(player) }) ?? []
    }

    /// Whether `chat` is one of the player's groups, loaded with their totals and results there.
    private static func onLoadedBoard(_ player: UserID, _ chat: ChatID, _ board: BoardKind, in state: State) -> Bool {
        board == .tessera && state.loaded.players.contains(player)
            && state.values?.memberships[player]?.contains(chat) == true
    }

    public func totals(of player: UserID, in chat: ChatID, board: BoardKind, periods: [PeriodKey]) async throws
        -> [PeriodKey: BoardTotals]
    {
        try state.withLock { state in
            guard let values = state.values, Self.onLoadedBoard(player, chat, board, in: state),
                periods.allSatisfy(state.loaded.periods.contains)
            else { throw NeedsStore() }
            return periods.reduce(into: [:]) { totals, period in
                totals[period] = values.totals[TotalsKey(player: player, chat: chat, period: period)]
            }
        }
    }

    /// A result on a loaded board whose all-time totals show no result of its puzzle or after it: the board has
    /// none of it yet (its latest puzzle counted is before). Anything else, a late result, is the store's to judge.
    public func record(_ result: BoardResult, totals: [PeriodKey: BoardTotals]) async throws -> Bool {
        let allTime = TotalsKey(player: result.player, chat: result.chat, period: .all)
        return try state.withLock { state in
            guard state.values != nil, Self.onLoadedBoard(result.player, result.chat, result.board, in: state),
                state.loaded.periods.contains(.all), totals.keys.allSatisfy(state.loaded.periods.contains)
            else { throw NeedsStore() }
            if let latest = state.values?.totals[allTime]?.lastPuzzle, latest >= result.puzzle { throw NeedsStore() }
            var replaced: [TotalsKey: BoardTotals?] = [:]
            for (period, total) in totals {
                let totalsKey = TotalsKey(player: result.player, chat: result.chat, period: period)
                replaced[totalsKey] = .some(state.values?.totals[totalsKey])
                state.values?.totals[totalsKey] = total
            }
            state.changes.results.append((result, totals))
            state.undo.append(.record(replaced))
            return true
        }
    }

    public func isReplayGuarded(_ key: String) async throws -> Bool {
        try loaded({ $0.replayGuarded.contains(key) ? true : nil }, known: { $0.replayKeys.contains(key) }) ?? false
    }

    public func pendingCount(in chat: ChatID) async throws -> Int {
        try loaded({ $0.pendingCounts[chat] }, known: { $0.pendingCounts.contains(chat) }) ?? 0
    }

    public func enqueue(_ messages: [OutgoingMessage]) async throws {
        try change { state in
            var waiting: [ChatID: Int?] = [:]
            for message in messages where waiting[message.chat] == nil {
                waiting[message.chat] = .some(state.values?.pendingCounts[message.chat])
            }
            state.undo.append(.messages(state.changes.messages.count, waiting))
            state.changes.messages += messages
            for message in messages { state.values?.pendingCounts[message.chat, default: 0] += 1 }
        }
    }

    public func noteActivity(in chat: ChatID) async throws {
        try change { state in
            if state.changes.activeChats.insert(chat).inserted { state.undo.append(.active(chat)) }
        }
    }

    /// Undoes the body's changes when it throws, as a savepoint would.
    public func isolated(_ body: () async throws -> Void) async throws {
        let mark = state.withLock { $0.undo.count }
        do {
            try await body()
        } catch {
            state.withLock { $0.rollBack(to: mark) }
            throw error
        }
    }
}
