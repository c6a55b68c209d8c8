import TesseraEngine

/// The engine's markup as Telegram reads it.
enum TelegramText {
    /// `<spoiler>` is `<tg-spoiler>`, `<details>` an expandable quotation.
    static let dialect = Markup.Dialect(tags: [
        .spoiler: ("<tg-spoiler>", "</tg-spoiler>"),
        .details: ("<blockquote expandable>", "</blockquote>"),
    ])

    static func html(_ markup: Markup) -> String { markup.html(dialect) }

    /// What stands for a spoiler's text where it cannot be hidden.
    static let hiddenSpoiler = "[spoiler]"
}
