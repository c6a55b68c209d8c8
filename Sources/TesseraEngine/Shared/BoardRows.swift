import TesseraCore

/// A board's rows, written once for every board: a day's results with their places and medals, one row's
/// cells and line, and the lines past the first ``Ranking/boardLines`` summed up in one.
enum BoardRows {
    /// A day's results as a board's rows, each in the language it was played in when that is not `language`.
    static func resultLines(_ results: [(name: String, result: BoardResult)], texts: any Texts, language: Language)
        -> [RichLayout.Row]
    {
        let shown = Array(results.prefix(Ranking.boardLines + 1))
        let places = Ranking.places(shown.map(\.result.guesses))
        return shown.enumerated().map { index, entry in
            row(
                place: Ranking.place(places[index], medal: entry.result.guesses != nil), name: entry.name,
                result: texts.score(entry.result, besides: language))
        }
    }

    /// A day board's row: `🥇 Ann — 3/6`.
    static func row(place: String, name: String, result: String) -> RichLayout.Row {
        let name = TextFormat.boardName(name)
        return RichLayout.Row(cells: [place, name, result], line: "\(place) \(name) — \(result)")
    }

    /// The first lines of `total`, and how many more there are.
    static func shorten(_ lines: [RichLayout.Row], total: Int, texts: any Texts) -> [RichLayout.Row] {
        total <= Ranking.boardLines
            ? lines : lines.prefix(Ranking.boardLines) + [.note(texts.more(total - Ranking.boardLines))]
    }
}
