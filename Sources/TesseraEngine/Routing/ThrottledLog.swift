import Foundation
import Synchronization

/// A log line anyone can cause by the thousand (a forged button press), written at most once an interval of
/// the engine's time; each line says how many were not written since the one before.
final class ThrottledLog: Sendable {
    private let interval: TimeInterval
    private let state = Mutex<(lastLine: Date?, unlogged: Int)>((nil, 0))

    init(interval: TimeInterval) { self.interval = interval }

    /// Whether to write the line now: nil, or how many were not written since the last line.
    func admit(at now: Date) -> Int? {
        state.withLock { state in
            if let last = state.lastLine, now.timeIntervalSince(last) < interval {
                state.unlogged += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.unlogged
        }
    }
}
