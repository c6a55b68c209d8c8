/// A group's setting, as `/settings` lists them: one line each.
public enum GroupSetting: CaseIterable, Sendable {
    case day, language, hardMode, summary, topic, nudge, season, pictures
}
