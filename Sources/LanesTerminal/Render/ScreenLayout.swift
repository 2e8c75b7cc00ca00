import DragKit
import LanesCore
import Synchronization

/// Sizes that shape the board on screen.
public struct LayoutMetrics: Hashable, Sendable {
    /// How columns are paged: the board's page templates (`BoardPaging`), wide from 80 cells, narrow (≥ 28-cell columns) below.
    public var paging: BoardPaging = {
        var p = BoardPaging()
        p.wideFromWidth = 80
        p.narrowColumnWidth = 28
        return p
    }()
    /// Title lines shown on a card before it is cut with `…`.
    public var maxTitleLines = 4
    /// The smallest terminal the board is drawn in.
    public var minimumSize = Size(width: 24, height: 8)

    public init() {}
}

/// How one card is drawn: its wrapped title and its hint line.
///
/// A compact face is one row: the title cut to leave room for the badges (`hint`) at the right.
public struct CardFace: Hashable, Sendable {
    public var titleLines: [String]
    public var hint: String?
    public var compact = false

    /// Rows including the box's top and bottom borders (one row in the compact view).
    public var height: Int { compact ? 1 : titleLines.count + (hint == nil ? 0 : 1) + 2 }

    public init(card: Card, width: Int, maxTitleLines: Int, compact: Bool = false) {
        self.compact = compact
        let inner = max(1, compact ? width - 2 : width - 4)
        let title = (card.done ? "✓ " : "") + DisplayText.safe(card.title.isEmpty ? "(untitled)" : card.title)
        let badges = CardFace.badges(of: card, tight: compact)
        if compact {
            let shown = badges.map { DisplayText.truncate($0, to: max(0, inner / 2)) }
            hint = shown
            let room = inner - (shown.map { TextWidth.width(of: $0) + 1 } ?? 0)
            titleLines = [DisplayText.truncate(title, to: max(1, room))]
            return
        }
        titleLines = DisplayText.wrap(title, width: inner, maxLines: maxTitleLines)
        hint = badges.map { DisplayText.truncate($0, to: inner) }
    }

    /// The card's details in short: `≡` (a description or lines kept as written), `☑ 1/3` (sub-tasks),
    /// `@date`; nil when it has none.
    static func badges(of card: Card, tight: Bool = false) -> String? {
        var parts: [String] = []
        if card.hasDescription || card.hasExtraLines { parts.append("≡") }
        if !card.subtasks.isEmpty {
            parts.append("☑" + (tight ? "" : " ") + "\(card.subtasks.filter(\.done).count)/\(card.subtasks.count)")
        }
        if let due = card.due { parts.append("@" + DisplayText.safe(due)) }
        return parts.isEmpty ? nil : parts.joined(separator: tight ? " " : "  ")
    }
}

/// Row offsets of a column's cards for one width: `tops[i]` is where card i starts, `tops[count]` the total.
///
/// Computed lazily, front to back, as far as something asks: the first screen of a
/// 12,000-card column wraps the titles of the cards it shows, not of all 12,000. The
/// values are a pure function of (cards, width, maxTitleLines), so memoising them in
/// shared storage is invisible to value semantics. Each card's `CardFace` is kept
/// with its height, so drawing a frame does not wrap titles again.
public struct ColumnMetrics: Sendable {
    /// The inputs, and behind a lock what has been computed from them so far (copies of
    /// the metrics share it, and a `Draggable` may be read from any thread).
    final class Storage: Sendable {
        let cards: CardList
        let width: Int
        let maxTitleLines: Int
        let compact: Bool
        private let computed = Mutex(Computed())

        struct Computed {
            /// `tops[k]` for every k computed so far (always holds `tops[0] == 0`).
            var tops: [Int] = [0]
            var faces: [CardFace] = []
        }

        init(cards: CardList, width: Int, maxTitleLines: Int, compact: Bool) {
            self.cards = cards
            self.width = width
            self.maxTitleLines = maxTitleLines
            self.compact = compact
        }

        /// How many cards have been measured so far.
        var measured: Int { computed.withLock { $0.faces.count } }

        private func step(_ c: inout Computed) {
            let face = CardFace(
                card: cards[c.faces.count], width: width, maxTitleLines: maxTitleLines, compact: compact)
            c.faces.append(face)
            c.tops.append(c.tops[c.tops.count - 1] + face.height)
        }

        /// Runs `body` on what is computed through `index` (at most `cards.count`).
        func through<T>(_ index: Int, _ body: (borrowing Computed) -> T) -> T {
            computed.withLock { c in
                let target = min(index, cards.count)
                while c.tops.count <= target { step(&c) }
                return body(c)
            }
        }

        /// Runs `body` on what is computed until the content reaches below `row` (or every card is done).
        func past<T>(row: Int, _ body: (borrowing Computed) -> T) -> T {
            computed.withLock { c in
                while c.tops.count <= cards.count && c.tops[c.tops.count - 1] <= row { step(&c) }
                return body(c)
            }
        }
    }

    let storage: Storage

    init(cards: CardList, width: Int, maxTitleLines: Int, compact: Bool = false) {
        storage = Storage(cards: cards, width: width, maxTitleLines: maxTitleLines, compact: compact)
    }

    /// The lazily computed offsets: `tops[i]` computes up to card i on first use.
    public struct Tops: Sendable {
        let storage: Storage
        public subscript(i: Int) -> Int {
            storage.through(i) { $0.tops[i] }
        }
        public var count: Int { storage.cards.count + 1 }
        public var last: Int? {
            storage.through(storage.cards.count) { $0.tops.last }
        }
    }

    public var tops: Tops { Tops(storage: storage) }
    /// The whole column's height: computes every card.
    public var contentHeight: Int { tops.last ?? 0 }
    public func height(of i: Int) -> Int {
        storage.through(i + 1) { $0.tops[i + 1] - $0.tops[i] }
    }

    /// How card i is drawn at this width (wrapped once, then kept).
    public func face(at i: Int) -> CardFace {
        storage.through(i + 1) { $0.faces[i] }
    }

    /// Whether the content is taller than `row` rows; computes only that far.
    public func extends(beyond row: Int) -> Bool {
        storage.past(row: row) { $0.tops[$0.tops.count - 1] > row }
    }

    /// The first card whose bottom lies below content row `row` (binary search over the
    /// part computed so far, which is extended just far enough), or the card count.
    public func firstItem(endingBelow row: Int) -> Int {
        storage.past(row: row) { c in
            var lo = 0, hi = c.tops.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if c.tops[mid + 1] > row { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
    }
}

/// Remembers column metrics between frames; starts a column afresh only when its cards or width change.
public final class LayoutCache {
    private struct Entry {
        var cards: CardList
        var width: Int
        var compact: Bool
        var metrics: ColumnMetrics
    }

    private var entries: [Int: Entry] = [:]
    public let metrics: LayoutMetrics
    /// Each column's cards sorted into swimlanes (#26: LanePlacement.swift).
    public let lanePlacement = LanePlacementCache()

    public init(metrics: LayoutMetrics = LayoutMetrics()) {
        self.metrics = metrics
    }

    /// Metrics for a column's cards at a width. Comparing unchanged arrays is cheap: they share storage.
    /// New metrics cost nothing until asked: cards are measured as far as the screen needs.
    public func columnMetrics(section: Int, cards: CardList, width: Int, compact: Bool = false) -> ColumnMetrics {
        if let e = entries[section], e.width == width, e.compact == compact, e.cards == cards { return e.metrics }
        let m = ColumnMetrics(cards: cards, width: width, maxTitleLines: metrics.maxTitleLines, compact: compact)
        entries[section] = Entry(cards: cards, width: width, compact: compact, metrics: m)
        return m
    }

    public func removeAll() { entries.removeAll() }
}

/// A column on screen: what the drag engine sees of it.
public struct ColumnDraggable: Draggable {
    public var section: Int
    public var frame: Rect
    public var viewport: Rect
    public var column: Column
    public var metrics: ColumnMetrics
    public var scroll: Int

    public var cards: CardList { column.cards }

    public var itemCount: Int { cards.count }
    public func itemID(at index: Int) -> ItemID { ItemID(cards[index].id) }

    public func frameOfItem(at index: Int) -> Rect {
        Rect(
            x: frame.minX, y: viewport.minY + metrics.tops[index] - scroll,
            width: frame.width, height: metrics.height(of: index))
    }

    /// Same answer as the protocol's binary search over frames, but measures cards only as far as row `y`.
    public func firstItem(endingBelow y: Int) -> Int {
        metrics.firstItem(endingBelow: y - viewport.minY + scroll)
    }
}

/// Where everything is on screen for one frame.
public struct ScreenLayout: Sendable {
    public var size: Size
    /// Row 0 holds the title and page indicator; the last row the status line.
    public var boardArea: Rect
    public var columnsPerPage: Int
    public var page: Int
    public var pageCount: Int
    public var columns: [ColumnDraggable]
    /// Whether the terminal is too small to draw the board.
    public var tooSmall: Bool
    /// DragKit's pages of sections for this size (areas `c0`, `c1`, … left to right).
    public var paged: PagedLayout<Int>
    /// The columns as items of the board, dragged by their headers; nil when nothing is drawn.
    public var headers: BoardDraggable?
    /// The swimlanes, when the board has them and the lane view is on: the cells are then the
    /// drag arena's card draggables, and `columns` only place the column headers.
    public var lanes: LaneGrid?

    /// `anchor` (from a resize's transform) shifts the page breaks so that section sits in that area.
    public init(
        board: Board, size: Size, page requestedPage: Int, scroll: [Int], cache: LayoutCache,
        anchor: LayoutAnchor<Int>? = nil, compact: Bool = false, laneView: LaneViewState? = nil
    ) {
        let m = cache.metrics
        self.size = size
        tooSmall = size.width < m.minimumSize.width || size.height < m.minimumSize.height
        boardArea = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2))
        let count = board.columns.count
        let paged = ScreenLayout.manager(columns: count, paging: m.paging).layout(in: size, anchoredBy: anchor)
        self.paged = paged
        columnsPerPage = ScreenLayout.perPage(columns: count, paging: m.paging, size: size)
        pageCount = max(1, paged.pages.count)
        page = min(max(0, requestedPage), pageCount - 1)
        var pages: [Int] = Array(repeating: 0, count: count)
        for (p, pg) in paged.pages.enumerated() {
            for placement in pg.placements { pages[placement.item] = p }
        }
        sectionPages = pages
        columns = []
        guard !tooSmall, page < paged.pages.count else { return }
        for placement in paged.pages[page].placements {
            let section = placement.item
            let frame = placement.rect
            let width = frame.width
            let viewport = Rect(x: frame.minX, y: frame.minY + 2, width: width, height: max(0, frame.height - 2))
            let column = board.columns[section]
            let metrics = cache.columnMetrics(section: section, cards: column.cards, width: width, compact: compact)
            // Clamp to max(0, contentHeight - viewport height) without measuring the whole column:
            // a column taller than scroll + viewport needs no clamping.
            let wanted = section < scroll.count ? max(0, scroll[section]) : 0
            let s =
                wanted == 0 || metrics.extends(beyond: wanted + viewport.height - 1)
                ? wanted : max(0, metrics.contentHeight - viewport.height)
            columns.append(
                ColumnDraggable(
                    section: section, frame: frame, viewport: viewport, column: column,
                    metrics: metrics, scroll: s))
        }
        if !columns.isEmpty { headers = BoardDraggable(board: board, layout: self) }
        if let laneView, laneView.enabled, let swimlanes = board.acceptRules.swimlanes, !columns.isEmpty {
            let area = Rect(
                x: boardArea.minX, y: boardArea.minY + 2, width: boardArea.width, height: max(0, boardArea.height - 2))
            lanes = LaneGrid(
                board: board, swimlanes: swimlanes, columns: columns, area: area, state: laneView,
                cache: cache, compact: compact)
        }
    }

    /// Columns a page holds at `size`: as many as fit, or all of them when fewer (spread over the width).
    static func perPage(columns count: Int, paging: BoardPaging, size: Size) -> Int {
        max(1, min(paging.columnsPerPage(in: size), count))
    }

    /// The board's pages from DragKit: wide pages from 80 cells, narrow ones below (a board with
    /// fewer columns than a page holds spreads them over the width, up to the maximum). The
    /// prototype follows the size it is asked for, so a transform to another size gets that size's pages.
    static func manager(columns count: Int, paging: BoardPaging) -> PagedLayoutManager<Int> {
        PagedLayoutManager<Int>(items: Array(0..<count)) { _, size in
            let n = perPage(columns: count, paging: paging, size: size)
            let kind = size.width >= paging.wideFromWidth ? "wide" : "narrow"
            return LayoutPrototype(
                "\(kind)-\(n)",
                areas: (0..<n).map { k in
                    LayoutArea<Int>("c\(k)", frame: { s in paging.columnRect(k, of: n, in: s) })
                })
        }
    }

    /// The pages for `newSize` that keep `section` in the equivalent area where possible
    /// (DragKit's transform), and the page that shows it.
    public func transformed(to newSize: Size, keeping section: Int) -> (anchor: LayoutAnchor<Int>?, page: Int) {
        let (next, page) = paged.transformed(to: newSize, keeping: section)
        return (next.anchor, page ?? 0)
    }

    /// The area (`c0`, `c1`, …) showing a section, nil when its page is not the one shown.
    public func area(of section: Int) -> String? {
        guard column(section: section) != nil else { return nil }
        return paged.placement(of: section)?.area
    }

    public var arena: DragArena {
        let cards: [any Draggable] = lanes.map { $0.cells } ?? columns
        return DragArena(container: boardArea, draggables: cards + (headers.map { [$0] } ?? []))
    }

    public func column(section: Int) -> ColumnDraggable? {
        columns.first { $0.section == section }
    }

    public var visibleSections: Range<Int> {
        guard let f = columns.first, let l = columns.last else { return 0..<0 }
        return f.section..<(l.section + 1)
    }

    /// The page that shows each section.
    public var sectionPages: [Int]

    /// The page that shows a section.
    public func page(of section: Int) -> Int {
        sectionPages.indices.contains(section) ? sectionPages[section] : 0
    }
}
