import DragKit

/// A board's cards in one flat array (column by column), with where each one sits.
struct FlatBoard {
    let board: Board
    var cards: [Card] = []
    /// Column index of each card.
    var column: [Int] = []
    /// Index of each card in its column.
    var position: [Int] = []
    /// Flat index of the first card of each column.
    var columnStart: [Int] = []

    init(_ board: Board) {
        self.board = board
        cards.reserveCapacity(board.cardCount)
        for (c, col) in board.columns.enumerated() {
            columnStart.append(cards.count)
            for (p, card) in col.cards.enumerated() {
                cards.append(card)
                column.append(c)
                position.append(p)
            }
        }
    }

    /// Flat index of the card at a column and position.
    func index(column c: Int, position p: Int) -> Int? {
        guard board.columns.indices.contains(c), p >= 0, p < board.columns[c].cards.count else { return nil }
        return columnStart[c] + p
    }
}

/// Every field but the identity is byte for byte equal (the title, most likely to differ, first).
func sameContent(_ a: Card, _ b: Card) -> Bool {
    sameBytes(a.title, b.title) && a.done == b.done && a.due == b.due && a.descriptionLines == b.descriptionLines
        && a.subtasks == b.subtasks && a.extraLines == b.extraLines
}

/// Byte equality of two strings (String's `==` compares canonical equivalence, slowly for non-ASCII text).
func sameBytes(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    // Native strings compare their contiguous bytes at once (the generic loop cost 11 % of `lanes metrics`).
    if let equal = a.utf8.withContiguousStorageIfAvailable({ x in
        b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
    }), let equal {
        return equal
    }
    return a.utf8.elementsEqual(b.utf8)
}

/// FNV-1a over a string's UTF-8 bytes, folded into `h` (String's own hashing normalizes to NFC first).
func fnvFold(_ text: String, into h: inout UInt64) {
    let prime: UInt64 = 0x100_0000_01B3
    if let done = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
        for b in bytes { h = (h ^ UInt64(b)) &* prime }
        return true
    }), done {
    } else {
        for b in text.utf8 { h = (h ^ UInt64(b)) &* prime }
    }
    h = (h ^ 0xFF) &* prime
}

/// A hash of the title alone.
func titleHash(_ card: Card) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    fnvFold(card.title, into: &h)
    return h
}

/// A title without its `#tag` words (nil when nothing else is left: such cards are not matched by it).
func untaggedTitle(_ title: String) -> String? {
    guard title.contains("#") else { return title }
    let words = title.split(separator: " ").filter { !($0.hasPrefix("#") && $0.count > 1) }
    return words.isEmpty ? nil : words.joined(separator: " ")
}

/// A hash of the title without its tags.
func untaggedTitleHash(_ card: Card) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    fnvFold(untaggedTitle(card.title) ?? card.title, into: &h)
    return h
}

/// Whether two titles are equal but for their tags (and have some other word).
func sameUntagged(_ a: String, _ b: String) -> Bool {
    guard let x = untaggedTitle(a), let y = untaggedTitle(b) else { return false }
    return sameBytes(x, y)
}

/// A hash of every field but the identity (hashes the title, the due date and the sizes of the rest).
func contentHash(_ card: Card) -> UInt64 {
    var h = titleHash(card)
    fnvFold(card.due ?? "", into: &h)
    let lines: Int = card.descriptionLines.count &* 3
    let subtasks: Int = card.subtasks.count &* 5
    let extra: Int = card.extraLines.count &* 7
    let sizes: Int = lines &+ subtasks &+ extra &+ (card.done ? 1 : 0)
    h = (h ^ UInt64(sizes)) &* 0x100_0000_01B3
    return h
}

/// How one side's cards and columns correspond to base's.
struct SideMatch {
    /// Flat index in base of each of the side's cards, nil for a card the side added.
    var cardToBase: [Int?]
    /// Flat index in the side of each of base's cards, nil for a card the side removed.
    var baseToCard: [Int?]
    /// Base column of each of the side's columns, nil for a column the side added.
    var columnToBase: [Int?]
    /// Side column of each of base's columns, nil for a column the side removed.
    var baseToColumn: [Int?]

    mutating func pair(_ b: Int, _ s: Int) {
        baseToCard[b] = s
        cardToBase[s] = b
    }
}

/// Pairs base's cards and columns with one side's; see DECISIONS.md "#12 merge" for the rule.
enum BoardMatcher {
    static func match(base: FlatBoard, side: FlatBoard, by mode: BoardMerge.Matching) -> SideMatch {
        var m = SideMatch(
            cardToBase: Array(repeating: nil, count: side.cards.count),
            baseToCard: Array(repeating: nil, count: base.cards.count),
            columnToBase: Array(repeating: nil, count: side.board.columns.count),
            baseToColumn: Array(repeating: nil, count: base.board.columns.count))
        switch mode {
        case .identity:
            var baseIndex: [CardID: Int] = [:]
            baseIndex.reserveCapacity(base.cards.count)
            for (i, card) in base.cards.enumerated() { baseIndex[card.id] = i }
            for (s, card) in side.cards.enumerated() {
                if let b = baseIndex[card.id], m.baseToCard[b] == nil { m.pair(b, s) }
            }
            // The same column identity is the same column, whatever its title now.
            var baseColumn: [ColumnID: Int] = [:]
            for (i, c) in base.board.columns.enumerated() { baseColumn[c.id] = i }
            for (j, c) in side.board.columns.enumerated() {
                if let b = baseColumn[c.id], m.baseToColumn[b] == nil {
                    m.columnToBase[j] = b
                    m.baseToColumn[b] = j
                }
            }
            matchColumns(base: base, side: side, into: &m)
        case .content:
            // 1. Exact content, nearest position among equals.
            pairGroups(base: base, side: side, hash: contentHash, equal: sameContent, into: &m)
            // 2. The same title, other fields edited.
            pairGroups(base: base, side: side, hash: titleHash, equal: { sameBytes($0.title, $1.title) }, into: &m)
            // 2b. The same title but for its #tags (a swimlane move rewrites a tag; moved and retagged at once).
            pairGroups(
                base: base, side: side, hash: untaggedTitleHash, equal: { sameUntagged($0.title, $1.title) }, into: &m)
            matchColumns(base: base, side: side, into: &m)
            // 3. The same slot (same matched neighbour before it, in the matched column) with a similar text.
            pairSlots(base: base, side: side, into: &m)
        }
        return m
    }

    /// Pairs unmatched cards that are `equal` (which `hash` respects), nearest flat position first.
    private static func pairGroups(
        base: FlatBoard, side: FlatBoard, hash: (Card) -> UInt64, equal: (Card, Card) -> Bool,
        into m: inout SideMatch
    ) {
        // Groups of equal base cards, found by hash (a hash shared by unequal cards gives several groups).
        var groupsByHash: [UInt64: [Int]] = [:]
        var groups: [[Int]] = []
        groupsByHash.reserveCapacity(base.cards.count)
        for (i, card) in base.cards.enumerated() where m.baseToCard[i] == nil {
            let h = hash(card)
            if let candidates = groupsByHash[h],
                let g = candidates.first(where: { equal(base.cards[groups[$0][0]], card) })
            {
                groups[g].append(i)
            } else {
                groupsByHash[h, default: []].append(groups.count)
                groups.append([i])
            }
        }
        guard !groups.isEmpty else { return }
        var sideGroups: [Int: [Int]] = [:]
        var order: [Int] = []
        for (s, card) in side.cards.enumerated() where m.cardToBase[s] == nil {
            guard let candidates = groupsByHash[hash(card)],
                let k = candidates.first(where: { equal(base.cards[groups[$0][0]], card) })
            else { continue }
            if sideGroups[k] == nil { order.append(k) }
            sideGroups[k, default: []].append(s)
        }
        // Unique on both sides first, so that equal cards can then be told apart by their neighbours.
        var ambiguous: [Int] = []
        for k in order {
            let bs = groups[k], ss = sideGroups[k]!
            if bs.count == 1 && ss.count == 1 { m.pair(bs[0], ss[0]) } else { ambiguous.append(k) }
        }
        for k in ambiguous {
            let bs = groups[k], ss = sideGroups[k]!
            if bs.count * ss.count <= 4096 {
                // Best first: neighbours that are already each other's counterparts, then the nearest position.
                func agreement(_ b: Int, _ s: Int) -> Int {
                    var score = 0
                    if side.position[s] > 0, base.position[b] > 0, m.cardToBase[s - 1] == b - 1 { score -= 1 }
                    if s + 1 < side.cards.count, side.column[s + 1] == side.column[s], m.cardToBase[s + 1] == b + 1,
                        b + 1 < base.cards.count, base.column[b + 1] == base.column[b]
                    {
                        score -= 1
                    }
                    return score
                }
                var candidates: [(agreement: Int, distance: Int, b: Int, s: Int)] = []
                for b in bs { for s in ss { candidates.append((agreement(b, s), abs(b - s), b, s)) } }
                candidates.sort { ($0.agreement, $0.distance, $0.b, $0.s) < ($1.agreement, $1.distance, $1.b, $1.s) }
                var usedB = Set<Int>(), usedS = Set<Int>()
                for c in candidates where !usedB.contains(c.b) && !usedS.contains(c.s) {
                    usedB.insert(c.b)
                    usedS.insert(c.s)
                    m.pair(c.b, c.s)
                }
            } else {
                for (b, s) in zip(bs, ss) { m.pair(b, s) }
            }
        }
    }

    /// Columns: equal titles (case ignored, k-th with k-th), then most matched cards in common, then the same index.
    private static func matchColumns(base: FlatBoard, side: FlatBoard, into m: inout SideMatch) {
        let bc = base.board.columns, sc = side.board.columns
        var byTitle: [String: [Int]] = [:]
        for (i, c) in bc.enumerated() where m.baseToColumn[i] == nil {
            byTitle[c.title.lowercased(), default: []].append(i)
        }
        var used: [String: Int] = [:]
        for (j, c) in sc.enumerated() where m.columnToBase[j] == nil {
            let t = c.title.lowercased()
            let k = used[t, default: 0]
            if let list = byTitle[t], k < list.count {
                used[t] = k + 1
                m.columnToBase[j] = list[k]
                m.baseToColumn[list[k]] = j
            }
        }
        // Renames: the unmatched base column holding most of this column's cards.
        for j in sc.indices where m.columnToBase[j] == nil {
            var counts: [Int: Int] = [:]
            let start = side.columnStart[j]
            for s in start..<(start + sc[j].cards.count) {
                if let b = m.cardToBase[s], m.baseToColumn[base.column[b]] == nil {
                    counts[base.column[b], default: 0] += 1
                }
            }
            if let best = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) {
                m.columnToBase[j] = best.key
                m.baseToColumn[best.key] = j
            }
        }
        for j in sc.indices where m.columnToBase[j] == nil && j < bc.count && m.baseToColumn[j] == nil {
            m.columnToBase[j] = j
            m.baseToColumn[j] = j
        }
    }

    /// Pairs an unmatched side card with the unmatched base card in the same slot: after the
    /// counterpart of its predecessor (or before the counterpart of its successor, or at the same
    /// index), when the texts are `similar`; a looser likeness when the slot is exact (the cards
    /// before and after it are the counterparts of those around the base card).
    private static func pairSlots(base: FlatBoard, side: FlatBoard, into m: inout SideMatch) {
        for (j, col) in side.board.columns.enumerated() {
            guard let bcol = m.columnToBase[j] else { continue }
            let start = side.columnStart[j]
            let baseCount = base.board.columns[bcol].cards.count
            for p in col.cards.indices where m.cardToBase[start + p] == nil {
                let s = start + p
                var bp: Int?
                if p == 0 {
                    bp = 0
                } else if let prev = m.cardToBase[s - 1], base.column[prev] == bcol {
                    bp = base.position[prev] + 1
                }
                var exact = false
                if let q = bp, q < baseCount {
                    let nextSide = p + 1 < col.cards.count ? m.cardToBase[s + 1] : nil
                    let atEnds = p + 1 == col.cards.count && q + 1 == baseCount
                    exact = atEnds || (nextSide != nil && nextSide! == base.columnStart[bcol] + q + 1)
                }
                if bp == nil || bp! >= baseCount || m.baseToCard[base.columnStart[bcol] + bp!] != nil {
                    // Before the counterpart of its successor, else the same index in the column.
                    if p + 1 < col.cards.count, let next = m.cardToBase[s + 1], base.column[next] == bcol,
                        base.position[next] > 0
                    {
                        bp = base.position[next] - 1
                    } else {
                        bp = p
                    }
                    exact = false
                }
                guard let q = bp, let b = base.index(column: bcol, position: q), m.baseToCard[b] == nil else {
                    continue
                }
                if similar(base.cards[b], side.cards[s], exactSlot: exact) { m.pair(b, s) }
            }
        }
    }

    /// The titles' words overlap by half or more (over a third in an exact slot), or the card
    /// has the same non-empty details under another title. A `#tag` only one title carries is
    /// left out of the count (a swimlane move rewrites a tag, and in a short title the tag is
    /// half the words); tags both carry count as common words.
    static func similar(_ a: Card, _ b: Card, exactSlot: Bool = false) -> Bool {
        let (wa, ta) = words(a.title), (wb, tb) = words(b.title)
        let sharedTags = ta.intersection(tb).count
        var union = wa.union(wb).count + sharedTags, common = wa.intersection(wb).count + sharedTags
        if union == 0 { (union, common) = (ta.union(tb).count, sharedTags) }
        if union > 0 && (exactSlot ? common * 3 > union : common * 2 >= union) { return true }
        let hasDetails = !a.descriptionLines.isEmpty || !a.subtasks.isEmpty || !a.extraLines.isEmpty
        return hasDetails && a.descriptionLines == b.descriptionLines && a.subtasks == b.subtasks
            && a.extraLines == b.extraLines
    }

    /// A title's lowercased words: those that are not tags, and its `#tag` words.
    static func words(_ title: String) -> (plain: Set<Substring>, tags: Set<Substring>) {
        var plain = Set<Substring>(), tags = Set<Substring>()
        for w in title.lowercased().split(separator: " ") {
            if w.hasPrefix("#") && w.count > 1 { tags.insert(w) } else { plain.insert(w) }
        }
        return (plain, tags)
    }
}
