public import TesseraCore

/// What an engine is configured with: the game's name, the defaults of new players and groups, the platform's
/// traits, and the limits of practice and analyses.
public struct EngineConfiguration: Sendable {
    /// The name in share texts.
    public var gameName = "Tessera"
    /// The zone and rollover hour of new players and of groups.
    public var defaultTimeZone = "UTC"
    public var defaultRolloverHour = 0
    public var defaultLanguage = Language.english
    public var schedule = DailySchedule.tessera
    public var shareTheme = ShareTheme.dark
    /// What the platform can do (its transport's ``ChatTransport/traits``).
    public var platform = PlatformTraits()
    /// How many practice and archive games a player may start in a day.
    public var practiceGamesPerDay = 50
    /// What the analysis of one game may spend: steps and the solver's memo (docs/analysis.md,
    /// "Analyses have a budget").
    public var analysisBudget = Solver.Budget.standard
    /// Words an operator accepts as guesses beyond a language's built-in list (`guesses.extra.file.en`, …):
    /// a group's in-jokes, or a list the operator has the right to use. Never answers, never the bot's words.
    public var extraGuesses: [Language: [Word]] = [:]
    /// A uniformly random integer below its argument: practice games' answers. Tests pass a seeded one.
    public var randomBelow: @Sendable (Int) -> Int = { Int.random(in: 0..<$0) }

    public init() {}
}
