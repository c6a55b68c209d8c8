import TesseraCore

/// What `/settings NAME VALUE` asks to change in a group, read from its words alone: each setting's values, and
/// what to say to one it does not take. Applying it, and who may, is the engine's (``BotEngine/settings``).
enum GroupSettingChange: Equatable {
    case timeZone(String)
    case rolloverHour(Int)
    /// The group's language; `only`: games in other languages do not count on its board.
    case language(Language, only: Bool)
    case hardModeRequired(Bool)
    case summary(enabled: Bool)
    /// A summary at an hour of the day; nil: with the new puzzle.
    case summaryHour(Int?)
    /// The forum topic the command was sent in, or none.
    case topic(here: Bool)
    case nudge(Bool)
    case season(SeasonLength)
    /// The day card beside the summary.
    case pictures(Bool)

    /// Why a change was not read: the value is not one the setting takes.
    enum Refusal: Equatable, Error {
        case unknownTimeZone(String)
        case unknownLanguage(String)
        /// The setting's allowed values (or every setting's, for an unknown name) are shown.
        case usage(setting: String)
    }

    /// The setting the change is to, as `/settings` lists it.
    var setting: GroupSetting {
        switch self {
        case .timeZone, .rolloverHour: .day
        case .language: .language
        case .hardModeRequired: .hardMode
        case .summary, .summaryHour: .summary
        case .topic: .topic
        case .nudge: .nudge
        case .season: .season
        case .pictures: .pictures
        }
    }

    static func read(_ argument: String) -> Result<GroupSettingChange, Refusal> {
        let words = argument.split(whereSeparator: \.isWhitespace).map(String.init)
        let name = words.first?.lowercased() ?? ""
        let value = words.dropFirst().joined(separator: " ")
        let lowered = value.lowercased()
        let hour = Int(value).flatMap { (0..<24).contains($0) ? $0 : nil }
        let onOff = CommandWords.onOff(value, empty: nil)
        let usage = Result<GroupSettingChange, Refusal>.failure(.usage(setting: name))
        switch name {
        case "timezone":
            return CommandWords.knownTimeZone(value).map { .success(.timeZone($0)) }
                ?? .failure(.unknownTimeZone(value))
        case "rollover":
            return hour.map { .success(.rolloverHour($0)) } ?? usage
        case "language":
            var named = words.dropFirst().map { $0.lowercased() }
            let only = named.last == "only" || named.last == "solo" || named.last == "sólo"
            if only { named.removeLast() }
            let language = named.joined(separator: " ")
            return CommandWords.language(named: language).map { .success(.language($0, only: only)) }
                ?? .failure(.unknownLanguage(value))
        case "hard":
            return onOff.map { .success(.hardModeRequired($0)) } ?? usage
        case "summary":
            if let onOff { return .success(.summary(enabled: onOff)) }
            if lowered == "rollover" { return .success(.summaryHour(nil)) }
            return hour.map { .success(.summaryHour($0)) } ?? usage
        case "nudge":
            return onOff.map { .success(.nudge($0)) } ?? usage
        case "pictures":
            return onOff.map { .success(.pictures($0)) } ?? usage
        case "season":
            return SeasonLength(rawValue: lowered).map { .success(.season($0)) } ?? usage
        case "topic":
            switch lowered {
            case "here": return .success(.topic(here: true))
            case "off", "none": return .success(.topic(here: false))
            default: return usage
            }
        default:
            return usage
        }
    }
}
