import ArgumentParser

@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "A daily word puzzle: everyone gets the same word each day.",
        subcommands: [
            AnalyseCommand.self, OpeningBookCommand.self, PlayCommand.self, RunCommand.self, ScoreCommand.self,
            SolveCommand.self,
            StatusCommand.self,
            TodayCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
