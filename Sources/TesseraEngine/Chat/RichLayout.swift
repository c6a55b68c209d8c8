import Foundation

/// A post in blocks of text and tables: a board, the week's post, the season's. Where a platform shows tables
/// (Telegram's rich messages, Matrix's HTML) its transport renders the blocks; everywhere else, and when a chat
/// refuses them, the post is its ``html``: each table as its rows' lines, exactly the text a chat shows without
/// tables. Each row carries both, so the two cannot drift apart.
public struct RichLayout: Sendable, Hashable, Codable {
    public enum Block: Sendable, Hashable, Codable {
        /// Text in the engine's HTML subset (``Markup``); each line a paragraph where tables show.
        case text(String)
        case table(Table)
    }

    /// Rows under a header; every cell in the engine's HTML subset.
    public struct Table: Sendable, Hashable, Codable {
        public var header: [String]
        public var rows: [Row]

        public init(header: [String], rows: [Row]) {
            self.header = header
            self.rows = rows
        }

        /// The widest row's cells, header included: shorter rows end in empty cells.
        public var columns: Int { rows.reduce(header.count) { max($0, $1.cells.count) } }
    }

    public struct Row: Sendable, Hashable, Codable {
        public var cells: [String]
        /// The row as a line (or two) of text, where tables do not show.
        public var line: String

        public init(cells: [String], line: String) {
            self.cells = cells
            self.line = line
        }

        /// A row of one note (`… and 3 more`), in the second column, under the names.
        public static func note(_ text: String) -> Row { Row(cells: ["", text], line: text) }
    }

    public var blocks: [Block]

    public init(_ blocks: [Block]) { self.blocks = blocks }

    /// A board: its title in bold, its table, and a note in italics under it.
    public static func board(title: String, header: [String], rows: [Row], note: String? = nil) -> RichLayout {
        var blocks: [Block] = [.text("<b>\(title)</b>"), .table(Table(header: header, rows: rows))]
        if let note { blocks.append(.text("<i>\(note)</i>")) }
        return RichLayout(blocks)
    }

    /// The post as text: the blocks on lines of their own, each table as its rows' lines (none without rows).
    public var html: String {
        blocks.compactMap { block in
            switch block {
            case .text(let text): text
            case .table(let table): table.rows.isEmpty ? nil : table.rows.map(\.line).joined(separator: "\n")
            }
        }.joined(separator: "\n")
    }

    /// Whether there is a table to show: without one, the text is the whole post.
    public var hasTable: Bool {
        blocks.contains {
            if case .table(let table) = $0 { !table.rows.isEmpty } else { false }
        }
    }

    /// The layout as stored with a queued message.
    public var json: String { (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// A stored layout; nil when it cannot be read (written by another build): it only decorates its message,
    /// whose text is sent instead.
    public init?(json: String) {
        guard let layout = try? JSONDecoder().decode(RichLayout.self, from: Data(json.utf8)) else { return nil }
        self = layout
    }

    /// Adds text after the blocks, on a line of its own.
    public mutating func append(_ text: String) { blocks.append(.text(text)) }

    /// Everything a rich platform counts against its limits: characters of every text and cell, and blocks
    /// (each paragraph, table and row is one).
    public var size: (characters: Int, blocks: Int) {
        var characters = 0
        var count = 0
        for block in blocks {
            switch block {
            case .text(let text):
                characters += text.count
                count += text.split(separator: "\n").count
            case .table(let table):
                characters += (table.header + table.rows.flatMap(\.cells)).reduce(0) { $0 + $1.count }
                count += 1 + table.rows.count + (table.header.isEmpty ? 0 : 1)
            }
        }
        return (characters, count)
    }
}

/// The titles of a board's columns, in a language.
public struct BoardColumns: Sendable {
    public var player: String
    public var result: String
    public var points: String
    public var games: String
}

// MARK: - Reading it out

extension RichLayout {
    /// How a platform writes a layout in its HTML: its text's elements, and how a table's header and body are
    /// wrapped.
    public struct Dialect: Sendable {
        public var markup: Markup.Dialect
        /// Around the header row, and around the rows under it (`<thead>`, `<tbody>`); empty: nothing.
        public var head: (open: String, close: String)
        public var body: (open: String, close: String)

        public init(
            markup: Markup.Dialect, head: (open: String, close: String) = ("", ""),
            body: (open: String, close: String) = ("", "")
        ) {
            self.markup = markup
            self.head = head
            self.body = body
        }
    }

    /// The layout as HTML with tables: each line of text a paragraph (each read on its own, so every one is
    /// well-formed), each table with its header, every cell escaped as the engine's markup is, rows short of
    /// cells filled with empty ones.
    public func html(_ dialect: Dialect) -> String {
        var html = ""
        func inline(_ text: String) -> String { Markup(html: text).html(dialect.markup) }
        for block in blocks {
            switch block {
            case .text(let text):
                for line in text.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
                    html += "<p>" + inline(String(line)) + "</p>"
                }
            case .table(let table) where !table.rows.isEmpty:
                let columns = table.columns
                func row(_ cells: [String], tag: String) -> String {
                    let padded = cells + Array(repeating: "", count: columns - cells.count)
                    return "<tr>" + padded.map { "<\(tag)>" + inline($0) + "</\(tag)>" }.joined() + "</tr>"
                }
                html += "<table>"
                if !table.header.isEmpty {
                    html += dialect.head.open + row(table.header, tag: "th") + dialect.head.close
                }
                html += dialect.body.open + table.rows.map { row($0.cells, tag: "td") }.joined() + dialect.body.close
                html += "</table>"
            case .table:
                break
            }
        }
        return html
    }
}
