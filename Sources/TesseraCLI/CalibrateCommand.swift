import ArgumentParser
import Foundation
import TesseraCore

/// Plays the simulated players the skill score is calibrated on (``SimulatedPlayer``) against a sample of the
/// answers, analyses every game as the bot does, and prints each player's median scores: the table in
/// docs/analysis.md, "How skill is scored".
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Print the median skill and luck of simulated players' games, for docs/analysis.md's calibration table.",
        shouldDisplay: false
    )

    @OptionGroup var lists: SolverOptions

    @Option(help: "How many answers to play, drawn evenly from the answer edition.")
    var games = 200

    func run() async throws {
        let list = try lists.wordList()
        let edition = lists.editionIndex(of: list)
        let report = try Calibration.measure(
            list: list, edition: edition, hardMode: lists.hard, games: games)
        print("player\tgames\tmedian inaccuracy\tmedian skill\tmedian luck")
        for row in report {
            print(
                "\(row.player.rawValue)\t\(row.games)\t\(String(format: "%.2f", row.inaccuracy))\t\(row.skill)\t"
                    + "\(row.luck)")
        }
    }
}
