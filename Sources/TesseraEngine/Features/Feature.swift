import TesseraCore

/// A feature of the bot: it answers a ``Turn`` with a ``Reply``, or decides a time-driven step, and reads what
/// is stored beyond its message's own values only through its slice, ``Reads``: the read protocols it needs
/// (``BoardReads``, ``HistoryReads``, ``AnalysisReads``, ``PlayerDataReads``). A read outside the slice does
/// not compile, so the slice is the list of what the feature depends on, and a test's double need hold only
/// that (`Tests/TesseraEngineTests/Features`).
protocol Feature {
    /// The reads this feature makes, as an existential of the read protocols: `any BoardReads & AnalysisReads`.
    associatedtype Reads
    /// The store's reads seen as this feature's slice. Each feature writes it as `{ reads }`, which compiles
    /// only when the slice is part of the store's reads.
    static func slice(_ reads: any StoreReads) -> Reads
}

extension Feature {
    /// What this feature reads of the store beyond the turn's own values (``Turn/reads(of:)``).
    func reads(_ turn: Turn) throws -> Reads { try turn.reads(of: Self.self) }
}
