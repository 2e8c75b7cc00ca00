import DragKit
import LanesCore

/// What the app asks of the world outside it after handling input.
public enum AppEffect: Hashable, Sendable {
    case quit
    /// Ctrl-Z: hand the terminal back to the shell until `fg`.
    case suspend
    /// Edit a card in `$EDITOR`: the runner writes it out, runs the editor and calls `finishExternalEdit`.
    case editExternally(ItemID)
    /// After a failed save, at the quit question: try saving again, then quit if it works.
    case retrySaveAndQuit
    /// After a failed save: write the board to this file, then quit if it works.
    case saveCopyAndQuit(path: String)
    /// After a failed save: quit although the last changes are not stored.
    case quitDiscarding
}

/// The board app: state and behaviour, no I/O. Input events in, effects out; `render` draws a frame.
public struct BoardApp {
    enum Mode: Sendable {
        case normal
        case help(scroll: Int)
        case detail(CardDetail)
        case metrics(MetricsScreen)
        case prompt(Prompt, LineEditor)
        case confirm(Confirm)
    }

    /// What a prompt is for, by identity: the card or column on screen when it opened, so
    /// its answer still means that card or column after others changed the board.
    enum Prompt: Sendable {
        /// `index`: where the column stood, for the column that takes its place if it vanishes.
        case addCard(column: ColumnID, index: Int, slot: CardSlot)
        case editTitle(SeenCard)
        case addColumn(ColumnSlot)
        case renameColumn(ColumnID)
        case setLimit(ColumnID)
        case setAccepts(ColumnID)
        case setDue(SeenCard)
        case setTags(SeenCard)
        case filter
        case saveCopy

        var label: String {
            switch self {
            case .addCard: "New card: "
            case .editTitle: "Title: "
            case .addColumn: "New column: "
            case .renameColumn: "Column title: "
            case .setLimit: "WIP limit (empty for none): "
            case .setAccepts: "Accepts from (names, commas; empty = any): "
            case .setDue: "Due date (empty clears): "
            case .setTags: "Tags: "
            case .filter: "Filter: "
            case .saveCopy: "Save a copy to: "
            }
        }
    }

    enum Confirm: Sendable {
        /// The column and the cards the question named: another card there meanwhile refuses the deletion.
        case deleteColumn(ColumnID, seen: [ItemID])
        /// Quitting while the last changes are not stored; the words say why.
        case quitUnsaved(String)
    }

    public internal(set) var document: BoardDocument
    public var board: Board { document.board }
    public internal(set) var size: Size
    public internal(set) var page = 0
    /// Each column's scroll offset, by identity: a column inserted or deleted elsewhere moves no other column's.
    var scrollOffsets: [ColumnID: Int] = [:]
    /// The scroll offsets in board order (what the layout takes).
    public internal(set) var scroll: [Int] {
        get { board.columns.map { scrollOffsets[$0.id] ?? 0 } }
        set { for (i, c) in board.columns.enumerated() where i < newValue.count { scrollOffsets[c.id] = newValue[i] } }
    }
    public internal(set) var selection: ItemPath?
    public internal(set) var status: String
    public var title: String
    public var keymap: Keymap
    /// Bumped on every change to the board; the runner saves when it moves.
    public internal(set) var revision = 0
    /// The drag engine, renderer, auto-scroller and page dwell, as one value.
    public internal(set) var drag = DragSession()
    public internal(set) var coordinator: DragCoordinator {
        get { drag.coordinator }
        set { drag.coordinator = newValue }
    }
    public var renderer: DragRenderer { drag.renderer }
    public internal(set) var filter: String = ""
    /// The multi-selection (`v`, alt-click or ctrl-click, a click on a card's mark box): a drag of any of these cards carries all of them.
    public internal(set) var marked: Set<ItemID> = []
    /// An alt- or ctrl-press toggled a mark: its drags and release start nothing.
    var markingClick = false
    var mode: Mode = .normal
    let cache: LayoutCache
    /// The last frame's board layer, redrawn only when what it shows changes.
    let frames = FrameCache()
    /// Column that keyboard moves up/down aim at, so left/right keeps the row.
    var lastLayout: ScreenLayout?
    /// Set by a resize: shifts the page breaks so the kept column stays in its area (nil: canonical pages).
    var pageAnchor: LayoutAnchor<Int>?
    /// Where "save a copy" suggests writing when a save failed (the runner sets it).
    public var copySuggestion = ""
    /// Reading settings: compact cards, whether the file keeps done marks, where a prompt returns to.
    var reading = ReadingState()
    /// The board's history and flow metrics, read when `M` or a card's detail asks (see `wantsFlow`).
    var flow = FlowState()
    /// Swimlanes: shown or not this session, collapsed lanes, the lanes' scroll (see LaneViewMode).
    var laneView = LaneViewState()

    public init(board: Board, title: String, size: Size = Size(width: 80, height: 24), status: String = "", keymap: Keymap = Keymap(),
                metrics: LayoutMetrics = LayoutMetrics()) {
        document = BoardDocument(board: board)
        self.title = title
        self.size = size
        self.keymap = keymap
        cache = LayoutCache(metrics: metrics)
        self.status = status.isEmpty ? BoardApp.idleHint(keymap: keymap, filter: "") : status
        if board.columns.first.map({ !$0.cards.isEmpty }) == true { selection = ItemPath(section: 0, item: 0) }
        else if !board.columns.isEmpty { selection = ItemPath(section: 0, item: -1) }
        refreshLayout()
    }

    // MARK: Layout

    /// The layout for the current state.
    public var layout: ScreenLayout {
        if let l = lastLayout { return l }
        return makeLayout()
    }

    func makeLayout() -> ScreenLayout {
        ScreenLayout(board: board, size: size, page: page, scroll: scroll, cache: cache, anchor: pageAnchor, compact: reading.compact,
                     laneView: laneView)
    }

    /// Recomputes the layout and hands the new arena to the drag.
    mutating func refreshLayout() {
        let l = makeLayout()
        page = l.page
        // Store the clamped scroll offsets so wheel and keys start from what is shown.
        for c in l.columns where board.columns.indices.contains(c.section) { scrollOffsets[board.columns[c.section].id] = c.scroll }
        lastLayout = l
        if let grid = l.lanes {
            laneView.scroll = grid.layout.scroll
            let (events, words) = drag.layoutChanged(l.arena, dataSource: laneSource(grid), board: grid.cellBoard, now: 0)
            if let words { status = words }
            applyLaneEvents(events, grid: grid, now: 0, rendered: true)
            return
        }
        let (events, words) = drag.layoutChanged(l.arena, dataSource: document, board: board, now: 0)
        if let words { status = words }
        apply(events, now: 0, rendered: true)
    }

    /// Takes a board that replaced this one from outside (another writer's change, already
    /// merged; nothing is saved for it): a drag under way keeps its card in hand if the card
    /// still exists, re-resolved by identity, and is cancelled with words if it was deleted.
    public mutating func boardChanged(to newBoard: Board, now: Double) {
        document.board = newBoard
        pruneMarks()
        refreshLayout()
        if !coordinator.isDragging { clampSelection() }
        ensureSelectionVisible()
    }

    // MARK: Input

    /// Handles one decoded input event at time `now` (seconds).
    public mutating func handle(_ event: InputEvent, now: Double) -> [AppEffect] {
        switch event {
        case .mouse(let m): return handleMouse(m, now: now)
        case .key(let k, let mods): return handleKey(k, mods, now: now)
        case .paste(let text):
            if case .prompt(let p, var editor) = mode {
                mode = .normal  // the editor's text is then ours alone: changing it copies nothing
                editor.insert(text)
                mode = .prompt(p, editor)
            }
            return []
        case .focusOut where drag.isPointerDrag:
            // The button may go up in another window, where this terminal never hears of it.
            endDragReleasedElsewhere(because: "The window lost focus", now: now)
            return []
        case .focusIn, .focusOut:
            return []
        }
    }

    public mutating func resize(_ newSize: Size) {
        if let s = coordinator.session, s.isKeyboard {
            apply(coordinator.cancel(reason: .requested), now: 0)
        }
        transformLayout(to: newSize)
        refreshLayout()
        ensureSelectionVisible()
    }

    /// Advances animations, auto-scroll and the edge dwell.
    public mutating func tick(now: Double) {
        let (step, flip) = drag.tick(now: now)
        if let step, step.id == BoardApp.laneScrollerID {
            scrollLanes(by: step.rows)
            if let p = drag.edgePointer { trackEdges(p, now: now) }
        } else if let step, board.columns.indices.contains(step.id) {
            scrollOffsets[board.columns[step.id].id, default: 0] += step.rows
            refreshLayout()
            if let p = drag.edgePointer { trackEdges(p, now: now) }
        }
        if let flip { flipPage(flip == .next ? 1 : -1) }
    }

    /// When the app wants to run again without input (animations, auto-scroll, dwell).
    public func deadline(now: Double) -> Double? { drag.deadline(now: now) }

    /// Rows past a column's viewport the auto-scroller is told about: the content length it
    /// gets is exact only within this reach, so a long column is never measured card by card
    /// to its end. Each step it takes re-feeds it (`tick`), so the reach moves along.
    static let scrollReach = 64

    /// Tells the drag's edges where the pointer is and how far the columns under it go.
    mutating func trackEdges(_ p: Point, now: Double) {
        if let grid = layout.lanes {
            drag.pointerMoved(p, scrollers: laneScrollers(grid), board: layout.boardArea, pages: layout.pageCount, now: now)
            return
        }
        let scrollers = layout.columns
            .filter { p.x >= $0.frame.minX && p.x < $0.frame.maxX }
            .map { c -> Scrollable in
                let reach = c.scroll + c.viewport.height + Self.scrollReach
                let length = c.metrics.extends(beyond: reach) ? reach + 1 : c.metrics.contentHeight
                return Scrollable(id: c.section, viewport: c.viewport, contentLength: length, offset: c.scroll)
            }
        drag.pointerMoved(p, scrollers: scrollers, board: layout.boardArea, pages: layout.pageCount, now: now)
    }

    mutating func handleMouse(_ m: MouseEvent, now: Double) -> [AppEffect] {
        if case .help(let s) = mode { return helpMouse(m, scroll: s) }
        if case .detail(let d) = mode { return detailMouse(m, detail: d) }
        if case .metrics(let s) = mode { return metricsMouse(m, screen: s) }
        if case .prompt = mode { return [] }
        if case .confirm = mode { return [] }
        if let s = coordinator.session, s.isKeyboard {
            apply(coordinator.cancel(reason: .requested), now: now)
        }
        if m.kind == .motion, drag.isPointerDrag {
            // A motion with no button held during a drag (any-motion reporting is on while one is up):
            // the button went up where the terminal did not report it (kitty, outside its window).
            endDragReleasedElsewhere(because: "Released outside the window", now: now)
            return []
        }
        switch m.kind {
        case .wheelUp, .wheelDown:
            let delta = m.kind == .wheelUp ? -3 : 3
            if showsLanes { scrollLanes(by: delta); return [] }
            if let c = layout.columns.first(where: { $0.frame.contains(m.location) }), board.columns.indices.contains(c.section) {
                scrollOffsets[board.columns[c.section].id, default: 0] += delta
                refreshLayout()
            }
            return []
        case .press where m.button == .left && !coordinator.isDragging
                && (m.modifiers.contains(.alt) || m.modifiers.contains(.ctrl)):
            // Alt-click (or ctrl-click where the terminal passes it on; shift-click is the
            // terminal's own selection) marks a card. Without modifiers: the card's mark box.
            markingClick = true
            if let p = coordinator.hitTest(m.location), p.section >= 0, let card = board.item(at: p) {
                toggleMark(card.id)
                selection = p
            }
        case .drag where markingClick, .release where markingClick:
            if m.kind == .release { markingClick = false }
        case .press where m.button == .left:
            if !coordinator.isDragging, BoardView.helpButton(layout: layout).contains(m.location) { openHelp(); return [] }
            if !coordinator.isDragging, let arrows = BoardView.pageArrows(layout: layout) {
                if arrows.previous.contains(m.location) { flipPage(-1); return [] }
                if arrows.next.contains(m.location) { flipPage(1); return [] }
            }
            if pressLaneHeader(m.location) { return [] }
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
        guard let c = layout.columns.first(where: { $0.section == item.section }), item.item < c.itemCount else { return false }
        let f = c.frameOfItem(at: item.item)
        guard p.y == f.minY else { return false }
        return reading.compact ? p.x == f.minX : p.x >= f.minX + 1 && p.x <= f.minX + 3
    }

    mutating func feed(_ input: PointerInput, now: Double) {
        if let grid = layout.lanes { feedLanes(input, grid: grid, now: now); return }
        coordinator.selectedItems = marked
        let events = drag.coordinator.handle(input, dataSource: &document)
        apply(events, now: now)
    }

    /// Routes coordinator events to the renderer (unless the drag session already did:
    /// `rendered`) and to the app's own state.
    mutating func apply(_ events: [DragEvent], now: Double, rendered: Bool = false) {
        for e in events {
            if !rendered, let words = drag.take([e], board: board, now: now) { status = words; reading.pageWordsShown = false }
            else if case .moved(_, let hover) = e, reading.pageWordsShown, hover != .none {
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
                if let card = board.item(at: item) { toggleMark(card.id) }
                selection = item
            case .tapped(let p, let item):
                if let item, item == selection, case .normal = mode { openDetail(at: item) }
                else if let item { selection = item }
                else if let c = layout.columns.first(where: { $0.frame.contains(p) }) {
                    selection = ItemPath(section: c.section, item: c.itemCount > 0 ? min(max(0, selection?.item ?? 0), c.itemCount - 1) : -1)
                }
            case .began(let s):
                if s.kind == .item { selection = s.source }
            case .dropped(let d) where d.to.section == BoardDraggable.section:
                if let refusal = document.lastRefusal {
                    status = refused(refusal.words)
                } else if !d.isNoOp {
                    let row = selection?.section == d.from.item ? selection?.item ?? -1 : (board.columns[d.to.item].cards.isEmpty ? -1 : 0)
                    selection = ItemPath(section: d.to.item, item: row)
                    changed()
                }
            case .dropped(let d):
                if let refusal = document.lastRefusal {
                    // The door refused the drop: the card stays where it was, and the words say why.
                    status = refused(refusal.words)
                    if let p = board.indexPath(for: d.item) { selection = p }
                } else {
                    selection = d.to
                    if !d.isNoOp { changed() }
                }
            case .endedOutside(_, let source, _), .cancelled(_, let source, _):
                if source.section >= 0, board.item(at: source) != nil { selection = source }
            default:
                break
            }
        }
    }

    mutating func changed() {
        revision += 1
        pruneMarks()
        refreshLayout()
        ensureSelectionVisible()
    }

    /// Marks follow the cards: a deleted card is no longer marked.
    mutating func pruneMarks() {
        guard !marked.isEmpty else { return }
        var present = Set<ItemID>()
        for c in board.columns { for card in c.cards where marked.contains(card.id) { present.insert(card.id) } }
        marked = present
    }

    // MARK: Keys

    mutating func handleKey(_ key: Key, _ mods: Modifiers, now: Double) -> [AppEffect] {
        switch mode {
        case .help(let scroll):
            helpKey(key, mods, scroll: scroll)
            return []
        case .detail(let d):
            return detailKey(key, mods, detail: d, now: now)
        case .metrics(let s):
            metricsKey(key, mods, screen: s)
            return []
        case .prompt(let p, var editor):
            mode = .normal  // the editor's text is then ours alone: a key copies nothing
            switch editor.handle(key, mods) {
            case .editing: mode = .prompt(p, editor)
            case .cancel: mode = .normal; status = "Cancelled"; returnFromPrompt()
            case .submit:
                mode = .normal
                if case .saveCopy = p { return saveCopyAnswer(editor.text) }
                submit(p, editor)
                if case .normal = mode { returnFromPrompt() }
            }
            return []
        case .confirm(.quitUnsaved(let why)):
            return answerQuitQuestion(key, why: why)
        case .confirm(let c):
            mode = .normal
            if case .char("y") = key, case .deleteColumn(let id, let seen) = c { deleteColumn(id, confirmed: seen) }
            else { status = "Kept the column" }
            return []
        case .normal:
            break
        }
        guard let action = keymap.action(for: key, mods) else { return [] }
        // Fresh words: each action says what it did, or the idle hint stands instead of old words.
        if !coordinator.isDragging, action != .quit, action != .suspend { status = idleHint; reading.pageWordsShown = false }
        return perform(action, now: now)
    }

    // MARK: Drawing

    /// What the board view draws for the current state.
    func scene(now: Double) -> BoardScene {
        var statusText = status
        if case .prompt(let p, let editor) = mode {
            statusText = p.label + editor.prefix(512)
        } else if case .confirm(.deleteColumn(let id, let seen)) = mode, let column = board.column(id) {
            statusText = "Delete column “\(column.title)” and its \(seen.count) cards? y/n"
        } else if case .confirm(.quitUnsaved(let why)) = mode {
            statusText = Self.quitQuestion(why)
        }
        var ghost = renderer.ghost(now: now)
        if var g = ghost, renderer.isDragging, let width = layout.columns.first?.frame.width, g.frame.width != width {
            // After a resize mid-drag the ghost takes the columns' new width, keeping the pointer on it.
            let grab = renderer.start.map { $0.grabOffset.x } ?? 0
            if grab >= width { g.frame.origin.x += grab - (width - 1) }
            g.frame.size.width = width
            ghost = g
        }
        var scene = BoardScene(board: board, layout: layout,
                               selection: coordinator.isDragging ? nil : selection,
                               decorations: renderer.decorations(now: now), ghost: ghost,
                               title: title, status: statusText, filter: filter, compact: reading.compact)
        scene.marked = marked
        // A prompt is drawn on the last row by `render`; the idle hint is no message to read whole.
        if case .prompt = mode { scene.wrapsStatus = false } else if status == idleHint { scene.wrapsStatus = false }
        scene.columnGhost = renderer.columnGhost()
        if var cg = scene.columnGhost, let width = layout.columns.first?.frame.width { cg.frame.size.width = width; scene.columnGhost = cg }
        return scene
    }

    /// Draws the whole frame.
    public func render(into buf: inout CellBuffer, now: Double) {
        if buf.width != size.width || buf.height != size.height { buf = CellBuffer(width: size.width, height: size.height) }
        let scene = scene(now: now)
        BoardView.draw(scene, into: &buf, cache: frames)
        if case .prompt(let p, let editor) = mode, size.height > 0 {
            let y = size.height - 1
            let labelWidth = TextWidth.width(of: p.label) + 1
            let shown = editor.visible(width: max(1, size.width - labelWidth - 1))
            buf.fill(x: 0, y: y, width: size.width, height: 1, style: Style(reverse: true))
            buf.write(" " + p.label, x: 0, y: y, style: Style(reverse: true))
            buf.write(shown.text, x: labelWidth, y: y, style: Style(reverse: true))
            let cx = labelWidth + shown.cursor
            if cx < size.width { buf[cx, y] = Cell(buf[cx, y].text.isEmpty ? " " : buf[cx, y].text, style: Style()) }
            buf.cursor = Point(x: min(cx, size.width - 1), y: y)
            if let note = editor.note, y > 0 {
                // What the last paste changed or why it was refused, above the prompt.
                buf.fill(x: 0, y: y - 1, width: size.width, height: 1, style: Style(reverse: true))
                buf.write(" " + note, x: 0, y: y - 1, style: Style(bold: true, reverse: true))
            }
        }
        if case .help(let scroll) = mode {
            HelpView.draw(keymap: keymap, scroll: scroll, into: &buf)
            buf.cursor = nil
        }
        if case .detail(let d) = mode, let path = board.indexPath(for: d.id) {
            CardDetailView.draw(card: board[path], column: board.columns[path.section].title, detail: d, keymap: keymap,
                                storesDoneMark: reading.storesDoneMark, flow: flowLines(for: board[path].id), into: &buf)
            buf.cursor = nil
        }
        if case .metrics(let s) = mode {
            MetricsView.draw(flow.view, screen: s, keymap: keymap, into: &buf)
            buf.cursor = nil
        }
        // A message wrapped onto several rows is drawn again over the help and the card view.
        if scene.wrapsStatus, BoardView.statusLines(scene.status, width: size.width, height: size.height).count > 1 {
            if case .help = mode { BoardView.drawStatus(scene, into: &buf) }
            if case .detail = mode { BoardView.drawStatus(scene, into: &buf) }
        }
    }
}
