public import TesseraCore

/// A group's day as one picture, beside the day's summary where the group has pictures on: each member's
/// colour rows, never a letter, in finishing order, each board numbered as the caption lists its player (names
/// stay in the caption, where every script and emoji renders), the crowned boards framed in gold. At most
/// ``maximumBoards`` boards: the caption says how many more played.
public struct DayCard: Sendable, Hashable {
    public struct Board: Sendable, Hashable {
        /// The colours of each guess, in order.
        public let rows: [[LetterState]]
        public let crowned: Bool
        /// Played in hard mode: its score wears the share text's `*`.
        public let hardMode: Bool

        public init(rows: [[LetterState]], crowned: Bool, hardMode: Bool = false) {
            (self.rows, self.crowned, self.hardMode) = (rows, crowned, hardMode)
        }
    }

    public static let maximumBoards = 12
    static let columns = 3

    /// `TESSERA 326`.
    public let title: String
    public let boards: [Board]
    public let maximumGuesses: Int
    public let wordLength: Int
    public let theme: ShareTheme

    public init(title: String, boards: [Board], maximumGuesses: Int, wordLength: Int, theme: ShareTheme) {
        self.title = String(title.uppercased().prefix(Picture.longestTitle))
        self.boards = Array(boards.prefix(Self.maximumBoards))
        self.maximumGuesses = Picture.side(maximumGuesses)
        self.wordLength = Picture.side(wordLength)
        self.theme = theme
    }

    /// Where each board and tile is at `scale`: what the tests read the tiles from.
    public struct Layout: Sendable {
        public let width: Int
        public let height: Int
        public let tile: Int
        public let gap: Int
        let margin: Int
        let titleHeight: Int
        let boardWidth: Int
        let boardHeight: Int
        let labelHeight: Int
        /// Boards a row: three, or fewer when there are fewer, centred.
        let columns: Int

        init(_ card: DayCard, scale: Int) {
            (tile, gap, margin, titleHeight, labelHeight) = (18 * scale, 2 * scale, 12 * scale, 40 * scale, 22 * scale)
            boardWidth = card.wordLength * tile + (card.wordLength - 1) * gap
            boardHeight = card.maximumGuesses * tile + (card.maximumGuesses - 1) * gap
            columns = min(DayCard.columns, max(1, card.boards.count))
            let rows = (max(1, card.boards.count) + DayCard.columns - 1) / DayCard.columns
            width = max(350 * scale, columns * (boardWidth + 2 * margin) + margin * 2)
            height = titleHeight + rows * (boardHeight + labelHeight + 2 * margin) + margin
        }

        /// The top left corner of board `index`'s tile `column` in row `row`.
        public func origin(board index: Int, row: Int, column: Int) -> (x: Int, y: Int) {
            let cell = (width - 2 * margin) / columns
            let x = margin + (index % columns) * cell + (cell - boardWidth) / 2
            let y = titleHeight + (index / columns) * (boardHeight + labelHeight + 2 * margin) + margin
            return (x + column * (tile + gap), y + row * (tile + gap))
        }
    }

    public func layout(scale: Int = 2) -> Layout { Layout(self, scale: scale) }

    public func render(scale: Int = 2) -> IndexedImage {
        let scale = max(1, min(4, scale))
        let layout = layout(scale: scale)
        let palette = Palette(theme)
        let atlas = GlyphAtlas.dejaVuSansBold
        var image = IndexedImage(width: layout.width, height: layout.height, background: palette.background)
        let titlePixels = Double(20 * scale)
        image.draw(
            title, in: atlas, pixels: titlePixels,
            x: (Double(layout.width) - atlas.width(of: title, pixels: titlePixels)) / 2,
            baseline: layout.titleHeight - 12 * scale, colour: palette.text)
        let gold = palette.tile(.present)
        for (index, board) in boards.enumerated() {
            let (left, top) = layout.origin(board: index, row: 0, column: 0)
            if board.crowned {
                let frame = 4 * scale
                image.fillRounded(
                    x: left - frame, y: top - frame, width: layout.boardWidth + 2 * frame,
                    height: layout.boardHeight + 2 * frame, radius: 3 * scale, with: gold)
                image.fill(
                    x: left - scale, y: top - scale, width: layout.boardWidth + 2 * scale,
                    height: layout.boardHeight + 2 * scale, with: palette.background)
            }
            for row in 0..<maximumGuesses {
                for column in 0..<wordLength {
                    let (x, y) = layout.origin(board: index, row: row, column: column)
                    let state = row < board.rows.count && column < board.rows[row].count ? board.rows[row][column] : nil
                    image.fillRounded(
                        x: x, y: y, width: layout.tile, height: layout.tile, radius: scale,
                        with: state.map(palette.tile) ?? palette.empty)
                    if state == nil {
                        image.fill(
                            x: x + scale, y: y + scale, width: layout.tile - 2 * scale,
                            height: layout.tile - 2 * scale, with: palette.background)
                    }
                }
            }
            // The board's place in the caption's list, and its score.
            let solved = board.rows.last.map { $0.allSatisfy { $0 == .correct } } ?? false
            let score = "\(solved ? String(board.rows.count) : "X")/\(maximumGuesses)\(board.hardMode ? "*" : "")"
            let label = "\(index + 1) · \(score)"
            let pixels = Double(14 * scale)
            image.draw(
                label, in: atlas, pixels: pixels,
                x: Double(left) + (Double(layout.boardWidth) - atlas.width(of: label, pixels: pixels)) / 2,
                baseline: top + layout.boardHeight + layout.labelHeight - 2 * scale,
                colour: board.crowned ? gold : palette.text)
        }
        return image
    }

    public func png(scale: Int = 2) -> [UInt8] { PNG.encode(render(scale: scale)) }
}
