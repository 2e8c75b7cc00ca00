import DragKit

/// The board's page templates for DragKit's `PagedLayoutManager`: columns side by side, wide or
/// narrow by the container size.
///
/// Area names are `c0`, `c1`, … left to right, so the same slot in a wide and a
/// narrow page is equivalent. Rects are in container coordinates below
/// `topRows` and above `bottomRows` (the app's title and status lines).
public struct BoardPaging: Hashable, Sendable {
    /// Wide pages put as many columns as fit at this width.
    public var minColumnWidth = 24
    /// Narrow pages put as many columns as fit at this width.
    public var narrowColumnWidth = 36
    /// Columns are never wider than this unless alone on a page.
    public var maxColumnWidth = 40
    public var gap = 1
    /// Containers narrower than this get narrow pages.
    public var wideFromWidth = 100
    public var topRows = 1
    public var bottomRows = 1

    public init() {}

    /// How many columns a page holds at `size`.
    public func columnsPerPage(in size: Size) -> Int {
        let width = size.width < wideFromWidth ? narrowColumnWidth : minColumnWidth
        return max(1, (size.width + gap) / (width + gap))
    }

    /// The prototype for `size`: `wide-N` or `narrow-N` with N column areas.
    public func prototype<Item: Hashable & Sendable>(for size: Size, accepts: (@Sendable (Item, Rect) -> Bool)? = nil)
        -> LayoutPrototype<Item>
    {
        let n = columnsPerPage(in: size)
        let kind = size.width < wideFromWidth ? "narrow" : "wide"
        let metrics = self
        let areas = (0..<n).map { k in
            LayoutArea<Item>("c\(k)", frame: { s in metrics.columnRect(k, of: n, in: s) }, accepts: accepts)
        }
        return LayoutPrototype("\(kind)-\(n)", areas: areas)
    }

    /// A manager that pages `items` with these templates.
    public func manager<Item: Hashable & Sendable>(items: [Item], accepts: (@Sendable (Item, Rect) -> Bool)? = nil)
        -> PagedLayoutManager<Item>
    {
        let metrics = self
        return PagedLayoutManager(items: items) { _, size in metrics.prototype(for: size, accepts: accepts) }
    }

    /// Column `k` of `n` side by side in a container of `size`.
    public func columnRect(_ k: Int, of n: Int, in size: Size) -> Rect {
        var width = (size.width - gap * (n - 1)) / n
        if n > 1 { width = min(width, maxColumnWidth) }
        return Rect(x: k * (width + gap), y: topRows, width: width, height: size.height - topRows - bottomRows)
    }
}
