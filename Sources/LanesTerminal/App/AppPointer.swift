import DragKit
import LanesCore

/// The pointer on the board: clicks, wheel, marks by click, and the drag engine's events.
extension BoardApp {
    mutating func handleMouse(_ m: MouseEvent, now: Double) -> [AppEffect] {
        switch mode {
        case .normal: break
        case .help(var help):
            if help.handle(m, keymap: keymap, size: size) == .close { mode = .normal } else { mode = .help(help) }
            return []
        case .detail(let detail): return detailMouse(m, detail)
        case .metrics(var screen):
            if screen.handle(m) == .close { mode = .normal } else { mode = .metrics(screen) }
            return []
        case .messages(var list):
            mode = list.handle(m, keymap: keymap, size: size, log: messages) == .close ? .normal : .messages(list)
            return []
        case .prompt, .confirm: return []
        }
        if let s = coordinator.session, s.isKeyboard {
            apply(coordinator.cancel(reason: .requested), now: now)
        }
        if m.kind == .motion, drag.isPointerDrag {
            // A motion with no button held during a drag (any-motion reporting is on while one is up):
            // the button went up where the terminal did not report it (kitty, outside its window).
            endDragReleasedElsewhere(because: "Released outside the window", now: now)
            return []
        }
        let (markTook, markWords) = marks.take(m, card: markTarget(m), dragging: coordinator.isDragging)
        if markTook {
            if let markWords { status = markWords }
            return []
        }
        switch m.kind {
        case .wheelUp, .wheelDown:
            let delta = m.kind == .wheelUp ? -3 : 3
            if showsLanes { carryOut(laneView.scroll(by: delta)); return [] }
            if let c = layout.columns.first(where: { $0.frame.contains(m.location) }),
                board.columns.indices.contains(c.section)
            {
                viewport.scroll(section: c.section, by: delta, of: board)
                refreshLayout()
            }
            return []
        case .press where m.button == .left:
            if !coordinator.isDragging, BoardView.helpButton(layout: layout).contains(m.location) {
                openHelp(); return []
            }
            if !coordinator.isDragging, let arrows = BoardView.pageArrows(layout: layout) {
                if arrows.previous.contains(m.location) { flipPage(-1); return [] }
                if arrows.next.contains(m.location) { flipPage(1); return [] }
            }
            if !coordinator.isDragging {
                let grid = layout.lanes, board = self.board
                if let steps = laneView.pressHeader(at: m.location, grid: grid, on: board) {
                    carryOut(steps)
                    return []
                }
            }
            feed(PointerInput(.press, m.location, at: now), now: now)
        case .drag where m.button == .left || m.button == .none:
            feed(PointerInput(.move, m.location, at: now), now: now)
            trackEdges(m.location, now: now)
        case .release:
            feed(PointerInput(.release, m.location, at: now), now: now)
            drag.stopEdges()
        default:
            break
        }
        return []
    }

    /// The card under a press that may mark it (alt- or ctrl-click), which the press also selects.
    mutating func markTarget(_ m: MouseEvent) -> CardID? {
        guard m.kind == .press, m.button == .left, !coordinator.isDragging,
            m.modifiers.contains(.alt) || m.modifiers.contains(.ctrl),
            let hit = coordinator.hitTest(m.location), hit.section >= 0,
            let p = layout.lanes.map({ $0.boardPath(hit) }) ?? hit, let card = board.item(at: p)
        else { return nil }  // lanes: a cell path (#26)
        selection = p
        return card.id
    }

    /// Whether any-motion reporting (mode 1003) should be on: only while the pointer drags,
    /// so a terminal that loses the release (kitty, outside its window) still reports the
    /// pointer coming back without a button, and that ends the drag.
    public var wantsAllMotion: Bool { drag.isPointerDrag }

    /// Ends a pointer drag whose release the terminal never reported, as a release where
    /// nothing takes the card: it snaps back, the board is unchanged, and the status says why.
    /// Goes through the drag engine's own cancel, like Esc.
    mutating func endDragReleasedElsewhere(because why: String, now: Double) {
        let (events, words) = drag.endReleasedElsewhere(because: why, board: board, now: now)
        apply(events, now: now, rendered: true)
        if let words { status = words; reading.pageWordsShown = false }
    }

    /// Whether `p` is on the mark box of the card at `item`: the top-left of its top border,
    /// where a marked card shows ● (in the compact view, the row's first cell).
    func onMarkBox(_ p: Point, of item: ItemPath) -> Bool {
        let f: Rect
        if let grid = layout.lanes {  // #26: the card's frame in its lane's cell
            guard let frame = LaneViewMode.cardFrame(of: item, in: grid) else { return false }
            f = frame
        } else {
            guard let c = layout.columns.first(where: { $0.section == item.section }), item.item < c.itemCount else {
                return false
            }
            f = c.frameOfItem(at: item.item)
        }
        guard p.y == f.minY else { return false }
        return reading.compact ? p.x == f.minX : p.x >= f.minX + 1 && p.x <= f.minX + 3
    }

    mutating func feed(_ input: PointerInput, now: Double) {
        if let grid = layout.lanes { feedLanes(input, grid: grid, now: now); return }
        coordinator.selectedItems = Set(marks.ids.map(ItemID.init))
        let events = drag.coordinator.handle(input, dataSource: &document)
        apply(events, now: now)
    }

    /// Routes coordinator events to the renderer (unless the drag session already did:
    /// `rendered`) and to the app's own state.
    mutating func apply(_ events: [DragEvent], now: Double, rendered: Bool = false) {
        for e in events {
            if !rendered, let words = drag.take([e], board: board, now: now) {
                status = words; reading.pageWordsShown = false
            } else if case .moved(_, let hover) = e, reading.pageWordsShown, hover != .none {
                // A page flip's words give way to where the card would land once the pointer is over a column again.
                status = renderer.describe(hover: hover, board: board)
                reading.pageWordsShown = false
            }
            switch e {
            case .tapped(_, let item?) where item.section == BoardDraggable.section:
                // A click on a column's header selects the column.
                if board.columns.indices.contains(item.item) {
                    selection = ItemPath(section: item.item, item: board.columns[item.item].cards.isEmpty ? -1 : 0)
                }
            case .tapped(let p, let item?) where item.section >= 0 && onMarkBox(p, of: item):
                // A click on the mark box marks the card: marking that needs no modifier key.
                if let card = board.item(at: item) { status = marks.toggle(card.id) }
                selection = item
            case .tapped(let p, let item):
                if let item, item == selection, case .normal = mode {
                    openDetail(at: item)
                } else if let item {
                    selection = item
                } else if let c = layout.columns.first(where: { $0.frame.contains(p) }) {
                    selection = ItemPath(
                        section: c.section,
                        item: c.itemCount > 0 ? min(max(0, selection?.item ?? 0), c.itemCount - 1) : -1)
                }
            case .began(let s):
                if s.kind == .item { selection = s.source }
            case .dropped(let d) where d.to.section == BoardDraggable.section:
                if !d.isNoOp {
                    let row =
                        selection?.section == d.from.item
                        ? selection?.item ?? -1 : (board.columns[d.to.item].cards.isEmpty ? -1 : 0)
                    selection = ItemPath(section: d.to.item, item: row)
                    changed()
                }
            case .dropped(let d):
                selection = d.to
                if !d.isNoOp { changed() }
            case .dropRefused(let item, let source, _, _):
                // The door refused the drop: the card stays where it was; the renderer's words say why.
                if let p = board.indexPath(for: CardID(item)) {
                    selection = p
                } else if source.section >= 0 {
                    selection = source
                }
            case .endedOutside(_, let source, _), .cancelled(_, let source, _):
                if source.section >= 0, board.item(at: source) != nil { selection = source }
            default:
                break
            }
        }
    }

    /// After every change to the board: a new revision (the runner saves), marks follow the cards.
    mutating func changed() {
        revision += 1
        marks.prune(to: board)
        refreshLayout()
        ensureSelectionVisible()
    }
}
