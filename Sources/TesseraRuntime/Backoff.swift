import Foundation

/// Exponential backoff with jitter: each pause is between half and all of the current ceiling.
struct Backoff {
    let initial: Duration
    let maximum: Duration
    let jitter: @Sendable () -> Double
    private var attempt = 0
    /// Failures since the last reset: the length of the current episode.
    var failures: Int { attempt }

    init(initial: Duration, maximum: Duration, jitter: @escaping @Sendable () -> Double) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    mutating func next() -> Duration {
        defer { attempt += 1 }
        return delay(forAttempt: attempt)
    }

    /// The pause after the failure numbered `attempt`, counting from 0.
    func delay(forAttempt attempt: Int) -> Duration {
        let ceiling = min(maximum.seconds, initial.seconds * pow(2, Double(min(max(attempt, 0), 30))))
        return .seconds(ceiling / 2 + ceiling / 2 * min(max(jitter(), 0), 1))
    }

    mutating func reset() { attempt = 0 }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
