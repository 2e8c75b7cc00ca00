import DragKit
import LanesCore

/// The lane view in the app: its mode's steps carried out, and drags through the lane cells.
///
/// The drag engine works in cell terms there (`LaneDropSource`); its events are read back into
/// board paths (`LaneGrid.boardEvent`) before the app's own drag handling sees them.
extension BoardApp {
    /// Whether the board is shown in lanes now.
    public var showsLanes: Bool { layout.lanes != nil }

    /// What the lane view reads of the app.
    var laneContext: LaneViewMode.Context {
        LaneViewMode.Context(
            board: board, grid: layout.lanes, selection: selection, filter: filter, placement: cache.lanePlacement)
    }

    /// Carries out the lane view's steps in order.
    mutating func carryOut(_ steps: [LaneViewMode.Step]) {
        for step in steps {
            switch step {
            case .say(let words): status = words
            case .layOut: refreshLayout()
            case .select(let path): selection = path
            case .showColumn(let section): showSection(section)
            case .reveal: ensureSelectionVisible()
            case .selectCard(let delta): selectCard(delta: delta)
            case .selectColumn(let delta): selectColumn(delta: delta)
            case .send(let edit, let then): if send(edit) != nil { carryOut(then) }
            case .expand(let lane): carryOut(laneView.expanded(lane, in: layout.lanes, on: board))
            case .announce(let id, let lane, let place):
                carryOut(LaneViewMode.moved(id, lane: lane, place: place, on: board, grid: layout.lanes))
            }
        }
    }

    // MARK: Drags in lanes

    /// The drag engine's data source for the current layout.
    func laneSource(_ grid: LaneGrid) -> LaneDropSource { LaneDropSource(document: document, grid: grid) }

    /// Pointer input through the lane cells.
    mutating func feedLanes(_ input: PointerInput, grid: LaneGrid, now: Double) {
        coordinator.selectedItems = Set(marked.map(ItemID.init))
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
        let board = self.board
        let translated = events.compactMap { grid.boardEvent($0, board: board) }
        apply(translated, now: now, rendered: true)
        // A move to another lane at the same place in the column reads as a no-op to `apply`.
        let sameSpot = translated.contains { if case .dropped(let d) = $0 { d.isNoOp } else { false } }
        if sameSpot, let before, self.board != before { changed() }
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
        let shown = grid.lanes.filter { !LaneViewMode.isCollapsed($0, in: grid) }
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
            carryOut(laneView.scroll(to: s, from: shown.layout.scroll))
        }
        guard let now = layout.lanes else { return }
        applyLaneEvents(
            coordinator.moveLifted(toSection: section, index: index, dataSource: laneSource(now)), grid: now, now: 0)
        if let k = now.lanes.firstIndex(of: section / columns), let cell = now.cell(section: section) {
            let row = index < cell.itemCount ? cell.body.metrics.tops[index] : cell.body.metrics.contentHeight
            let s = now.layout.scroll(toShow: now.top(ofBand: k), height: min(now.layout.area.height, row + 4))
            carryOut(laneView.scroll(to: s, from: now.layout.scroll))
        }
    }

    // MARK: Paging in lanes

    /// A page flip in lanes: the lane the eye was on stays where it was on screen
    /// (`LaneViewMode.PageAnchor`), and, unless a card is being dragged, the selection goes to
    /// that lane's first card on the new page.
    mutating func flipLanePage(_ delta: Int, grid before: LaneGrid) {
        let l = layout
        let target = min(max(0, l.page + delta), l.pageCount - 1)
        guard target != l.page else { return }
        let anchor = LaneViewMode.PageAnchor(before, selection: selection)
        page = target
        refreshLayout()
        if let after = layout.lanes, let want = anchor.scroll(in: after) {
            carryOut(laneView.scroll(to: want, from: after.layout.scroll))
        }
        if !coordinator.isDragging, let grid = layout.lanes {
            if let first = anchor.firstCard(in: grid) { selection = first }
            // Only what the new selection needs: the lane stays put when its card is already on screen.
            ensureSelectionVisible()
        }
        status = "Page \(page + 1) of \(layout.pageCount)"
        reading.pageWordsShown = coordinator.isDragging
    }
}
