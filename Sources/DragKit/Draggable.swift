/// A stable identity for an item that can be dragged, independent of its position.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (a: ItemID, b: ItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// An item's position: `section` is the draggable (a board column), `item` the index inside it.
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (a: ItemPath, b: ItemPath) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "\(section).\(item)" }
}

/// What a draggable's items are: items of the data source, or its sections themselves
/// (a board whose items are its columns).
public enum DragItemKind: Hashable, Sendable {
    case item
    case section
}

/// One item arriving in a draggable from another one during a (possibly multi-item) drag.
public struct IncomingItem: Hashable, Sendable {
    public var item: ItemID
    /// The section it comes from.
    public var source: Int

    public init(item: ItemID, source: Int) {
        self.item = item
        self.source = source
    }
}

/// A collection on screen that items can be dragged out of and dropped into: a board column.
///
/// Items are stacked top to bottom: `frameOfItem(at:)` must grow in `minY`
/// with the index. Frames are in arena coordinates and may lie outside `frame`
/// for items scrolled out of view; only the parts inside `frame` count as hit.
public protocol Draggable: Sendable {
    /// The data-source section this draggable shows.
    var section: Int { get }
    /// Where drags can start and end, in arena coordinates.
    var frame: Rect { get }
    /// The part of `frame` where items show (below a header, say); items are hit only inside it.
    var viewport: Rect { get }
    var itemCount: Int { get }
    func itemID(at index: Int) -> ItemID
    func frameOfItem(at index: Int) -> Rect
    func canDragItem(at index: Int) -> Bool
    /// Whether items may change place inside this draggable.
    var canRearrange: Bool { get }
    /// Asked on every move over this draggable from another one; `index` is the proposed final index.
    func canAcceptDrop(of item: ItemID, from source: Int, at index: Int) -> Bool
    /// When targets overlap, the highest priority wins; ties go to the earlier one in the arena.
    var priority: Int { get }
    /// Whether the renderer should hide the original while its item is dragged.
    var hidesDraggedItem: Bool { get }
    /// How the items are stacked: top to bottom (`.vertical`) or left to right (`.horizontal`).
    var axis: ScrollAxis { get }
    /// Items of the data source, or its sections (a drag of one only ever targets draggables of the same kind).
    var itemKind: DragItemKind { get }
    /// Asked for a drag carrying several items: every one coming from another section,
    /// with the proposed final index of the first. The default asks `canAcceptDrop(of:from:at:)` of each.
    func canAcceptDrop(of items: [IncomingItem], at index: Int) -> Bool
    /// The index of the first item whose frame ends below row `y`, or `itemCount`.
    /// The default is a binary search over `frameOfItem`; a draggable that measures
    /// its items lazily can answer without measuring the items far below `y`.
    func firstItem(endingBelow y: Int) -> Int
}

extension Draggable {
    public var viewport: Rect { frame }
    public func canDragItem(at index: Int) -> Bool { true }
    public var canRearrange: Bool { true }
    public func canAcceptDrop(of item: ItemID, from source: Int, at index: Int) -> Bool { true }
    public var priority: Int { 0 }
    public var hidesDraggedItem: Bool { true }
    public var axis: ScrollAxis { .vertical }
    public var itemKind: DragItemKind { .item }

    public func canAcceptDrop(of items: [IncomingItem], at index: Int) -> Bool {
        items.allSatisfy { canAcceptDrop(of: $0.item, from: $0.source, at: index) }
    }

    /// The index of the first item whose frame ends right of column `x` (binary search), or `itemCount`.
    public func firstItem(endingRightOf x: Int) -> Int {
        var lo = 0, hi = itemCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if frameOfItem(at: mid).maxX > x { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The gap a dragged item whose ghost covers `ghost` falls into, counted in the current layout.
    ///
    /// The symmetric rule: an item that stood before the dragged one (`dragged`, its index
    /// here) lets the ghost in before it once the ghost's leading (upper) edge reaches the
    /// item's centre; an item after it, once the ghost's lower edge reaches its centre; the
    /// same rule mirrored, so a move by one item's extent up or down swaps the two either
    /// way. A ghost from elsewhere (`dragged` nil) goes before the first item whose centre is
    /// at or below its own. Edges beyond the viewport count as its first or last row.
    public func gapIndex(ghost: Rect, dragged: Int?) -> Int {
        let vertical = axis == .vertical
        var lo = vertical ? ghost.minY : ghost.minX
        var hi = vertical ? ghost.maxY : ghost.maxX
        if !viewport.isEmpty {
            let vlo = vertical ? viewport.minY : viewport.minX
            let vhi = vertical ? viewport.maxY : viewport.maxX
            lo = min(max(lo, vlo), vhi - 1)
            hi = min(max(hi, vlo + 1), vhi)
        }
        let first: (Int) -> Int = { vertical ? firstItem(endingBelow: $0) : firstItem(endingRightOf: $0) }
        let mid2: (Int) -> Int = { i in
            let f = frameOfItem(at: i)
            return vertical ? 2 * f.minY + f.height : 2 * f.minX + f.width
        }
        /// The first item at or after `from` whose centre (doubled) passes `test`; items ending
        /// at or before `edge` never do, items starting after it always do.
        func firstPassing(edge: Int, from: Int, _ test: (Int) -> Bool) -> Int {
            let k = max(first(edge), from)
            guard k < itemCount else { return itemCount }
            return test(mid2(k)) ? k : k + 1
        }
        guard let cur = dragged else {
            let c2 = lo + hi
            return firstPassing(edge: c2 >= 0 ? c2 / 2 : (c2 - 1) / 2, from: 0) { c2 <= $0 }
        }
        let up = firstPassing(edge: lo, from: 0) { 2 * lo <= $0 }
        if up < cur { return up }
        let down = min(firstPassing(edge: hi, from: cur + 1) { 2 * hi < $0 }, itemCount)
        return down == cur + 1 ? cur : down
    }

    /// The index of the first item whose frame ends below row `y` (binary search), or `itemCount`.
    public func firstItem(endingBelow y: Int) -> Int {
        var lo = 0, hi = itemCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if frameOfItem(at: mid).maxY > y { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The item under `point`, if the point is inside the viewport and on an item.
    public func itemIndex(at point: Point) -> Int? {
        guard viewport.contains(point) else { return nil }
        let i = axis == .vertical ? firstItem(endingBelow: point.y) : firstItem(endingRightOf: point.x)
        guard i < itemCount, frameOfItem(at: i).contains(point) else { return nil }
        return i
    }

    /// The gap a dragged item at `point` would fall into, counted in the current layout.
    ///
    /// On an item, the upper half means before it and the lower half after it
    /// (the middle row of an odd-height item counts as lower); between items
    /// it is the gap itself; below the last item, or in an empty draggable, it
    /// is the end. A point above or below the viewport counts as its first or last row.
    public func gapIndex(at point: Point) -> Int {
        let y = viewport.isEmpty ? point.y : min(max(point.y, viewport.minY), viewport.maxY - 1)
        let i = firstItem(endingBelow: y)
        guard i < itemCount else { return itemCount }
        let f = frameOfItem(at: i)
        if y < f.minY { return i }
        return 2 * (y - f.minY) + 1 < f.height ? i : i + 1
    }
}

/// The draggables sharing one space, in order, and the container they live in.
public struct DragArena: Sendable {
    /// The space the drag happens in; a release outside it is always "outside".
    public var container: Rect
    public var draggables: [any Draggable]

    public init(container: Rect, draggables: [any Draggable]) {
        self.container = container
        self.draggables = draggables
    }

    public func draggable(forSection section: Int) -> (any Draggable)? {
        draggables.first { $0.section == section }
    }

    /// The draggable and item under `point`: among the draggables containing it, by priority
    /// (earliest on ties), the first with an item there.
    public func item(at point: Point) -> (draggable: any Draggable, index: Int)? {
        let hits = draggables.enumerated().filter { $0.element.frame.contains(point) }
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
        for (_, d) in hits {
            if let i = d.itemIndex(at: point) { return (d, i) }
        }
        return nil
    }

    /// The draggable under `point` with the highest priority (earliest on ties).
    public func draggable(at point: Point) -> (any Draggable)? {
        var best: (any Draggable)?
        for d in draggables where d.frame.contains(point) {
            if best == nil || d.priority > best!.priority { best = d }
        }
        return best
    }
}
