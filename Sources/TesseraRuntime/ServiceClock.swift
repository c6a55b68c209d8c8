/// The clock the services wait on and measure with: the process's `ContinuousClock`, or a test's manual clock.
/// The only place the runtime is generic over a clock; every service holds this one type.
public struct ServiceClock: Sendable {
    /// A point in time on the clock, as an offset from when it was wrapped.
    public struct Instant: Comparable, Sendable {
        let offset: Duration

        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let sleepFor: @Sendable (Duration) async throws -> Void
    private let elapsed: @Sendable () -> Duration

    public init<Wrapped: Clock>(_ clock: Wrapped) where Wrapped.Duration == Duration {
        let origin = clock.now
        sleepFor = { try await clock.sleep(for: $0) }
        elapsed = { origin.duration(to: clock.now) }
    }

    /// Waits `duration` on the clock; throws when the task is cancelled.
    public func sleep(for duration: Duration) async throws { try await sleepFor(duration) }

    public var now: Instant { Instant(offset: elapsed()) }
}
