import DragKit
import LanesCore

/// A card dragged between boards: first held over another board's tab (which opens that board
/// after `springDelay`, spring-loaded), then carried over the board it opened until released.
/// By keyboard: a card lifted with space is carried to the next board by ctrl-n/ctrl-p, placed
/// there with the arrows and dropped with space or enter.
struct BoardCarry {
    /// How long a card must be held over a tab before its board opens under it.
    static let springDelay = 0.6

    /// The tab the pointer holds a dragged card over, and since when.
    var hover: (tab: Int, since: Double)?
    /// Cards taken from board `from` and carried over another board, with the pointer (screen cells).
    var carried: (from: Int, cards: [CrossMove.Seen], location: Point)?

    /// Carried by keyboard: the place on the board shown (column index, row it goes before).
    var keyboard: (column: Int, row: Int)?

    var isActive: Bool { carried != nil }
    /// Carried by the pointer (which must be followed with every motion).
    var followsPointer: Bool { carried != nil && keyboard == nil }
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
        if carry.keyboard != nil { return [] }
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
            board.indexPath(for: CardID(id)).map {
                CrossMove.Seen(card: board[$0], column: board.columns[$0.section].title, row: $0.item)
            }
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
        let location =
            app.coordinator.session.map { Point(x: $0.location.x, y: $0.location.y + top) } ?? Point(x: 0, y: 0)
        let from = active
        let cards = takeDraggedCards(now: now)
        carry.hover = nil
        guard !cards.isEmpty else { return }
        carry.carried = (from, cards, location)
        show(h.tab)
        let what = cards.count == 1 ? "“\(DisplayText.safe(cards[0].card.title))”" : "\(cards.count) cards"
        boards[active].setStatus(
            "Carrying \(what) from \(tabs[from].name): release it where it belongs · esc brings it back")
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
                if let t = bar.tab(at: m.location.x, width: size.width), t != c.from,
                    let first = boards[t].board.columns.first
                {
                    return [.move(CrossMove(from: c.from, to: t, cards: c.cards, column: first.title, position: nil))]
                }
                return bringBack(c.from, c.cards, "Released outside a column")
            }
            let p = Point(x: m.location.x, y: m.location.y - top)
            guard let column = app.layout.columns.first(where: { $0.frame.contains(p) }),
                app.board.columns.indices.contains(column.section)
            else {
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
            return [
                .move(
                    CrossMove(
                        from: c.from, to: active, cards: c.cards, column: "\(column.section + 1)", position: position))
            ]
        default:
            return []
        }
    }

    mutating func carryKey(_ key: Key, _ mods: Modifiers, now: Double) -> [WorkspaceEffect] {
        guard let c = carry.carried else { return [] }
        if carry.keyboard != nil { return keyboardCarryKey(key, mods, c) }
        if key == .escape {
            carry.carried = nil
            return bringBack(c.from, c.cards, "Cancelled")
        }
        boards[active].setStatus("Release the card over a column of this board, or esc to bring it back")
        return []
    }

    // MARK: By keyboard

    /// The card lifted by keyboard on the board shown leaves it for the board `step` tabs on,
    /// carried there; nil when no card is lifted by keyboard (the key is the board's).
    mutating func carryLifted(_ step: Int, now: Double) -> [WorkspaceEffect]? {
        guard showsTabs, let session = app.coordinator.session, session.isKeyboard, session.start.source.section >= 0
        else { return nil }
        let from = active
        let cards = takeDraggedCards(now: now)
        guard !cards.isEmpty else { return [] }
        carry.carried = (from, cards, Point(x: 0, y: 0))
        carry.keyboard = (0, 0)
        return carryOn(step, c: carry.carried!)
    }

    /// The keyboard-carried cards to the board `step` tabs on from the one shown (back on their
    /// own board, they stay where they were).
    mutating func carryOn(_ step: Int, c: (from: Int, cards: [CrossMove.Seen], location: Point)) -> [WorkspaceEffect] {
        let next = ((active + step) % boards.count + boards.count) % boards.count
        if next == c.from {
            carry.carried = nil
            carry.keyboard = nil
            return bringBack(c.from, c.cards, "Back on its own board")
        }
        show(next)
        // Where the board's selection is, else the top of its first column.
        let sel = app.validSelection
        carry.keyboard = (sel?.section ?? 0, sel?.item ?? 0)
        placeKeyboardCarry()
        return []
    }

    /// Keys while a card is carried by keyboard: the arrows place it, space or enter drops it,
    /// ctrl-n/ctrl-p carry it on, esc brings it back.
    mutating func keyboardCarryKey(
        _ key: Key, _ mods: Modifiers, _ c: (from: Int, cards: [CrossMove.Seen], location: Point)
    ) -> [WorkspaceEffect] {
        guard var at = carry.keyboard else { return [] }
        let action = app.keymap.action(for: key, mods)
        if key == .escape || action == .cancel {
            carry.carried = nil
            carry.keyboard = nil
            return bringBack(c.from, c.cards, "Cancelled")
        }
        let columns = app.board.columns
        switch action {
        case .nextBoard?: return carryOn(1, c: c)
        case .previousBoard?: return carryOn(-1, c: c)
        case .left?, .moveLeft?: at.column = max(0, at.column - 1)
        case .right?, .moveRight?: at.column = min(max(0, columns.count - 1), at.column + 1)
        case .up?, .moveUp?: at.row -= 1
        case .down?, .moveDown?: at.row += 1
        case .first?: at.row = 0
        case .last?: at.row = Int.max
        case .lift?, .drop?:
            guard columns.indices.contains(at.column) else {
                carry.carried = nil
                carry.keyboard = nil
                return bringBack(c.from, c.cards, "\(tabs[active].name) has no column to take it")
            }
            if let why = keyboardCarryRefusal(at) {
                // As a refused drop snaps back, but the card stays carried: another column may take it.
                boards[active].setStatus("Refused: \(why) · choose another column, or esc brings it back")
                return []
            }
            carry.carried = nil
            carry.keyboard = nil
            let count = columns[at.column].cards.count
            // With a filter on, rows on screen are not the column's: then the end.
            let position = app.filter.isEmpty && at.row < count ? at.row + 1 : nil
            return [
                .move(
                    CrossMove(from: c.from, to: active, cards: c.cards, column: "\(at.column + 1)", position: position))
            ]
        default:
            boards[active].setStatus(
                "Carrying by keyboard: arrows choose the place, space drops it, ctrl-n/ctrl-p another board, esc brings it back"
            )
            return []
        }
        carry.keyboard = at
        placeKeyboardCarry()
        return []
    }

    /// Keeps the keyboard carry's place inside the board and puts the ghost and the words there.
    mutating func placeKeyboardCarry() {
        guard var at = carry.keyboard, var c = carry.carried else { return }
        let columns = app.board.columns
        at.column = columns.isEmpty ? 0 : min(max(0, at.column), columns.count - 1)
        let count = columns.isEmpty ? 0 : columns[at.column].cards.count
        at.row = min(max(0, at.row), count)
        carry.keyboard = at
        if let column = app.layout.columns.first(where: { $0.section == at.column }) {
            let y: Int
            if at.row < column.itemCount {
                y = column.frameOfItem(at: at.row).minY
            } else if column.itemCount > 0 {
                y = column.frameOfItem(at: column.itemCount - 1).maxY
            } else {
                y = column.frame.minY + 2
            }
            c.location = Point(x: column.frame.minX + 1, y: y + top)
            carry.carried = c
        }
        let what = c.cards.count == 1 ? "“\(DisplayText.safe(c.cards[0].card.title))”" : "\(c.cards.count) cards"
        let place = columns.isEmpty ? "no column" : "“\(DisplayText.safe(columns[at.column].title))” at \(at.row + 1)"
        let refused = keyboardCarryRefusal(at).map { " · refused here: \($0)" } ?? ""
        boards[active].setStatus(
            "Carrying \(what) from \(tabs[c.from].name) → \(place)\(refused) · space drops · ctrl-n/ctrl-p another board · esc brings it back"
        )
    }

    /// What the board shown's door says to the carried cards arriving at `at` (its WIP limit, its
    /// accept rule), asked as the move will ask it; nil when they may come.
    func keyboardCarryRefusal(_ at: (column: Int, row: Int)) -> String? {
        guard let c = carry.carried, app.board.columns.indices.contains(at.column) else { return nil }
        let edit = BoardEdit.receiveCards(
            c.cards.map(\.card), to: app.board.columns[at.column].id, position: nil,
            from: c.cards.map(\.column), board: tabs[active].name)
        do {
            _ = try app.board.applying(edit)
            return nil
        } catch {
            return DisplayText.safe(error.words)
        }
    }

    /// The carried cards stay where they were: their board is shown again, and the words say why.
    mutating func bringBack(_ from: Int, _ cards: [CrossMove.Seen], _ why: String) -> [WorkspaceEffect] {
        show(from)
        let what = cards.count == 1 ? "“\(DisplayText.safe(cards[0].card.title))” stays" : "\(cards.count) cards stay"
        boards[active].setStatus("\(why): \(what) on \(tabs[from].name)")
        return []
    }
}
