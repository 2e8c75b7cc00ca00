import DragKit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first cards of each column of a board file and every column's exact card count, read
/// without parsing the whole file: what the first screen of a big board shows.
///
/// One pass over the bytes (`memchr` from line to line) finds the column headings and counts
/// the lines that start a card; the file's own parser then reads a shortened copy of the file
/// (each column's heading up to its `firstCards + 1`-th card). Only shapes where a line's first
/// bytes say exactly what the parser will make of it are read so (taskell; Obsidian lanes of
/// `#` headings, `- [ ] ` cards, indented continuations and one plain line such as
/// `**Complete**` before a lane's first card, then the archive or settings block); anything
/// else (a code fence, a paragraph under a card, another list marker, …) gives nil and the
/// file is parsed whole. The cards have the identities the whole parse gives them (1…n in file
/// order). Nothing here reports errors: the whole parse that follows does, with file and line.
public struct BoardPreview: Sendable {
    /// The columns with their first `firstCards` cards.
    public var board: Board
    /// Every column's card count in the whole file.
    public var cardCounts: [Int]
    public var dialect: BoardDialect
    public var totalCards: Int { cardCounts.reduce(0, +) }

    /// The preview of `bytes`, nil when its shape is not one read exactly without a full parse.
    public static func read(_ bytes: [UInt8], file: String, firstCards: Int) -> BoardPreview? {
        guard firstCards > 0, firstCards < PreviewScan.keep else { return nil }
        guard let scan = bytes.withUnsafeBufferPointer({ PreviewScan.scan($0) }) else { return nil }
        var short: [UInt8] = []
        short.reserveCapacity(scan.head + scan.columns.count * 64 * (firstCards + 1))
        short.append(contentsOf: bytes[0..<scan.head])
        for c in scan.columns {
            let cut = c.cardStarts.count > firstCards ? c.cardStarts[firstCards] : c.end
            short.append(contentsOf: bytes[c.start..<cut])
            if let last = short.last, last != 0x0A { short.append(0x0A) }  // the column's last line, ended
        }
        guard let parsed = try? BoardFormat.parse(short, file: file), parsed.board.columns.count == scan.columns.count
        else {
            return nil
        }
        var board = parsed.board
        var before: UInt64 = 0
        for (k, c) in scan.columns.enumerated() {
            guard board.columns[k].cards.count == min(firstCards, c.count) else { return nil }
            // The identities the whole parse gives: 1…n in file order.
            var cards = board.columns[k].cards
            for i in cards.indices { cards[i].id = CardID(before + UInt64(i) + 1) }
            board.columns[k].cards = cards
            before += UInt64(c.count)
        }
        return BoardPreview(board: board, cardCounts: scan.columns.map(\.count), dialect: parsed.info.dialect)
    }
}

/// The line-by-line pass of `BoardPreview`: column headings, card starts, where the columns end.
private struct PreviewScan {
    struct ColumnSpan {
        /// Where its heading line starts, and where the next heading (or the tail, or the file's end) starts.
        var start: Int
        var end: Int
        var count = 0
        /// Where its first cards' lines start (as many as a preview may want: kept to `keep`).
        var cardStarts: [Int] = []
    }

    /// Bytes before the first heading (byte order mark, frontmatter, blank lines).
    var head = 0
    var columns: [ColumnSpan] = []

    /// Card starts kept per column (the preview cuts at one of them).
    static let keep = 4096

    static func scan(_ p: UnsafeBufferPointer<UInt8>) -> PreviewScan? {
        guard let base = p.baseAddress else { return nil }
        let n = p.count
        var i = 0
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
        /// Where the line starting at `at` ends (its line feed, or `n`).
        func lineEnd(_ at: Int) -> Int {
            guard at < n, let hit = memchr(base + at, 0x0A, n - at) else { return n }
            return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
        }
        /// The line's length without a carriage return before its line feed.
        func content(_ at: Int, _ end: Int) -> Int { end > at && p[end - 1] == 0x0D ? end - at - 1 : end - at }
        func equals(_ at: Int, _ end: Int, _ text: StaticString) -> Bool {
            let len = content(at, end)
            guard len == text.utf8CodeUnitCount else { return false }
            return text.withUTF8Buffer { t in memcmp(base + at, t.baseAddress!, len) == 0 }
        }
        func starts(_ at: Int, _ end: Int, _ text: StaticString) -> Bool {
            let len = text.utf8CodeUnitCount
            guard content(at, end) >= len else { return false }
            return text.withUTF8Buffer { t in memcmp(base + at, t.baseAddress!, len) == 0 }
        }

        // Obsidian when the file opens with frontmatter holding `kanban-plugin:` (as `BoardFormat` decides).
        var obsidian = false
        var at = i
        var end = lineEnd(at)
        if equals(at, end, "---") {
            var k = end + 1
            while k < n {
                let e = lineEnd(k)
                if equals(k, e, "---") {
                    if obsidian { at = e + 1 }
                    break
                }
                if starts(k, e, "kanban-plugin:") { obsidian = true }
                k = e + 1
            }
            if obsidian && at == i { return nil }  // frontmatter never closed: the parser says so
        }
        var result = PreviewScan()
        // Taskell allows only blank lines before the first heading; Obsidian a preamble of blank lines here.
        var cardsInColumn = false
        var cardAbove = false
        var plainLines = 0
        while at < n {
            end = lineEnd(at)
            let len = content(at, end)
            defer { at = end + 1 }
            if len == 0 { continue }
            let b = p[at]
            if obsidian {
                if b == UInt8(ascii: "#") {
                    var level = 0
                    while level < len && p[at + level] == UInt8(ascii: "#") { level += 1 }
                    guard level <= 6, level == len || p[at + level] == UInt8(ascii: " ") else { return nil }
                } else if equals(at, end, "%% kanban:settings") || equals(at, end, "***") {
                    guard !result.columns.isEmpty,
                        tailHasNoLane(
                            p, from: end + 1, afterBreak: equals(at, end, "***"),
                            lineEnd: lineEnd, content: content)
                    else { return nil }
                    result.columns[result.columns.count - 1].end = at
                    return result
                } else if result.columns.isEmpty {
                    return nil
                } else if starts(at, end, "- [") && len >= 6 && p[at + 3] != 0x0A && p[at + 4] == UInt8(ascii: "]")
                    && p[at + 5] == UInt8(ascii: " ") && p[at + 3] != UInt8(ascii: "]")
                {
                    result.countCard(at)
                    cardsInColumn = true
                    cardAbove = true
                    continue
                } else if b == UInt8(ascii: "\t") || starts(at, end, "  ") {
                    // An indented line: inside the card above (its list item's content column is 2).
                    guard cardAbove else { return nil }
                    continue
                } else {
                    // `**Complete**` before a lane's first card; any other line is a paragraph or a
                    // block whose reading needs Markdown's rules: the whole parse reads it.
                    guard !cardsInColumn, plainLines == 0, equals(at, end, "**Complete**") else { return nil }
                    plainLines += 1
                    continue
                }
            } else {
                if result.columns.isEmpty && !starts(at, end, "## ") { return nil }  // the parser's error
                if b == UInt8(ascii: "-") && len >= 2 && p[at + 1] == UInt8(ascii: " ") {
                    result.countCard(at)
                    continue
                }
                guard b == UInt8(ascii: "#") && starts(at, end, "## ") else { continue }
            }
            // A column heading.
            if result.columns.isEmpty {
                result.head = at
            } else {
                result.columns[result.columns.count - 1].end = at
            }
            result.columns.append(ColumnSpan(start: at, end: n))
            cardsInColumn = false
            cardAbove = false
            plainLines = 0
        }
        guard !result.columns.isEmpty else { return nil }
        return result
    }

    mutating func countCard(_ at: Int) {
        let k = columns.count - 1
        if columns[k].cardStarts.count < Self.keep { columns[k].cardStarts.append(at) }
        columns[k].count += 1
    }

    /// Whether no line from `from` on starts a lane: no `#` heading but an `## Archive` right after
    /// a `***` break (blank lines between), as the plugin writes its archive.
    private static func tailHasNoLane(
        _ p: UnsafeBufferPointer<UInt8>, from: Int, afterBreak: Bool, lineEnd: (Int) -> Int,
        content: (Int, Int) -> Int
    ) -> Bool {
        func equals(_ at: Int, _ end: Int, _ text: StaticString) -> Bool {
            content(at, end) == text.utf8CodeUnitCount
                && text.withUTF8Buffer { t in memcmp(p.baseAddress! + at, t.baseAddress!, t.count) == 0 }
        }
        var afterBreak = afterBreak
        var at = from
        while at < p.count {
            let end = lineEnd(at)
            if content(at, end) > 0 {
                if p[at] == UInt8(ascii: "#") && !(afterBreak && equals(at, end, "## Archive")) { return false }
                afterBreak = equals(at, end, "***")
            }
            at = end + 1
        }
        return true
    }
}
