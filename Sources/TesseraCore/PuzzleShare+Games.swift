extension PuzzleShare {
    // MARK: - Connections

    /// The colours of Connections' groups, easiest first.
    static let connectionsColours: Set<Character> = ["🟨", "🟩", "🟦", "🟪"]

    /// `Connections` and `Puzzle #970` (or `Connections #970`, `Connections Puzzle #970`, or `Puzzle #970` alone),
    /// then a row of four coloured squares a guess: a row of one colour is a group found, any other a mistake.
    static func connections(in lines: [String]) -> PuzzleShare? {
        for (index, line) in lines.enumerated() {
            guard let number = connectionsNumber(line) else { continue }
            let rows = lines[(index + 1)...].lazy.map(connectionsRow).prefix { $0 != nil }.compactMap { $0 }
            if let outcome = connectionsOutcome(Array(rows)) {
                return PuzzleShare(game: .connections, day: .numbered(number), outcome: outcome)
            }
        }
        return nil
    }

    private static func connectionsNumber(_ line: String) -> Int? {
        let lowered = line.lowercased()
        for name in ["connections puzzle", "connections", "puzzle"] where lowered.hasPrefix(name) {
            let rest = line.dropFirst(name.count)
            guard rest.first == " " || rest.first == "#" else { continue }
            return puzzleNumber(rest)
        }
        return nil
    }

    /// Four squares of the group colours, with or without spaces between them.
    private static func connectionsRow(_ line: String) -> [Character]? {
        let squares = line.filter { $0 != " " }
        guard squares.count == 4, squares.allSatisfy(connectionsColours.contains) else { return nil }
        return Array(squares)
    }

    /// A game that ends as Connections ends: with the fourth group found, three mistakes at most, or with the
    /// fourth mistake, three groups at most; each group found once.
    private static func connectionsOutcome(_ rows: [[Character]]) -> Outcome? {
        let found = rows.filter { Set($0).count == 1 }.map { $0[0] }
        let mistakes = rows.count - found.count
        guard Set(found).count == found.count, let last = rows.last else { return nil }
        let endedOnGroup = Set(last).count == 1
        if found.count == 4, mistakes <= 3, endedOnGroup { return .connections(mistakes: mistakes, solved: true) }
        if mistakes == 4, found.count <= 3, !endedOnGroup { return .connections(mistakes: 4, solved: false) }
        return nil
    }

    // MARK: - Strands

    /// `Strands #705`, perhaps its theme (`“Let's face it”`), then rows of 🔵 (a theme word), 🟡 (the spangram,
    /// once) and 💡 (a hint).
    static func strands(in lines: [String]) -> PuzzleShare? {
        for (index, line) in lines.enumerated() where line.lowercased().hasPrefix("strands") {
            guard let number = puzzleNumber(line.dropFirst("strands".count)) else { continue }
            var rest = lines[(index + 1)...]
            // The theme: whatever the line after the headline says, when it is not a row.
            if let theme = rest.first, !isStrandsRow(theme) { rest = rest.dropFirst() }
            let marks = rest.prefix(while: isStrandsRow).joined().filter { $0 != " " }
            let hints = marks.count(where: { $0 == "💡" })
            let spangrams = marks.count(where: { $0 == "🟡" })
            guard spangrams == 1, marks.count - hints - spangrams >= 3, marks.count <= 40 else { continue }
            return PuzzleShare(game: .strands, day: .numbered(number), outcome: .strands(hints: hints))
        }
        return nil
    }

    private static func isStrandsRow(_ line: String) -> Bool {
        let marks = line.filter { $0 != " " }
        return !marks.isEmpty && marks.count <= 12 && marks.allSatisfy { $0 == "🔵" || $0 == "🟡" || $0 == "💡" }
    }

    // MARK: - The Mini

    /// `I solved the 4/28/2025 New York Times Mini Crossword in 0:22!` (the date also as `January 26, 2026`,
    /// the sentence perhaps broken over lines), or the link of its badge,
    /// `nytimes.com/badges/games/mini.html?d=2025-04-28&t=22`.
    static func mini(in lines: [String]) -> PuzzleShare? {
        let text = lines.joined(separator: " ")
        return miniSentence(in: text) ?? miniBadge(in: text)
    }

    private static func miniSentence(in text: String) -> PuzzleShare? {
        // Lowered as a whole: the date is read without case, and the time is digits.
        let text = text.lowercased()
        guard let middle = text.firstRange(of: " new york times mini crossword in "),
            let start = text[..<middle.lowerBound].ranges(of: "i solved the ").last
        else { return nil }
        let time = text[middle.upperBound...].prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        guard let day = civilDate(String(text[start.upperBound..<middle.lowerBound])), let seconds = seconds(time)
        else { return nil }
        return PuzzleShare(game: .mini, day: .dated(day), outcome: .mini(seconds: seconds))
    }

    private static func miniBadge(in text: String) -> PuzzleShare? {
        guard let link = text.firstRange(of: "nytimes.com/badges/games/mini.html?") else { return nil }
        let query = text[link.upperBound...].prefix { $0 != " " }
        var fields: [Substring: Substring] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let date = fields["d"].flatMap({ isoDate($0) }), let time = fields["t"], time.count <= 6,
            let seconds = Int(time), seconds > 0
        else { return nil }
        return PuzzleShare(game: .mini, day: .dated(date), outcome: .mini(seconds: seconds))
    }

    /// `0:22`, `1:23`, `1:02:03`: minutes (or hours and minutes) and seconds.
    private static func seconds(_ time: Substring) -> Int? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            numbers.dropFirst().allSatisfy({ $0 < 60 })
        else { return nil }
        let total = numbers.reduce(0) { $0 * 60 + $1 }
        return total > 0 ? total : nil
    }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// `4/28/2025` (month first, as the game writes it) or `January 26, 2026`, perhaps after a weekday.
    private static func civilDate(_ text: String) -> CivilDate? {
        let words = text.lowercased().split { $0 == " " || $0 == "," }
        if words.count == 1 {
            let parts = words[0].split(separator: "/")
            guard parts.count == 3, parts.allSatisfy({ $0.count <= 4 }), let month = Int(parts[0]),
                let day = Int(parts[1]), let year = Int(parts[2]), parts[2].count == 4
            else { return nil }
            return CivilDate(year: year, month: month, day: day)
        }
        let named = words.suffix(3)
        // A year of four digits, as the game writes it: any longer number is no day anyone played.
        guard named.count == 3, let month = monthNames.firstIndex(of: String(named[named.startIndex])),
            named[named.startIndex + 1].count <= 2, named[named.startIndex + 2].count == 4,
            let day = Int(named[named.startIndex + 1]), let year = Int(named[named.startIndex + 2]),
            words.count <= 4
        else { return nil }
        return CivilDate(year: year, month: month + 1, day: day)
    }

    /// `2025-04-28`.
    private static func isoDate(_ text: Substring) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }
}
