import DragKit

/// Where a swimlane board's bands sit on screen: per lane a header row, then (unless collapsed)
/// the rows of its cells, stacked in one content that scrolls vertically under the column headers.
///
/// Content rows are counted from the first lane's header; `scroll` of them are above `area`.
/// A band's body is as tall as its tallest cell in the columns shown (at least `minimumBody`,
/// so an empty lane still has room to drop a card in). Rects are clipped to `area`: a header
/// or body scrolled out of sight has height 0 at the edge it left by.
public struct LaneBands: Hashable, Sendable {
    /// What the layout needs of one lane.
    public struct Lane: Hashable, Sendable {
        /// Rows of the tallest cell's cards.
        public var contentHeight: Int
        public var collapsed: Bool

        public init(contentHeight: Int, collapsed: Bool = false) {
            self.contentHeight = contentHeight
            self.collapsed = collapsed
        }
    }

    /// One lane on screen.
    public struct Band: Hashable, Sendable {
        /// The lane's header row across `area`, clipped.
        public var header: Rect
        /// The rows its cells show cards in, clipped (height 0 when collapsed or out of sight).
        public var body: Rect
        /// The screen row where the lane's first card starts (above `body` when scrolled into it).
        public var contentTop: Int
        /// Rows the lane takes in the content: its header, and its body unless collapsed.
        public var height: Int
        /// The lane's first content row (its header's).
        public var top: Int
        public var collapsed: Bool
    }

    public var area: Rect
    public var bands: [Band]
    /// Rows of every lane together.
    public var contentHeight: Int
    /// Content rows above `area`, clamped to what there is.
    public var scroll: Int

    public init(area: Rect, lanes: [Lane], scroll requested: Int, minimumBody: Int) {
        self.area = area
        var heights: [Int] = []
        for l in lanes { heights.append(1 + (l.collapsed ? 0 : max(minimumBody, l.contentHeight))) }
        contentHeight = heights.reduce(0, +)
        scroll = min(max(0, requested), max(0, contentHeight - area.height))
        bands = []
        var top = 0
        for (k, lane) in lanes.enumerated() {
            let y = area.minY + top - scroll
            let header = LaneBands.clip(y: y, height: 1, to: area, x: area.minX, width: area.width)
            let bodyRows = heights[k] - 1
            let body = LaneBands.clip(y: y + 1, height: bodyRows, to: area, x: area.minX, width: area.width)
            bands.append(
                Band(
                    header: header, body: body, contentTop: y + 1, height: heights[k], top: top,
                    collapsed: lane.collapsed))
            top += heights[k]
        }
    }

    /// The rows `y ..< y + height` within `area` (height 0 at the nearer edge when none are).
    static func clip(y: Int, height: Int, to area: Rect, x: Int, width: Int) -> Rect {
        let lo = min(max(y, area.minY), area.maxY)
        let hi = min(max(y + height, area.minY), area.maxY)
        return Rect(x: x, y: lo, width: width, height: hi - lo)
    }

    /// The scroll that shows content rows `top ..< top + height` (as much of them as fits,
    /// their top first), moving as little as possible from the current one.
    public func scroll(toShow top: Int, height: Int) -> Int {
        if top < scroll { return top }
        if top + height > scroll + area.height { return min(top, top + height - area.height) }
        return scroll
    }

    /// The band whose header is at screen point `p`, if any.
    public func lane(headerAt p: Point) -> Int? {
        bands.firstIndex { $0.header.height > 0 && $0.header.contains(p) }
    }
}
