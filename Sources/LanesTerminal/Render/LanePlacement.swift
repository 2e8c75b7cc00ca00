import DragKit
import LanesCore
import Synchronization

/// One column's cards sorted into lanes: what the lane view draws and drags them by.
///
/// A pure function of (the column's cards, the lanes); `LanePlacementCache` keeps it between
/// layouts, so a frame, a scroll or a view switch does not read 10,000 titles again. Each card's
/// lane and the lanes' counts are found at once; the lanes' index lists (`indices`, sorted from
/// them) and a cell's cards as a list (`cards(inLane:)`) the first time something asks, then
/// kept: a first frame asks only for the columns it shows.
public struct ColumnLanes: Sendable {
    /// The cards and lanes it was computed from.
    public let cards: CardList
    public let swimlanes: Swimlanes
    /// Per lane (then "No lane", index `swimlanes.count`): how many of the column's cards it holds.
    public let counts: [Int]
    /// Each card's lane, in column order.
    private let laneOf: [Int32]
    /// Cards carrying another lane's tag besides the one they are shown in.
    public let alsoIn: [CardID: [Int]]
    private let lists: Lists

    /// What is made when first asked (shared by copies: a pure function of the rest).
    final class Lists: Sendable {
        let made: Mutex<[CardList?]>
        let indices = Mutex<[[Int]]?>(nil)
        init(count: Int) { made = Mutex(Array(repeating: nil, count: count)) }
    }

    public init(cards: CardList, swimlanes: Swimlanes) {
        self.init(cards: cards, swimlanes: swimlanes, finder: LaneTagFinder(swimlanes))
    }

    /// Each card's lane and the lanes' sizes (`LaneTagFinder.place`), with nothing allocated per card.
    init(cards: CardList, swimlanes: Swimlanes, finder: LaneTagFinder) {
        self.cards = cards
        self.swimlanes = swimlanes
        let laneCount = swimlanes.count + 1, n = cards.count
        var counts = [Int](repeating: 0, count: laneCount)
        var several: [(index: Int, alsoIn: [Int])] = []
        laneOf = [Int32](unsafeUninitializedCapacity: n) { laneOf, made in
            several = counts.withUnsafeMutableBufferPointer { counts in
                finder.place(cards, lanes: laneOf, counts: counts)
            }
            made = n  // `place` sets every card's
        }
        self.counts = counts
        var alsoIn: [CardID: [Int]] = [:]
        for s in several { alsoIn[cards[s.index].id] = s.alsoIn }
        self.alsoIn = alsoIn
        lists = Lists(count: laneCount)
    }

    /// Per lane (then "No lane", index `swimlanes.count`): the indices in the column of its
    /// cards, in column order. Sorted from each card's lane (a counting sort) when first asked.
    public var indices: [[Int]] {
        lists.indices.withLock { made in
            if let made { return made }
            let sorted = ColumnLanes.sort(laneOf, counts: counts)
            made = sorted
            return sorted
        }
    }

    /// Whether `indices` has been sorted yet (what the tests check of a first frame).
    var indicesMade: Bool { lists.indices.withLock { $0 != nil } }

    /// Every card's index at its lane's next place in one array, then each lane's part copied out.
    private static func sort(_ laneOf: [Int32], counts: [Int]) -> [[Int]] {
        let laneCount = counts.count, n = laneOf.count
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
        return (0..<laneCount).map { l in counts[l] == 0 ? [] : Array(sorted[starts[l]..<starts[l + 1]]) }
    }

    /// The cards of lane `lane` in this column, in column order (a column all in one lane
    /// shares the column's own list).
    public func cards(inLane lane: Int) -> CardList {
        lists.made.withLock { made in
            if let l = made[lane] { return l }
            let l = counts[lane] == cards.count ? cards : counts[lane] == 0 ? CardList() : cards.picking(indices[lane])
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
