import ArgumentParser
import Foundation
import TesseraCore

/// An option whose values are the raw values of one of the core's enums: `--language es`, `--theme light`.
/// (The CLI owns this type, so the core's types need no conformance to an ArgumentParser protocol.)
struct ChoiceArgument<Value: RawRepresentable & CaseIterable>: ExpressibleByArgument where Value.RawValue == String {
    let value: Value

    init(_ value: Value) { self.value = value }

    init?(argument: String) {
        guard let value = Value(rawValue: argument.lowercased()) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { value.rawValue }

    static var allValueStrings: [String] { Value.allCases.map(\.rawValue) }
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
