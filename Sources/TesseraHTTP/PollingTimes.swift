/// The times every long-polling transport keeps: its long poll, the limit of its other requests, the shorter
/// limit of the calls a waiting batch depends on, and the clock its cached answers expire on.
public struct PollingTimes: Sendable {
    /// The long poll's seconds, as the platform is asked for them.
    public var pollSeconds: Int
    /// The time limit of every other request.
    public var requestTimeout = Duration.seconds(30)
    /// The limit for calls the bot makes while a batch waits (administrator checks, power levels, acknowledging
    /// button presses): a slow server must not hold up every chat.
    public var sideCallTimeout: Duration
    /// The clock cached answers expire on: the system's, or a test's.
    public var now: @Sendable () -> ContinuousClock.Instant = { .now }

    public init(pollSeconds: Int, sideCallTimeout: Duration) {
        self.pollSeconds = pollSeconds
        self.sideCallTimeout = sideCallTimeout
    }

    /// libcurl's limit for the long poll: it must outlast the poll, or every quiet poll would look like a
    /// timeout.
    public var pollTimeout: Duration { .seconds(pollSeconds + Self.pollMargin) }

    /// The seconds libcurl waits past a long poll.
    public static let pollMargin = 15
}
