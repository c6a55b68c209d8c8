/// Chat messages as an attacker or an unlucky keyboard writes them, for fuzzing whatever reads chat text:
/// look-alike letters, direction marks, joiners, combining marks, NUL, HTML metacharacters, command look-alikes,
/// pasted results and their pieces, and long runs up to the platforms' length limit.
///
/// Seeded, so a failure is reproduced from its seed and index.
public struct HostileText<Generator: RandomNumberGenerator> {
    /// The longest message a platform delivers, in UTF-16 code units (Telegram's 4,096).
    public static var maximumLength: Int { 4096 }

    private var random: Generator

    public init(random: Generator) { self.random = random }

    /// Pieces that each stress something: together they make most of a message.
    public static var pieces: [String] {
        [
            // Look-alikes: Cyrillic, fullwidth and mathematical letters.
            "сrаne", "ＣＲＡＮＥ", "𝐜𝐫𝐚𝐧𝐞", "Wоrdle", "ｗordle",
            // Direction marks and isolates, joiners, variation selectors, combining marks.
            "\u{200F}", "\u{202E}", "\u{2066}", "\u{200D}", "\u{FE0F}", "\u{301}", "\u{303}", "\u{20DD}",
            // Controls.
            "\u{0}", "\u{1B}", "\r", "\t", "\u{85}", "\u{2028}",
            // Commands and their look-alikes.
            "/guess ", "/guess@TesseraBot ", "／guess ", "!guess ", "/leaderboard ", "/timezone ", "/language ",
            "/settings timezone ", "/share", "/join", "/ ", "//", "/guess@", "/start play",
            // HTML metacharacters and tags.
            "<", ">", "&", "&amp;", "&lt;", "<b>", "</b>", "<spoiler>", "</spoiler>", "<details>", "<tg-spoiler>",
            // Pasted results and their pieces.
            "Wordle ", "Wordle 1,234 3/6*\n", "Tessera 326 2/6\n", "1 234 ", "#", "3/6", "X/6*", "9/9", "🟩", "🟨",
            "⬛", "⬜", "🟧", "🟦", ":large_green_square:", ":", "\n", "\n\n",
            // Words.
            "crane", "slate", "a", "áéíóú", "ñandú", " ", "  ",
        ]
    }

    /// The next message: a few pieces, and now and then a long run that reaches the length limit.
    public mutating func next() -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            text += Self.pieces.randomElement(using: &random) ?? ""
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            // One long word after a blank: what made the pasted-result pattern backtrack.
            text = "a " + String(repeating: "a", count: Int.random(in: 100...Self.maximumLength, using: &random))
        case 1:
            let piece = Self.pieces.randomElement(using: &random) ?? "a"
            text += String(repeating: piece, count: Self.maximumLength / max(1, piece.utf16.count))
        default: break
        }
        return Self.limited(text)
    }

    /// The text cut to the length limit, between characters.
    public static func limited(_ text: String) -> String {
        guard text.utf16.count > maximumLength else { return text }
        var limited = ""
        var length = 0
        for character in text {
            length += character.utf16.count
            if length > maximumLength { break }
            limited.append(character)
        }
        return limited
    }
}
