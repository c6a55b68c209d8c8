extension Int {
    /// A `Double` made whole without trapping: NaN is 0, and infinities and values past ±2⁵³ stop there.
    /// `Int(_:)` of a `Double` traps on all three, and the doubles shown to people (scores, averages,
    /// durations) come from sums and stored analyses that a damaged row or an infinite bound can make any of them.
    public init(bounded value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        let limit = 9_007_199_254_740_992.0
        self.init(Swift.min(Swift.max(value, -limit), limit))
    }
}

extension Int {
    /// The largest count, streak or total of points kept: two billion, far beyond any group's, and far enough
    /// below `Int.max` that adding a day's points to it cannot overflow.
    public static let largestCount = Int(Int32.max)

    /// A count read back from a store, within 0…``largestCount``: a damaged row reads as a nonsense count, never
    /// as one whose next `+ 1` traps.
    public static func boundedCount(_ value: Int) -> Int { Swift.min(Swift.max(value, 0), largestCount) }
}
