import DragKit

/// Reads Obsidian Kanban's Markdown, keeping every line it does not interpret.
///
/// Lanes are `## ` headings. A list item at the start of a line in a lane is a
/// card (`- [ ] `, `- [x] `; other markers are remembered per card). Lines a
/// lane holds before its first card go to `Column.extraLines`; any other line
/// after a card (indented continuation or not), with the blank lines before
/// it, goes to that card's `extraLines`. A trailing ` @{date}` in a card line
/// becomes `Card.due`.
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
        var blanks = 0
        var nextID: UInt64 = 1
        var markers: [ItemID: CardMarker] = [:]
        var tailStart = source.count

        func closeCard() {
            if let done = card.take() { cards.append(done) }
            card = nil
        }
        func closeColumn() {
            closeCard()
            if var column = current {
                column.column.cards = cards
                column.trailingBlanks = blanks
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

        var n = close + 1
        while n < source.count {
            defer { n += 1 }
            if source.isBlank(n) {
                blanks += 1
                continue
            }
            let first = source.byte(n, 0)!
            if first == UInt8(ascii: "#") && source.line(n, hasPrefix: "## ") {
                if current == nil { info.preamble += blankLines() } else { closeColumn() }
                let (title, limit) = splitWIPLimit(source.text(n, from: 3))
                current = RawColumn(title: title, wipLimit: limit)
                continue
            }
            if first == UInt8(ascii: "%") && source.line(n, equals: "%% kanban:settings") {
                tailStart = n
                break
            }
            if isArchiveBreak(n) {
                tailStart = n
                break
            }
            if current == nil {
                info.preamble += blankLines()
                info.preamble.append(source.text(n))
                continue
            }
            if let (markerLength, done) = cardMarker(n) {
                if cards.isEmpty && card == nil {
                    if current!.column.extraLines.isEmpty {
                        current!.leadingBlanks = blanks
                    } else {
                        current!.column.extraLines += blankLines()
                    }
                    current!.blanksBeforeCard.append(0)
                } else {
                    closeCard()
                    current!.blanksBeforeCard.append(blanks)
                }
                blanks = 0
                let id = ItemID(nextID)
                nextID += 1
                let (title, due) = splitDue(source.text(n, from: markerLength))
                card = Card(id: id, title: title, due: due, done: done)
                if !isCanonicalMarker(n, length: markerLength) {
                    markers[id] = CardMarker(text: source.text(n).utf8Prefix(markerLength), done: done)
                }
                continue
            }
            if card != nil {
                card!.extraLines += blankLines()
                card!.extraLines.append(source.text(n))
            } else {
                if current!.column.extraLines.isEmpty {
                    current!.leadingBlanks = blanks
                    blanks = 0
                } else {
                    current!.column.extraLines += blankLines()
                }
                current!.column.extraLines.append(source.text(n))
            }
        }
        if tailStart == source.count, let pending = source.table.pendingError { throw pending }
        if current == nil { info.preamble += blankLines() } else { closeColumn() }
        try readTail(from: tailStart, into: &info)
        info.cardMarkers = markers
        let board = assemble(raws, into: &info)
        return (board, info)
    }

    /// `***` (or another thematic break) whose next non-blank line is `## Archive`.
    private func isArchiveBreak(_ n: Int) -> Bool {
        guard source.line(n, equals: "***") || source.line(n, equals: "---") || source.line(n, equals: "___") else {
            return false
        }
        var k = n + 1
        while k < source.count && source.isBlank(k) { k += 1 }
        return k < source.count && source.line(k, equals: "## Archive")
    }

    /// Archive, settings block and what follows it, from `start` to the end.
    private func readTail(from start: Int, into info: inout BoardFileInfo) throws(ParseError) {
        var n = start
        if n < source.count && !source.line(n, equals: "%% kanban:settings") {
            var archiveEnd = n
            var sawArchiveHeading = false
            while archiveEnd < source.count && !source.line(archiveEnd, equals: "%% kanban:settings") {
                if source.line(archiveEnd, hasPrefix: "## ") {
                    if sawArchiveHeading {
                        throw source.error(archiveEnd, "lane heading after the archive; the \"## Archive\" section must come after every lane; \(source.found(archiveEnd))")
                    }
                    sawArchiveHeading = true
                }
                archiveEnd += 1
            }
            info.archive = (n..<archiveEnd).map { source.text($0) }
            n = archiveEnd
        }
        if n < source.count {
            let open = n
            guard let close = (open + 1..<source.count).first(where: { source.line($0, equals: "%%") }) else {
                if let pending = source.table.pendingError { throw pending }
                throw source.error(open, "settings block is never closed; expected a \"%%\" line after it")
            }
            guard open + 1 < close, source.line(open + 1, equals: "```") else {
                throw source.error(open + 1, "expected \"```\" opening the settings JSON; \(source.found(open + 1))")
            }
            guard close - 1 > open + 1, source.line(close - 1, equals: "```") else {
                throw source.error(close - 1, "expected \"```\" closing the settings JSON before \"%%\"; \(source.found(close - 1))")
            }
            info.settings = (open...close).map { source.text($0) }
            n = close + 1
        }
        if let pending = source.table.pendingError { throw pending }
        for k in n..<source.count where source.line(k, hasPrefix: "## ") {
            throw source.error(k, "lane heading after the settings block; \"%% kanban:settings\" must come last; \(source.found(k))")
        }
        info.epilogue = (n..<source.count).map { source.text($0) }
    }

    /// The length of a list marker at the start of the line (`- `, `* [ ] `, `- [x]` at the end, …) and its checked state.
    private func cardMarker(_ n: Int) -> (length: Int, done: Bool)? {
        guard let bullet = source.byte(n, 0),
              bullet == UInt8(ascii: "-") || bullet == UInt8(ascii: "*") || bullet == UInt8(ascii: "+"),
              source.byte(n, 1) == UInt8(ascii: " ") else { return nil }
        if source.byte(n, 2) == UInt8(ascii: "["), source.byte(n, 4) == UInt8(ascii: "]"),
           let mark = source.byte(n, 3),
           mark == UInt8(ascii: " ") || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") {
            let done = mark != UInt8(ascii: " ")
            if source.length(n) == 5 { return (5, done) }
            if source.byte(n, 5) == UInt8(ascii: " ") { return (6, done) }
        }
        return (2, false)
    }

    private func isCanonicalMarker(_ n: Int, length: Int) -> Bool {
        length == 6 && (source.line(n, hasPrefix: "- [ ] ") || source.line(n, hasPrefix: "- [x] "))
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
