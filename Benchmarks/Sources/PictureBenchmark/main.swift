// What each picture costs (issue 58): CPU time, bytes and the memory a render holds, for the result card, the
// statistics chart and the group's day card at 1× and 2×, beside a baseline measured in the same run: the PNG
// of a blank picture of the same size, the least a picture that size can cost. Goal: ≤ 5 ms of CPU and ≤ 25 KB for a
// result card at 2×. Run: swift run -c release --package-path Benchmarks tessera-picture-benchmark
import Foundation
import TesseraCore
import TesseraPictures

/// CPU seconds this process has used.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// The median CPU milliseconds of `body` over `runs`, each run timed over enough repeats to last 20 ms.
func median(runs: Int = 7, _ body: () -> [UInt8]) -> (ms: Double, bytes: Int) {
    var bytes = 0
    var repeats = 1
    while true {
        let start = cpuSeconds()
        for _ in 0..<repeats { bytes = body().count }
        if cpuSeconds() - start > 0.02 { break }
        repeats *= 2
    }
    var times: [Double] = []
    for _ in 0..<runs {
        let start = cpuSeconds()
        for _ in 0..<repeats { bytes = body().count }
        times.append((cpuSeconds() - start) / Double(repeats) * 1000)
    }
    return (times.sorted()[runs / 2], bytes)
}

let list = Language.english.wordList
guard case .success(let answer) = list.word(from: "slate") else { fatalError("SLATE is on the list") }
func rows(_ guesses: [String]) -> [[LetterState]] {
    var game = Game(answer: answer, wordList: list)
    for guess in guesses { _ = game.submit(guess) }
    return game.rows.map(\.feedback.states)
}
let guesses = ["crane", "stale", "slate"]
let card = ResultCard(
    title: "Tessera 326 3/6*",
    rows: zip(guesses, rows(guesses)).map { ResultCard.Row(letters: $0, states: $1) }, maximumGuesses: 6,
    wordLength: 5, theme: .dark)
let chart = StatisticsChart(
    statistics: Statistics(results: [.won(guesses: 3): 6, .won(guesses: 4): 12, .won(guesses: 5): 8, .lost: 2]),
    highlighted: 4,
    labels: .init(
        played: "Played", winPercentage: "Win %", currentStreak: "Current Streak", maxStreak: "Max Streak",
        distribution: "Guess distribution"), theme: .dark)
let day = DayCard(
    title: "Tessera 326",
    boards: (0..<12).map { index in
        .init(
            rows: rows(Array(["pound", "might", "crane", "stale", "slate"].suffix(1 + index % 5))), crowned: index == 0)
    }, maximumGuesses: 6, wordLength: 5, theme: .dark)

func peakMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}
let before = peakMegabytes()
// The atlas inflates once, on first use: not part of any picture's cost.
_ = card.png(scale: 1)
print(
    "picture            scale  size (px)    CPU ms (of it, encoding)  bytes   pixels held  | baseline: a blank picture's PNG, ms"
)
let pictures: [(String, (Int) -> IndexedImage)] = [
    ("result card", { card.render(scale: $0) }), ("statistics chart", { chart.render(scale: $0) }),
    ("group's day card", { day.render(scale: $0) }),
]
for (name, render) in pictures {
    for scale in [1, 2] {
        let image = render(scale)
        let drawn = median { PNG.encode(render(scale)) }
        let encoding = median { PNG.encode(image) }
        let baseline = median {
            PNG.encode(IndexedImage(width: image.width, height: image.height, background: RGB(0, 0, 0)))
        }
        let size = "\(image.width) × \(image.height)"
        print(
            name.padding(toLength: 19, withPad: " ", startingAt: 0) + "\(scale)×     "
                + size.padding(toLength: 13, withPad: " ", startingAt: 0)
                + String(
                    format: "%6.2f (%5.2f)            %6d  %8.0f KB  | %.2f", drawn.ms, encoding.ms, drawn.bytes,
                    Double(image.pixels.count) / 1024, baseline.ms))
    }
}
// The process's own peak (word lists and all) before any picture, then what drawing every picture added to it.
print(
    String(
        format: "peak resident memory: %.1f MB before the pictures, +%.1f MB after all of them", before,
        peakMegabytes() - before))
