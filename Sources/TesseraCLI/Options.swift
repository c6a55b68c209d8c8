import ArgumentParser
import Foundation
import TesseraCore

/// `--language en|es`
struct LanguageArgument: ExpressibleByArgument {
    let language: Language

    init(_ language: Language) { self.language = language }

    init?(argument: String) {
        guard let language = Language(rawValue: argument.lowercased()) else { return nil }
        self.language = language
    }

    var defaultValueDescription: String { language.rawValue }

    static var allValueStrings: [String] { Language.allCases.map(\.rawValue) }
}

/// `--theme dark|light|high-contrast`
struct ThemeArgument: ExpressibleByArgument {
    let theme: ShareTheme

    init(_ theme: ShareTheme) { self.theme = theme }

    init?(argument: String) {
        guard let theme = ShareTheme(rawValue: argument.lowercased()) else { return nil }
        self.theme = theme
    }

    var defaultValueDescription: String { theme.rawValue }

    static var allValueStrings: [String] { ShareTheme.allCases.map(\.rawValue) }
}

/// Where the player's day begins: shared by every command that needs today's puzzle.
struct DayOptions: ParsableArguments {
    @Option(help: "IANA time zone of your day, such as Europe/Madrid (default: this machine's).")
    var timeZone: String?

    @Option(help: "Local hour (0-23) at which the next puzzle arrives.")
    var rolloverHour = 0

    func rollover() throws -> DayRollover {
        let zone: TimeZone
        if let timeZone {
            guard let named = TimeZone(identifier: timeZone) else {
                throw CommandError("Unknown time zone '\(timeZone)'; use an IANA name such as Europe/Madrid.")
            }
            zone = named
        } else {
            zone = .current
        }
        guard let rollover = DayRollover(timeZone: zone, hour: rolloverHour) else {
            throw CommandError("--rollover-hour must be between 0 and 23, not \(rolloverHour).")
        }
        return rollover
    }

    /// Today's puzzle for this player, by the machine's clock.
    func today(_ schedule: DailySchedule = .tessera) throws -> PuzzleNumber {
        schedule.puzzle(at: Date(), rollover: try rollover())
    }
}
