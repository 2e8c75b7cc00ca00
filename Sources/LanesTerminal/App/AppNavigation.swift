import DragKit
import LanesCore

/// Selection (the board's keys' own, see `BoardKeys`), keyboard drags, pages and scrolling.
extension BoardApp: CardRows {
    mutating func clampSelection() { keys.clamp(to: board) }

    mutating func selectColumn(delta: Int) {
        let rows = self
        var keys = self.keys
        let outcome = keys.selectColumn(delta: delta, on: board, rows: rows)
        self.keys = keys
        _ = carryOut(outcome, now: 0)
    }

    mutating func selectCard(delta: Int = 0, absolute: Int? = nil) {
        let board = self.board
        _ = carryOut(keys.selectCard(delta: delta, absolute: absolute, on: board, filter: filtering), now: 0)
    }

    /// A column's geometry, from the page that shows it (not necessarily the visible one).
    func geometry(of section: Int) -> ColumnDraggable? {
        if let c = layout.column(section: section) { return c }
        let other = ScreenLayout(
            board: board, size: size, page: layout.page(of: section), scroll: scroll, cache: cache,
            anchor: viewport.anchor)
        return other.column(section: section)
    }

    func row(of path: ItemPath) -> Int { rowOf(path) }

    /// The screen row of a card (its top), for keeping the row when changing columns.
    func rowOf(_ path: ItemPath) -> Int {
        guard let c = geometry(of: path.section), path.item >= 0, path.item < c.itemCount else { return 0 }
        return c.frameOfItem(at: path.item).minY
    }

    /// The row of the boundary above gap `gap` of a column (below its last card for the end).
    func rowOfGap(_ gap: Int, in section: Int) -> Int {
        guard let c = geometry(of: section) else { return 0 }
        if gap < c.itemCount { return c.frameOfItem(at: gap).minY }
        return c.itemCount > 0 ? c.frameOfItem(at: c.itemCount - 1).maxY : c.viewport.minY
    }

    /// Where a card arriving sideways at a screen row lands: before the first card that ends
    /// below that row, or at the end (clamped to the column's length).
    func insertionIndex(in section: Int, atRow row: Int) -> Int {
        let count = board.columns[section].cards.count
        guard let c = geometry(of: section) else { return count }
        return min(c.firstItem(endingBelow: row), count)
    }

    mutating func liftedMove(dx: Int = 0, dy: Int = 0, toIndex: Int? = nil) {
        guard let s = coordinator.session else { return }
        let t =
            s.hover.target
            ?? DropTarget(section: s.current.section, index: s.current.item, gap: s.current.item, anchor: nil)
        var section = t.section
        var index = t.index
        if let toIndex { index = toIndex }
        index += dy
        if dy < 0 && t.index == 0 && toIndex == nil { return }
        if dx != 0 {
            // The neighbouring column that accepts, at the index nearest the card's row.
            var next = section + dx
            var why: String?
            let row = rowOfGap(t.gap, in: t.section)
            while board.columns.indices.contains(next) {
                showSection(next)
                let idx = insertionIndex(in: next, atRow: row)
                let verdict = coordinator.verdict(toSection: next, index: idx, dataSource: document)
                if verdict?.target != nil {
                    section = next
                    index = idx
                    break
                }
                why = why ?? verdict?.refusal
                next += dx
            }
            guard board.columns.indices.contains(next) else {
                showSection(t.section)
                status = "No column that way takes the card" + (why.map { " (\(DisplayText.safe($0)))" } ?? "")
                return
            }
        }
        showSection(section)
        apply(coordinator.moveLifted(toSection: section, index: index, dataSource: document), now: 0)
        selection = ItemPath(section: section, item: min(index, board.columns[section].cards.count))
        ensureRowVisible(section: section, gap: coordinator.session?.hover.target?.gap ?? index)
    }

    /// The column a resize keeps on screen: the one a mouse drag is over (else the one it
    /// started from), or the selected one.
    var keptSection: Int? {
        if let s = coordinator.session, !s.isKeyboard { return s.hover.section ?? s.current.section }
        return selection?.section
    }

    /// Takes a new terminal size: the pages are DragKit's transform of the current ones, keeping
    /// `keptSection` in the equivalent area where the new pages have one, and on screen always.
    /// The anchor stays until the next resize, so later layouts at this size keep the same page breaks.
    mutating func transformLayout(to newSize: Size) {
        let old = layout
        size = newSize
        guard let kept = keptSection, board.columns.indices.contains(kept) else {
            viewport.anchor = nil
            return
        }
        (viewport.anchor, page) = old.transformed(to: newSize, keeping: kept)
        // When every column fits on one page again, the canonical layout comes back (no shifted breaks).
        if ScreenLayout(board: board, size: newSize, page: 0, scroll: scroll, cache: cache, compact: reading.compact)
            .pageCount == 1
        {
            viewport.anchor = nil
            page = 0
        }
    }

    mutating func flipPage(_ delta: Int) {
        if let grid = layout.lanes { flipLanePage(delta, grid: grid); return }  // #26: the lanes stay put
        let l = layout
        let target = min(max(0, l.page + delta), l.pageCount - 1)
        guard target != l.page else { return }
        page = target
        refreshLayout()
        if !coordinator.isDragging, let first = layout.columns.first {
            selection = ItemPath(section: first.section, item: first.itemCount > 0 ? 0 : -1)
        }
        status = "Page \(page + 1) of \(layout.pageCount)"
        reading.pageWordsShown = coordinator.isDragging
    }

    /// Flips to the page showing a section.
    mutating func showSection(_ section: Int) {
        let l = layout
        guard !l.visibleSections.contains(section), section >= 0, section < board.columns.count else { return }
        page = l.page(of: section)
        refreshLayout()
    }

    mutating func ensureSelectionVisible() {
        guard let sel = selection, sel.item >= 0 else { return }
        if let grid = layout.lanes { carryOut(laneView.reveal(sel, in: grid)); return }
        ensureRowVisible(section: sel.section, gap: sel.item)
    }

    /// Scrolls a column so the card at `gap` (or the end) is inside its viewport.
    mutating func ensureRowVisible(section: Int, gap: Int) {
        guard let c = layout.column(section: section), c.itemCount > 0 else { return }
        let i = min(max(0, gap), c.itemCount - 1)
        let top = c.metrics.tops[i]
        let bottom = c.metrics.tops[i + 1]
        var s = c.scroll
        if top < s { s = top }
        if bottom > s + c.viewport.height { s = bottom - c.viewport.height }
        if s != c.scroll {
            scroll[section] = s
            refreshLayout()
        }
    }
}
