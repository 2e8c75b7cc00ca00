import DragKit
import LanesCore

/// What turned `base` into `ours`, by identity: the row operations a commit applies.
///
/// Cards are matched by `CardID`. Columns have no identity in the model, so they are matched by
/// title (when unique on both sides), then by shared cards, then by position among the rest.
/// A card counts as moved when its column changed or it left the longest run of cards that kept
/// their order (so moving one card marks one card, not the ones it passed). Where two runs are
/// equally long (a card moved one place: it, or the neighbour it passed, moved), the run that
/// keeps more of the cards `othersCard` names stays: the commit writes its own writer's row.
struct BoardDiff {
    /// A column of `ours`: which base column it was (nil: new), and whether it must be placed anew.
    struct ColumnPlan {
        var baseIndex: Int?
        var moved: Bool
        var edited: Bool
    }

    /// A card that needs a place: inserted, or moved (with the base card to check against).
    struct Placement {
        var card: Card
        var column: Int
        var index: Int
        var base: Card?
        /// The base column the card was in (moves only).
        var baseColumn: Int? = nil
    }

    var columns: [ColumnPlan] = []
    /// Base column indices gone from ours.
    var deletedColumns: [Int] = []
    /// Per ours column, the cards to place, in column order.
    var placements: [[Placement]] = []
    /// Cards whose content changed (ours, base), whether or not they also moved.
    var edits: [(ours: Card, base: Card)] = []
    /// Cards gone from ours, with the base column they were in.
    var deletions: [(card: Card, baseColumn: Int)] = []
    var rulesChanged = false

    var isEmpty: Bool {
        deletedColumns.isEmpty && deletions.isEmpty && edits.isEmpty && !rulesChanged
            && !columns.contains { $0.moved || $0.edited || $0.baseIndex == nil }
            && placements.allSatisfy(\.isEmpty)
    }

    /// `othersCard`: whether a base card's row was last written by another writer (as last read).
    init(base: Board, ours: Board, othersCard: (CardID) -> Bool = { _ in false }) {
        let match = BoardDiff.matchColumns(base.columns, ours.columns)
        var oursOf = [Int?](repeating: nil, count: base.columns.count)
        for (j, b) in match.enumerated() { if let b { oursOf[b] = j } }
        deletedColumns = base.columns.indices.filter { oursOf[$0] == nil }

        let keptOrder = BoardDiff.longestIncreasing(match.compactMap { $0 })
        columns = ours.columns.enumerated().map { j, c in
            guard let b = match[j] else { return ColumnPlan(baseIndex: nil, moved: false, edited: false) }
            let old = base.columns[b]
            return ColumnPlan(
                baseIndex: b, moved: !keptOrder.contains(b),
                edited: old.title != c.title || old.wipLimit != c.wipLimit || old.extraLines != c.extraLines)
        }

        // Per matched column, the window between the common prefix and suffix of cards (equal
        // values, so unchanged and in place); chunks both sides share are skipped unread.
        var baseWindow: [Int: Range<Int>] = [:]
        var oursWindow: [Int: Range<Int>] = [:]
        for b in deletedColumns { baseWindow[b] = base.columns[b].cards.indices }
        for (j, c) in ours.columns.enumerated() {
            guard let b = match[j] else { oursWindow[j] = c.cards.indices; continue }
            guard let span = c.cards.changedSpan(from: base.columns[b].cards) else { continue }
            baseWindow[b] = span.old
            oursWindow[j] = span.new
        }
        var wasAt: [CardID: (column: Int, index: Int, card: Card)] = [:]
        for (b, window) in baseWindow {
            for i in window { wasAt[base.columns[b].cards[i].id] = (b, i, base.columns[b].cards[i]) }
        }
        var present = Set<CardID>()
        placements = Array(repeating: [], count: ours.columns.count)
        for (j, window) in oursWindow.sorted(by: { $0.key < $1.key }) {
            let b = match[j]
            let cards = ours.columns[j].cards
            // Cards that stayed in this column: those off the longest in-order run moved.
            let stayed = window.compactMap { i -> Int? in
                guard let was = wasAt[cards[i].id], was.column == b else { return nil }
                return was.index
            }
            let inOrder: Set<Int>
            if let b, let from = baseWindow[b] {
                let column = base.columns[b].cards
                inOrder = Set(
                    BoardDiff.longestIncreasing(
                        stayed.map { $0 - from.lowerBound }, limit: from.count,
                        favoured: { othersCard(column[from.lowerBound + $0].id) }
                    ).map { $0 + from.lowerBound })
            } else {
                inOrder = []
            }
            for i in window {
                let card = cards[i]
                present.insert(card.id)
                guard let was = wasAt[card.id] else {
                    // Outside every window cards are unchanged in place, so this one is new.
                    placements[j].append(Placement(card: card, column: j, index: i, base: nil))
                    continue
                }
                if was.card != card { edits.append((card, was.card)) }
                if was.column != b || !inOrder.contains(was.index) {
                    placements[j].append(
                        Placement(card: card, column: j, index: i, base: was.card, baseColumn: was.column))
                }
            }
        }
        for (b, window) in baseWindow.sorted(by: { $0.key < $1.key }) {
            for i in window where !present.contains(base.columns[b].cards[i].id) {
                deletions.append((base.columns[b].cards[i], b))
            }
        }
        rulesChanged = base.acceptRules != ours.acceptRules
    }

    /// For each ours column, the base column it is (nil: new).
    static func matchColumns(_ base: [Column], _ ours: [Column]) -> [Int?] {
        var match = [Int?](repeating: nil, count: ours.count)
        var taken = Set<Int>()
        func counts(_ cs: [Column]) -> [String: Int] { cs.reduce(into: [:]) { $0[$1.title, default: 0] += 1 } }
        let bc = counts(base), oc = counts(ours)
        // 1. A title unique on both sides.
        for (j, c) in ours.enumerated() where oc[c.title] == 1 && bc[c.title] == 1 {
            let b = base.firstIndex { $0.title == c.title }!
            match[j] = b
            taken.insert(b)
        }
        // 2. Most shared cards.
        var owner: [CardID: Int] = [:]
        for (b, c) in base.enumerated() where !taken.contains(b) { for card in c.cards { owner[card.id] = b } }
        for (j, c) in ours.enumerated() where match[j] == nil {
            var votes: [Int: Int] = [:]
            for card in c.cards { if let b = owner[card.id], !taken.contains(b) { votes[b, default: 0] += 1 } }
            if let best = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) {
                match[j] = best.key
                taken.insert(best.key)
            }
        }
        // 3. Same position among the unmatched (a renamed empty column).
        for j in ours.indices where match[j] == nil && j < base.count && !taken.contains(j) {
            match[j] = j
            taken.insert(j)
        }
        return match
    }

    /// The values of `seq` (distinct, each in 0..<limit) that form a longest strictly increasing
    /// subsequence; among the longest, one with the most values `favoured` names (O(n log n)).
    static func longestIncreasing(_ seq: [Int], limit: Int, favoured: (Int) -> Bool) -> Set<Int> {
        guard !seq.isEmpty else { return [] }
        // Each value scores one unit more than all favours together, plus one when favoured: the
        // highest total is a longest run, and among those the most favoured.
        let unit = seq.count + 1
        // Fenwick tree over values: the best total of a run ending below a value, and where it ends.
        var tree = [(total: Int, at: Int)](repeating: (0, -1), count: limit + 1)
        var parent = [Int](repeating: -1, count: seq.count)
        var total = [Int](repeating: 0, count: seq.count)
        for (k, v) in seq.enumerated() {
            var best = (total: 0, at: -1)
            var i = v
            while i > 0 {
                if tree[i].total > best.total { best = tree[i] }
                i -= i & -i
            }
            total[k] = best.total + unit + (favoured(v) ? 1 : 0)
            parent[k] = best.at
            i = v + 1
            while i <= limit {
                if total[k] > tree[i].total { tree[i] = (total[k], k) }
                i += i & -i
            }
        }
        var out = Set<Int>()
        var k = total.indices.max { total[$0] < total[$1] }!
        while k >= 0 { out.insert(seq[k]); k = parent[k] }
        return out
    }

    /// The values of `seq` that form its longest strictly increasing subsequence (O(n log n)).
    static func longestIncreasing(_ seq: [Int]) -> Set<Int> {
        guard !seq.isEmpty else { return [] }
        var tails: [Int] = []  // index into seq of the smallest tail of each length
        var parent = [Int](repeating: -1, count: seq.count)
        for (i, v) in seq.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if seq[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { parent[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out = Set<Int>()
        var k = tails.last!
        while k >= 0 { out.insert(seq[k]); k = parent[k] }
        return out
    }
}
