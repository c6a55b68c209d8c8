import Foundation
import TesseraEngine

/// The engine's HTML as Telegram reads it.
enum TelegramText {
    /// The engine's HTML in Telegram's: `<spoiler>` is `<tg-spoiler>`, `<details>` an expandable quotation.
    static func html(_ engineHTML: String) -> String {
        engineHTML.replacingOccurrences(of: "<spoiler>", with: "<tg-spoiler>")
            .replacingOccurrences(of: "</spoiler>", with: "</tg-spoiler>")
            .replacingOccurrences(of: "<details>", with: "<blockquote expandable>")
            .replacingOccurrences(of: "</details>", with: "</blockquote>")
    }
}
