import TesseraEngine

/// Removes sent messages from the outbox with group commits: chats that finish a send while a removal is
/// being written are removed together by the next write, so concurrent chats share one transaction instead of
/// queueing one each behind the store's single writer.
///
/// ``markSent(_:)`` returns only once its message is removed, so each chat still has at most one message
/// that a crash could send twice.
actor SentMessages {
    private let store: any GameStore
    private var queued: [Int64] = []
    private var posted: [PostedLiveMessage] = []
    private var waiting: [Int64: CheckedContinuation<Void, any Error>] = [:]
    private var writing = false

    init(store: any GameStore) {
        self.store = store
    }

    /// Callers waiting for a write another caller is making: their messages go in its next one.
    var waitingCallers: Int { waiting.count }

    /// `live`: the live message it posted, if it posted one.
    func markSent(_ id: Int64, posted live: PostedLiveMessage? = nil) async throws {
        queued.append(id)
        if let live { posted.append(live) }
        guard !writing else {
            // A write is under way; the caller that started it writes this id next.
            try await withCheckedThrowingContinuation { waiting[id] = $0 }
            return
        }
        writing = true
        defer { writing = false }
        var ownError: (any Error)?
        while !queued.isEmpty {
            let (ids, live) = (queued, posted)
            (queued, posted) = ([], [])
            let result: Result<Void, any Error>
            do {
                try await store.markSent(ids, posted: live)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            for id in ids {
                if let continuation = waiting.removeValue(forKey: id) {
                    continuation.resume(with: result)
                } else if case .failure(let error) = result {
                    ownError = error
                }
            }
        }
        if let ownError { throw ownError }
    }
}
