import DragKit
import LanesCore
import Synchronization

/// A lane × column cell on screen: what the drag engine sees of it.
///
/// Its cards are drawn like a column's (`body`, whose section is the cell's). Whether a drop may
/// land in it is the door's to say (`LaneDropSource`): a cell holds no rule of its own.
public struct LaneCellDraggable: Draggable {
    /// `lane * columnCount + column`.
    public var section: Int
    public var lane: Int
    /// The board column (its index).
    public var column: Int
    /// The cell's cards laid out in the cell's viewport (section: the cell's).
    public var body: ColumnDraggable
    /// The cell's frame: its lane's header row and body (empty when the lane is collapsed).
    public var frame: Rect
    public var columnCount: Int

    public var viewport: Rect { body.viewport }
    public var itemCount: Int { body.itemCount }
    public func itemID(at index: Int) -> ItemID { body.itemID(at: index) }
    public func frameOfItem(at index: Int) -> Rect { body.frameOfItem(at: index) }
    public func firstItem(endingBelow y: Int) -> Int { body.firstItem(endingBelow: y) }
}

/// What the app keeps of the lane view between frames: whether it is on, collapsed lanes, scroll.
public struct LaneViewState: Hashable, Sendable {
    /// Off with `S` for this session; on by default when the board has swimlanes.
    public var enabled = true
    /// Collapsed lanes by tag (lowercased; "" is "No lane"), so they stay collapsed when lanes are reordered elsewhere.
    public var collapsed: Set<String> = []
    /// Content rows scrolled above the lane area.
    public var scroll = 0

    public init() {}

    public static func key(_ lanes: Swimlanes, _ lane: Int) -> String {
        lane < lanes.count ? lanes.tags[lane].lowercased() : ""
    }
}

/// A board drawn in swimlanes: the lanes shown, their bands, and the cells laid out.
///
/// Built for every layout, so it reads only what the screen needs: the cards' lanes come
/// from `LanePlacementCache` (sorted once per change of a column), and cards are measured
/// only as far down as the screen and the auto-scroller's reach go. The bands down to there
/// are laid out (`laidOutBands`, with their cells; the first `exactBands` of them have their
/// exact height); a lane below has no cells yet and is counted as its header and its smallest
/// body until it is scrolled to (`top(ofBand:)` and `metrics(band:column:)` measure it when asked).
public struct LaneGrid: Sendable {
    /// Rows below the screen measured exactly, so the auto-scroller knows what it scrolls into.
    public static let reach = 64

    public var swimlanes: Swimlanes
    public var columnCount: Int
    /// The lanes drawn, top to bottom: every lane, then "No lane" (index `swimlanes.count`) when it has cards.
    public var lanes: [Int]
    public var layout: LaneBands
    /// The cells of the laid-out bands, band by band, each band's the visible columns' (left to right).
    public var cells: [LaneCellDraggable]
    /// For each lane (then "No lane"), for each column, the indices of its cards in that column
    /// (a column's sorted when first read).
    public var placement: LaneIndices
    /// Cards of the visible columns carrying another lane's tag besides the one they are shown in.
    public var alsoIn: [CardID: [Int]]
    /// How many bands, from the top, have cells (the screen's and the reach's).
    public var laidOutBands: Int
    /// How many bands, from the top, have their exact height (the rest are lower bounds).
    public var exactBands: Int
    /// The visible columns: board index and width.
    public var visibleColumns: [(section: Int, width: Int)]
    /// Rows an empty lane's body keeps.
    public var minimumBody: Int
    let placed: [ColumnLanes]
    let measure: (maxTitleLines: Int, compact: Bool)
    /// The board's columns (identity and title), for `cellBoard`.
    let boardColumns: [(id: ColumnID, title: String)]
    private let memo = Memo()

    final class Memo: Sendable {
        let cellBoard = Mutex<Board?>(nil)
    }

    public init(
        board: Board, swimlanes: Swimlanes, columns: [ColumnDraggable], area: Rect, state: LaneViewState,
        cache: LayoutCache, compact: Bool
    ) {
        self.swimlanes = swimlanes
        let columnCount = board.columns.count
        self.columnCount = columnCount
        visibleColumns = columns.map { ($0.section, $0.frame.width) }
        measure = (cache.metrics.maxTitleLines, compact)
        boardColumns = board.columns.map { ($0.id, $0.title) }
        let laneCount = swimlanes.count + 1
        let placed = cache.lanePlacement.lanes(of: board, swimlanes)
        self.placed = placed
        placement = LaneIndices(columns: placed, laneCount: laneCount)
        var alsoIn: [CardID: [Int]] = [:]
        for c in columns where !placed[c.section].alsoIn.isEmpty {
            alsoIn.merge(placed[c.section].alsoIn) { a, _ in a }
        }
        self.alsoIn = alsoIn
        let noLaneHasCards = placed.contains { $0.counts[swimlanes.count] > 0 }
        lanes = Array(0..<swimlanes.count) + (noLaneHasCards ? [swimlanes.count] : [])
        let minimumBody = compact ? 1 : 3
        self.minimumBody = minimumBody
        // The bands from the top, each measured (lazily, as far as `need`) from its visible
        // cells; below `need`, bands are neither measured nor laid out.
        let need = max(0, state.scroll) + area.height + LaneGrid.reach
        var metrics: [[ColumnMetrics]] = []
        var inputs: [LaneBands.Lane] = []
        var top = 0, exact = 0, allExact = true
        for lane in lanes {
            let collapsed = state.collapsed.contains(LaneViewState.key(swimlanes, lane))
            var height = 0, known = true
            if top < need {
                let row = columns.map { c in
                    cache.columnMetrics(
                        section: -1 - (lane * columnCount + c.section), cards: placed[c.section].cards(inLane: lane),
                        width: c.frame.width, compact: compact)
                }
                metrics.append(row)
                if !collapsed {
                    let rows = need - (top + 1)  // body rows wanted
                    if rows <= 0 {
                        known = false
                    } else if row.contains(where: {
                        $0.storage.cards.count * LaneGrid.smallestCard(compact, cache.metrics.maxTitleLines) > rows
                    })
                        || row.contains(where: { $0.extends(beyond: rows) })
                    {
                        // Known taller than wanted without measuring (every card takes its smallest
                        // height at least), or measured only that far.
                        height = rows
                        known = false
                    } else {
                        height = row.map(\.contentHeight).max() ?? 0  // each is measured already (shorter than `rows`)
                    }
                }
            } else if !collapsed {
                known = false
            }
            allExact = allExact && known
            if allExact { exact += 1 }
            inputs.append(LaneBands.Lane(contentHeight: height, collapsed: collapsed))
            top += 1 + (collapsed ? 0 : max(minimumBody, height))
        }
        exactBands = exact
        laidOutBands = metrics.count
        layout = LaneBands(area: area, lanes: inputs, scroll: state.scroll, minimumBody: minimumBody)
        cells = []
        cells.reserveCapacity(metrics.count * columns.count)
        for (k, row) in metrics.enumerated() {
            let lane = lanes[k]
            let band = layout.bands[k]
            for (j, c) in columns.enumerated() {
                let section = lane * columnCount + c.section
                let frame =
                    band.collapsed
                    ? Rect(x: c.frame.minX, y: band.body.minY, width: c.frame.width, height: 0)
                    : Rect(
                        x: c.frame.minX, y: band.header.minY, width: c.frame.width,
                        height: band.body.maxY - band.header.minY)
                let viewport = Rect(
                    x: c.frame.minX, y: band.body.minY, width: c.frame.width,
                    height: band.collapsed ? 0 : band.body.height)
                var column = board.columns[c.section]
                column.cards = row[j].storage.cards
                let body = ColumnDraggable(
                    section: section, frame: frame, viewport: viewport, column: column,
                    metrics: row[j], scroll: viewport.minY - band.contentTop)
                cells.append(
                    LaneCellDraggable(
                        section: section, lane: lane, column: c.section, body: body, frame: frame,
                        columnCount: columnCount))
            }
        }
    }

    /// The board as the drag renderer reads it: one column per cell (section), titled
    /// "Column · lane", holding the cell's cards, so its words name the cell. Made when first
    /// asked (during a drag), from the placement cache's card lists.
    public var cellBoard: Board {
        memo.cellBoard.withLock { made in
            if let made { return made }
            var columns: [Column] = []
            columns.reserveCapacity((swimlanes.count + 1) * boardColumns.count)
            for lane in 0...swimlanes.count {
                for (s, c) in boardColumns.enumerated() {
                    columns.append(
                        Column(
                            id: c.id, title: c.title + " · " + name(lane: lane), cards: placed[s].cards(inLane: lane)))
                }
            }
            let board = Board(columns: columns)
            made = board
            return board
        }
    }

    /// The metrics of band `k`'s cell in visible column `j` (its cards measured as far as asked);
    /// a band below the laid-out ones gets them made now.
    public func metrics(band k: Int, column j: Int) -> ColumnMetrics {
        if k < laidOutBands { return cells[k * visibleColumns.count + j].body.metrics }
        let c = visibleColumns[j]
        return ColumnMetrics(
            cards: placed[c.section].cards(inLane: lanes[k]), width: c.width,
            maxTitleLines: measure.maxTitleLines, compact: measure.compact)
    }

    /// Rows a card takes at least: a title line between its borders (one row in the compact view).
    static func smallestCard(_ compact: Bool, _ maxTitleLines: Int) -> Int { compact ? 1 : maxTitleLines > 0 ? 3 : 2 }

    /// The content row of band `k`'s header, exact: below `exactBands` it measures the bands
    /// in between (their visible cells, through their last card).
    public func top(ofBand k: Int) -> Int {
        guard k > exactBands, exactBands < layout.bands.count else { return layout.bands[k].top }
        var t = layout.bands[exactBands].top
        for m in exactBands..<k { t += exactHeight(ofBand: m) }
        return t
    }

    /// Rows band `k` takes, measuring its visible cells through their last card.
    public func exactHeight(ofBand k: Int) -> Int {
        if layout.bands[k].collapsed { return 1 }
        let tallest = visibleColumns.indices.map { metrics(band: k, column: $0).contentHeight }.max() ?? 0
        return 1 + max(minimumBody, tallest)
    }

    /// The laid-out cell of a section (nil: its band is below the laid-out ones, or its column is off the page).
    public func cell(section: Int) -> LaneCellDraggable? { cells.first { $0.section == section } }

    /// The board path (column, index in the column) of a path in cell terms.
    public func boardPath(_ p: ItemPath) -> ItemPath? {
        guard p.section >= 0, columnCount > 0 else { return nil }
        let lane = p.section / columnCount, column = p.section % columnCount
        guard placement.indices.contains(lane) else { return nil }
        let indices = placement[lane][column]
        if p.item < 0 { return ItemPath(section: column, item: -1) }
        return indices.indices.contains(p.item) ? ItemPath(section: column, item: indices[p.item]) : nil
    }

    /// The path in cell terms of a card at a board path (its lane's cell, its index there).
    public func cellPath(_ p: ItemPath) -> ItemPath? {
        guard p.section >= 0, p.section < columnCount else { return nil }
        for lane in placement.indices {
            if let k = LaneGrid.index(of: p.item, in: placement[lane][p.section]) {
                return ItemPath(section: lane * columnCount + p.section, item: k)
            }
        }
        return nil
    }

    /// Where `value` is in a sorted list (binary search).
    static func index(of value: Int, in sorted: [Int]) -> Int? {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == value ? lo : nil
    }

    /// Cards in a lane across every column.
    public func count(lane: Int) -> Int { placed.reduce(0) { $0 + $1.counts[lane] } }

    /// The lane's name on screen.
    public func name(lane: Int) -> String { lane < swimlanes.count ? "#" + swimlanes.tags[lane] : "No lane" }
}

/// Each lane's cards in each column, by index in the column: `placement[lane][column]`, read from
/// the columns' `ColumnLanes` (each sorts its lanes the first time one of them is read).
public struct LaneIndices: RandomAccessCollection, Sendable {
    let columns: [ColumnLanes]
    let laneCount: Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { laneCount }
    public subscript(lane: Int) -> Lane { Lane(columns: columns, lane: lane) }

    /// One lane's cards, column by column.
    public struct Lane: RandomAccessCollection, Sendable {
        let columns: [ColumnLanes]
        let lane: Int

        public var startIndex: Int { 0 }
        public var endIndex: Int { columns.count }
        public subscript(column: Int) -> [Int] { columns[column].indices[lane] }
    }
}
