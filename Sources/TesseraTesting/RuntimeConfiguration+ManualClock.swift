public import TesseraRuntime

extension RuntimeConfiguration {
    /// The defaults, but with the analysis lanes' idle look every 1,000 s instead of every second, the outbox's
    /// interval: on a ``ManualClock`` a test that waits for "a sleeper due in one second" then waits for the
    /// outbox's ticker and no other loop. When a lane's sleep came first, the test moved the clock on before
    /// the ticker, started beside it, was asleep, and its first look came a second late.
    ///
    /// A test of a loop that starts beside another still waits for that loop to be asleep before moving the
    /// clock (see `BotRuntimeTests.holdRenewedWhileSending`).
    public static var onManualClock: Self {
        var configuration = Self()
        configuration.analysisInterval = .seconds(1_000)
        return configuration
    }
}
