import Foundation
import TesseraEngine

/// The engine's HTML as a Matrix message's `formatted_body` (`org.matrix.custom.html`) and `body`.
enum MatrixText {
    /// `<spoiler>` is `<span data-mx-spoiler>`; `<details>` (a block shown folded) a quotation; line breaks are
    /// `<br>`, since HTML ignores them.
    static func html(_ engineHTML: String) -> String {
        engineHTML.replacingOccurrences(of: "<spoiler>", with: "<span data-mx-spoiler>")
            .replacingOccurrences(of: "</spoiler>", with: "</span>")
            .replacingOccurrences(of: "<details>", with: "<blockquote>")
            .replacingOccurrences(of: "</details>", with: "</blockquote>")
            .replacingOccurrences(of: "\n", with: "<br>")
    }

    /// The plain text that clients without HTML, and notifications, show. A spoiler's text is never in it:
    /// it stands as `[spoiler]`, as the Matrix spec's fallback does.
    static func plain(_ engineHTML: String) -> String {
        var hidden = ""
        var rest = Substring(engineHTML)
        while let open = rest.range(of: "<spoiler>") {
            hidden += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "</spoiler>") else {
                // Unclosed: everything after it stays hidden.
                rest = ""
                hidden += "[spoiler]"
                break
            }
            hidden += "[spoiler]"
            rest = rest[close.upperBound...]
        }
        hidden += rest
        return OutgoingMessage(chat: ChatID(.matrix, ""), chatKind: .direct, html: hidden).plainText
    }
}
