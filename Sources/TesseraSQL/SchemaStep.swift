/// The steps of the store's schema, in the order they run: one list that both dialects implement, each with an
/// exhaustive `switch` over it (`SQLiteSchema.migration(_:)`, `PostgresSchema.migration(_:)`), so that a step
/// added for one dialect only does not compile.
///
/// A dialect that needs nothing for a step says why in its `switch` (nil): PostgreSQL began at `firstTables`
/// with what SQLite had reached by `platformIDs`, and its members carry copies of their player's day where
/// SQLite joins. Each dialect keeps the names its databases recorded, so a step's name may differ between them;
/// a new step takes the next number of each dialect's list.
public enum SchemaStep: CaseIterable, Sendable {
    /// Players, games, chats and the outbox; on PostgreSQL, everything up to `platformIDs`.
    case firstTables
    case chatActivity
    case groupBoards
    /// A second board per group, for pasted official results.
    case officialBoard
    case outboxButtons
    case unfinishedGamesIndex
    /// What stops a forgotten player replaying an open day.
    case replayGuards
    /// Failed attempts and at-most-once posts.
    case outboxAttempts
    case outboxInOrder
    /// Words revealed once every member's day is over; settings from the next day.
    case revealsAndPendingSettings
    /// Live boards, reactions and deletions as actions, reminders.
    case liveBoards
    case platformIDs
    /// PostgreSQL's members carry their player's name and day, so a board reads one range.
    case membersCarryTheirDay
    case membersCarryTheirPendingZone
    case outboxByChatKind
    /// The daily puzzle a direct chat plays, when not the player's language.
    case playingLanguage
    case gamesByPuzzle
    case analyses
    case practiceGames
    case practiceAnalyses
    case practiceStarts
    /// A player's results on every board, found by the player.
    case resultsByPlayer
    /// Players who follow the day of the group where they were first met.
    case followers
    /// The group as a team: its streak of days together, its nudge.
    case groupTeam
    case celebrations
    case richLayout
    /// A day's best result found in an index, for the crowns on boards.
    case dayBestIndex
    case totalsByPlayer
    /// PostgreSQL's members carry the puzzle their pending zone takes effect on.
    case membersCarryTheirPendingFrom
    /// Pictures: a player's choice, and the picture a queued message carries.
    case pictures
}
