import DragKit

/// Reads the next version of a taskell board from the one before by parsing only the cards whose
/// lines changed: the result is the board a whole parse gives, with the same cards in the same places.
///
/// The lines two versions share (`LineDiff`) are the same cards; each run of changed lines is
/// widened to whole cards (from a `- ` card line, or the line after a `## ` heading, to the next
/// card line, heading or the end) and parsed alone under its column's heading by the real parser.
/// Anything this cannot vouch for gives nil and the caller parses the version whole: a change to
/// a heading or before the first one, a blank line that makes the whole file an error, a window
/// the parser refuses, more than 64 changed lines, another dialect.
struct VersionSplice {
    /// The last version read, its board, and where its cards' and columns' lines are.
    private(set) var lines: ByteLines
    private(set) var board: Board
    private var cardStarts: [Int] = []
    private var headings: [Int] = []
    private var nextID: UInt64

    /// What changed from the last version: these flat card indices of it were replaced by these of the new board.
    struct Step {
        var board: Board
        var removed: [Int]
        var added: [Int]
    }

    /// The state after a whole parse of `bytes` into `board`; nil when it is not a taskell board
    /// whose card and heading lines this can tell apart. (A file that parsed and does not open
    /// with `---` or a byte order mark is taskell's: Obsidian's opens with its frontmatter.)
    init?(bytes: [UInt8], board: Board) {
        guard !bytes.starts(with: Array("---".utf8)), !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return nil }
        lines = ByteLines(bytes)
        self.board = board
        nextID = UInt64(board.cardCount) + 1
        (cardStarts, headings) = VersionSplice.marks(lines)
        guard headings.count == board.columns.count, cardStarts.count == board.cardCount,
            cardStarts.first.map({ $0 > headings[0] }) ?? true
        else { return nil }
    }

    /// Card lines (`- `) and heading lines (`## `), as taskell's parser tells them apart.
    private static func marks(_ lines: ByteLines) -> (cards: [Int], headings: [Int]) {
        var cards: [Int] = [], headings: [Int] = []
        cards.reserveCapacity(lines.count)
        lines.bytes.withUnsafeBufferPointer { b in
            for k in 0..<lines.count {
                let s = lines.starts[k], e = lines.starts[k + 1]
                guard e - s >= 2 else { continue }
                if b[s] == UInt8(ascii: "-") && b[s + 1] == 0x20 {
                    cards.append(k)
                } else if b[s] == UInt8(ascii: "#") && e - s >= 3 && b[s + 1] == UInt8(ascii: "#") && b[s + 2] == 0x20 {
                    headings.append(k)
                }
            }
        }
        return (cards, headings)
    }

    private static func isCard(_ l: ByteLines, _ k: Int) -> Bool { k < l.count && l.line(k, hasPrefix: "- ") }
    private static func isHeading(_ l: ByteLines, _ k: Int) -> Bool { k < l.count && l.line(k, hasPrefix: "## ") }

    /// The next version, or nil when it must be parsed whole (the state is then unchanged; a
    /// whole parse that succeeds starts a new one).
    mutating func next(_ bytes: [UInt8]) -> Step? {
        let old = lines
        // Lines the two share at the ends need no splitting again.
        let ends = LineDiff.commonEnds(old, bytes)
        let new = old.following(bytes, top: ends.top, bottom: ends.bottom)
        guard let hunks = LineDiff.hunks(old, new, top: ends.top, bottom: ends.bottom), !hunks.isEmpty else {
            return nil
        }
        // Windows of whole cards, old and new, each inside one column.
        var windows: [LineHunk] = []
        var h = 0
        while h < hunks.count {
            var so = hunks[h].old.lowerBound, sn = hunks[h].new.lowerBound
            // Back to a card line on both sides, or the line after a heading.
            while true {
                if VersionSplice.isCard(old, so) && VersionSplice.isCard(new, sn) { break }
                if so > 0 && sn > 0 && VersionSplice.isHeading(old, so - 1) && VersionSplice.isHeading(new, sn - 1) {
                    break
                }
                guard so > 0, sn > 0 else { return nil }
                if let last = windows.last, last.old.upperBound == so, last.new.upperBound == sn {
                    windows.removeLast()
                    so = last.old.lowerBound
                    sn = last.new.lowerBound
                    continue
                }
                so -= 1
                sn -= 1
            }
            var eo = hunks[h].old.upperBound, en = hunks[h].new.upperBound
            h += 1
            // On to a card line, a heading or the end on both sides.
            while true {
                let oldStops = eo == old.count || VersionSplice.isCard(old, eo) || VersionSplice.isHeading(old, eo)
                let newStops = en == new.count || VersionSplice.isCard(new, en) || VersionSplice.isHeading(new, en)
                if oldStops && newStops { break }
                if h < hunks.count && hunks[h].old.lowerBound == eo {
                    eo = hunks[h].old.upperBound
                    en = hunks[h].new.upperBound
                    h += 1
                    continue
                }
                guard eo < old.count, en < new.count else { return nil }
                eo += 1
                en += 1
            }
            if let last = windows.last, last.old.upperBound > so { return nil }
            windows.append(LineHunk(old: so..<eo, new: sn..<en))
        }
        // Parse each window under its heading; splice its cards in, last window first.
        var board = self.board
        let columnStarts = board.columns.reduce(into: [0]) { $0.append($0.last! + $1.cards.count) }
        var removed: [Int] = [], added: [Int] = []
        var shift = 0
        var pieces: [(column: Int, at: Int, count: Int, cards: [Card])] = []
        for w in windows {
            for k in w.old where VersionSplice.isHeading(old, k) { return nil }
            for k in w.new where VersionSplice.isHeading(new, k) { return nil }
            // The column: the last heading before the window (the same line on both sides).
            let column = VersionSplice.count(headings, below: w.old.lowerBound) - 1
            guard column >= 0 else { return nil }
            // Its heading line, unchanged (a changed heading is in a window, refused above), gives the parse its context.
            let headingLine = headings[column]
            // Blank lines the whole file would refuse: after a card, before the window's first line or after its last.
            if w.new.lowerBound > 0, new.isBlank(w.new.lowerBound - 1) {
                var q = w.new.lowerBound - 1
                while q > 0 && new.isBlank(q) { q -= 1 }
                if !VersionSplice.isHeading(new, q) && !w.new.allSatisfy({ new.isBlank($0) }) { return nil }
                if !VersionSplice.isHeading(new, q) && VersionSplice.isCard(new, w.new.upperBound) { return nil }
            }
            if !w.new.isEmpty, new.isBlank(w.new.upperBound - 1), VersionSplice.isCard(new, w.new.upperBound) {
                return nil
            }
            let first = VersionSplice.count(cardStarts, below: w.old.lowerBound)
            let last = VersionSplice.count(cardStarts, below: w.old.upperBound)
            var cards: [Card] = []
            if !w.new.isEmpty {
                var text = Array(old.bytes[old.range(headingLine)])
                text += new.bytes[new.starts[w.new.lowerBound]..<new.starts[w.new.upperBound]]
                guard let parsed = try? BoardFormat.parse(text, file: "window"),
                    parsed.info.dialect == .taskell, parsed.board.columns.count == 1
                else { return nil }
                cards = Array(parsed.board.columns[0].cards)
                guard cards.count == w.new.filter({ VersionSplice.isCard(new, $0) }).count else { return nil }
            }
            for i in cards.indices {
                cards[i].id = CardID(nextID)
                nextID += 1
            }
            removed += first..<last
            added += (first + shift)..<(first + shift + cards.count)
            shift += cards.count - (last - first)
            pieces.append((column, first - columnStarts[column], last - first, cards))
        }
        for p in pieces.reversed() {
            board.columns[p.column].cards.replaceSubrange(p.at..<(p.at + p.count), with: p.cards)
        }
        let marks = VersionSplice.marks(new)
        guard marks.headings.count == board.columns.count, marks.cards.count == board.cardCount else { return nil }
        lines = new
        self.board = board
        (cardStarts, headings) = marks
        return Step(board: board, removed: removed, added: added)
    }

    /// How many of the sorted `values` are below `bound`.
    private static func count(_ values: [Int], below bound: Int) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < bound { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
