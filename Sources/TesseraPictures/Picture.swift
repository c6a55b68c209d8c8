public import TesseraCore

/// One of the pictures Tessera sends, as the value it is drawn from: what a queued message carries (stored as
/// JSON in the outbox) and what its transport draws when it sends it, so that nobody's guess waits on a picture.
///
/// Every picture is bounded by construction: at most ``largestSide`` tiles a side, titles and labels of at
/// most ``longestTitle`` characters, a day card of at most ``DayCard/maximumBoards`` boards; a value read back
/// beyond them is refused as damaged, never drawn.
public enum Picture: Sendable, Hashable, Codable {
    /// A finished daily game, with its letters: direct chats only.
    case resultCard(ResultCard)
    case statistics(StatisticsChart)
    /// A group's day: colours only.
    case dayCard(DayCard)

    /// The most tiles a board has across or down.
    public static let largestSide = 12
    public static let longestTitle = 40

    static func side(_ count: Int) -> Int { max(1, min(largestSide, count)) }

    /// A drawn picture: a PNG file and its size in pixels, which some platforms want beside it.
    public struct Drawn: Sendable, Hashable {
        public let png: [UInt8]
        public let width: Int
        public let height: Int
    }

    /// The picture drawn at `scale` (2: twice phone size, sharp on a phone).
    public func draw(scale: Int = 2) -> Drawn {
        let image =
            switch self {
            case .resultCard(let card): card.render(scale: scale)
            case .statistics(let chart): chart.render(scale: scale)
            case .dayCard(let card): card.render(scale: scale)
            }
        return Drawn(png: PNG.encode(image), width: image.width, height: image.height)
    }

    /// The picture drawn at twice phone size, in its turn: pictures are drawn one at a time in the process,
    /// whoever asks, so at most one picture's pixels are held at once (about 1.6 MB at 2×: the image, its filtered
    /// rows and zlib's state), however many chats are being sent to together.
    public func drawnInTurn() async -> Drawn { await DrawingTurns.shared.draw(self) }

    /// A file name for the picture: what it is, never what it shows.
    public var fileName: String {
        switch self {
        case .resultCard: "tessera-result.png"
        case .statistics: "tessera-statistics.png"
        case .dayCard: "tessera-day.png"
        }
    }

    /// Whether the picture shows letters: only a result card does, and only in its player's direct chat.
    public var showsLetters: Bool {
        if case .resultCard = self { true } else { false }
    }
}

/// One picture drawn at a time (``Picture/drawnInTurn()``).
private actor DrawingTurns {
    static let shared = DrawingTurns()

    func draw(_ picture: Picture) -> Picture.Drawn { picture.draw() }
}

/// Read back, a value goes through its initialiser, which bounds it; one beyond the bounds is refused.
private func checked(_ condition: Bool, _ decoder: any Decoder, _ what: String) throws {
    guard condition else {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: what))
    }
}

extension ResultCard.Row: Codable {
    private enum CodingKeys: String, CodingKey { case letters, states }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let letters = try container.decode(String.self, forKey: .letters)
        let states = try container.decode([LetterState].self, forKey: .states)
        try checked(
            letters.count <= Picture.largestSide && states.count <= Picture.largestSide, decoder, "a row too long")
        self.init(letters: letters, states: states)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(letters), forKey: .letters)
        try container.encode(states, forKey: .states)
    }
}

extension ResultCard: Codable {
    private enum CodingKeys: String, CodingKey { case title, rows, maximumGuesses, wordLength, theme }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (maximumGuesses, wordLength) = (
            try container.decode(Int.self, forKey: .maximumGuesses), try container.decode(Int.self, forKey: .wordLength)
        )
        let rows = try container.decode([Row].self, forKey: .rows)
        try checked(
            Picture.side(maximumGuesses) == maximumGuesses && Picture.side(wordLength) == wordLength
                && rows.count <= maximumGuesses, decoder, "a result card beyond its bounds")
        self.init(
            title: try container.decode(String.self, forKey: .title), rows: rows, maximumGuesses: maximumGuesses,
            wordLength: wordLength, theme: try container.decode(ShareTheme.self, forKey: .theme))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(rows, forKey: .rows)
        try container.encode(maximumGuesses, forKey: .maximumGuesses)
        try container.encode(wordLength, forKey: .wordLength)
        try container.encode(theme, forKey: .theme)
    }
}

extension StatisticsChart.Labels: Codable {
    private enum CodingKeys: String, CodingKey { case played, winPercentage, currentStreak, maxStreak, distribution }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let labels = try [CodingKeys.played, .winPercentage, .currentStreak, .maxStreak, .distribution].map {
            try container.decode(String.self, forKey: $0)
        }
        try checked(labels.allSatisfy { $0.count <= Picture.longestTitle }, decoder, "a label too long")
        self.init(
            played: labels[0], winPercentage: labels[1], currentStreak: labels[2], maxStreak: labels[3],
            distribution: labels[4])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(played, forKey: .played)
        try container.encode(winPercentage, forKey: .winPercentage)
        try container.encode(currentStreak, forKey: .currentStreak)
        try container.encode(maxStreak, forKey: .maxStreak)
        try container.encode(distribution, forKey: .distribution)
    }
}

extension StatisticsChart: Codable {
    private enum CodingKeys: String, CodingKey { case statistics, highlighted, labels, theme }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let statistics = try container.decode(Statistics.self, forKey: .statistics)
        try checked(
            statistics.guessDistribution.count <= Picture.largestSide, decoder, "a distribution beyond its bounds")
        self.init(
            statistics: statistics, highlighted: try container.decodeIfPresent(Int.self, forKey: .highlighted),
            labels: try container.decode(Labels.self, forKey: .labels),
            theme: try container.decode(ShareTheme.self, forKey: .theme))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statistics, forKey: .statistics)
        try container.encodeIfPresent(highlighted, forKey: .highlighted)
        try container.encode(labels, forKey: .labels)
        try container.encode(theme, forKey: .theme)
    }
}

extension DayCard.Board: Codable {
    private enum CodingKeys: String, CodingKey { case rows, crowned, hardMode }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rows = try container.decode([[LetterState]].self, forKey: .rows)
        try checked(
            rows.count <= Picture.largestSide && rows.allSatisfy { $0.count <= Picture.largestSide }, decoder,
            "a board beyond its bounds")
        self.init(
            rows: rows, crowned: try container.decode(Bool.self, forKey: .crowned),
            hardMode: try container.decode(Bool.self, forKey: .hardMode))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(crowned, forKey: .crowned)
        try container.encode(hardMode, forKey: .hardMode)
    }
}

extension DayCard: Codable {
    private enum CodingKeys: String, CodingKey { case title, boards, maximumGuesses, wordLength, theme }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (maximumGuesses, wordLength) = (
            try container.decode(Int.self, forKey: .maximumGuesses), try container.decode(Int.self, forKey: .wordLength)
        )
        let boards = try container.decode([Board].self, forKey: .boards)
        try checked(
            Picture.side(maximumGuesses) == maximumGuesses && Picture.side(wordLength) == wordLength
                && boards.count <= Self.maximumBoards, decoder, "a day card beyond its bounds")
        self.init(
            title: try container.decode(String.self, forKey: .title), boards: boards, maximumGuesses: maximumGuesses,
            wordLength: wordLength, theme: try container.decode(ShareTheme.self, forKey: .theme))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(boards, forKey: .boards)
        try container.encode(maximumGuesses, forKey: .maximumGuesses)
        try container.encode(wordLength, forKey: .wordLength)
        try container.encode(theme, forKey: .theme)
    }
}
