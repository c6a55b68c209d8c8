public import TesseraCore

/// The card a finished daily game is shown with in its player's direct chat: the title (`TESSERA 326 3/6*`)
/// and the board, every row with its letters on the scorer's colours, the rows not played left empty as the
/// original's board shows them. Drawn at `scale` 2 by default: about 700 pixels wide, sharp on a phone.
public struct ResultCard: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public let letters: [Character]
        public let states: [LetterState]

        public init(letters: some StringProtocol, states: [LetterState]) {
            self.letters = Array(letters.uppercased())
            self.states = states
        }
    }

    /// `TESSERA 326 3/6*`: the share text's headline.
    public let title: String
    public let rows: [Row]
    public let maximumGuesses: Int
    public let wordLength: Int
    public let theme: ShareTheme

    public init(title: String, rows: [Row], maximumGuesses: Int, wordLength: Int, theme: ShareTheme) {
        self.title = String(title.uppercased().prefix(Picture.longestTitle))
        self.maximumGuesses = Picture.side(maximumGuesses)
        self.rows = Array(rows.prefix(self.maximumGuesses))
        self.wordLength = Picture.side(wordLength)
        self.theme = theme
    }

    /// The card's layout at `scale`, in pixels: what the tests read each tile's centre from.
    public struct Layout: Sendable {
        public let width: Int
        public let height: Int
        public let tile: Int
        public let gap: Int
        public let margin: Int
        public let titleHeight: Int

        init(_ card: ResultCard, scale: Int) {
            (tile, gap, margin, titleHeight) = (62 * scale, 5 * scale, 10 * scale, 44 * scale)
            width = 2 * margin + card.wordLength * tile + (card.wordLength - 1) * gap
            height = titleHeight + margin + card.maximumGuesses * tile + (card.maximumGuesses - 1) * gap
        }

        /// The top left corner of tile `column` of row `row`.
        public func origin(row: Int, column: Int) -> (x: Int, y: Int) {
            (margin + column * (tile + gap), titleHeight + row * (tile + gap))
        }
    }

    public func layout(scale: Int = 2) -> Layout { Layout(self, scale: scale) }

    public func render(scale: Int = 2) -> IndexedImage {
        let scale = max(1, min(4, scale))
        let layout = layout(scale: scale)
        let palette = Palette(theme)
        let atlas = GlyphAtlas.dejaVuSansBold
        var image = IndexedImage(width: layout.width, height: layout.height, background: palette.background)
        let titlePixels = Double(22 * scale)
        let titleWidth = atlas.width(of: title, pixels: titlePixels)
        image.draw(
            title, in: atlas, pixels: titlePixels, x: (Double(layout.width) - titleWidth) / 2,
            baseline: layout.titleHeight - 14 * scale, colour: palette.text)
        let radius = 3 * scale
        for row in 0..<maximumGuesses {
            for column in 0..<wordLength {
                let (x, y) = layout.origin(row: row, column: column)
                guard row < rows.count, column < rows[row].states.count else {
                    // An empty tile: its outline only.
                    image.fillRounded(
                        x: x, y: y, width: layout.tile, height: layout.tile, radius: radius, with: palette.empty)
                    image.fillRounded(
                        x: x + scale, y: y + scale, width: layout.tile - 2 * scale, height: layout.tile - 2 * scale,
                        radius: radius, with: palette.background)
                    continue
                }
                image.fillRounded(
                    x: x, y: y, width: layout.tile, height: layout.tile, radius: radius,
                    with: palette.tile(rows[row].states[column]))
                guard column < rows[row].letters.count else { continue }
                let letter = String(rows[row].letters[column])
                let pixels = Double(34 * scale)
                let letterWidth = atlas.width(of: letter, pixels: pixels)
                image.draw(
                    letter, in: atlas, pixels: pixels, x: Double(x) + (Double(layout.tile) - letterWidth) / 2,
                    baseline: y + layout.tile / 2 + 12 * scale, colour: palette.tileText)
            }
        }
        return image
    }

    public func png(scale: Int = 2) -> [UInt8] { PNG.encode(render(scale: scale)) }
}
