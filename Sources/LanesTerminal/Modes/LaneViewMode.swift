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
    mutating func applyLaneEvents(
        _ events: [DragEvent], grid: LaneGrid, now: Double, rendered: Bool = false,
        before: Board? = nil
    ) {
        if !rendered, let words = drag.take(events, board: grid.cellBoard, now: now) {
            status = words
            reading.pageWordsShown = false
        }
        let translated = events.compactMap { boardEvent($0, grid: grid) }
        apply(translated, now: now, rendered: true)
        // A move to another lane at the same place in the column reads as a no-op to `apply`.
        let sameSpot = translated.contains { if case .dropped(let d) = $0 { d.isNoOp } else { false } }
        if sameSpot, let before, board != before { changed() }
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
            return .tapped(at: p, item: item.flatMap(grid.boardPath))
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
        case .dropRefused(let id, let source, let at, let why):
            return grid.boardPath(source).map { .dropRefused(item: id, source: $0, at: at, because: why) }
        case .cancelled(let id, let source, let reason):
            return grid.boardPath(source).map { .cancelled(item: id, source: $0, reason: reason) }
        case .moved, .targetChanged, .beganOutside, .notDraggable:
            return e
        }
    }

    /// The edges during a pointer drag in lanes: the lanes scroll as one, vertically.
    func laneScrollers(_ grid: LaneGrid) -> [Scrollable] {
        let l = grid.layout
        return [
            Scrollable(id: BoardApp.laneScrollerID, viewport: l.area, contentLength: l.contentHeight, offset: l.scroll)
        ]
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
        guard !coordinator.isDragging, let grid = layout.lanes, let k = grid.layout.lane(headerAt: p) else {
            return false
        }
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
            let k = grid.lanes.firstIndex(of: cp.section / max(1, grid.columnCount))
        else { return }
        let band = grid.layout.bands[k]
        let bandTop = grid.top(ofBand: k)
        var top = bandTop, height = 1
        if !band.collapsed, let j = grid.visibleColumns.firstIndex(where: { $0.section == sel.section }) {
            let m = grid.metrics(band: k, column: j)
            if cp.item < m.tops.count - 1 {
                top = bandTop + 1 + m.tops[cp.item]
                height = m.height(of: cp.item)
            }
        }
        let s = grid.layout.scroll(toShow: top, height: height)
        if s != grid.layout.scroll {
            laneView.scroll = s
            refreshLayout()
        }
    }
}

// MARK: Keys

extension BoardApp {
    /// `{` `}` `S` `Z`.
    mutating func laneAction(_ action: Action) {
        switch action {
        case .toggleLanes: toggleLaneView()
        case .moveLaneUp: moveToLane(delta: -1)
        case .moveLaneDown: moveToLane(delta: 1)
        case .collapseLane:
            guard let grid = layout.lanes else {
                status =
                    board.acceptRules.swimlanes == nil
                    ? "This board has no swimlanes" : "Swimlanes are off (S shows them)"
                return
            }
            let lane =
                selection.flatMap(grid.cellPath).map { $0.section / max(1, grid.columnCount) } ?? grid.lanes.first ?? 0
            toggleCollapse(lane: lane)
            ensureSelectionVisible()
        default: break
        }
    }

    /// Whether a lane shown in `grid` is collapsed.
    func isCollapsed(_ lane: Int, in grid: LaneGrid) -> Bool {
        grid.lanes.firstIndex(of: lane).map { grid.layout.bands[$0].collapsed } ?? false
    }

    /// The cards of a column as the lane view shows them, top to bottom (collapsed lanes left out).
    func laneSequence(column: Int, grid: LaneGrid) -> [Int] {
        grid.lanes.filter { !isCollapsed($0, in: grid) }.flatMap { grid.placement[$0][column] }
    }

    /// Up and down in lanes: the next card on screen in the column, across lane boundaries.
    mutating func selectLaneCard(delta: Int) {
        guard let grid = layout.lanes, let sel = selection, board.columns.indices.contains(sel.section) else {
            selectCard(delta: delta)
            return
        }
        var seq = laneSequence(column: sel.section, grid: grid)
        if !filter.isEmpty {
            let cards = board.columns[sel.section].cards
            let matching = seq.filter { CardFilter.matches(cards[$0], filter) || $0 == sel.item }
            if matching.count > 1 || seq.isEmpty { seq = matching }
        }
        guard !seq.isEmpty else { return }
        let next = seq.firstIndex(of: sel.item).map { min(max(0, $0 + delta), seq.count - 1) } ?? 0
        selection = ItemPath(section: sel.section, item: seq[next])
        ensureSelectionVisible()
    }

    /// `{` / `}`: the selected card to the lane above or below, in the same column: at the
    /// bottom of the lane above, at the top of the lane below. One edit through the door.
    mutating func moveToLane(delta: Int) {
        guard let lanes = board.acceptRules.swimlanes else {
            status = "This board has no swimlanes (lanes swimlanes BOARD --tag TAG … sets them)"
            return
        }
        guard let sel = validSelection else { status = "No card selected"; return }
        let card = board[sel]
        let current = lanes.placement(of: card).lane ?? lanes.count
        let target = current + delta
        guard (0...lanes.count).contains(target) else {
            status = delta < 0 ? "Already in the top lane" : "Already in \"No lane\", the last"
            return
        }
        let cards = board.columns[sel.section].cards
        let cell = cache.lanePlacement.lanes(of: board, lanes)[sel.section].indices[target]
        var slot: CardSlot = .index(sel.item)
        if delta < 0, let last = cell.last { slot = .after(cards[last].id, orIndex: last + 1) }
        if delta > 0, let first = cell.first { slot = .before(cards[first].id, orIndex: first) }
        let tag: String? = target < lanes.count ? lanes.tags[target] : nil
        guard send(.moveCardsToLane([card.id], to: board.columns[sel.section].id, at: slot, lane: tag)) != nil else {
            return
        }
        if let grid = layout.lanes, isCollapsed(target, in: grid) { toggleCollapse(lane: target) }
        ensureSelectionVisible()
    }

    /// A lifted card in lanes: up and down move it in its cell and, at the cell's edge, into the
    /// next lane shown (same column); left and right to the same lane of the next column that takes it.
    mutating func liftedLaneMove(_ action: Action) {
        guard let grid = layout.lanes, let s = coordinator.session, grid.columnCount > 0 else { return }
        let columns = grid.columnCount
        let t =
            s.hover.target
            ?? DropTarget(section: s.current.section, index: s.current.item, gap: s.current.item, anchor: nil)
        var section = t.section, index = t.index
        let lane = section / columns, column = section % columns
        let shown = grid.lanes.filter { !isCollapsed($0, in: grid) }
        /// The last final index in a cell (one less in the cell the card is counted in).
        func lastIndex(_ cell: Int) -> Int {
            let n = LaneDropSource(document: document, grid: grid).numberOfItems(inSection: cell)
            return cell == s.current.section ? max(0, n - 1) : n
        }
        switch action {
        case .up, .moveUp:
            if index > 0 {
                index -= 1
            } else if let k = shown.firstIndex(of: lane), k > 0 {
                section = shown[k - 1] * columns + column
                index = lastIndex(section)
            } else {
                status = "Top of the lanes"; return
            }
        case .down, .moveDown:
            if index < lastIndex(section) {
                index += 1
            } else if let k = shown.firstIndex(of: lane), k + 1 < shown.count {
                section = shown[k + 1] * columns + column
                index = 0
            } else {
                status = "Bottom of the lanes"; return
            }
        case .left, .moveLeft, .right, .moveRight:
            let dx = action == .left || action == .moveLeft ? -1 : 1
            var next = column + dx
            var why: String?
            while (0..<columns).contains(next) {
                showSection(next)
                let cell = lane * columns + next
                let idx = min(index, lastIndex(cell))
                let verdict = coordinator.verdict(toSection: cell, index: idx, dataSource: laneSource(grid))
                if verdict?.target != nil {
                    section = cell
                    index = idx
                    break
                }
                why = why ?? verdict?.refusal
                next += dx
            }
            guard (0..<columns).contains(next) else {
                showSection(column)
                status = "No column that way takes the card" + (why.map { " (\(DisplayText.safe($0)))" } ?? "")
                return
            }
        default: return
        }
        // The target lane on screen first: the engine moves a card only into a cell it can see.
        // (`layout`, not `grid`: left and right may have flipped the page.)
        if let shown = layout.lanes, let k = shown.lanes.firstIndex(of: section / columns),
            !shown.layout.bands[k].collapsed,
            shown.visibleColumns.contains(where: { $0.section == section % columns }),
            shown.cell(section: section).map({ $0.frame.isEmpty }) ?? true
        {
            let s = shown.layout.scroll(toShow: shown.top(ofBand: k), height: min(shown.layout.area.height, 4))
            if s != shown.layout.scroll { laneView.scroll = s; refreshLayout() }
        }
        guard let now = layout.lanes else { return }
        applyLaneEvents(
            coordinator.moveLifted(toSection: section, index: index, dataSource: laneSource(now)), grid: now, now: 0)
        if let k = now.lanes.firstIndex(of: section / columns), let cell = now.cell(section: section) {
            let row = index < cell.itemCount ? cell.body.metrics.tops[index] : cell.body.metrics.contentHeight
            let s = now.layout.scroll(toShow: now.top(ofBand: k), height: min(now.layout.area.height, row + 4))
            if s != now.layout.scroll { laneView.scroll = s; refreshLayout() }
        }
    }

    /// Left and right in lanes: the same lane of the next column (its card at the same place,
    /// or the nearest), else the column's first card on screen.
    mutating func selectLaneColumn(delta: Int) {
        guard let grid = layout.lanes, let sel = selection else { selectColumn(delta: delta); return }
        let s = min(max(0, sel.section + delta), board.columns.count - 1)
        guard s != sel.section else { return }
        let cp = grid.cellPath(sel)
        let lane = cp.map { $0.section / max(1, grid.columnCount) }
        var item = -1
        if let lane, let cp, !grid.placement[lane][s].isEmpty, !isCollapsed(lane, in: grid) {
            item = grid.placement[lane][s][min(cp.item, grid.placement[lane][s].count - 1)]
        } else if let first = laneSequence(column: s, grid: grid).first {
            item = first
        }
        selection = ItemPath(section: s, item: item)
        showSection(s)
        ensureSelectionVisible()
    }
}

// MARK: Keys and clicks that know the lanes (mark box, K/J, paging)

extension BoardApp {
    /// Where the card at a board path is drawn in the lane view (nil: not laid out on this page).
    func laneCardFrame(of item: ItemPath, in grid: LaneGrid) -> Rect? {
        guard let cp = grid.cellPath(item), let cell = grid.cell(section: cp.section), cp.item < cell.itemCount else {
            return nil
        }
        return cell.frameOfItem(at: cp.item)
    }

    /// `K` / `J` in lanes: the card one place up or down among the cards of its own lane in its
    /// column (its cell), before or after its neighbour there; one edit through the door.
    /// False when no card in a lane cell is selected (the board's own keys take it then).
    mutating func quickLaneMove(dy: Int) -> Bool {
        guard let grid = layout.lanes, let sel = validSelection, let cp = grid.cellPath(sel) else { return false }
        let lane = cp.section / max(1, grid.columnCount)
        let cell = grid.placement[lane][sel.section]
        let k = cp.item + dy
        guard cell.indices.contains(k) else {
            status =
                (dy < 0 ? "Already the first card of lane " : "Already the last card of lane ")
                + DisplayText.safe(grid.name(lane: lane))
                + " here"
            return true
        }
        let cards = board.columns[sel.section].cards
        let card = cards[sel.item], neighbour = cards[cell[k]]
        // The neighbour's index once the card is out of the column is `cell[k]` above it and `cell[k] - 1` below it.
        let slot: CardSlot = dy < 0 ? .before(neighbour.id, orIndex: cell[k]) : .after(neighbour.id, orIndex: cell[k])
        guard send(.moveCards([card.id], to: board.columns[sel.section].id, at: slot)) != nil,
            let now = board.indexPath(for: card.id)
        else { return true }
        selection = now
        let place = layout.lanes.flatMap { $0.cellPath(now) }.map { $0.item + 1 } ?? k + 1
        status =
            "Moved “\(DisplayText.truncate(DisplayText.safe(card.title), to: 30))” to position \(place) of lane "
            + "\(DisplayText.safe(grid.name(lane: lane))) in \(DisplayText.safe(board.columns[now.section].title))"
        ensureSelectionVisible()
        return true
    }

    /// A page flip in lanes: the lane the eye was on (the selected card's when it is on screen,
    /// else the one at the top) stays where it was on screen, and, unless a card is being
    /// dragged, the selection goes to that lane's first card on the new page.
    mutating func flipLanePage(_ delta: Int, grid before: LaneGrid) {
        let l = layout
        let target = min(max(0, l.page + delta), l.pageCount - 1)
        guard target != l.page else { return }
        let area = before.layout.area
        let onScreen = { (k: Int) -> Bool in
            let b = before.layout.bands[k]
            return b.header.height > 0 || b.body.height > 0
        }
        var k = before.layout.bands.firstIndex { $0.top + $0.height > before.layout.scroll } ?? 0
        if let sel = selection, let cp = before.cellPath(sel),
            let s = before.lanes.firstIndex(of: cp.section / max(1, before.columnCount)), onScreen(s),
            before.cell(section: cp.section).map({ area.intersects($0.frameOfItem(at: cp.item)) }) ?? false
        {
            k = s
        }
        let lane = before.lanes.isEmpty ? 0 : before.lanes[k]
        let top = before.lanes.isEmpty ? 0 : before.top(ofBand: k), scroll = before.layout.scroll
        page = target
        refreshLayout()
        if let after = layout.lanes, let k2 = after.lanes.firstIndex(of: lane) {
            let top2 = after.top(ofBand: k2)
            let want =
                top >= scroll
                ? max(0, top2 - (top - scroll))
                : top2 + min(scroll - top, after.exactHeight(ofBand: k2) - 1)
            if want != after.layout.scroll { laneView.scroll = want; refreshLayout() }
        }
        if !coordinator.isDragging, let grid = layout.lanes {
            let collapsed = isCollapsed(lane, in: grid)
            let column = grid.visibleColumns.first {
                !collapsed && grid.placement.indices.contains(lane) && !grid.placement[lane][$0.section].isEmpty
            }
            if let c = column {
                selection = ItemPath(section: c.section, item: grid.placement[lane][c.section][0])
            } else if let first = grid.visibleColumns.first {
                selection = ItemPath(
                    section: first.section, item: laneSequence(column: first.section, grid: grid).first ?? -1)
            }
            // Only what the new selection needs: the lane stays put when its card is already on screen.
            ensureSelectionVisible()
        }
        status = "Page \(page + 1) of \(layout.pageCount)"
        reading.pageWordsShown = coordinator.isDragging
    }
}
