import DragKit
import LanesCore

/// The swimlane view the app holds: shown or not this session, the collapsed lanes, the lanes'
/// scroll; and what its keys and lane headers ask for.
///
/// The app's selection stays a board path (column, index in the column); the mode reads it
/// against the grid the layout made from `state` and answers with steps the app carries out in
/// order. A drag in lanes is the app's (`AppLanes.swift`): the engine works in cell terms there.
struct LaneViewMode: Equatable, Sendable {
    /// What the layout reads (`ScreenLayout(laneView:)`).
    var state = LaneViewState()

    /// One thing the app does for the lane view, in the order given.
    enum Step: Equatable, Sendable {
        case say(String)
        /// `state` changed: the board is laid out again.
        case layOut
        case select(ItemPath)
        /// Turn to the page that shows this column.
        case showColumn(Int)
        /// Scroll so the selection is on screen.
        case reveal
        /// Up or down as in plain columns (the board's own keys).
        case selectCard(delta: Int)
        /// Left or right as in plain columns.
        case selectColumn(delta: Int)
        /// One edit through the door; `then` only when the door applies it.
        case send(BoardEdit, then: [Step])
        /// Expand this lane if the new layout shows it collapsed (`expanded(_:in:on:)`).
        case expand(lane: Int)
        /// A `K`/`J` move was applied: select the card and say where it went (`moved(_:lane:place:on:grid:)`).
        case announce(CardID, lane: String, place: Int)
    }

    /// What the mode reads of the app.
    struct Context {
        var board: Board
        /// The lanes shown (nil: columns only).
        var grid: LaneGrid?
        var selection: ItemPath?
        var filter = ""
        /// Where each card's lane is, per column (`LayoutCache.lanePlacement`).
        var placement: LanePlacementCache

        /// The selection when it is a card.
        var card: ItemPath? { selection.flatMap { board.item(at: $0) != nil ? $0 : nil } }
    }

    static let noSwimlanes = "This board has no swimlanes (lanes swimlanes BOARD --tag TAG … sets them)"

    /// The auto-scroller's id for the lanes' vertical scroll (columns use their index).
    static let scrollerID = -2

    // MARK: Keys

    /// `S` `{` `}` `Z`.
    mutating func take(_ action: Action, _ c: Context) -> [Step] {
        switch action {
        case .toggleLanes: return toggleShown(on: c.board)
        case .moveLaneUp: return moveToLane(delta: -1, c)
        case .moveLaneDown: return moveToLane(delta: 1, c)
        case .collapseLane:
            guard let grid = c.grid else {
                return [
                    .say(
                        c.board.acceptRules.swimlanes == nil
                            ? "This board has no swimlanes" : "Swimlanes are off (S shows them)")
                ]
            }
            let lane =
                c.selection.flatMap(grid.cellPath).map { $0.section / max(1, grid.columnCount) }
                ?? grid.lanes.first ?? 0
            return toggleCollapse(lane: lane, on: c.board) + [.reveal]
        default: return []
        }
    }

    /// `S`: lanes on or off for this session.
    mutating func toggleShown(on board: Board) -> [Step] {
        guard board.acceptRules.swimlanes != nil else { return [.say(Self.noSwimlanes)] }
        state.enabled.toggle()
        return [
            .layOut, .reveal, .say(state.enabled ? "Swimlanes shown (S: columns only)" : "Columns only (S: swimlanes)"),
        ]
    }

    /// Collapses or expands a lane (by its index; the count is "No lane").
    mutating func toggleCollapse(lane: Int, on board: Board) -> [Step] {
        guard let lanes = board.acceptRules.swimlanes else { return [] }
        let key = LaneViewState.key(lanes, lane)
        let name = lane < lanes.count ? "#" + lanes.tags[lane] : "No lane"
        if state.collapsed.remove(key) == nil {
            state.collapsed.insert(key)
            return [.say("Lane \(name) collapsed"), .layOut]
        }
        return [.say("Lane \(name) expanded"), .layOut]
    }

    /// Expands `lane` when `grid` shows it collapsed.
    mutating func expanded(_ lane: Int, in grid: LaneGrid?, on board: Board) -> [Step] {
        guard let grid, Self.isCollapsed(lane, in: grid) else { return [] }
        return toggleCollapse(lane: lane, on: board)
    }

    /// A press on a lane's header collapses or expands it; nil when `p` is on no lane's header.
    mutating func pressHeader(at p: Point, grid: LaneGrid?, on board: Board) -> [Step]? {
        guard let grid, let k = grid.layout.lane(headerAt: p) else { return nil }
        return toggleCollapse(lane: grid.lanes[k], on: board)
    }

    /// Scrolls the lanes by `rows`.
    mutating func scroll(by rows: Int) -> [Step] {
        state.scroll = max(0, state.scroll + rows)
        return [.layOut]
    }

    /// Scrolls so the selected card (or its lane's header) is on screen.
    mutating func reveal(_ selection: ItemPath?, in grid: LaneGrid) -> [Step] {
        guard let sel = selection, sel.item >= 0, let cp = grid.cellPath(sel),
            let k = grid.lanes.firstIndex(of: cp.section / max(1, grid.columnCount))
        else { return [] }
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
        guard s != grid.layout.scroll else { return [] }
        state.scroll = s
        return [.layOut]
    }

    /// Scrolls to `scroll` (from `current`, what the grid shows).
    mutating func scroll(to scroll: Int, from current: Int) -> [Step] {
        guard scroll != current else { return [] }
        state.scroll = scroll
        return [.layOut]
    }

    // MARK: Selection

    /// Up and down: the next card on screen in the column, across lane boundaries (with a
    /// filter on, the next matching one).
    func selectCard(delta: Int, _ c: Context) -> [Step] {
        guard let grid = c.grid, let sel = c.selection, c.board.columns.indices.contains(sel.section) else {
            return [.selectCard(delta: delta)]
        }
        var seq = Self.sequence(column: sel.section, grid: grid)
        if !c.filter.isEmpty {
            let cards = c.board.columns[sel.section].cards
            let matching = seq.filter { CardFilter.matches(cards[$0], c.filter) || $0 == sel.item }
            if matching.count > 1 || seq.isEmpty { seq = matching }
        }
        guard !seq.isEmpty else { return [] }
        let next = seq.firstIndex(of: sel.item).map { min(max(0, $0 + delta), seq.count - 1) } ?? 0
        return [.select(ItemPath(section: sel.section, item: seq[next])), .reveal]
    }

    /// Left and right: the same lane of the next column (its card at the same place, or the
    /// nearest), else that column's first card on screen.
    func selectColumn(delta: Int, _ c: Context) -> [Step] {
        guard let grid = c.grid, let sel = c.selection else { return [.selectColumn(delta: delta)] }
        let s = min(max(0, sel.section + delta), c.board.columns.count - 1)
        guard s != sel.section else { return [] }
        let cp = grid.cellPath(sel)
        let lane = cp.map { $0.section / max(1, grid.columnCount) }
        var item = -1
        if let lane, let cp, !grid.placement[lane][s].isEmpty, !Self.isCollapsed(lane, in: grid) {
            item = grid.placement[lane][s][min(cp.item, grid.placement[lane][s].count - 1)]
        } else if let first = Self.sequence(column: s, grid: grid).first {
            item = first
        }
        return [.select(ItemPath(section: s, item: item)), .showColumn(s), .reveal]
    }

    // MARK: Moves

    /// `{` / `}`: the selected card to the lane above or below, in the same column: at the
    /// bottom of the lane above, at the top of the lane below. One edit through the door.
    func moveToLane(delta: Int, _ c: Context) -> [Step] {
        let board = c.board
        guard let lanes = board.acceptRules.swimlanes else { return [.say(Self.noSwimlanes)] }
        guard let sel = c.card else { return [.say("No card selected")] }
        let card = board[sel]
        let current = lanes.placement(of: card).lane ?? lanes.count
        let target = current + delta
        guard (0...lanes.count).contains(target) else {
            return [.say(delta < 0 ? "Already in the top lane" : "Already in \"No lane\", the last")]
        }
        let cards = board.columns[sel.section].cards
        let cell = c.placement.lanes(of: board, lanes)[sel.section].indices[target]
        var slot: CardSlot = .index(sel.item)
        if delta < 0, let last = cell.last { slot = .after(cards[last].id, orIndex: last + 1) }
        if delta > 0, let first = cell.first { slot = .before(cards[first].id, orIndex: first) }
        let tag: String? = target < lanes.count ? lanes.tags[target] : nil
        return [
            .send(
                .moveCardsToLane([card.id], to: board.columns[sel.section].id, at: slot, lane: tag),
                then: [.expand(lane: target), .reveal])
        ]
    }

    /// `K` / `J`: the card one place up or down among the cards of its own lane in its column
    /// (its cell), before or after its neighbour there; one edit through the door. nil when no
    /// card in a lane cell is selected (the board's own keys take it then).
    func quickMove(dy: Int, _ c: Context) -> [Step]? {
        guard let grid = c.grid, let sel = c.card, let cp = grid.cellPath(sel) else { return nil }
        let lane = cp.section / max(1, grid.columnCount)
        let name = grid.name(lane: lane)
        let cell = grid.placement[lane][sel.section]
        let k = cp.item + dy
        guard cell.indices.contains(k) else {
            return [
                .say(
                    (dy < 0 ? "Already the first card of lane " : "Already the last card of lane ")
                        + DisplayText.safe(name) + " here")
            ]
        }
        let cards = c.board.columns[sel.section].cards
        let card = cards[sel.item], neighbour = cards[cell[k]]
        // The neighbour's index once the card is out of the column is `cell[k]` above it and `cell[k] - 1` below it.
        let slot: CardSlot = dy < 0 ? .before(neighbour.id, orIndex: cell[k]) : .after(neighbour.id, orIndex: cell[k])
        return [
            .send(
                .moveCards([card.id], to: c.board.columns[sel.section].id, at: slot),
                then: [.announce(card.id, lane: name, place: k + 1)])
        ]
    }

    /// After a `K`/`J` move: the card selected, where it went said (its place in its cell as
    /// `grid` shows it, else `place`), and the selection shown.
    static func moved(_ id: CardID, lane: String, place: Int, on board: Board, grid: LaneGrid?) -> [Step] {
        guard let now = board.indexPath(for: id) else { return [] }
        let place = grid.flatMap { $0.cellPath(now) }.map { $0.item + 1 } ?? place
        let words =
            "Moved “\(DisplayText.truncate(DisplayText.safe(board[now].title), to: 30))” to position \(place) of lane "
            + "\(DisplayText.safe(lane)) in \(DisplayText.safe(board.columns[now.section].title))"
        return [.select(now), .say(words), .reveal]
    }

    // MARK: Pages

    /// What a page flip in lanes keeps: the lane the eye was on (the selected card's when that
    /// card is on screen, else the first lane showing at the top) and where it was on screen.
    struct PageAnchor: Equatable, Sendable {
        var lane: Int
        /// The lane's first content row, and the lanes' scroll, before the flip.
        var top: Int, scroll: Int

        init(lane: Int, top: Int, scroll: Int) {
            self.lane = lane
            self.top = top
            self.scroll = scroll
        }

        init(_ before: LaneGrid, selection: ItemPath?) {
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
            lane = before.lanes.isEmpty ? 0 : before.lanes[k]
            top = before.lanes.isEmpty ? 0 : before.top(ofBand: k)
            scroll = before.layout.scroll
        }

        /// The lanes' scroll on the new page that keeps the lane where it was on screen (its
        /// header at the same row, or as far into the lane as before); nil when the lane is not shown.
        func scroll(in after: LaneGrid) -> Int? {
            guard let k = after.lanes.firstIndex(of: lane) else { return nil }
            let top2 = after.top(ofBand: k)
            return top >= scroll
                ? max(0, top2 - (top - scroll))
                : top2 + min(scroll - top, after.exactHeight(ofBand: k) - 1)
        }

        /// The selection on the new page: the lane's first card in the first column shown that
        /// has one there, else the first column's first card on screen (or the column itself).
        func firstCard(in grid: LaneGrid) -> ItemPath? {
            let collapsed = LaneViewMode.isCollapsed(lane, in: grid)
            let column = grid.visibleColumns.first {
                !collapsed && grid.placement.indices.contains(lane) && !grid.placement[lane][$0.section].isEmpty
            }
            if let c = column { return ItemPath(section: c.section, item: grid.placement[lane][c.section][0]) }
            guard let first = grid.visibleColumns.first else { return nil }
            return ItemPath(
                section: first.section, item: LaneViewMode.sequence(column: first.section, grid: grid).first ?? -1)
        }
    }

    // MARK: Reading the grid

    /// Whether a lane shown in `grid` is collapsed.
    static func isCollapsed(_ lane: Int, in grid: LaneGrid) -> Bool {
        grid.lanes.firstIndex(of: lane).map { grid.layout.bands[$0].collapsed } ?? false
    }

    /// The cards of a column as the lane view shows them, top to bottom (collapsed lanes left out).
    static func sequence(column: Int, grid: LaneGrid) -> [Int] {
        grid.lanes.filter { !isCollapsed($0, in: grid) }.flatMap { grid.placement[$0][column] }
    }

    /// The edges during a pointer drag in lanes: the lanes scroll as one, vertically.
    static func scrollers(_ grid: LaneGrid) -> [Scrollable] {
        let l = grid.layout
        return [Scrollable(id: scrollerID, viewport: l.area, contentLength: l.contentHeight, offset: l.scroll)]
    }

    /// Where the card at a board path is drawn (nil: not laid out on this page).
    static func cardFrame(of item: ItemPath, in grid: LaneGrid) -> Rect? {
        guard let cp = grid.cellPath(item), let cell = grid.cell(section: cp.section), cp.item < cell.itemCount else {
            return nil
        }
        return cell.frameOfItem(at: cp.item)
    }
}
