import DragKit
import LanesCore

/// The lane view in the app: drags through the lane cells, the lane scroll, collapsing.
///
/// The app's selection stays a board path (column, index in the column); only the drag engine
/// works in cell terms (`LaneDropSource`), and its events are read back into board paths here.
extension BoardApp {
    /// The auto-scroller's id for the lanes' vertical scroll (columns use their index).
    static let laneScrollerID = -2

    /// Whether the board is shown in lanes now.
    public var showsLanes: Bool { layout.lanes != nil }

    /// The drag engine's data source for the current layout.
    func laneSource(_ grid: LaneGrid) -> LaneDropSource { LaneDropSource(document: document, grid: grid) }

    /// Pointer input through the lane cells.
    mutating func feedLanes(_ input: PointerInput, grid: LaneGrid, now: Double) {
        coordinator.selectedItems = marked
        var source = laneSource(grid)
        let before = board
        let events = drag.coordinator.handle(input, dataSource: &source)
        document = source.document
        applyLaneEvents(events, grid: grid, now: now, before: before)
    }

    /// Hands cell events to the renderer (unless `rendered`), then to the app as board paths.
    /// `before`: the board before the events' drop was applied (nil: no drop among them).
    mutating func applyLaneEvents(_ events: [DragEvent], grid: LaneGrid, now: Double, rendered: Bool = false,
                                  before: Board? = nil) {
        if !rendered, let words = drag.take(events, board: grid.cellBoard, now: now) {
            status = words
            reading.pageWordsShown = false
        }
        for e in events {
            if case .moved(_, .refused(let section)) = e, let words = laneRefusal(into: section, grid: grid) {
                status = words
            }
        }
        let translated = events.compactMap { boardEvent($0, grid: grid) }
        apply(translated, now: now, rendered: true)
        // A move to another lane at the same place in the column reads as a no-op to `apply`.
        let sameSpot = translated.contains { if case .dropped(let d) = $0 { d.isNoOp } else { false } }
        if sameSpot, document.lastRefusal == nil, let before, board != before { changed() }
    }

    /// The door's words for cards refused by a cell (the whole column's WIP limit, its accept rule).
    func laneRefusal(into section: Int, grid: LaneGrid) -> String? {
        guard let s = coordinator.session, grid.columnCount > 0 else { return nil }
        let sources = s.start.items.compactMap { board.indexPath(for: $0)?.section }
        return board.moveRefusal(into: section % grid.columnCount, from: sources).map { "Refused: " + $0.words }
    }

    /// A drag event in cell terms read as board paths (the app's selection is a board path).
    /// A drop's target is where the card is now (the door has applied it).
    func boardEvent(_ e: DragEvent, grid: LaneGrid) -> DragEvent? {
        let header = BoardDraggable.section
        switch e {
        case .tapped(_, let item?) where item.section == header: return e
        case .began(let s) where s.kind == .section: return e
        case .dropped(let d) where d.to.section == header || d.from.section == header: return e
        case .endedOutside(_, let source, _) where source.section == header: return e
        case .cancelled(_, let source, _) where source.section == header: return e
        case .tapped(let p, let item):
            return .tapped(at: p, item: item.flatMap(grid.boardPath) ?? laneCellColumn(at: p, grid: grid))
        case .began(var s):
            guard let p = grid.boardPath(s.source) else { return nil }
            s.source = p
            return .began(s)
        case .dropped(var d):
            guard let from = grid.boardPath(d.from) else { return nil }
            d.from = from
            d.to = board.indexPath(for: d.item) ?? from
            d.carried = []
            return .dropped(d)
        case .endedOutside(let id, let source, let at):
            return grid.boardPath(source).map { .endedOutside(item: id, source: $0, at: at) }
        case .cancelled(let id, let source, let reason):
            return grid.boardPath(source).map { .cancelled(item: id, source: $0, reason: reason) }
        case .moved, .targetChanged, .beganOutside, .notDraggable:
            return e
        }
    }

    /// A tap in an empty part of a cell selects the column (nil: the app then picks the column under the point).
    func laneCellColumn(at p: Point, grid: LaneGrid) -> ItemPath? { nil }

    /// The edges during a pointer drag in lanes: the lanes scroll as one, vertically.
    func laneScrollers(_ grid: LaneGrid) -> [Scrollable] {
        let l = grid.layout
        return [Scrollable(id: BoardApp.laneScrollerID, viewport: l.area, contentLength: l.contentHeight, offset: l.scroll)]
    }

    /// `S`: lanes on or off for this session.
    mutating func toggleLaneView() {
        guard board.acceptRules.swimlanes != nil else {
            status = "This board has no swimlanes (lanes swimlanes BOARD --tag TAG … sets them)"
            return
        }
        laneView.enabled.toggle()
        refreshLayout()
        ensureSelectionVisible()
        status = laneView.enabled ? "Swimlanes shown (S: columns only)" : "Columns only (S: swimlanes)"
    }

    /// Collapses or expands a lane (by its index; the count is "No lane").
    mutating func toggleCollapse(lane: Int) {
        guard let lanes = board.acceptRules.swimlanes else { return }
        let key = LaneViewState.key(lanes, lane)
        let name = lane < lanes.count ? "#" + lanes.tags[lane] : "No lane"
        if laneView.collapsed.remove(key) == nil {
            laneView.collapsed.insert(key)
            status = "Lane \(name) collapsed"
        } else {
            status = "Lane \(name) expanded"
        }
        refreshLayout()
    }

    /// A press on a lane's header (not during a drag) collapses or expands it; true when it did.
    mutating func pressLaneHeader(_ p: Point) -> Bool {
        guard !coordinator.isDragging, let grid = layout.lanes, let k = grid.layout.lane(headerAt: p) else { return false }
        toggleCollapse(lane: grid.lanes[k])
        return true
    }

    /// Scrolls the lanes by `rows`.
    mutating func scrollLanes(by rows: Int) {
        laneView.scroll = max(0, laneView.scroll + rows)
        refreshLayout()
    }

    /// In lanes: scrolls so the selected card (or its lane's header) is on screen.
    mutating func ensureLaneSelectionVisible(_ grid: LaneGrid) {
        guard let sel = selection, sel.item >= 0, let cp = grid.cellPath(sel),
              let k = grid.lanes.firstIndex(of: cp.section / max(1, grid.columnCount)) else { return }
        let band = grid.layout.bands[k]
        var top = band.top, height = 1
        if let cell = grid.cell(section: cp.section), !band.collapsed, cp.item < cell.itemCount {
            top = band.top + 1 + cell.body.metrics.tops[cp.item]
            height = cell.body.metrics.height(of: cp.item)
        }
        let s = grid.layout.scroll(toShow: top, height: height)
        if s != grid.layout.scroll {
            laneView.scroll = s
            refreshLayout()
        }
    }
}
