import DragKit
import LanesCore
import Synchronization

/// One column's cards sorted into lanes: what the lane view draws and drags them by.
///
/// A pure function of (the column's cards, the lanes); `LanePlacementCache` keeps it between
/// layouts, so a frame, a scroll or a view switch does not read 10,000 titles again. A cell's
/// cards as a list (`cards(inLane:)`) are made the first time the screen asks for them, then kept.
public struct ColumnLanes: Sendable {
    /// The cards and lanes it was computed from.
    public let cards: CardList
    public let swimlanes: Swimlanes
    /// Per lane (then "No lane", index `swimlanes.count`): the indices in the column of its
    /// cards, in column order.
    public let indices: [[Int]]
    /// Cards carrying another lane's tag besides the one they are shown in.
    public let alsoIn: [ItemID: [Int]]
    private let lists: Lists

    /// The cells' card lists made so far (shared by copies: a pure function of the rest).
    final class Lists: Sendable {
        let made: Mutex<[CardList?]>
        init(count: Int) { made = Mutex(Array(repeating: nil, count: count)) }
    }

    public init(cards: CardList, swimlanes: Swimlanes) {
        self.init(cards: cards, swimlanes: swimlanes, finder: LaneTagFinder(swimlanes))
    }

    /// In two passes with no allocation per card: each card's lane and the lanes' sizes
    /// (`LaneTagFinder.place`), then the cards' indices sorted by lane (a counting sort).
    init(cards: CardList, swimlanes: Swimlanes, finder: LaneTagFinder) {
        self.cards = cards
        self.swimlanes = swimlanes
        let laneCount = swimlanes.count + 1, n = cards.count
        var laneOf = [Int32](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: laneCount)
        let several = laneOf.withUnsafeMutableBufferPointer { laneOf in
            counts.withUnsafeMutableBufferPointer { counts in finder.place(cards, lanes: laneOf, counts: counts) }
        }
        // A counting sort: every card's index at its lane's next place in one array, then each lane's part copied out.
        var starts = [Int](repeating: 0, count: laneCount + 1)
        for l in 0..<laneCount { starts[l + 1] = starts[l] + counts[l] }
        let sorted = [Int](unsafeUninitializedCapacity: n) { out, made in
            var next = starts
            next.withUnsafeMutableBufferPointer { next in
                laneOf.withUnsafeBufferPointer { laneOf in
                    for i in 0..<n {
                        let l = Int(laneOf[i])
                        out[next[l]] = i
                        next[l] += 1
                    }
                }
            }
            made = n
        }
        indices = (0..<laneCount).map { l in counts[l] == 0 ? [] : Array(sorted[starts[l]..<starts[l + 1]]) }
        var alsoIn: [ItemID: [Int]] = [:]
        for s in several { alsoIn[cards[s.index].id] = s.alsoIn }
        self.alsoIn = alsoIn
        lists = Lists(count: laneCount)
    }

    /// The cards of lane `lane` in this column, in column order (a column all in one lane
    /// shares the column's own list).
    public func cards(inLane lane: Int) -> CardList {
        lists.made.withLock { made in
            if let l = made[lane] { return l }
            let wanted = indices[lane]
            let l = wanted.count == cards.count ? cards : cards.picking(wanted)
            made[lane] = l
            return l
        }
    }
}

/// Remembers each column's `ColumnLanes` between layouts: a column is sorted into lanes again
/// only when its cards or the lanes change (a drop re-sorts the two columns it touched).
/// Comparing an unchanged column's cards is cheap: they share storage.
public final class LanePlacementCache {
    private var entries: [ColumnID: ColumnLanes] = [:]

    public init() {}

    /// Every column of `board` sorted into `swimlanes`, in column order.
    public func lanes(of board: Board, _ swimlanes: Swimlanes) -> [ColumnLanes] {
        var finder: LaneTagFinder?
        let placed = board.columns.map { column -> ColumnLanes in
            if let e = entries[column.id], e.swimlanes == swimlanes, e.cards == column.cards { return e }
            let f = finder ?? LaneTagFinder(swimlanes)
            finder = f
            let e = ColumnLanes(cards: column.cards, swimlanes: swimlanes, finder: f)
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
