public import TesseraCore

/// Every command the engine answers, in the order of the platforms' menus. Routing (``BotEngine`` switches over
/// it), the menus (each language describes every case), the engine's questions to the platform, the buttons
/// that run a command, and how a platform writes one (``CommandSyntax/written(_:)``) all derive from it.
public enum BotCommand: String, CaseIterable, Sendable {
    case play, start, guess, board, practice, archive, hard, stats, analysis, share, leaderboard, join, leave
    case settings, timezone, language, remind, export, forgetme, help

    /// Buttons that run their command when pressed: under a finished board Stats, Analysis (whose data names
    /// the board's game after the command), and Share where the platform cannot post through the bot in another
    /// chat (it then sends the share text here, to forward); Practice and Archive, which start another game or
    /// confirm giving one up (their data is the command's argument).
    var isButton: Bool { [.stats, .share, .analysis, .practice, .archive].contains(self) }
}
