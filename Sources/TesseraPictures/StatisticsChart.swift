public import TesseraCore

/// The statistics as the original game draws them: games played, win %, current and best streak in large
/// figures, and the guess distribution as bars, the last game's bar in the theme's green. The labels come in
/// the player's language from the caller (its texts), in capitals the glyph atlas holds.
public struct StatisticsChart: Sendable, Hashable {
    public struct Labels: Sendable, Hashable {
        public let played: String
        public let winPercentage: String
        public let currentStreak: String
        public let maxStreak: String
        public let distribution: String

        public init(
            played: String, winPercentage: String, currentStreak: String, maxStreak: String, distribution: String
        ) {
            (self.played, self.winPercentage, self.currentStreak, self.maxStreak, self.distribution) = (
                played.uppercased(), winPercentage.uppercased(), currentStreak.uppercased(), maxStreak.uppercased(),
                distribution.uppercased()
            )
        }
    }

    public let statistics: Statistics
    /// The guesses of the last game won, whose bar is highlighted; nil after a loss or before any game.
    public let highlighted: Int?
    public let labels: Labels
    public let theme: ShareTheme

    public init(statistics: Statistics, highlighted: Int?, labels: Labels, theme: ShareTheme) {
        (self.statistics, self.highlighted, self.labels, self.theme) = (statistics, highlighted, labels, theme)
    }

    /// Where the chart's parts are at `scale`: what the tests read the bars from.
    public struct Layout: Sendable {
        public let width: Int
        public let height: Int
        let scale: Int
        /// The left end of every bar, and the longest bar's length.
        public let barLeft: Int
        public let barSpan: Int
        public let barHeight: Int
        let barsTop: Int
        let barGap: Int

        init(_ chart: StatisticsChart, scale: Int) {
            self.scale = scale
            width = 350 * scale
            barLeft = 40 * scale
            barSpan = width - barLeft - 20 * scale
            barHeight = 24 * scale
            barGap = 6 * scale
            barsTop = 150 * scale
            height = barsTop + chart.statistics.guessDistribution.count * (barHeight + barGap) + 14 * scale
        }

        /// The top of the bar for `guesses`.
        public func barTop(guesses: Int) -> Int { barsTop + (guesses - 1) * (barHeight + barGap) }

        /// How long the bar of `count` games is, of the most games any bar has: long enough for its figure.
        public func barLength(count: Int, most: Int) -> Int {
            let minimum = 26 * scale
            guard most > 0 else { return minimum }
            return max(minimum, barSpan * count / most)
        }
    }

    public func layout(scale: Int = 2) -> Layout { Layout(self, scale: scale) }

    public func render(scale: Int = 2) -> IndexedImage {
        let scale = max(1, min(4, scale))
        let layout = layout(scale: scale)
        let palette = Palette(theme)
        let atlas = GlyphAtlas.dejaVuSansBold
        var image = IndexedImage(width: layout.width, height: layout.height, background: palette.background)
        let s = Double(scale)
        func centred(_ text: String, pixels: Double, centre: Double, baseline: Int, colour: RGB) {
            let width = atlas.width(of: text, pixels: pixels)
            image.draw(text, in: atlas, pixels: pixels, x: centre - width / 2, baseline: baseline, colour: colour)
        }
        // The four figures, each over its label; a long label takes two lines, split at its last space.
        let figures = [
            (statistics.played, labels.played), (statistics.winPercentage, labels.winPercentage),
            (statistics.currentStreak, labels.currentStreak), (statistics.maxStreak, labels.maxStreak),
        ]
        let column = Double(layout.width) / 4
        for (index, (value, label)) in figures.enumerated() {
            let centre = column * (Double(index) + 0.5)
            centred(String(value), pixels: 36 * s, centre: centre, baseline: 50 * scale, colour: palette.text)
            let lines = Self.lines(label, fitting: column - 24 * s, pixels: 10 * s, atlas: atlas)
            for (line, text) in lines.enumerated() {
                centred(text, pixels: 10 * s, centre: centre, baseline: (68 + 12 * line) * scale, colour: palette.text)
            }
        }
        centred(
            labels.distribution, pixels: 14 * s, centre: Double(layout.width) / 2, baseline: 128 * scale,
            colour: palette.text)
        let most = statistics.guessDistribution.max() ?? 0
        for (index, count) in statistics.guessDistribution.enumerated() {
            let guesses = index + 1
            let top = layout.barTop(guesses: guesses)
            let baseline = top + layout.barHeight / 2 + 6 * scale
            centred(
                String(guesses), pixels: 16 * s, centre: Double(layout.barLeft) / 2 + 4 * s, baseline: baseline,
                colour: palette.text)
            let length = layout.barLength(count: count, most: most)
            let colour = guesses == highlighted ? palette.tile(.correct) : palette.tile(.absent)
            image.fill(x: layout.barLeft, y: top, width: length, height: layout.barHeight, with: colour)
            let figure = String(count)
            let figureWidth = atlas.width(of: figure, pixels: 14 * s)
            image.draw(
                figure, in: atlas, pixels: 14 * s, x: Double(layout.barLeft + length) - figureWidth - 8 * s,
                baseline: baseline, colour: palette.tileText)
        }
        return image
    }

    public func png(scale: Int = 2) -> [UInt8] { PNG.encode(render(scale: scale)) }

    /// `text` on one line, or on two split at a space when it is wider than `width`.
    static func lines(_ text: String, fitting width: Double, pixels: Double, atlas: GlyphAtlas) -> [String] {
        guard atlas.width(of: text, pixels: pixels) > width, let space = text.lastIndex(of: " ") else { return [text] }
        return [String(text[..<space]), String(text[text.index(after: space)...])]
    }
}
