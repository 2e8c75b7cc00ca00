import DragKit

/// A column while it is parsed, with the blank lines around its parts.
struct RawColumn {
    var column: Column
    /// Blank lines between the heading and the first card or extra line.
    var leadingBlanks = 0
    /// Blank lines after the column's last line; for a column with no cards
    /// and no extra lines, every blank line after the heading.
    var trailingBlanks = 0
    /// Blank lines before each card; the first entry is unused. Cards past its end have none
    /// (taskell allows no blank lines between cards and keeps it empty: 8 bytes a card saved).
    var blanksBeforeCard: [Int] = []

    func blanks(beforeCard k: Int) -> Int { k < blanksBeforeCard.count ? blanksBeforeCard[k] : 0 }
    /// The heading's marker as written (`## `, `# `, `###` for an empty title).
    var heading = "## "
    /// Obsidian: how the lane's cards are written (its first card's marker).
    var cardStyle = CardStyle.standard
    /// Obsidian: the lines after the end of the lane's list, up to the next lane (kept, not cards).
    var afterList: [String] = []
    /// The card those lines stood under when read: another card there may need a blank line
    /// between, where their first line would continue its paragraph.
    var cardAboveAfterList: CardID?

    init(title: String, wipLimit: Int?) {
        column = Column(title: title, wipLimit: wipLimit)
    }

    var hasContent: Bool { !column.cards.isEmpty || !column.extraLines.isEmpty || !afterList.isEmpty }
}

/// Turns parsed columns into the board and the file's usual spacing plus exceptions.
///
/// The usual spacing is what the first column (or pair of cards) shows; a
/// column without content gives its blank lines to the heading first, up to
/// the usual count, so a card added to it later lands where it would elsewhere.
func assemble(_ raws: [RawColumn], into info: inout BoardFileInfo) -> Board {
    var layout = BoardLayout.standard(for: info.dialect)
    if let first = raws.first(where: \.hasContent) { layout.blankLinesAfterHeading = first.leadingBlanks }
    if let first = raws.dropLast().first(where: \.hasContent) {
        layout.blankLinesBetweenColumns = first.trailingBlanks
    }
    if let gap = raws.lazy.compactMap({ $0.column.cards.count > 1 ? $0.blanks(beforeCard: 1) : nil }).first {
        layout.blankLinesBetweenCards = gap
    }

    var columns: [Column] = []
    columns.reserveCapacity(raws.count)
    var exceptions: [(index: Int, spacing: ColumnSpacing)] = []
    var cardGaps: [CardID: Int] = [:]
    for (index, raw) in raws.enumerated() {
        var leading = raw.leadingBlanks
        var trailing = raw.trailingBlanks
        let isLast = index == raws.count - 1
        var exception = ColumnSpacing()
        if !raw.hasContent && !isLast {
            // Between two headings: how many blank lines, not which are whose (a card put in it
            // later is spaced as elsewhere, with the usual blank line before the next heading).
            let total = leading + trailing
            if total != layout.blankLinesAfterHeading + layout.blankLinesBetweenColumns {
                exception.emptyBlanks = total
            }
            leading = layout.blankLinesAfterHeading
            trailing = layout.blankLinesBetweenColumns
        } else if !raw.hasContent {
            leading = min(trailing, layout.blankLinesAfterHeading)
            trailing -= leading
        }
        if isLast {
            layout.blankLinesAfterColumns = trailing
        }
        if leading != layout.blankLinesAfterHeading { exception.afterHeading = leading }
        if !isLast && trailing != layout.blankLinesBetweenColumns { exception.afterColumn = trailing }
        if raw.heading != info.headingPrefix { exception.heading = raw.heading }
        if raw.cardStyle != info.cardStyle { exception.cardStyle = raw.cardStyle }
        if !raw.afterList.isEmpty {
            exception.afterList = raw.afterList
            exception.cardAboveAfterList = raw.cardAboveAfterList
        }
        if exception != ColumnSpacing() { exceptions.append((index, exception)) }
        // By index: enumerating the cards would copy each one (a retain and release per card).
        for k in raw.column.cards.indices.dropFirst() where raw.blanks(beforeCard: k) != layout.blankLinesBetweenCards {
            cardGaps[raw.column.cards[k].id] = raw.blanks(beforeCard: k)
        }
        columns.append(raw.column)
    }
    info.layout = layout
    // Keys (a hash of every title) only for a file whose columns have exceptions.
    var spacing: [ColumnKey: ColumnSpacing] = [:]
    if !exceptions.isEmpty {
        let keys = ColumnKey.keys(of: columns)
        for (index, exception) in exceptions { spacing[keys[index]] = exception }
    }
    info.columnSpacing = spacing
    info.blankLinesBeforeCard = cardGaps
    return Board(columns: columns)
}

/// Splits `## Title (N)` into the title and the WIP limit N (a positive integer, no leading zero).
func splitWIPLimit(_ heading: String) -> (title: String, wipLimit: Int?) {
    let utf8 = heading.utf8
    guard utf8.last == UInt8(ascii: ")") else { return (heading, nil) }
    var i = utf8.index(before: utf8.endIndex)
    var value = 0
    var digits = 0
    while i > utf8.startIndex {
        let prev = utf8.index(before: i)
        let b = utf8[prev]
        guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { break }
        i = prev
        digits += 1
        if digits > 9 { return (heading, nil) }
        value += Int(b - UInt8(ascii: "0")) * pow10(digits - 1)
    }
    guard digits > 0, value > 0, utf8[i] != UInt8(ascii: "0"), i > utf8.startIndex else { return (heading, nil) }
    let open = utf8.index(before: i)
    guard utf8[open] == UInt8(ascii: "("), open > utf8.startIndex else { return (heading, nil) }
    let space = utf8.index(before: open)
    guard utf8[space] == UInt8(ascii: " ") else { return (heading, nil) }
    return (String(heading[..<space]), value)
}

private func pow10(_ n: Int) -> Int {
    var r = 1
    for _ in 0..<n { r *= 10 }
    return r
}

/// Writes lines with the file's line ending; drops the last one when the file had none.
struct BoardWriter {
    let info: BoardFileInfo
    private var out = ""
    private let newline: String
    /// Cards' text from the last save, by chunk (a file store's); nil formats every card.
    private let cache: CardTextCache?
    /// Obsidian: the card style of the lane being written.
    private var style = CardStyle.standard

    init(info: BoardFileInfo, cache: CardTextCache? = nil, byteOrderMark: Bool = true) {
        self.info = info
        self.cache = cache
        self.newline = info.lineEnding.text
        if byteOrderMark && info.hasByteOrderMark { out.append("\u{FEFF}") }
    }

    mutating func line(_ text: String) {
        out += text
        out += newline
    }

    /// Lines kept verbatim; still never what the parser refuses.
    mutating func lines(_ texts: [String]) {
        for text in texts { line(singleLine(text)) }
    }

    mutating func blanks(_ count: Int) {
        for _ in 0..<max(0, count) { out += newline }
    }

    mutating func write(_ board: Board) {
        let dialect = info.dialect
        out.reserveCapacity(board.cardCount * 48 + 256)
        cache?.begin(info)
        defer { cache?.end() }
        lines(info.frontmatter)
        lines(info.preamble)
        let layout = info.layout
        let keys = info.columnSpacing.isEmpty ? [] : ColumnKey.keys(of: board.columns)
        var gapBefore = 0
        var previous: ColumnSpacing?
        for (index, column) in board.columns.enumerated() {
            let spacing = keys.isEmpty ? nil : info.columnSpacing[keys[index]]
            if index > 0 { blanks(gapBefore) }
            previous = spacing
            gapBefore = spacing?.afterColumn ?? layout.blankLinesBetweenColumns
            let prefix = dialect == .obsidian ? spacing?.heading ?? info.headingPrefix : "## "
            var heading = prefix + singleLine(column.title)
            if let limit = column.wipLimit { heading += " (\(limit))" }
            if prefix.last != " " && !heading.utf8.dropFirst(prefix.utf8.count).isEmpty {
                heading = prefix + " " + heading.dropFirst(prefix.count)
            }
            line(heading)
            if let total = spacing?.emptyBlanks, column.cards.isEmpty,
                column.extraLines.isEmpty || dialect != .obsidian,
                spacing?.afterList == nil
            {
                // Still empty: its blank lines as read, all of them before the next heading.
                blanks(total)
                gapBefore = 0
            } else {
                blanks(spacing?.afterHeading ?? layout.blankLinesAfterHeading)
            }
            if dialect == .obsidian { lines(column.extraLines) }
            style = spacing?.cardStyle ?? info.cardStyle
            // The cache's text assumes the standard style for unmarked cards.
            let cache = style == .standard ? self.cache : nil
            var k = 0
            for chunk in column.cards.storageChunks {
                if k > 0 { blanks(info.blankLinesBeforeCard[chunk[0].id] ?? layout.blankLinesBetweenCards) }
                if let cache {
                    out += cache.text(of: chunk) { chunkText(chunk) }
                } else {
                    writeCards(chunk)
                }
                k += chunk.count
            }
            if let after = spacing?.afterList {
                // A card never lands where Markdown would read the next line as part of it.
                if let last = column.cards.last, last.id != spacing?.cardAboveAfterList, let first = after.first,
                    MarkdownLine.continuesParagraph(first)
                {
                    blanks(1)
                }
                lines(after)
            }
        }
        if !board.columns.isEmpty {
            var after = layout.blankLinesAfterColumns
            // A card directly above the archive or settings would take that line into its paragraph.
            if after == 0, dialect == .obsidian, let lastCard = board.columns.last?.cards.last,
                previous?.afterList == nil,
                lastCard.id != info.cardJoinedToTail,
                !(info.archive.isEmpty && info.settings.isEmpty && info.epilogue.isEmpty)
            {
                after = 1
            }
            blanks(after)
        }
        lines(info.archive)
        lines(info.settings)
        lines(info.epilogue)
    }

    /// A run of cards with the blank lines between them (none before the first).
    private mutating func writeCards(_ cards: [Card]) {
        for (j, card) in cards.enumerated() {
            if j > 0 { blanks(info.blankLinesBeforeCard[card.id] ?? info.layout.blankLinesBetweenCards) }
            switch info.dialect {
            case .taskell: writeTaskell(card)
            case .obsidian: writeObsidian(card)
            }
        }
    }

    private func chunkText(_ cards: [Card]) -> String {
        var piece = BoardWriter(info: info, byteOrderMark: false)
        piece.writeCards(cards)
        return piece.out
    }

    private mutating func writeTaskell(_ card: Card) {
        line("- " + singleLine(card.title))
        if let due = card.due { line("    @ " + singleLine(due)) }
        for text in card.descriptionLines { line("    > " + singleLine(text)) }
        for sub in card.subtasks { line((sub.done ? "    * [x] " : "    * [ ] ") + singleLine(sub.title)) }
    }

    private mutating func writeObsidian(_ card: Card) {
        var text: String
        // A card's own marker only in a list of its kind (a moved card takes its new lane's).
        if let marker = info.cardMarkers[card.id], marker.style.listKind == style.listKind {
            text = marker.marking(done: card.done)
        } else {
            text = style.text(done: card.done)
        }
        text += singleLine(card.title)
        if let due = card.due { text += " @{" + singleLine(due) + "}" }
        line(text)
        lines(card.extraLines)
        for text in card.descriptionLines { line("    " + singleLine(text)) }
        for sub in card.subtasks { line((sub.done ? "    - [x] " : "    - [ ] ") + singleLine(sub.title)) }
    }

    mutating func finish() -> String {
        if !info.endsWithNewline && out.hasSuffix(newline) {
            out.removeLast()  // "\r\n" is a single Character
        }
        return out
    }
}

/// The text as one line the parser reads back: see `TextRules.writable`.
func singleLine(_ text: String) -> String {
    TextRules.writable(text)
}
