import Foundation

/// Exponential backoff with jitter: each pause is between half and all of the current ceiling. The one backoff
/// of the process: the services' retries, each chat's own, and connecting at start.
public struct Backoff: Sendable {
    public let initial: Duration
    public let maximum: Duration
    /// A fraction in 0…1 for each pause: randomness is passed in, as the clock is.
    let jitter: @Sendable () -> Double
    private var attempt = 0
    /// Failures since the last reset: the length of the current episode.
    public var failures: Int { attempt }

    public init(
        initial: Duration, maximum: Duration, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The pause after one more failure.
    public mutating func next() -> Duration {
        defer { attempt += 1 }
        return delay(forAttempt: attempt)
    }

    /// The pause after the failure numbered `attempt`, counting from 0.
    func delay(forAttempt attempt: Int) -> Duration {
        let ceiling = min(maximum.seconds, initial.seconds * pow(2, Double(min(max(attempt, 0), 30))))
        return .seconds(ceiling / 2 + ceiling / 2 * min(max(jitter(), 0), 1))
    }

    public mutating func reset() { attempt = 0 }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
