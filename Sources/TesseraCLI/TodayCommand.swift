import ArgumentParser
import Foundation
import TesseraCore

struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Print today's puzzle number, its date and the day it was worked out for (never the answer).",
        discussion: "The number depends on your time zone and rollover hour, and is the same in every language."
    )

    @OptionGroup var day: DayOptions

    func run() throws {
        let rollover = try day.rollover()
        let now = Date()
        let schedule = DailySchedule.tessera
        // `Puzzle 332 · 2026-11-28 · Europe/Madrid, new puzzle at 00:00`: the number alone says nothing of the
        // day it belongs to.
        let hour = String(format: "%02d:00", rollover.hour)
        print(
            "Puzzle \(schedule.puzzle(at: now, rollover: rollover)) · \(schedule.day(at: now, rollover: rollover)) · "
                + "\(day.timeZone ?? rollover.timeZone.identifier), new puzzle at \(hour)")
    }
}
