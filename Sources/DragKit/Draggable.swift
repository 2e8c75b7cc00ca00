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
        let i = firstItem(endingBelow: point.y)
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

    /// The draggable under `point` with the highest priority (earliest on ties).
    public func draggable(at point: Point) -> (any Draggable)? {
        var best: (any Draggable)?
        for d in draggables where d.frame.contains(point) {
            if best == nil || d.priority > best!.priority { best = d }
        }
        return best
    }
}
