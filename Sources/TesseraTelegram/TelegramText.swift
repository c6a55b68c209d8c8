import TesseraEngine

/// The engine's markup as Telegram reads it.
enum TelegramText {
    /// `<spoiler>` is `<tg-spoiler>`, `<details>` an expandable quotation.
    static let dialect = Markup.Dialect(tags: [
        .spoiler: ("<tg-spoiler>", "</tg-spoiler>"),
        .details: ("<blockquote expandable>", "</blockquote>"),
    ])

    static func html(_ markup: Markup) -> String { markup.html(dialect) }

    /// A layout as a rich message's HTML (`sendRichMessage`): tables as they are, text in paragraphs.
    static func richHTML(_ layout: RichLayout) -> String { layout.html(RichLayout.Dialect(markup: dialect)) }

    /// A rich message's limits, as the Bot API documents them: 32,768 characters, 500 blocks (each paragraph,
    /// table and row), 20 columns in a table. A longer layout is sent as its text.
    static func fitsRichMessage(_ layout: RichLayout) -> Bool {
        let size = layout.size
        let columns = layout.blocks.map { if case .table(let table) = $0 { table.columns } else { 0 } }.max() ?? 0
        return size.characters <= 32_768 && size.blocks <= 500 && columns <= 20
    }

    /// What stands for a spoiler's text where it cannot be hidden.
    static let hiddenSpoiler = "[spoiler]"
}
