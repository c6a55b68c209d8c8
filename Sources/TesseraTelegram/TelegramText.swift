import Foundation
import TesseraEngine

/// Telegram's text limit: 4096 characters (UTF-16 code units) after the HTML is parsed.
enum TelegramText {
    /// The engine's HTML in Telegram's: `<spoiler>` is `<tg-spoiler>`, `<details>` an expandable quotation.
    static func html(_ engineHTML: String) -> String {
        engineHTML.replacingOccurrences(of: "<spoiler>", with: "<tg-spoiler>")
            .replacingOccurrences(of: "</spoiler>", with: "</tg-spoiler>")
            .replacingOccurrences(of: "<details>", with: "<blockquote expandable>")
            .replacingOccurrences(of: "</details>", with: "</blockquote>")
    }

    static let limit = 4096

    /// Splits a long HTML message into messages that fit, at line breaks; a single line longer than the limit
    /// is cut into plain-text pieces. Short messages come back unchanged. Nothing is ever dropped.
    static func chunks(_ html: String, limit: Int = limit) -> [String] {
        func plainLength(_ html: String) -> Int {
            OutgoingMessage(chat: .telegram(0), chatKind: .direct, html: html).plainText.utf16.count
        }
        // Plain text is never longer than its markup, so short markup needs no parsing.
        if html.utf16.count <= limit || plainLength(html) <= limit { return [html] }
        var chunks: [String] = []
        var current: [Substring] = []
        var currentLength = 0
        func flush() {
            if !current.isEmpty { chunks.append(current.joined(separator: "\n")) }
            current = []
            currentLength = 0
        }
        for line in html.split(separator: "\n", omittingEmptySubsequences: false) {
            let length = plainLength(String(line))
            if length > limit {
                flush()
                chunks += cut(
                    OutgoingMessage(chat: .telegram(0), chatKind: .direct, html: String(line)).plainText, limit: limit)
                continue
            }
            if currentLength + length + (current.isEmpty ? 0 : 1) > limit { flush() }
            currentLength += length + (current.isEmpty ? 0 : 1)
            current.append(line)
        }
        flush()
        return chunks
    }

    /// Cuts plain text into escaped pieces of at most `limit` UTF-16 units, never inside a character.
    private static func cut(_ text: String, limit: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var length = 0
        for character in text {
            let size = String(character).utf16.count
            if length + size > limit {
                pieces.append(piece.htmlEscaped)
                piece = ""
                length = 0
            }
            piece.append(character)
            length += size
        }
        if !piece.isEmpty { pieces.append(piece.htmlEscaped) }
        return pieces
    }
}
