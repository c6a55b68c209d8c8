import Synchronization
public import TesseraEngine

/// The row ids of players and chats a transaction has looked up, so that each is read once a transaction: a
/// finished game asks for its player's and its group's several times (its game, its totals, its result).
/// Forgotten whenever rows may have gone or moved (a savepoint rolled back, a player forgotten, a chat moved),
/// so that no id outlives its row. Each store's transaction keeps one; the lookups are its own.
public final class RowIDs: Sendable {
    private struct Known {
        var players: [UserID: Int64] = [:]
        var chats: [ChatID: Int64] = [:]
    }
    private let known = Mutex(Known())

    public init() {}

    /// The player's row id as known, or as `lookup` finds it (nil: no such row, and nothing is kept).
    public func player(_ player: UserID, lookup: () async throws -> Int64?) async throws -> Int64? {
        if let id = known.withLock({ $0.players[player] }) { return id }
        let id = try await lookup()
        if let id { known.withLock { $0.players[player] = id } }
        return id
    }

    /// The chat's row id as known, or as `lookup` finds it.
    public func chat(_ chat: ChatID, lookup: () async throws -> Int64?) async throws -> Int64? {
        if let id = known.withLock({ $0.chats[chat] }) { return id }
        let id = try await lookup()
        if let id { known.withLock { $0.chats[chat] = id } }
        return id
    }

    /// The chat's row id as known, or as `store` finds it or stores the chat.
    public func storedChat(_ chat: ChatID, store: () async throws -> Int64) async throws -> Int64 {
        if let id = known.withLock({ $0.chats[chat] }) { return id }
        let id = try await store()
        known.withLock { $0.chats[chat] = id }
        return id
    }

    public func forgetAll() { known.withLock { $0 = Known() } }
}
