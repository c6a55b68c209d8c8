/// The seeds of the parser fuzz run (``ParserFuzzTests``): what a group member can type at every parser the bot
/// has, as people write it and as the red teams wrote it. Each seed is read as it is and then mutated; a seed that
/// once trapped or stalled the bot stays here with its round.
enum ParserFuzzCorpus {
    /// Results pasted from the original Wordle, Tessera and the other puzzles, in their shapes.
    static let pastes = [
        "Wordle 1,234 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛🟨\n🟩🟩🟩🟩🟩",
        "Wordle 1.234 4/6*\n\n⬜⬜🟨⬜⬜\n🟨⬜⬜🟩⬜\n⬜🟩🟩🟩⬜\n🟩🟩🟩🟩🟩",
        "Wordle 1 234 X/6\n\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛",
        "Tessera 326 3/6\n\n⬛🟨⬛⬛⬛\n⬛🟩🟩⬛🟨\n🟩🟩🟩🟩🟩",
        "Tessera 312 (archive) 5/6*\n\n⬛⬛⬛⬛⬛\n⬛🟩⬛⬛⬛\n⬛🟩🟩⬛⬛\n⬛🟩🟩🟩⬛\n🟩🟩🟩🟩🟩",
        "Connections\nPuzzle #1,001\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Connections\nPuzzle #990\n🟨🟩🟨🟨\n🟨🟦🟨🟨\n🟩🟨🟨🟨\n🟦🟨🟨🟨",
        "Strands #705\n“Let's face it”\n🔵🔵🟡🔵\n🔵💡🔵",
        "I solved the 4/28/2025 New York Times Mini Crossword in 0:22!",
        "I solved the Monday, January 26, 2026 New York Times Mini Crossword in 1:02:03!",
        "nytimes.com/badges/games/mini.html?d=2025-04-28&t=22",
    ]

    /// What the red teams sent: each one trapped, stalled or spoiled something once, or tried to.
    static let redTeams = [
        // Round 4: the Mini's year as any integer overflowed the day count and stopped the bot for good.
        "I solved the January 1, 30000000000000000 New York Times Mini Crossword in 0:22!",
        "I solved the January 1, 9223372036854775807 New York Times Mini Crossword in 0:22!",
        "I solved the 12/31/9999 New York Times Mini Crossword in 99:59:59!",
        "nytimes.com/badges/games/mini.html?d=9999-12-31&t=999999",
        "Connections\nPuzzle #999,999,999\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",
        "Wordle 9,999,999,999 1/6\n\n🟩🟩🟩🟩🟩",
        "/analysis en 9223372036854775807",
        "/analysis practice 9223372036854775807",
        "/practice #999999999",
        "/archive before 999999999",
        "/archive 999999999 hard",
        "/settings summary 9223372036854775807",
        "/settings day 99",
        "/timezone GMT+99:59",
        "/timezone Etc/GMT-14 23",
        "/remind 25",
        "/leaderboard official connections yesterday",
        "/leaderboard season",
        "/settings season 4w",
        "/settings language es only",
        "\u{202E}evil\u{202C} name in text",
        "\u{0}\u{1B}[2J",
    ]

    /// Commands with their arguments, and guesses, as people type them.
    static let typed = [
        "/start", "/help", "/stats", "/board", "/hard", "/share", "/join", "/leave", "/today", "/export",
        "/forgetme", "/practice", "/practice hard es", "/archive", "/archive 312", "/leaderboard week",
        "/leaderboard month", "/leaderboard all", "/leaderboard official", "/settings",
        "/settings timezone Europe/Madrid 6",
        "/settings hard on", "/settings nudge on", "/settings summary 21", "/language es", "/timezone America/New_York",
        "/settings effects off", "crane", "CRANE", "árbol", "ñandú", "hi", "salet", "zzzzz", "a", "",
    ]

    /// Names as platforms give them: scripts, emoji, and the marks that reorder a line.
    static let names = [
        "Ann", "Lucía", "山田", "مريم", "דוד", "\u{202E}Eve\u{202C}", "\u{2066}Isa", "Bob\u{200F}", "🦊 Fox",
        "<b>Bold</b> & co", String(repeating: "Long", count: 40), "\u{1}Ctrl",
    ]
}
