import ArgumentParser

@main
struct Tessera: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "A daily word puzzle for chat groups.",
        subcommands: []
    )
}
