import DragKit
import LanesCore

/// One column's cards sorted into lanes: what the lane view draws and drags them by.
///
/// A pure function of (the column's cards, the lanes); `LanePlacementCache` keeps it between
/// layouts, so a frame, a scroll or a view switch does not read 10,000 titles again.
public struct ColumnLanes: Sendable {
    /// The cards and lanes it was computed from.
    public let cards: CardList
    public let swimlanes: Swimlanes
    /// Per lane (then "No lane", index `swimlanes.count`): the indices in the column of its
    /// cards, in column order.
    public let indices: [[Int]]
    /// Per lane: its cards in the column, in column order (the cell's cards).
    public let cells: [CardList]
    /// Cards carrying another lane's tag besides the one they are shown in.
    public let alsoIn: [ItemID: [Int]]

    public init(cards: CardList, swimlanes: Swimlanes) {
        self.cards = cards
        self.swimlanes = swimlanes
        let finder = LaneTagFinder(swimlanes)
        var indices = [[Int]](repeating: [], count: swimlanes.count + 1)
        var cells = [[Card]](repeating: [], count: swimlanes.count + 1)
        var alsoIn: [ItemID: [Int]] = [:]
        for (i, card) in cards.enumerated() {
            let (lane, others) = finder.placement(ofTitle: card.title)
            let k = lane ?? swimlanes.count
            indices[k].append(i)
            cells[k].append(card)
            if !others.isEmpty { alsoIn[card.id] = others }
        }
        self.indices = indices
        self.cells = cells.map { CardList($0) }
        self.alsoIn = alsoIn
    }
}

/// `Swimlanes.placement(ofTitle:)`, fast: an ASCII title (the usual one) is scanned byte by
/// byte for its `#tags`, with no string built per character; any other title is placed by
/// `Swimlanes` itself. Both give the same answer (`LanePlacementTests` checks it on every
/// shape of tag boundary).
struct LaneTagFinder {
    let swimlanes: Swimlanes
    /// Lowercased lane tag → lane (the first, in lane order).
    let laneOfTag: [String: Int]

    init(_ swimlanes: Swimlanes) {
        self.swimlanes = swimlanes
        var map: [String: Int] = [:]
        for (k, t) in swimlanes.tags.enumerated() where map[t.lowercased()] == nil { map[t.lowercased()] = k }
        laneOfTag = map
    }

    /// The card's lane (nil: "No lane") and the other lanes whose tags it carries, in lane order.
    func placement(ofTitle title: String) -> (lane: Int?, alsoIn: [Int]) {
        if let fast = title.utf8.withContiguousStorageIfAvailable({ asciiPlacement($0) }), let found = fast {
            return found
        }
        let p = swimlanes.placement(ofTitle: title)
        return (p.lane, p.alsoIn)
    }

    /// The placement of an all-ASCII title; nil when a byte is not ASCII (a tag's letters and
    /// the blanks before `#` are then Unicode's, which `Card.tags` decides).
    func asciiPlacement(_ bytes: UnsafeBufferPointer<UInt8>) -> (lane: Int?, alsoIn: [Int])? {
        var first: Int?
        var more: [Int] = []
        var previousIsBlank = true  // `Card.tags` starts as after a blank
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            guard b < 0x80 else { return nil }
            if b == UInt8(ascii: "#") && previousIsBlank {
                var j = i + 1
                while j < n, LaneTagFinder.isTagByte(bytes[j]) { j += 1 }
                if j < n, bytes[j] >= 0x80 { return nil }  // a tag may go on in a Unicode letter
                if j > i + 1 {
                    let tag = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j]), as: UTF8.self).lowercased()
                    if let lane = laneOfTag[tag] {
                        if let f = first {
                            if lane != f && !more.contains(lane) {
                                if lane < f { more.append(f); first = lane } else { more.append(lane) }
                            }
                        } else {
                            first = lane
                        }
                    }
                }
                // The `#` or the tag's last letter comes before what follows: not a blank.
                previousIsBlank = false
                i = j
                continue
            }
            previousIsBlank = LaneTagFinder.isBlank(b)
            i += 1
        }
        more.sort()
        return (first, more)
    }

    /// Letters, digits, `_`, `-` and `/`: what a tag is made of (`Card.tags`), in ASCII.
    @inline(__always) static func isTagByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2F
    }

    /// Unicode's white space in ASCII: tab, line feed, vertical tab, form feed, return, space.
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { (b >= 0x09 && b <= 0x0D) || b == 0x20 }
}

/// Remembers each column's `ColumnLanes` between layouts: a column is sorted into lanes again
/// only when its cards or the lanes change (a drop re-sorts the two columns it touched).
/// Comparing an unchanged column's cards is cheap: they share storage.
public final class LanePlacementCache {
    private var entries: [ColumnID: ColumnLanes] = [:]

    public init() {}

    /// Every column of `board` sorted into `swimlanes`, in column order.
    public func lanes(of board: Board, _ swimlanes: Swimlanes) -> [ColumnLanes] {
        let placed = board.columns.map { column -> ColumnLanes in
            if let e = entries[column.id], e.swimlanes == swimlanes, e.cards == column.cards { return e }
            let e = ColumnLanes(cards: column.cards, swimlanes: swimlanes)
            entries[column.id] = e
            return e
        }
        if entries.count > board.columns.count {
            let ids = Set(board.columns.map(\.id))
            entries = entries.filter { ids.contains($0.key) }
        }
        return placed
    }

    public func removeAll() { entries.removeAll() }
}
