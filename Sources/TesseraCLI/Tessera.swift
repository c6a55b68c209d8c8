import ArgumentParser

@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "A daily word puzzle: everyone gets the same word each day.",
        version: Tessera.version,
        subcommands: [
            AnalyseCommand.self, BackupCommand.self, CalibrateCommand.self, OpeningBookCommand.self, PlayCommand.self,
            RestoreCommand.self,
            RenderCommand.self, RunCommand.self, ScoreCommand.self, SolveCommand.self,
            StatusCommand.self,
            TodayCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    /// This build's version (`tessera --version`, `tessera_build_info`): raised with each release.
    static let version = "0.27.0"
}
