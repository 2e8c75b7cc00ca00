import DragKit
import LanesCore

/// A card dragged between boards: first held over another board's tab (which opens that board
/// after `springDelay`, spring-loaded), then carried over the board it opened until released.
struct BoardCarry {
    /// How long a card must be held over a tab before its board opens under it.
    static let springDelay = 0.6

    /// The tab the pointer holds a dragged card over, and since when.
    var hover: (tab: Int, since: Double)?
    /// Cards taken from board `from` and carried over another board, with the pointer (screen cells).
    var carried: (from: Int, cards: [CrossMove.Seen], location: Point)?

    var isActive: Bool { carried != nil }
    var hoveredTab: Int? { hover?.tab }
    var deadline: Double? { hover.map { $0.since + Self.springDelay } }

    /// A one-row ghost of the carried cards under the pointer.
    func drawGhost(into buf: inout CellBuffer) {
        guard let c = carried, let first = c.cards.first, buf.height > 0 else { return }
        let more = c.cards.count > 1 ? " +\(c.cards.count - 1)" : ""
        let text = " ▸ " + DisplayText.truncate(DisplayText.safe(first.card.title), to: 30) + more + " "
        let y = min(max(0, c.location.y), buf.height - 1)
        let x = max(0, min(c.location.x, buf.width - TextWidth.width(of: text)))
        buf.write(text, x: x, y: y, style: Style(bold: true, reverse: true), maxX: buf.width)
    }
}

/// The workspace's mouse: clicks on tabs, cards dragged onto a tab, and cards carried onto another board.
extension Workspace {
    /// Handles a mouse event the tab bar or a carried card takes; nil when the board shown takes it.
    mutating func mouse(_ m: MouseEvent, now: Double) -> [WorkspaceEffect]? {
        if carry.carried != nil { return carriedMouse(m, now: now) }
        let bar = TabBar(tabs: tabs, counts: boards.indices.map(cardCount), active: active)
        let tab = m.location.y == 0 ? bar.tab(at: m.location.x, width: size.width) : nil
        if app.drag.isPointerDrag, (app.coordinator.session?.start.source.section ?? -1) >= 0 {
            if let tab, tab != active {
                if m.kind == .release {
                    // Released on the tab itself: the end of that board's first column.
                    carry.hover = nil
                    let cards = takeDraggedCards(now: now)
                    guard !cards.isEmpty, let first = boards[tab].board.columns.first else {
                        boards[active].setStatus("\(tabs[tab].name) has no column to take the card; it stays here")
                        return []
                    }
                    return [.move(CrossMove(from: active, to: tab, cards: cards, column: first.title, position: nil))]
                }
                if carry.hover?.tab != tab { carry.hover = (tab, now) }
            } else {
                carry.hover = nil
            }
            let effects = forward(m, now: now)
            // Over the tab bar the card is aimed at a board, not at the top of a column: no auto-scroll.
            if m.location.y < top { boards[active].drag.stopEdges() }
            return effects
        }
        carry.hover = nil
        if m.location.y == 0 {
            if m.kind == .press, m.button == .left, let tab { show(tab) }
            return []
        }
        return forward(m, now: now)
    }

    /// The event to the board shown, in its own rows (below the tab bar).
    mutating func forward(_ m: MouseEvent, now: Double) -> [WorkspaceEffect] {
        var shifted = m
        shifted.location.y -= top
        return boards[active].handle(.mouse(shifted), now: now).map { .app($0) }
    }

    /// Ends the pointer drag on the board shown with its cards back in place, and returns them.
    mutating func takeDraggedCards(now: Double) -> [CrossMove.Seen] {
        guard let s = app.coordinator.session else { return [] }
        let ids = s.carriedIDs.isEmpty ? [s.start.item] : s.carriedIDs
        let board = app.board
        let cards = ids.compactMap { id in
            board.indexPath(for: id).map { CrossMove.Seen(card: board[$0], column: board.columns[$0.section].title, row: $0.item) }
        }
        boards[active].apply(boards[active].coordinator.cancel(reason: .requested), now: now)
        boards[active].drag.stopEdges()
        return cards
    }

    /// Opens the board under a card held over its tab long enough.
    mutating func springLoadIfDue(now: Double) {
        guard let h = carry.hover else { return }
        guard app.drag.isPointerDrag else { carry.hover = nil; return }
        guard now >= h.since + BoardCarry.springDelay, boards.indices.contains(h.tab) else { return }
        let location = app.coordinator.session.map { Point(x: $0.location.x, y: $0.location.y + top) } ?? Point(x: 0, y: 0)
        let from = active
        let cards = takeDraggedCards(now: now)
        carry.hover = nil
        guard !cards.isEmpty else { return }
        carry.carried = (from, cards, location)
        show(h.tab)
        let what = cards.count == 1 ? "“\(DisplayText.safe(cards[0].card.title))”" : "\(cards.count) cards"
        boards[active].setStatus("Carrying \(what) from \(tabs[from].name): release it where it belongs · esc brings it back")
    }

    mutating func carriedMouse(_ m: MouseEvent, now: Double) -> [WorkspaceEffect] {
        guard var c = carry.carried else { return [] }
        c.location = m.location
        carry.carried = c
        switch m.kind {
        case .motion:
            // Motion with no button held: the button went up where the terminal did not report it.
            carry.carried = nil
            return bringBack(c.from, c.cards, "Released outside the window")
        case .release:
            carry.carried = nil
            if m.location.y < top {
                let bar = TabBar(tabs: tabs, counts: boards.indices.map(cardCount), active: active)
                if let t = bar.tab(at: m.location.x, width: size.width), t != c.from, let first = boards[t].board.columns.first {
                    return [.move(CrossMove(from: c.from, to: t, cards: c.cards, column: first.title, position: nil))]
                }
                return bringBack(c.from, c.cards, "Released outside a column")
            }
            let p = Point(x: m.location.x, y: m.location.y - top)
            guard let column = app.layout.columns.first(where: { $0.frame.contains(p) }),
                  app.board.columns.indices.contains(column.section) else {
                return bringBack(c.from, c.cards, "Released outside a column")
            }
            if active == c.from { return bringBack(c.from, c.cards, "Back on its own board") }
            var row = column.itemCount
            for i in 0..<column.itemCount {
                let f = column.frameOfItem(at: i)
                if p.y < f.minY + (f.height + 1) / 2 { row = i; break }
            }
            // Rows on screen are cards of the column (the filter, when set, hides some: then the end).
            let count = app.board.columns[column.section].cards.count
            let position = app.filter.isEmpty && row < count ? row + 1 : nil
            return [.move(CrossMove(from: c.from, to: active, cards: c.cards, column: "\(column.section + 1)", position: position))]
        default:
            return []
        }
    }

    mutating func carryKey(_ key: Key, now: Double) -> [WorkspaceEffect] {
        guard let c = carry.carried else { return [] }
        if key == .escape {
            carry.carried = nil
            return bringBack(c.from, c.cards, "Cancelled")
        }
        boards[active].setStatus("Release the card over a column of this board, or esc to bring it back")
        return []
    }

    /// The carried cards stay where they were: their board is shown again, and the words say why.
    mutating func bringBack(_ from: Int, _ cards: [CrossMove.Seen], _ why: String) -> [WorkspaceEffect] {
        show(from)
        let what = cards.count == 1 ? "“\(DisplayText.safe(cards[0].card.title))” stays" : "\(cards.count) cards stay"
        boards[active].setStatus("\(why): \(what) on \(tabs[from].name)")
        return []
    }
}
