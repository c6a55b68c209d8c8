import TesseraEngine

/// The engine's markup as a Matrix message's `formatted_body` (`org.matrix.custom.html`) and `body`.
enum MatrixText {
    /// `<spoiler>` is `<span data-mx-spoiler>`; `<details>` (a block shown folded) a quotation; line breaks are
    /// `<br>`, since HTML ignores them.
    static let dialect = Markup.Dialect(
        tags: [.spoiler: ("<span data-mx-spoiler>", "</span>"), .details: ("<blockquote>", "</blockquote>")],
        lineBreak: "<br>")

    static func html(_ markup: Markup) -> String { markup.html(dialect) }

    /// A layout as a `formatted_body` with its tables (the spec allows `table`, `thead`, `tbody`, `tr`, `th`,
    /// `td` and `p`).
    static func html(_ layout: RichLayout) -> String {
        layout.html(RichLayout.Dialect(markup: dialect, head: ("<thead>", "</thead>"), body: ("<tbody>", "</tbody>")))
    }

    /// The plain text that clients without HTML, and notifications, show. A spoiler's text is never in it:
    /// it stands as `[spoiler]`, as the Matrix spec's fallback does.
    static func plain(_ markup: Markup) -> String { markup.plainText(spoiler: "[spoiler]") }
}
