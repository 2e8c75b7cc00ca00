import DragKit

/// Reads Obsidian Kanban's Markdown, keeping every line it does not interpret.
///
/// Lanes are headings of any level (`#` to `######`, as the plugin takes any heading, see
/// docs/FORMATS.md). A list item at the start of a line in a lane is a card: `-`, `*`, `+` or
/// `1.`/`1)` bullets, with or without a `[c]` check box (any character but a space checks it);
/// how it is written is remembered where it differs from the lane's style. Lines a lane holds
/// before its first card go to `Column.extraLines`; any other line after a card (indented
/// continuation or not), with the blank lines before it, goes to that card's `extraLines`.
/// A trailing ` @{date}` in a card line becomes `Card.due`.
///
/// The tail is tolerated as the plugin tolerates it: from the archive's thematic break and the
/// first `%% kanban:settings` line on, every line is kept byte for byte whatever its shape
/// (a blank line before the fence, a bare marker, repeated blocks); `settingsUnreadable` says
/// when the block is not the plugin's shape.
struct ObsidianParser {
    private let source: Source

    init(_ source: Source) {
        self.source = source
    }

    func parse() throws(ParseError) -> (board: Board, info: BoardFileInfo) {
        var info = BoardFileInfo(dialect: .obsidian)
        info.lineEnding = source.table.lineEnding
        info.hasByteOrderMark = source.table.hasByteOrderMark
        info.endsWithNewline = source.table.endsWithNewline
        info.preamble = []
        info.settings = []

        guard let close = (1..<max(1, source.count)).first(where: { source.line($0, equals: "---") }) else {
            if let pending = source.table.pendingError { throw pending }
            throw source.error(0, "frontmatter is never closed; expected a \"---\" line after it")
        }
        info.frontmatter = (0...close).map { source.text($0) }

        var raws: [RawColumn] = []
        var current: RawColumn?
        var cards: CardList = []
        var card: Card?
        /// The open card's extra lines, set on the card when it closes (appending through the
        /// card's accessor would copy them each time).
        var cardExtra: [String] = []
        var blanks = 0
        var nextID: UInt64 = 1
        // The cards' titles, many to an allocation (see `TitleSlabs`).
        var titles = TitleSlabs()
        var markers: [CardID: CardMarker] = [:]
        /// Each column's cards' markers as read (line, length, done, check offset), until the column's style is known.
        var columnMarkers: [(id: CardID, line: Int, length: Int, done: Bool, checkAt: Int?)] = []
        var tailStart = source.count
        var fileStyle: CardStyle?

        func closeCard() {
            if var done = card.take() {
                if !cardExtra.isEmpty {
                    done.setParsedDetails(descriptionLines: [], subtasks: [], extraLines: cardExtra)
                    cardExtra = []
                }
                cards.append(done)
            }
            card = nil
        }
        func closeColumn() {
            closeCard()
            if var column = current {
                // The lane's style is its first card's; markers are kept only where they differ.
                func marker(_ m: (id: CardID, line: Int, length: Int, done: Bool, checkAt: Int?)) -> CardMarker {
                    CardMarker(text: source.text(m.line).utf8Prefix(m.length), done: m.done, checkAt: m.checkAt)
                }
                let style = columnMarkers.first.map { marker($0).style } ?? fileStyle ?? .standard
                if fileStyle == nil, let first = columnMarkers.first { fileStyle = marker(first).style }
                column.cardStyle = style
                // Compared as bytes: no string for a card written in its lane's style (most of them).
                let styleBytes = [Array(style.text(done: false).utf8), Array(style.text(done: true).utf8)]
                for m in columnMarkers
                where !source.line(m.line, hasPrefix: styleBytes[m.done ? 1 : 0], length: m.length) {
                    markers[m.id] = marker(m)
                }
                columnMarkers.removeAll(keepingCapacity: true)
                column.column.cards = cards
                column.trailingBlanks = blanks
                // The list's end, kept: its own trailing blank lines are the lane's gap to the next.
                while column.afterList.last == "" {
                    column.afterList.removeLast()
                    column.trailingBlanks += 1
                }
                raws.append(column)
            }
            cards = []
            current = nil
            blanks = 0
        }
        func blankLines() -> [String] {
            defer { blanks = 0 }
            return Array(repeating: "", count: blanks)
        }

        /// What the document level has open (outside cards): a `#` line in a code fence is no lane.
        var doc = BlockTracker()
        /// What the open card's list item has open, and its content column (CommonMark's W).
        var item = BlockTracker()
        var itemWidth = 0
        /// The lane's list: its marker kind (`-`, `*`, `+`, `.`, `)`); a marker of another kind starts another list.
        var listKind: UInt8 = 0
        /// A blank line (in Markdown's sense) since the open card's last line.
        var blankInItem = false
        /// The lane's list has ended: the lines up to the next lane are kept, not read as cards.
        var listEnded = false

        func endList(_ n: Int, at: Int, indent: Int) {
            current!.cardAboveAfterList = card?.id
            closeCard()
            listEnded = true
            current!.afterList = blankLines() + [source.text(n)]
            info.readingNotes.append(
                "\(source.file):\(n + 1): lane “\(current!.column.title)”: its list of cards ends here "
                    + "(Markdown ends a list at an unindented line that does not continue a card); the lines up to the next lane "
                    + "are kept as written, not shown as cards, as Obsidian Kanban reads the file")
            doc = BlockTracker()
            doc.line(source, n, at: at, indent: indent)
        }

        var n = close + 1
        while n < source.count {
            defer { n += 1 }
            let inItem = card != nil && !listEnded
            if source.isBlank(n) {
                blanks += 1
                if inItem { item.blank(); blankInItem = true } else { doc.blank() }
                continue
            }
            let first = source.byte(n, 0)!
            if first == UInt8(ascii: "#"), inItem || doc.takesBlocks, let level = headingLevel(n) {
                if current == nil { info.preamble += blankLines() } else { closeColumn() }
                let skip = source.length(n) > level ? level + 1 : level
                let (title, limit) = splitWIPLimit(source.text(n, from: skip))
                current = RawColumn(title: title, wipLimit: limit)
                current!.heading = source.text(n).utf8Prefix(skip)
                doc = BlockTracker()
                listEnded = false
                continue
            }
            if (first == UInt8(ascii: "%") && source.line(n, equals: "%% kanban:settings")) || isArchiveBreak(n) {
                // A lane heading after the archive or settings is a lane, as the plugin reads every
                // heading but the archive's: what stands before it is kept with the lane above.
                guard let lane = laneHeading(after: n) else {
                    tailStart = n
                    break
                }
                if source.line(n, equals: "%% kanban:settings") {
                    let close = (n + 1..<lane).first { source.line($0, equals: "%%") } ?? source.count
                    if let problem = settingsProblem(open: n, close: close) {
                        info.readingNotes.append(
                            "\(source.file):\(n + 1): the %% kanban:settings block \(problem); kept as written, no settings read from it"
                        )
                    }
                }
                if current == nil {
                    info.preamble += blankLines()
                    info.preamble += (n..<lane).map { source.text($0) }
                } else {
                    let above = card?.id ?? cards.last?.id
                    let hasCards = card != nil || !cards.isEmpty
                    closeCard()
                    if !hasCards && current!.column.extraLines.isEmpty && current!.afterList.isEmpty {
                        current!.leadingBlanks = blanks
                        blanks = 0
                    }
                    if current!.afterList.isEmpty { current!.cardAboveAfterList = above }
                    current!.afterList += blankLines() + (n..<lane).map { source.text($0) }
                    // Its own trailing blank lines are the lane's gap to the next.
                    while current!.afterList.last == "" {
                        current!.afterList.removeLast()
                        blanks += 1
                    }
                }
                n = lane - 1
                continue
            }
            if current == nil {
                info.preamble += blankLines()
                info.preamble.append(source.text(n))
                if let ind = source.indentation(n) {
                    doc.line(source, n, at: ind.at, indent: ind.columns)
                } else {
                    doc.blank()
                }
                continue
            }
            if listEnded {
                current!.afterList += blankLines()
                current!.afterList.append(source.text(n))
                if let ind = source.indentation(n) {
                    doc.line(source, n, at: ind.at, indent: ind.columns)
                } else {
                    doc.blank()
                }
                continue
            }
            guard let (indent, at) = source.indentation(n) else {
                // Spaces or tabs only: a line kept as it is, blank to Markdown.
                if inItem {
                    cardExtra += blankLines()
                    cardExtra.append(source.text(n))
                    item.blank()
                    blankInItem = true
                } else {
                    appendColumnExtra(source.text(n), to: &current!, blanks: blankLines())
                    doc.blank()
                }
                continue
            }
            if inItem && indent >= itemWidth {
                // Inside the card's list item.
                cardExtra += blankLines()
                cardExtra.append(source.text(n))
                item.line(source, n, at: at, indent: indent - itemWidth)
                blankInItem = false
                continue
            }
            let list = doc.takesBlocks ? source.listMarker(n, at: at, indent: indent) : nil
            if let list, let marker = cardMarker(n, at: at),
                inItem
                    ? list.kind == listKind
                    : (doc.open != .paragraph || source.interruptsParagraph(n, at: at, indent: indent))
            {
                if !inItem {
                    if current!.column.extraLines.isEmpty {
                        current!.leadingBlanks = blanks
                    } else {
                        current!.column.extraLines += blankLines()
                    }
                    current!.blanksBeforeCard.append(0)
                    listKind = list.kind
                } else {
                    closeCard()
                    current!.blanksBeforeCard.append(blanks)
                }
                blanks = 0
                let id = CardID(nextID)
                nextID += 1
                let (title, due) = splitDue(source.text(n, from: marker.length))
                card = Card(id: id, titleText: titles.title(title), due: due, done: marker.done)
                columnMarkers.append((id, n, marker.length, marker.done, marker.checkAt))
                itemWidth = list.width
                item = BlockTracker()
                if !list.empty { item.open = source.blockOpened(n, at: list.content, indent: 0, after: .none) }
                blankInItem = false
                continue
            }
            if inItem {
                if list == nil && !blankInItem && item.open == .paragraph
                    && !source.interruptsParagraph(n, at: at, indent: indent)
                {
                    // A lazy continuation line of the card's paragraph.
                    cardExtra += blankLines()
                    cardExtra.append(source.text(n))
                    continue
                }
                endList(n, at: at, indent: indent)
                continue
            }
            appendColumnExtra(source.text(n), to: &current!, blanks: blankLines())
            doc.line(source, n, at: at, indent: indent)
        }
        if tailStart == source.count, let pending = source.table.pendingError { throw pending }
        if current == nil { info.preamble += blankLines() } else { closeColumn() }
        try readTail(from: tailStart, into: &info)
        info.cardMarkers = markers
        info.cardStyle = fileStyle ?? .standard
        info.headingPrefix = raws.first?.heading ?? "## "
        // The last card written directly above what follows the lanes (Markdown reads that line
        // as the card's): kept so for that card only; another card there gets a blank line.
        if tailStart < source.count, let last = raws.last, last.trailingBlanks == 0, last.afterList.isEmpty,
            let lastCard = last.column.cards.last
        {
            info.cardJoinedToTail = lastCard.id
        }
        let board = assemble(raws, into: &info)
        return (board, info)
    }

    /// A line of the lane before its first card.
    private func appendColumnExtra(_ text: String, to raw: inout RawColumn, blanks: [String]) {
        if raw.column.extraLines.isEmpty {
            raw.leadingBlanks = blanks.count
        } else {
            raw.column.extraLines += blanks
        }
        raw.column.extraLines.append(text)
    }

    /// The first line from `start` on that the plugin reads as a lane heading: a heading outside
    /// code and HTML blocks that is not the archive's (an `Archive` heading after a thematic break).
    private func laneHeading(after start: Int) -> Int? {
        var doc = BlockTracker()
        var afterBreak = false
        for k in start..<source.count {
            guard let ind = source.indentation(k) else { doc.blank(); continue }
            if doc.takesBlocks && ind.at == 0 && headingLevel(k) != nil {
                if !(afterBreak && isArchiveHeading(k)) { return k }
                afterBreak = false
                doc.open = .none
                continue
            }
            // (`---` under a paragraph underlines it as a heading instead.)
            afterBreak =
                doc.takesBlocks && ind.columns < 4 && source.isThematicBreak(k, from: ind.at)
                && !(doc.open == .paragraph && source.isSetextUnderline(k, at: ind.at))
            doc.line(source, k, at: ind.at, indent: ind.columns)
        }
        return nil
    }

    /// The heading's level when line `n` is an ATX heading (1 to 6 `#`, then a space or the line's end).
    private func headingLevel(_ n: Int) -> Int? {
        var k = 0
        while k < 7, source.byte(n, k) == UInt8(ascii: "#") { k += 1 }
        guard k >= 1 && k <= 6 else { return nil }
        let next = source.byte(n, k)
        return next == nil || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") ? k : nil
    }

    /// A thematic break: three or more of one of `*`, `-`, `_`, with only spaces or tabs between.
    private func isThematicBreak(_ n: Int) -> Bool {
        guard let c = source.byte(n, 0), c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        else {
            return false
        }
        var count = 0
        var k = 0
        while let b = source.byte(n, k) {
            if b == c { count += 1 } else if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") { return false }
            k += 1
        }
        return count >= 3
    }

    private func isArchiveHeading(_ k: Int) -> Bool {
        guard let level = headingLevel(k) else { return false }
        return source.text(k, from: min(level + 1, source.length(k))) == "Archive"
    }

    /// A thematic break whose next non-blank line is an `Archive` heading (any level).
    private func isArchiveBreak(_ n: Int) -> Bool {
        guard isThematicBreak(n) else { return false }
        var k = n + 1
        while k < source.count && source.isBlank(k) { k += 1 }
        return k < source.count && isArchiveHeading(k)
    }

    /// Archive, settings block and what follows it, from `start` to the end: every line kept as it is.
    private func readTail(from start: Int, into info: inout BoardFileInfo) throws(ParseError) {
        if let pending = source.table.pendingError { throw pending }
        var n = start
        if n < source.count && !source.line(n, equals: "%% kanban:settings") {
            var archiveEnd = n
            while archiveEnd < source.count && !source.line(archiveEnd, equals: "%% kanban:settings") {
                archiveEnd += 1
            }
            info.archive = (n..<archiveEnd).map { source.text($0) }
            n = archiveEnd
        }
        if n < source.count {
            let open = n
            var close = open + 1
            while close < source.count && !source.line(close, equals: "%%") { close += 1 }
            let end = min(close, source.count - 1)
            info.settings = (open...end).map { source.text($0) }
            n = end + 1
            if let problem = settingsProblem(open: open, close: close) {
                info.readingNotes.append(
                    "\(source.file):\(open + 1): the %% kanban:settings block \(problem); kept as written, no settings read from it"
                )
            }
        }
        info.epilogue = (n..<source.count).map { source.text($0) }
        if let k = (n..<source.count).first(where: { headingLevel($0) != nil && !isArchiveHeading($0) }) {
            info.readingNotes.append(
                "\(source.file):\(k + 1): a heading after the settings block; kept as written, not shown as a column")
        }
    }

    /// Why the settings block from `open` to `close` (its `%%` line, or the file's end) is not
    /// `%% kanban:settings`, a fenced block, `%%` (blank lines allowed between): nil when it is.
    private func settingsProblem(open: Int, close: Int) -> String? {
        guard close < source.count else { return "is never closed by a \"%%\" line" }
        var k = open + 1
        while k < close && source.isBlank(k) { k += 1 }
        guard k < close, source.line(k, hasPrefix: "```") else { return "has no ``` fence after its first line" }
        var e = close - 1
        while e > k && source.isBlank(e) { e -= 1 }
        guard e > k, source.line(e, equals: "```") else { return "has no closing ``` fence before \"%%\"" }
        if !(k + 1..<e).contains(where: { !source.isBlank($0) }) { return "holds no settings between its fences" }
        return nil
    }

    /// The list marker at the start of the line (`- `, `* [ ] `, `1. [x] `, `- [x]` at the end, and
    /// the same after up to three spaces from `at`): its length, its checked state, and where its
    /// check character is.
    private func cardMarker(_ n: Int, at lead: Int = 0) -> (length: Int, done: Bool, checkAt: Int?)? {
        guard lead <= 3, let b0 = source.byte(n, lead) else { return nil }
        var bullet = lead
        if b0 == UInt8(ascii: "-") || b0 == UInt8(ascii: "*") || b0 == UInt8(ascii: "+") {
            guard source.byte(n, lead + 1) == UInt8(ascii: " "), !source.isThematicBreak(n, from: lead) else {
                return nil
            }
            bullet = lead + 2
        } else if b0 >= UInt8(ascii: "0") && b0 <= UInt8(ascii: "9") {
            var k = lead
            while k - lead < 10, let b = source.byte(n, k), b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { k += 1 }
            guard k - lead <= 9, let d = source.byte(n, k), d == UInt8(ascii: ".") || d == UInt8(ascii: ")"),
                source.byte(n, k + 1) == UInt8(ascii: " ")
            else { return nil }
            bullet = k + 2
        } else {
            return nil
        }
        if source.byte(n, bullet) == UInt8(ascii: "["), source.byte(n, bullet + 2) == UInt8(ascii: "]"),
            let mark = source.byte(n, bullet + 1), mark >= 0x20 && mark < 0x7F && mark != UInt8(ascii: "]")
        {
            let done = mark != UInt8(ascii: " ")
            if source.length(n) == bullet + 3 { return (bullet + 3, done, bullet + 1) }
            if source.byte(n, bullet + 3) == UInt8(ascii: " ") { return (bullet + 4, done, bullet + 1) }
        }
        return (bullet, false, nil)
    }
}

/// Splits a trailing ` @{date}` off a card title.
func splitDue(_ title: String) -> (title: String, due: String?) {
    let utf8 = title.utf8
    guard utf8.last == UInt8(ascii: "}") else { return (title, nil) }
    let end = utf8.index(before: utf8.endIndex)
    var i = end
    while i > utf8.startIndex {
        i = utf8.index(before: i)
        let b = utf8[i]
        if b == UInt8(ascii: "}") { return (title, nil) }
        if b == UInt8(ascii: "{") {
            guard utf8.index(after: i) < end else { return (title, nil) }
            guard i > utf8.startIndex else { return (title, nil) }
            let at = utf8.index(before: i)
            guard utf8[at] == UInt8(ascii: "@"), at > utf8.startIndex else { return (title, nil) }
            let space = utf8.index(before: at)
            guard utf8[space] == UInt8(ascii: " ") else { return (title, nil) }
            let due = String(title[utf8.index(after: i)..<end])
            return (String(title[..<space]), due)
        }
    }
    return (title, nil)
}

extension String {
    /// The first `count` UTF-8 bytes as a string; `count` must fall on a character boundary.
    func utf8Prefix(_ count: Int) -> String {
        String(self[..<utf8.index(utf8.startIndex, offsetBy: count)])
    }
}
