/// How long a group's seasons last (`/settings season month|4weeks|off`): a calendar month unless the group
/// chooses otherwise.
public enum SeasonLength: String, Sendable, Hashable, Codable, CaseIterable {
    case month
    /// Four weeks from a Monday: the same four weeks for every group, counted from Monday 5 January 1970.
    case fourWeeks = "4weeks"
    case off
}
