/// A named region of a page template, placed by a closure of the container size.
public struct LayoutArea<Item: Hashable & Sendable>: Sendable {
    public var name: String
    /// Areas of different prototypes with the same key are equivalent: a transform keeps
    /// an item in the equivalent area when it can.
    public var equivalence: String
    public var frame: @Sendable (Size) -> Rect
    /// Sees the area's rect at the size being laid out, so it can refuse items too wide for it.
    public var accepts: (@Sendable (Item, Rect) -> Bool)?

    /// `equivalence` defaults to the name.
    public init(
        _ name: String, equivalence: String? = nil, frame: @escaping @Sendable (Size) -> Rect,
        accepts: (@Sendable (Item, Rect) -> Bool)? = nil
    ) {
        self.name = name
        self.equivalence = equivalence ?? name
        self.frame = frame
        self.accepts = accepts
    }

    /// Whether the area takes `item` at `size`; an area that is empty at that size takes nothing.
    public func takes(_ item: Item, in size: Size) -> Bool {
        let rect = frame(size)
        guard !rect.isEmpty else { return false }
        return accepts?(item, rect) ?? true
    }
}

/// A named page template: its areas, filled in order.
public struct LayoutPrototype<Item: Hashable & Sendable>: Sendable {
    public var name: String
    public var areas: [LayoutArea<Item>]

    public init(_ name: String, areas: [LayoutArea<Item>]) {
        self.name = name
        self.areas = areas
    }
}

/// One item placed on a page.
public struct LayoutPlacement<Item: Hashable & Sendable>: Hashable, Sendable {
    public var area: String
    /// The area's equivalence key.
    public var equivalence: String
    public var item: Item
    public var rect: Rect
}

/// One page of a layout: which item sits in which area, in area order.
public struct LayoutPage<Item: Hashable & Sendable>: Hashable, Sendable {
    public var prototype: String
    /// Only the areas that hold an item; areas left empty are absent.
    public var placements: [LayoutPlacement<Item>]

    public subscript(area: String) -> Item? {
        placements.first { $0.area == area }?.item
    }

    public var items: [Item] { placements.map(\.item) }

    public func placement(of item: Item) -> LayoutPlacement<Item>? {
        placements.first { $0.item == item }
    }
}

/// An item and the area (by equivalence key) it is to sit in: what a transform keeps, and
/// what reproduces the transformed page breaks later at the same size.
public struct LayoutAnchor<Item: Hashable & Sendable>: Hashable, Sendable {
    public var item: Item
    public var equivalence: String

    public init(item: Item, equivalence: String) {
        self.item = item
        self.equivalence = equivalence
    }
}

/// Fills pages with items, in order, using the prototype a strategy offers for each page.
///
/// Areas are filled in order and the fill never goes back, so items keep their
/// order in reading order: an area that refuses the current item stays empty on
/// that page and the item tries the next area, then the next page. An item that
/// every area of a page refuses while that page is still empty can never be
/// placed by this strategy; it goes to `PagedLayout.overflow` and the next item
/// starts on that same page.
public struct PagedLayoutManager<Item: Hashable & Sendable>: Sendable {
    public var items: [Item]
    /// The template for page `page` (0-based) of a container of size `size`.
    public var prototype: @Sendable (_ page: Int, _ size: Size) -> LayoutPrototype<Item>

    public init(items: [Item], prototype: @escaping @Sendable (_ page: Int, _ size: Size) -> LayoutPrototype<Item>) {
        self.items = items
        self.prototype = prototype
    }

    public func layout(in size: Size) -> PagedLayout<Item> {
        var pages: [LayoutPage<Item>] = []
        var overflow: [Item] = []
        fill(items[...], size: size, pages: &pages, overflow: &overflow)
        return PagedLayout(manager: self, size: size, pages: pages, overflow: overflow, anchor: nil)
    }

    /// Lays out at `size` with `anchor.item` in an area equivalent to `anchor.equivalence` where
    /// some page break does that (see `transformed(to:keeping:)`); the canonical layout otherwise
    /// or when `anchor` is nil. The same anchor, items and size give the same pages every time.
    public func layout(in size: Size, anchoredBy anchor: LayoutAnchor<Item>?) -> PagedLayout<Item> {
        guard let anchor else { return layout(in: size) }
        return layout(in: size, keeping: anchor.item, equivalentTo: anchor.equivalence)
    }

    /// Lays out `items` on fresh pages appended to `pages`.
    private func fill(
        _ items: ArraySlice<Item>, size: Size, pages: inout [LayoutPage<Item>],
        overflow: inout [Item]
    ) {
        var proto: LayoutPrototype<Item>?
        var page = LayoutPage<Item>(prototype: "", placements: [])
        var cursor = 0
        func close() {
            if !page.placements.isEmpty { pages.append(page) }
            page.placements = []
            proto = nil
        }
        for item in items {
            while true {
                if proto == nil {
                    let p = prototype(pages.count, size)
                    proto = p
                    page = LayoutPage(prototype: p.name, placements: [])
                    cursor = 0
                }
                let areas = proto!.areas
                if let k = areas[cursor...].firstIndex(where: { $0.takes(item, in: size) }) {
                    page.placements.append(
                        LayoutPlacement(
                            area: areas[k].name, equivalence: areas[k].equivalence, item: item,
                            rect: areas[k].frame(size)))
                    cursor = k + 1
                    if cursor == areas.count { close() }
                    break
                }
                if page.placements.isEmpty {
                    overflow.append(item)
                    cursor = 0
                    break
                }
                close()
            }
        }
        close()
    }

    /// Lays out at `size` so `item` lands in an area equivalent to `area`, if some page break does that.
    ///
    /// The canonical layout wins when it already does. Otherwise the page holding
    /// `item` starts as late before it as makes `item` land in an equivalent area,
    /// and the page before it may be short.
    fileprivate func layout(in size: Size, keeping item: Item, equivalentTo key: String?) -> PagedLayout<Item> {
        let canonical = layout(in: size)
        guard let key, let index = items.firstIndex(of: item) else { return canonical }
        if canonical.placement(of: item)?.equivalence == key { return canonical }
        for back in 0...index {
            let start = index - back
            var pages: [LayoutPage<Item>] = []
            var overflow: [Item] = []
            fill(items[..<start], size: size, pages: &pages, overflow: &overflow)
            let anchored = pages.count
            fill(items[start...], size: size, pages: &pages, overflow: &overflow)
            if anchored < pages.count, pages[anchored].placement(of: item)?.equivalence == key {
                return PagedLayout(
                    manager: self, size: size, pages: pages, overflow: overflow,
                    anchor: LayoutAnchor(item: item, equivalence: key))
            }
        }
        return canonical
    }
}

/// The pages a manager produced for one container size.
public struct PagedLayout<Item: Hashable & Sendable>: Sendable {
    public let manager: PagedLayoutManager<Item>
    public let size: Size
    public let pages: [LayoutPage<Item>]
    /// Items no area would take, in order; they are not on any page.
    public let overflow: [Item]
    /// The anchor that moved the page breaks away from the canonical ones; nil for canonical pages
    /// (also when an anchor asked for nothing the canonical layout did not already do, or for the impossible).
    public let anchor: LayoutAnchor<Item>?

    /// The index of the page showing `item`, or nil when it is in `overflow` or unknown.
    public func page(containing item: Item) -> Int? {
        pages.firstIndex { $0.placement(of: item) != nil }
    }

    /// Where `item` is placed, or nil when it is on no page.
    public func placement(of item: Item) -> LayoutPlacement<Item>? {
        pages.lazy.compactMap { $0.placement(of: item) }.first
    }

    /// The same items laid out for `newSize`, with `item` kept in the equivalent area where
    /// possible, and the page that now shows it (nil when no page does). The result's `anchor`
    /// gives the same pages again from `manager.layout(in:anchoredBy:)`.
    public func transformed(to newSize: Size, keeping item: Item) -> (layout: PagedLayout<Item>, page: Int?) {
        let next = manager.layout(in: newSize, keeping: item, equivalentTo: placement(of: item)?.equivalence)
        return (next, next.page(containing: item))
    }
}
