import Synchronization

/// A platform's answers about a chat, kept for a while so that a burst of commands asks once: who administers a
/// Telegram group, a Matrix room's power levels. The one policy of both transports: an answer is trusted for
/// ``trustedFor`` (a demoted administrator keeps their rights that long), and expired answers are dropped.
public final class TrustedAnswers<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// How long an answer is trusted.
    public static var trustedFor: Duration { .seconds(60) }

    private let answers = Mutex<[Key: (value: Value, expires: ContinuousClock.Instant)]>([:])

    public init() {}

    /// The answer for `key`: a trusted one, or `ask`'s, kept from `now`.
    public func answer(for key: Key, now: ContinuousClock.Instant, ask: () async throws -> Value) async throws
        -> Value
    {
        if let kept = answers.withLock({ $0[key] }), now < kept.expires { return kept.value }
        let value = try await ask()
        answers.withLock { answers in
            answers = answers.filter { now < $0.value.expires }
            answers[key] = (value, now + Self.trustedFor)
        }
        return value
    }
}
