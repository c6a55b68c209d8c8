/// A message's text as elements and plain text: the engine's HTML subset (``OutgoingMessage/html``) read once,
/// so that every transport renders it from a tree instead of rewriting a string.
///
/// Reading is done on Unicode scalars, never on `Character`s: a `<` followed by a combining mark is one
/// `Character` but still a `<` to every HTML parser. What comes out is well-formed by construction: text is
/// escaped again on the way out, unknown tags are text, unclosed elements close at the end (a spoiler that
/// is never closed hides everything after it), and a message is split only between whole elements.
public struct Markup: Sendable, Hashable {
    /// The elements of the engine's subset.
    public enum Tag: String, Sendable, Hashable, CaseIterable {
        case bold = "b"
        case italic = "i"
        case code
        case preformatted = "pre"
        /// Text hidden until tapped.
        case spoiler
        /// A block shown folded.
        case details
    }

    public indirect enum Node: Sendable, Hashable {
        /// Text as people read it: not escaped.
        case text(String)
        case element(Tag, [Node])
    }

    public var nodes: [Node]

    public init(nodes: [Node]) { self.nodes = nodes }

    /// Reads the engine's HTML. Nothing in it is refused: what is not markup is text.
    public init(html: String) {
        var reader = Reader()
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                if let (tag, closing, rest) = Self.tag(at: scalars) {
                    scalars = rest
                    if closing { reader.close(tag) } else { reader.open(tag) }
                } else {
                    reader.append(scalar)
                }
            case "&":
                if let (decoded, rest) = Self.entity(at: scalars) {
                    scalars = rest
                    reader.append(decoded)
                } else {
                    reader.append(scalar)
                }
            default: reader.append(scalar)
            }
        }
        nodes = reader.finish()
    }

    /// A known tag after a `<`: `b>` or `/b>`, with no attributes.
    private static func tag(at scalars: Substring.UnicodeScalarView) -> (
        Tag, closing: Bool, rest: Substring.UnicodeScalarView
    )? {
        var rest = scalars
        let closing = rest.first == "/"
        if closing { rest = rest.dropFirst() }
        guard let end = rest.prefix(8).firstIndex(of: ">"),
            let tag = Tag(rawValue: String(String.UnicodeScalarView(rest[..<end])))
        else { return nil }
        return (tag, closing, rest[rest.index(after: end)...])
    }

    private static let entities: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\""]

    /// An entity after a `&`: `lt;`, `gt;`, `amp;` or `quot;`.
    private static func entity(at scalars: Substring.UnicodeScalarView) -> (
        Unicode.Scalar, rest: Substring.UnicodeScalarView
    )? {
        guard let end = scalars.prefix(6).firstIndex(of: ";"),
            let decoded = entities[String(String.UnicodeScalarView(scalars[..<end]))]
        else { return nil }
        return (decoded, scalars[scalars.index(after: end)...])
    }

    /// Builds the tree while reading: a stack of open elements.
    private struct Reader {
        var stack: [(tag: Tag?, nodes: [Node])] = [(nil, [])]
        var text = String.UnicodeScalarView()

        mutating func append(_ scalar: Unicode.Scalar) { text.append(scalar) }

        mutating func flushText() {
            guard !text.isEmpty else { return }
            stack[stack.count - 1].nodes.append(.text(String(text)))
            text = String.UnicodeScalarView()
        }

        mutating func open(_ tag: Tag) {
            flushText()
            stack.append((tag, []))
        }

        /// Closes the innermost open element with that tag, and any opened inside it; a close with no such
        /// element open is dropped.
        mutating func close(_ tag: Tag) {
            guard stack.contains(where: { $0.tag == tag }) else { return }
            flushText()
            while let (open, children) = stack.popLast(), let open {
                stack[stack.count - 1].nodes.append(.element(open, children))
                if open == tag { return }
            }
        }

        mutating func finish() -> [Node] {
            flushText()
            while stack.count > 1, let (open, children) = stack.popLast(), let open {
                stack[stack.count - 1].nodes.append(.element(open, children))
            }
            return stack[0].nodes
        }
    }
}

// MARK: - Reading it out

extension Markup {
    /// How one platform writes the elements in its HTML.
    public struct Dialect: Sendable {
        /// The opening and closing markup of each element.
        public var tags: [Tag: (open: String, close: String)]
        /// What a line break is written as.
        public var lineBreak: String

        public init(tags: [Tag: (open: String, close: String)] = [:], lineBreak: String = "\n") {
            self.tags = tags
            self.lineBreak = lineBreak
        }

        /// The engine's own HTML.
        public static let engine = Dialect()
    }

    /// The HTML in a platform's dialect; every text escaped (`&`, `<`, `>`) scalar by scalar.
    public func html(_ dialect: Dialect = .engine) -> String {
        var html = ""
        func write(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let text):
                    let escaped = text.htmlEscaped
                    html += dialect.lineBreak == "\n" ? escaped : escaped.replacing("\n", with: dialect.lineBreak)
                case .element(let tag, let children):
                    let markup = dialect.tags[tag] ?? ("<\(tag.rawValue)>", "</\(tag.rawValue)>")
                    html += markup.open
                    write(children)
                    html += markup.close
                }
            }
        }
        write(nodes)
        return html
    }

    /// The text people read, with spoilers shown.
    public var plainText: String { plainText(spoiler: nil) }

    /// The text people read; with a `spoiler` text, each spoiler is that text instead of what it hides.
    public func plainText(spoiler placeholder: String?) -> String {
        var plain = ""
        func write(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let text): plain += text
                case .element(.spoiler, _) where placeholder != nil: plain += placeholder ?? ""
                case .element(_, let children): write(children)
                }
            }
        }
        write(nodes)
        return plain
    }

    /// Whether any text is hidden until tapped.
    public var containsSpoiler: Bool {
        func contains(_ nodes: [Node]) -> Bool {
            nodes.contains {
                switch $0 {
                case .text: false
                case .element(let tag, let children): tag == .spoiler || contains(children)
                }
            }
        }
        return contains(nodes)
    }
}

// MARK: - Splitting

extension Markup {
    /// The message in parts that each show at most `maximumLength` UTF-16 code units of plain text.
    ///
    /// Parts end at line breaks where they can; a line longer than a message is cut between characters. Each
    /// part is whole on its own: the elements open where it is cut are closed at the end of one part and
    /// opened again at the start of the next. A spoiler is never cut while it fits in a message; one that does
    /// not is cut into spoilers, so that nothing it hides is ever shown. Nothing is dropped.
    public func parts(maximumLength: Int) -> [Markup] {
        let leaves = Self.leaves(nodes, path: [])
        guard leaves.reduce(0, { $0 + $1.length }) > maximumLength else { return [self] }
        var splitter = Splitter(maximumLength: max(1, maximumLength))
        var line: [Leaf] = []
        for leaf in leaves {
            if case .lineBreak = leaf.content {
                splitter.add(line: line)
                line = [leaf]
            } else {
                line.append(leaf)
            }
        }
        splitter.add(line: line)
        splitter.flush()
        return splitter.parts.map { Markup(nodes: Self.nodes(from: $0[...], depth: 0)) }
    }

    /// A piece of the message with the elements it stands in, outermost first.
    fileprivate struct Leaf {
        enum Content {
            case text(String)
            case lineBreak
            /// A spoiler and what it hides, kept whole.
            case spoiler([Node])
        }

        var path: [Tag]
        var content: Content

        var length: Int {
            switch content {
            case .text(let text): text.utf16.count
            case .lineBreak: 1
            case .spoiler(let children): Markup(nodes: children).plainText.utf16.count
            }
        }
    }

    private static func leaves(_ nodes: [Node], path: [Tag]) -> [Leaf] {
        var leaves: [Leaf] = []
        for node in nodes {
            switch node {
            case .text(let text):
                // Split on the scalar: "\n" and a combining mark are one Character.
                var piece = String.UnicodeScalarView()
                for scalar in text.unicodeScalars {
                    if scalar == "\n" {
                        if !piece.isEmpty { leaves.append(Leaf(path: path, content: .text(String(piece)))) }
                        piece = String.UnicodeScalarView()
                        leaves.append(Leaf(path: path, content: .lineBreak))
                    } else {
                        piece.append(scalar)
                    }
                }
                if !piece.isEmpty { leaves.append(Leaf(path: path, content: .text(String(piece)))) }
            case .element(.spoiler, let children):
                leaves.append(Leaf(path: path, content: .spoiler(children)))
            case .element(let tag, let children):
                leaves += Self.leaves(children, path: path + [tag])
            }
        }
        return leaves
    }

    /// The tree again from leaves: runs of leaves inside the same element become that element.
    private static func nodes(from leaves: ArraySlice<Leaf>, depth: Int) -> [Node] {
        var nodes: [Node] = []
        var index = leaves.startIndex
        while index < leaves.endIndex {
            let leaf = leaves[index]
            if leaf.path.count == depth {
                switch leaf.content {
                case .text(let text): nodes.appendText(text)
                case .lineBreak: nodes.appendText("\n")
                case .spoiler(let children): nodes.append(.element(.spoiler, children))
                }
                index += 1
                continue
            }
            let tag = leaf.path[depth]
            var end = index + 1
            while end < leaves.endIndex, leaves[end].path.count > depth, leaves[end].path[depth] == tag { end += 1 }
            nodes.append(.element(tag, Self.nodes(from: leaves[index..<end], depth: depth + 1)))
            index = end
        }
        return nodes
    }

    /// Packs lines into parts.
    private struct Splitter {
        let maximumLength: Int
        var parts: [[Leaf]] = []
        var current: [Leaf] = []
        var length = 0

        mutating func flush() {
            // A part that would start with its line break does not need it.
            if case .lineBreak = current.first?.content { current.removeFirst() }
            if !current.isEmpty { parts.append(current) }
            current = []
            length = 0
        }

        /// A line, which starts with the line break before it (but for the first).
        mutating func add(line: [Leaf]) {
            let lineLength = line.reduce(0) { $0 + $1.length }
            if length + lineLength <= maximumLength {
                current += line
                length += lineLength
                return
            }
            flush()
            var rest = line
            if case .lineBreak = rest.first?.content { rest.removeFirst() }
            if rest.reduce(0, { $0 + $1.length }) <= maximumLength {
                current = rest
                length = rest.reduce(0) { $0 + $1.length }
                return
            }
            for leaf in rest { add(piece: leaf) }
        }

        /// A leaf of a line longer than a message: as much as fits here, the rest in the next part.
        mutating func add(piece leaf: Leaf) {
            if length + leaf.length <= maximumLength {
                current.append(leaf)
                length += leaf.length
                return
            }
            switch leaf.content {
            case .lineBreak:
                flush()
            case .spoiler(let children):
                if leaf.length <= maximumLength {
                    flush()
                    add(piece: leaf)
                } else {
                    // Longer than a message: each piece is a spoiler of its own.
                    cut(Markup(nodes: children).plainText) { Leaf(path: leaf.path, content: .spoiler([.text($0)])) }
                }
            case .text(let text):
                cut(text) { Leaf(path: leaf.path, content: .text($0)) }
            }
        }

        /// Text in pieces that fill this part and the next ones, never cut inside a character.
        mutating func cut(_ text: String, into leaf: (String) -> Leaf) {
            var piece = ""
            for character in text {
                let size = character.utf16.count
                if length + size > maximumLength, length > 0 {
                    if !piece.isEmpty { current.append(leaf(piece)) }
                    piece = ""
                    flush()
                }
                piece.append(character)
                length += size
            }
            if !piece.isEmpty { current.append(leaf(piece)) }
        }
    }
}

extension [Markup.Node] {
    /// Adds text, to the text before it if there is one: a tree has no two texts side by side.
    fileprivate mutating func appendText(_ text: String) {
        if case .text(let before) = last {
            self[count - 1] = .text(before + text)
        } else {
            append(.text(text))
        }
    }
}

extension String {
    /// Escapes `&`, `<` and `>` for the HTML subset of chat platforms, on UTF-8 bytes: those three are single
    /// bytes that no other character's bytes contain, so a `<` that a combining mark or joiner follows is
    /// escaped too (a `Character` would hide it).
    public var htmlEscaped: String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
        else { return self }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += "&amp;".utf8
            case UInt8(ascii: "<"): escaped += "&lt;".utf8
            case UInt8(ascii: ">"): escaped += "&gt;".utf8
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
