/// The block a line of Markdown leaves open, as far as reading the next line depends on it.
///
/// CommonMark 0.30's block rules (what `cmark` and the Obsidian Kanban plugin's micromark read),
/// at the one level Lanes needs: whether an unindented line continues a card's paragraph
/// lazily, and whether a `#` or list line is inside a fenced code or HTML block.
enum OpenBlock: Equatable {
    case none
    case paragraph
    /// A fenced code block: its fence character and length.
    case fence(UInt8, Int)
    /// An HTML block of CommonMark start condition 1 to 7.
    case html(Int)
}

/// A list marker as CommonMark reads it: what kind of list it continues, and where the item's content starts.
struct ListMarker {
    /// `-`, `*`, `+`, or `.`/`)` for ordered lists: items of one list share it.
    var kind: UInt8
    /// The content's column: the marker's width plus the spaces after it (CommonMark's W).
    var width: Int
    /// Byte offset of the content (the line's length when the item is empty).
    var content: Int
    var empty: Bool
    /// An ordered marker whose number is 1 (only those, and non-empty bullets, interrupt a paragraph).
    var startsAtOne: Bool

    /// Whether the item may start while a paragraph is open (CommonMark: not empty, and a bullet or `1.`).
    var interruptsParagraph: Bool {
        !empty && (kind == UInt8(ascii: "-") || kind == UInt8(ascii: "*") || kind == UInt8(ascii: "+") || startsAtOne)
    }
}

private let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")

extension Source {
    /// The line's indentation in columns (tabs to multiples of 4) and the offset of its first
    /// other byte; nil when the line is blank in Markdown's sense (spaces and tabs only).
    func indentation(_ n: Int, from offset: Int = 0, column: Int = 0) -> (columns: Int, at: Int)? {
        var k = offset, col = column
        while let b = byte(n, k) {
            if b == space { col += 1 } else if b == tab { col += 4 - col % 4 } else { return (col - column, k) }
            k += 1
        }
        return nil
    }

    /// The list marker starting at byte `at` (after the line's indentation `indent`).
    func listMarker(_ n: Int, at: Int, indent: Int) -> ListMarker? {
        guard indent < 4, let b0 = byte(n, at) else { return nil }
        var k = at
        var kind = b0
        var one = false
        if b0 == UInt8(ascii: "-") || b0 == UInt8(ascii: "*") || b0 == UInt8(ascii: "+") {
            if isThematicBreak(n, from: at) { return nil }
            k += 1
        } else if b0 >= UInt8(ascii: "0") && b0 <= UInt8(ascii: "9") {
            var value = 0
            while k - at < 10, let b = byte(n, k), b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                value = value * 10 + Int(b - UInt8(ascii: "0"))
                k += 1
            }
            guard k - at <= 9, let d = byte(n, k), d == UInt8(ascii: ".") || d == UInt8(ascii: ")") else { return nil }
            kind = d
            one = value == 1
            k += 1
        } else {
            return nil
        }
        let markerColumns = indent + (k - at)
        guard let next = byte(n, k) else {
            return ListMarker(kind: kind, width: markerColumns + 1, content: k, empty: true, startsAtOne: one)
        }
        guard next == space || next == tab else { return nil }
        guard let rest = indentation(n, from: k, column: markerColumns) else {
            return ListMarker(kind: kind, width: markerColumns + 1, content: length(n), empty: true, startsAtOne: one)
        }
        // Five or more spaces after the marker: one belongs to it, the rest start indented code.
        let width = rest.columns >= 5 ? markerColumns + 1 : markerColumns + rest.columns
        return ListMarker(
            kind: kind, width: width, content: rest.columns >= 5 ? k + 1 : rest.at, empty: false, startsAtOne: one)
    }

    /// Three or more of one of `*`, `-`, `_` from `from` on, with only spaces or tabs between.
    func isThematicBreak(_ n: Int, from: Int = 0) -> Bool {
        guard let c = byte(n, from), c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else {
            return false
        }
        var count = 0, k = from
        while let b = byte(n, k) {
            if b == c { count += 1 } else if b != space && b != tab { return false }
            k += 1
        }
        return count >= 3
    }

    /// An ATX heading from `at`: 1 to 6 `#`, then a space, a tab or the line's end.
    func isATXHeading(_ n: Int, at: Int) -> Bool {
        var k = at
        while k - at < 7, byte(n, k) == UInt8(ascii: "#") { k += 1 }
        guard k - at >= 1 && k - at <= 6 else { return false }
        let next = byte(n, k)
        return next == nil || next == space || next == tab
    }

    /// A setext underline from `at`: `=` or `-` repeated, then only spaces or tabs.
    func isSetextUnderline(_ n: Int, at: Int) -> Bool {
        guard let c = byte(n, at), c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return false }
        var k = at
        while byte(n, k) == c { k += 1 }
        while let b = byte(n, k) { if b != space && b != tab { return false }; k += 1 }
        return true
    }

    /// A code fence opening at `at`: three or more backticks (no backtick after them) or tildes.
    func fenceStart(_ n: Int, at: Int) -> (UInt8, Int)? {
        guard let c = byte(n, at), c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var k = at
        while byte(n, k) == c { k += 1 }
        guard k - at >= 3 else { return nil }
        if c == UInt8(ascii: "`") {
            var j = k
            while let b = byte(n, j) { if b == c { return nil }; j += 1 }
        }
        return (c, k - at)
    }

    /// The closing fence of an open `(c, count)` block from `at`.
    func closesFence(_ n: Int, at: Int, _ fence: (UInt8, Int)) -> Bool {
        var k = at
        while byte(n, k) == fence.0 { k += 1 }
        guard k - at >= fence.1 else { return false }
        while let b = byte(n, k) { if b != space && b != tab { return false }; k += 1 }
        return true
    }

    private func lowercased(_ n: Int, _ k: Int) -> UInt8? {
        guard let b = byte(n, k) else { return nil }
        return b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b
    }

    /// Whether the line has `word` (lowercase ASCII) at `k`, ignoring case.
    private func has(_ word: StaticString, _ n: Int, at k: Int) -> Bool {
        word.withUTF8Buffer { w in
            for j in 0..<w.count where lowercased(n, k + j) != w[j] { return false }
            return true
        }
    }

    private static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
        "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
        "optgroup", "option", "p", "param", "section", "source", "summary", "table", "tbody", "td", "tfoot",
        "th", "thead", "title", "tr", "track", "ul",
    ]

    /// The CommonMark HTML block start condition (1–7) of a line from `at`, or nil.
    func htmlBlockStart(_ n: Int, at: Int) -> Int? {
        guard byte(n, at) == UInt8(ascii: "<") else { return nil }
        for (tag, k) in [("script", 1), ("pre", 1), ("style", 1), ("textarea", 1)] as [(StaticString, Int)] {
            if has(tag, n, at: at + 1) {
                let after = byte(n, at + 1 + tag.utf8CodeUnitCount)
                if after == nil || after == space || after == tab || after == UInt8(ascii: ">") { return k }
            }
        }
        if has("!--", n, at: at + 1) { return 2 }
        if byte(n, at + 1) == UInt8(ascii: "?") { return 3 }
        if has("![cdata[", n, at: at + 1) { return 5 }
        if byte(n, at + 1) == UInt8(ascii: "!"), let l = lowercased(n, at + 2),
            l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")
        {
            return 4
        }
        // Types 6 and 7: a tag name.
        var k = at + 1
        let closing = byte(n, k) == UInt8(ascii: "/")
        if closing { k += 1 }
        var name: [UInt8] = []
        while let l = lowercased(n, k),
            (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z"))
                || (l >= UInt8(ascii: "0") && l <= UInt8(ascii: "9") && !name.isEmpty)
                || (l == UInt8(ascii: "-") && !name.isEmpty)
        {
            name.append(l)
            k += 1
        }
        guard !name.isEmpty else { return nil }
        let after = byte(n, k)
        if Self.blockTags.contains(String(decoding: name, as: UTF8.self)),
            after == nil || after == space || after == tab || after == UInt8(ascii: ">")
                || (after == UInt8(ascii: "/") && byte(n, k + 1) == UInt8(ascii: ">"))
        {
            return 6
        }
        // Type 7 (a whole open or closing tag alone on the line), roughly: it ends in `>`, no `<` after the first.
        var last: UInt8 = 0
        var j = k
        while let b = byte(n, j) {
            if b == UInt8(ascii: "<") { return nil }
            if b != space && b != tab { last = b }
            j += 1
        }
        return last == UInt8(ascii: ">") ? 7 : nil
    }

    /// Whether the line, from `from`, holds the end of an HTML block of condition 1 to 5.
    func endsHTMLBlock(_ n: Int, from: Int, kind: Int) -> Bool {
        var k = from
        while byte(n, k) != nil {
            switch kind {
            case 1:
                if byte(n, k) == UInt8(ascii: "<") && byte(n, k + 1) == UInt8(ascii: "/")
                    && (has("script>", n, at: k + 2) || has("pre>", n, at: k + 2) || has("style>", n, at: k + 2)
                        || has("textarea>", n, at: k + 2))
                {
                    return true
                }
            case 2: if has("-->", n, at: k) { return true }
            case 3: if has("?>", n, at: k) { return true }
            case 4: if byte(n, k) == UInt8(ascii: ">") { return true }
            default: if has("]]>", n, at: k) { return true }
            }
            k += 1
        }
        return false
    }

    /// Whether a line at `at` (indented `indent` < 4 columns) starts a block that ends an open
    /// paragraph, so that it cannot continue a card lazily: a heading, a thematic break, a code
    /// fence, a block quote, an HTML block of conditions 1–6, or a list item that may interrupt one.
    func interruptsParagraph(_ n: Int, at: Int, indent: Int) -> Bool {
        guard indent < 4 else { return false }
        switch byte(n, at) ?? 0 {
        case UInt8(ascii: "#"): return isATXHeading(n, at: at)
        case UInt8(ascii: "`"), UInt8(ascii: "~"): return fenceStart(n, at: at) != nil
        case UInt8(ascii: ">"): return true
        case UInt8(ascii: "<"): return (htmlBlockStart(n, at: at) ?? 7) < 7
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "+"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let m = listMarker(n, at: at, indent: indent) else { return isThematicBreak(n, from: at) }
            return m.interruptsParagraph
        default: return false
        }
    }

    /// What a non-blank line from `at` (indented `indent` columns within its container) opens,
    /// given what was open before it (not a fence or an HTML block: those take the line whole).
    func blockOpened(_ n: Int, at: Int, indent: Int, after open: OpenBlock) -> OpenBlock {
        let paragraph = open == .paragraph
        if indent >= 4 { return paragraph ? .paragraph : .none }
        // By the first byte: most lines start no block but a paragraph.
        switch byte(n, at) ?? 0 {
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            if let fence = fenceStart(n, at: at) { return .fence(fence.0, fence.1) }
        case UInt8(ascii: "<"):
            if let kind = htmlBlockStart(n, at: at), kind < 7 || !paragraph {
                return kind <= 5 && endsHTMLBlock(n, from: at + 2, kind: kind) ? .none : .html(kind)
            }
        case UInt8(ascii: "#"):
            if isATXHeading(n, at: at) { return .none }
        case UInt8(ascii: "="):
            if paragraph && isSetextUnderline(n, at: at) { return .none }
        case UInt8(ascii: ">"):
            guard let rest = indentation(n, from: at + 1) else { return .none }
            return blockOpened(n, at: rest.at, indent: max(0, rest.columns - 1), after: .none)
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "+"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            if paragraph && isSetextUnderline(n, at: at) { return .none }
            // (listMarker rules out a thematic break itself.)
            if let m = listMarker(n, at: at, indent: indent) {
                if !paragraph || m.interruptsParagraph {
                    guard !m.empty, let rest = indentation(n, from: m.content) else { return .none }
                    return blockOpened(n, at: rest.at, indent: rest.columns, after: .none)
                }
            } else if isThematicBreak(n, from: at) {
                return .none
            }
        default:
            break
        }
        return .paragraph
    }
}

/// Follows what one container (the document, or a card's list item) has open, line by line.
struct BlockTracker {
    var open: OpenBlock = .none

    /// A line blank in Markdown's sense.
    mutating func blank() {
        switch open {
        case .fence: break
        case .html(let kind) where kind <= 5: break
        default: open = .none
        }
    }

    /// A non-blank line of this container, from byte `at`, indented `indent` columns within it.
    mutating func line(_ source: Source, _ n: Int, at: Int, indent: Int) {
        switch open {
        case .fence(let c, let count):
            if indent < 4 && source.closesFence(n, at: at, (c, count)) { open = .none }
        case .html(let kind):
            if kind <= 5 && source.endsHTMLBlock(n, from: at, kind: kind) { open = .none }
        default:
            open = source.blockOpened(n, at: at, indent: indent, after: open)
        }
    }

    /// Whether a heading or list line now would be read as one (not inside code or HTML).
    var takesBlocks: Bool {
        switch open {
        case .fence, .html: false
        default: true
        }
    }
}

/// Questions about one line of Markdown on its own.
enum MarkdownLine {
    /// Whether the line, directly under a card's paragraph, would continue it (lazily) rather than end it.
    static func continuesParagraph(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let source = Source(bytes: bytes, table: LineTable(bytes, file: ""), file: "")
        guard source.count > 0, let ind = source.indentation(0) else { return false }
        // Under a card, any list marker ends its item (a sibling, or another list).
        if source.listMarker(0, at: ind.at, indent: ind.columns) != nil { return false }
        return !source.interruptsParagraph(0, at: ind.at, indent: ind.columns)
    }
}
