import Foundation
import TesseraCore
import Testing

@testable import TesseraPictures

/// The statistics chart: the last game's bar highlighted, bars as long as their counts, and the same pixels as
/// its golden PNGs (`Fixtures/`, written anew with `TESSERA_UPDATE_GOLDEN=1`).
@Suite("The statistics chart")
struct StatisticsChartTests {
    static let english = StatisticsChart.Labels(
        played: "Played", winPercentage: "Win %", currentStreak: "Current Streak", maxStreak: "Max Streak",
        distribution: "Guess distribution")
    static let spanish = StatisticsChart.Labels(
        played: "Jugadas", winPercentage: "% de victorias", currentStreak: "Racha actual", maxStreak: "Racha máxima",
        distribution: "Distribución de intentos")

    /// 32 games: 1 in two guesses, 6 in three, 12 in four, 8 in five, 3 in six, 2 lost; the last won in four.
    static func chart(_ labels: StatisticsChart.Labels = english, theme: ShareTheme = .dark) -> StatisticsChart {
        let results: [GameResult: Int] = [
            .won(guesses: 2): 1, .won(guesses: 3): 6, .won(guesses: 4): 12, .won(guesses: 5): 8, .won(guesses: 6): 3,
            .lost: 2,
        ]
        return StatisticsChart(
            statistics: Statistics(results: results), highlighted: 4, labels: labels, theme: theme)
    }

    @Test("The last game's bar is green, the others grey; each bar as long as its count, the empty one shortest")
    func bars() {
        let chart = Self.chart()
        let image = chart.render()
        let layout = chart.layout()
        let palette = Palette(.dark)
        var lengths: [Int] = []
        for guesses in 1...6 {
            let y = layout.barTop(guesses: guesses) + 2
            let colour = image[layout.barLeft + 2, y]
            #expect(colour == palette.tile(guesses == 4 ? .correct : .absent), "bar \(guesses)")
            lengths.append((layout.barLeft..<layout.width).prefix { image[$0, y] == colour }.count)
        }
        #expect(lengths[3] == layout.barSpan && lengths[0] == layout.barLength(count: 0, most: 12))
        #expect(lengths[1] < lengths[2] && lengths[2] < lengths[4] && lengths[4] < lengths[3])
    }

    @Test("A long label takes two lines at a space; a short one stays on one")
    func labels() {
        let atlas = GlyphAtlas.dejaVuSansBold
        #expect(StatisticsChart.lines("PLAYED", fitting: 170, pixels: 20, atlas: atlas) == ["PLAYED"])
        #expect(
            StatisticsChart.lines("% DE VICTORIAS", fitting: 170, pixels: 20, atlas: atlas) == ["% DE", "VICTORIAS"])
    }

    @Test("The same chart gives the same pixels as its golden file", arguments: [("en", english), ("es", spanish)])
    func golden(language: String, labels: StatisticsChart.Labels) throws {
        let png = Self.chart(labels).png()
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/statistics-\(language).png")
        if ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDEN"] == "1" { try Data(png).write(to: url) }
        let golden = try DecodedPNG(Array(try Data(contentsOf: url)))
        #expect(golden.sameColours(as: try DecodedPNG(png)), "run with TESSERA_UPDATE_GOLDEN=1 and look at \(url.path)")
        #expect(png.count < 25_000, "\(png.count) bytes")
    }
}
