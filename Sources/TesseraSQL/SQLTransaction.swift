public import TesseraEngine

/// A store's transaction whose statements are written once for both dialects: each role's portable SQL lives
/// in this target (`SQLTransaction+Play.swift`, `+Groups.swift`, …) as the default implementation of the engine's
/// ``GameStoreTransaction`` call, over the store's ``SQLSession``. A store implements here only its keys, and,
/// in its own dialect, what is tuned for it (array aggregates, `SKIP LOCKED` leases, the batch load).
public protocol SQLTransaction: GameStoreTransaction {
    associatedtype Session: SQLSession
    /// The store's connection inside this transaction.
    var session: Session { get }
    /// The row id of a stored player: every table keys players by it.
    func rowID(of player: UserID) async throws -> Int64?
    /// The row id of a chat the store knows.
    func rowID(of chat: ChatID) async throws -> Int64?
    /// The row id of a chat, stored now if it was not.
    func storedRowID(of chat: ChatID) async throws -> Int64
}
