import ArgumentParser
import TesseraCore

struct TodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Print today's puzzle number (never the answer).",
        discussion: "The number depends on your time zone and rollover hour, and is the same in every language."
    )

    @OptionGroup var day: DayOptions

    func run() throws {
        print(try day.today())
    }
}
