import DragKit
import LanesCore

/// What the app asks of the world outside it after handling input.
public enum AppEffect: Hashable, Sendable {
    case quit
    /// Ctrl-Z: hand the terminal back to the shell until `fg`.
    case suspend
    /// Edit a card in `$EDITOR`: the runner writes it out, runs the editor and calls `finishExternalEdit`.
    case editExternally(ItemID)
}

/// The board app: state and behaviour, no I/O. Input events in, effects out; `render` draws a frame.
public struct BoardApp: Sendable {
    enum Mode: Sendable {
        case normal
        case help(scroll: Int)
        case prompt(Prompt, LineEditor)
        case confirm(Confirm)
    }

    enum Prompt: Sendable {
        case addCard(section: Int, index: Int)
        case editTitle(ItemID)
        case addColumn(after: Int)
        case renameColumn(Int)
        case setLimit(Int)
        case setDue(ItemID)
        case setTags(ItemID)
        case filter

        var label: String {
            switch self {
            case .addCard: "New card: "
            case .editTitle: "Title: "
            case .addColumn: "New column: "
            case .renameColumn: "Column title: "
            case .setLimit: "WIP limit (empty for none): "
            case .setDue: "Due date (empty clears): "
            case .setTags: "Tags: "
            case .filter: "Filter: "
            }
        }
    }

    enum Confirm: Sendable {
        case deleteColumn(Int)
    }

    public private(set) var document: BoardDocument
    public var board: Board { document.board }
    public private(set) var size: Size
    public private(set) var page = 0
    public private(set) var scroll: [Int] = []
    public private(set) var selection: IndexPath?
    public private(set) var status: String
    public var title: String
    public var keymap: Keymap
    /// Bumped on every change to the board; the runner saves when it moves.
    public private(set) var revision = 0
    public private(set) var coordinator: DragCoordinator
    public private(set) var renderer = DragRenderer()
    public private(set) var filter: String = ""
    var mode: Mode = .normal
    let cache: LayoutCache
    /// Scrolls a column while a card is held near its top or bottom edge.
    var autoScroller = EdgeAutoScroller()
    /// Flips the page while a card rests at the board's left or right edge (or is flung there).
    var dwell = PageDwell()
    /// The pointer's velocity during a drag, for flings toward an edge.
    var pointerVelocity = VelocityEstimator()
    /// Column that keyboard moves up/down aim at, so left/right keeps the row.
    private var lastLayout: ScreenLayout?

    public init(board: Board, title: String, size: Size = Size(width: 80, height: 24), status: String = "", keymap: Keymap = Keymap(),
                metrics: LayoutMetrics = LayoutMetrics()) {
        document = BoardDocument(board: board)
        self.title = title
        self.size = size
        self.keymap = keymap
        cache = LayoutCache(metrics: metrics)
        coordinator = DragCoordinator(arena: DragArena(container: .zero, draggables: []))
        self.status = status.isEmpty ? "Drag cards with the mouse, or space to lift · ? help · q quit" : status
        scroll = Array(repeating: 0, count: board.columns.count)
        if board.columns.first.map({ !$0.cards.isEmpty }) == true { selection = IndexPath(section: 0, item: 0) }
        else if !board.columns.isEmpty { selection = IndexPath(section: 0, item: -1) }
        refreshLayout()
    }

    // MARK: Layout

    /// The layout for the current state.
    public var layout: ScreenLayout {
        if let l = lastLayout { return l }
        return makeLayout()
    }

    private func makeLayout() -> ScreenLayout {
        let limits = board.columns.map(\.wipLimit)
        return ScreenLayout(board: board, size: size, page: page, scroll: scroll, cache: cache) { _, from, to in
            // Column limits are checked by the draggable; this hook is for per-board accept rules.
            _ = limits
            _ = from
            _ = to
            return true
        }
    }

    /// Recomputes the layout and hands the new arena to the coordinator.
    private mutating func refreshLayout() {
        if scroll.count != board.columns.count {
            scroll = Array(scroll.prefix(board.columns.count)) + Array(repeating: 0, count: max(0, board.columns.count - scroll.count))
        }
        var l = makeLayout()
        page = l.page
        // Store the clamped scroll offsets so wheel and keys start from what is shown.
        for c in l.columns { scroll[c.section] = c.scroll }
        lastLayout = l
        if coordinator.isDragging {
            let events = coordinator.updateArena(l.arena, dataSource: document)
            apply(events, now: 0)
            l = lastLayout ?? l
        } else {
            coordinator.arena = l.arena
        }
    }

    // MARK: Input

    /// Handles one decoded input event at time `now` (seconds).
    public mutating func handle(_ event: InputEvent, now: Double) -> [AppEffect] {
        switch event {
        case .mouse(let m): return handleMouse(m, now: now)
        case .key(let k, let mods): return handleKey(k, mods, now: now)
        case .paste(let text):
            if case .prompt(let p, var editor) = mode {
                editor.insert(text)
                mode = .prompt(p, editor)
            }
            return []
        case .focusIn, .focusOut:
            return []
        }
    }

    public mutating func resize(_ newSize: Size) {
        size = newSize
        if let s = coordinator.session, s.isKeyboard {
            apply(coordinator.cancel(reason: .requested), now: 0)
        }
        refreshLayout()
        ensureSelectionVisible()
    }

    /// Advances animations, auto-scroll and the edge dwell.
    public mutating func tick(now: Double) {
        renderer.tick(now: now)
        guard let s = coordinator.session, !s.isKeyboard else { return }
        if let step = autoScroller.tick(now: now), scroll.indices.contains(step.id) {
            scroll[step.id] += step.rows
            refreshLayout()
        }
        if let flip = dwell.tick(now: now) {
            flipPage(flip == .next ? 1 : -1)
        }
    }

    /// When the app wants to run again without input (animations, auto-scroll, dwell).
    public func deadline(now: Double) -> Double? {
        [renderer.deadline(now: now), autoScroller.nextDeadline, dwell.nextDeadline].compactMap { $0 }.min()
    }

    /// Feeds the pointer to the auto-scroller and the page dwell while a mouse drag is on.
    private mutating func trackEdges(_ p: Point, now: Double) {
        guard let s = coordinator.session, !s.isKeyboard else {
            autoScroller.reset()
            dwell.reset()
            return
        }
        let scrollers = layout.columns
            .filter { p.x >= $0.frame.minX && p.x < $0.frame.maxX }
            .map { Scrollable(id: $0.section, viewport: $0.viewport, contentLength: $0.metrics.contentHeight, offset: $0.scroll) }
        autoScroller.update(pointer: p, scrollers: scrollers, now: now)
        if layout.pageCount > 1 {
            dwell.update(pointer: p, velocity: pointerVelocity.velocity, board: layout.boardArea, now: now)
        }
    }

    private mutating func handleMouse(_ m: MouseEvent, now: Double) -> [AppEffect] {
        if case .help = mode { mode = .normal; return [] }
        if case .prompt = mode { return [] }
        if case .confirm = mode { return [] }
        if let s = coordinator.session, s.isKeyboard {
            apply(coordinator.cancel(reason: .requested), now: now)
        }
        switch m.kind {
        case .wheelUp, .wheelDown:
            let delta = m.kind == .wheelUp ? -3 : 3
            if let c = layout.columns.first(where: { $0.frame.contains(m.location) }) {
                scroll[c.section] += delta
                refreshLayout()
            }
            return []
        case .press where m.button == .left:
            if !coordinator.isDragging, let arrows = BoardView.pageArrows(layout: layout) {
                if arrows.previous.contains(m.location) { flipPage(-1); return [] }
                if arrows.next.contains(m.location) { flipPage(1); return [] }
            }
            pointerVelocity.reset()
            pointerVelocity.add(m.location, at: now)
            feed(PointerInput(.press, m.location, at: now), now: now)
        case .drag where m.button == .left || m.button == .none:
            pointerVelocity.add(m.location, at: now)
            feed(PointerInput(.move, m.location, at: now), now: now)
            trackEdges(m.location, now: now)
        case .release:
            feed(PointerInput(.release, m.location, at: now), now: now)
            autoScroller.reset()
            dwell.reset()
        default:
            break
        }
        return []
    }

    private mutating func feed(_ input: PointerInput, now: Double) {
        let events = coordinator.handle(input, dataSource: &document)
        apply(events, now: now)
    }

    /// Routes coordinator events to the renderer and to the app's own state.
    private mutating func apply(_ events: [DragEvent], now: Double) {
        for e in events {
            if let words = renderer.handle(e, board: board, now: now) { status = words }
            switch e {
            case .tapped(let p, let item):
                if let item { selection = item }
                else if let c = layout.columns.first(where: { $0.frame.contains(p) }) {
                    selection = IndexPath(section: c.section, item: c.itemCount > 0 ? min(max(0, selection?.item ?? 0), c.itemCount - 1) : -1)
                }
            case .began(let s):
                selection = s.source
            case .dropped(let d):
                selection = d.to
                if !d.isNoOp { changed() }
            case .endedOutside(_, let source, _), .cancelled(_, let source, _):
                if board.item(at: source) != nil { selection = source }
                autoScroller.reset()
                dwell.reset()
            default:
                break
            }
        }
    }

    private mutating func changed() {
        revision += 1
        refreshLayout()
        ensureSelectionVisible()
    }

    // MARK: Keys

    private mutating func handleKey(_ key: Key, _ mods: Modifiers, now: Double) -> [AppEffect] {
        switch mode {
        case .help:
            mode = .normal
            return []
        case .prompt(let p, var editor):
            switch editor.handle(key, mods) {
            case .editing: mode = .prompt(p, editor)
            case .cancel: mode = .normal; status = "Cancelled"
            case .submit:
                mode = .normal
                submit(p, editor.text)
            }
            return []
        case .confirm(let c):
            mode = .normal
            if case .char("y") = key, case .deleteColumn(let section) = c { deleteColumn(section, confirmed: true) }
            else { status = "Kept the column" }
            return []
        case .normal:
            break
        }
        guard let action = keymap.action(for: key, mods) else {
            if coordinator.session?.isKeyboard == true, key == .char(" ") { return perform(.drop, now: now) }
            return []
        }
        return perform(action, now: now)
    }

    /// Does what an action asks.
    public mutating func perform(_ action: Action, now: Double) -> [AppEffect] {
        let lifted = coordinator.session?.isKeyboard == true
        if lifted {
            switch action {
            case .up, .moveUp: liftedMove(dy: -1)
            case .down, .moveDown: liftedMove(dy: 1)
            case .left, .moveLeft: liftedMove(dx: -1)
            case .right, .moveRight: liftedMove(dx: 1)
            case .first: liftedMove(toIndex: 0)
            case .last: liftedMove(toIndex: Int.max)
            case .lift, .drop:
                apply(coordinator.dropLifted(dataSource: &document), now: now)
            case .cancel:
                apply(coordinator.cancel(reason: .requested), now: now)
            case .quit:
                apply(coordinator.cancel(reason: .requested), now: now)
                return [.quit]
            default:
                status = "Drop the card first (space or enter), or esc to cancel"
            }
            return []
        }
        if coordinator.isDragging, action == .cancel {
            apply(coordinator.cancel(reason: .requested), now: now)
            return []
        }
        switch action {
        case .left: selectColumn(delta: -1)
        case .right: selectColumn(delta: 1)
        case .up: selectCard(delta: -1)
        case .down: selectCard(delta: 1)
        case .first: selectCard(absolute: 0)
        case .last: selectCard(absolute: Int.max)
        case .lift:
            guard let sel = validSelection else { status = "No card to lift"; break }
            showSection(sel.section)
            apply(coordinator.lift(at: sel), now: now)
        case .drop: break
        case .cancel:
            if !filter.isEmpty { filter = ""; status = "Filter cleared" }
        case .moveLeft: quickMove(dx: -1)
        case .moveRight: quickMove(dx: 1)
        case .moveUp: quickMove(dy: -1)
        case .moveDown: quickMove(dy: 1)
        case .previousPage: flipPage(-1)
        case .nextPage: flipPage(1)
        case .undo:
            if let label = document.undo() { status = "Undid \(label)"; clampSelection(); changed() }
            else { status = "Nothing to undo" }
        case .redo:
            if let label = document.redo() { status = "Redid \(label)"; clampSelection(); changed() }
            else { status = "Nothing to redo" }
        case .help: mode = .help(scroll: 0)
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .addBelow:
            guard let sel = selection else { status = "Add a column first (A)"; break }
            mode = .prompt(.addCard(section: sel.section, index: sel.item + 1), LineEditor())
        case .addTop:
            guard let sel = selection else { status = "Add a column first (A)"; break }
            mode = .prompt(.addCard(section: sel.section, index: 0), LineEditor())
        case .editTitle:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.editTitle(board[sel].id), LineEditor(board[sel].title))
        case .deleteCard:
            guard let sel = validSelection else { status = "No card selected"; break }
            let t = board[sel].title
            document.perform("delete card") { $0.deleteItem(at: sel) }
            clampSelection()
            status = "Deleted “\(DisplayText.truncate(DisplayText.safe(t), to: 40))” (u undoes)"
            changed()
        case .toggleDone:
            guard let sel = validSelection else { status = "No card selected"; break }
            document.perform("toggle done") { $0[sel].done.toggle() }
            changed()
        case .editExternal:
            guard let sel = validSelection else { status = "No card selected"; break }
            return [.editExternally(board[sel].id)]
        case .toggleSubtask:
            guard let sel = validSelection else { status = "No card selected"; break }
            let subs = board[sel].subtasks
            guard !subs.isEmpty else { status = "This card has no sub-tasks (E edits the whole card)"; break }
            if let i = subs.firstIndex(where: { !$0.done }) {
                document.perform("tick sub-task") { $0[sel].subtasks[i].done = true }
                status = "Ticked “\(DisplayText.truncate(DisplayText.safe(subs[i].title), to: 40))” (\(i + 1) of \(subs.count))"
            } else {
                document.perform("untick sub-tasks") { b in
                    for i in b[sel].subtasks.indices { b[sel].subtasks[i].done = false }
                }
                status = "Unticked all \(subs.count) sub-tasks"
            }
            changed()
        case .setDue:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.setDue(board[sel].id), LineEditor(board[sel].due ?? ""))
        case .setTags:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.setTags(board[sel].id), LineEditor(board[sel].tags.map { "#" + $0 }.joined(separator: " ")))
        case .addColumn:
            mode = .prompt(.addColumn(after: selection?.section ?? -1), LineEditor())
        case .renameColumn:
            guard let sel = selection else { break }
            mode = .prompt(.renameColumn(sel.section), LineEditor(board.columns[sel.section].title))
        case .deleteColumn:
            guard let sel = selection else { break }
            deleteColumn(sel.section, confirmed: false)
        case .moveColumnLeft, .moveColumnRight:
            guard let sel = selection else { break }
            let to = sel.section + (action == .moveColumnLeft ? -1 : 1)
            guard board.columns.indices.contains(to) else { break }
            document.perform("move column") { $0.columns.swapAt(sel.section, to) }
            scroll.swapAt(sel.section, to)
            selection = IndexPath(section: to, item: sel.item)
            changed()
            showSection(to)
        case .setLimit:
            guard let sel = selection else { break }
            mode = .prompt(.setLimit(sel.section), LineEditor(board.columns[sel.section].wipLimit.map(String.init) ?? ""))
        case .filter:
            mode = .prompt(.filter, LineEditor(filter))
        }
        return []
    }

    private var validSelection: IndexPath? {
        guard let s = selection, board.item(at: s) != nil else { return nil }
        return s
    }

    private mutating func submit(_ prompt: Prompt, _ text: String) {
        let trimmed = text.trimmingCharacters(in: " \t")
        switch prompt {
        case .addCard(let section, let index):
            guard !trimmed.isEmpty else { status = "Empty title: nothing added"; return }
            guard board.columns.indices.contains(section) else { return }
            let at = min(max(0, index), board.columns[section].cards.count)
            document.perform("add card") { b in
                let card = Card(id: b.makeID(), title: trimmed)
                b.insertItem(card, at: IndexPath(section: section, item: at))
            }
            selection = IndexPath(section: section, item: at)
            status = "Added a card to \(DisplayText.safe(board.columns[section].title))"
            changed()
        case .editTitle(let id):
            guard let path = board.indexPath(for: id) else { return }
            guard !trimmed.isEmpty else { status = "Empty title: kept the old one"; return }
            document.perform("edit title") { $0[path].title = trimmed }
            changed()
        case .addColumn(let after):
            guard !trimmed.isEmpty else { status = "Empty title: nothing added"; return }
            let at = min(after + 1, board.columns.count)
            document.perform("add column") { $0.columns.insert(Column(title: trimmed), at: at) }
            scroll.insert(0, at: min(at, scroll.count))
            selection = IndexPath(section: at, item: -1)
            changed()
            showSection(at)
        case .renameColumn(let section):
            guard !trimmed.isEmpty, board.columns.indices.contains(section) else { return }
            document.perform("rename column") { $0.columns[section].title = trimmed }
            changed()
        case .setLimit(let section):
            guard board.columns.indices.contains(section) else { return }
            if trimmed.isEmpty {
                document.perform("clear WIP limit") { $0.columns[section].wipLimit = nil }
            } else if let n = Int(trimmed), n > 0 {
                document.perform("set WIP limit") { $0.columns[section].wipLimit = n }
            } else {
                status = "A WIP limit is a whole number above 0"
                return
            }
            changed()
        case .setDue(let id):
            guard let path = board.indexPath(for: id) else { return }
            document.perform(trimmed.isEmpty ? "clear due date" : "set due date") { $0[path].due = trimmed.isEmpty ? nil : trimmed }
            status = trimmed.isEmpty ? "Due date cleared" : "Due \(DisplayText.safe(trimmed))"
            changed()
        case .setTags(let id):
            guard let path = board.indexPath(for: id) else { return }
            let tags = trimmed.split(separator: " ").map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }.filter { !$0.isEmpty }
            document.perform("set tags") { $0[path].title = Card.retagged(title: $0[path].title, tags: tags) }
            changed()
        case .filter:
            filter = trimmed
            if trimmed.isEmpty {
                status = "Filter cleared"
            } else {
                let matches = board.columns.reduce(0) { n, c in n + c.cards.filter { CardFilter.matches($0, trimmed) }.count }
                status = "Filter “\(DisplayText.safe(trimmed))”: \(matches) matching (others dimmed; j/k jump between matches; esc clears)"
                if let sel = validSelection, !CardFilter.matches(board[sel], trimmed) { selectCard(delta: 1) }
            }
        }
    }

    private mutating func deleteColumn(_ section: Int, confirmed: Bool) {
        guard board.columns.indices.contains(section) else { return }
        if !confirmed && !board.columns[section].cards.isEmpty {
            mode = .confirm(.deleteColumn(section))
            return
        }
        let t = board.columns[section].title
        document.perform("delete column") { $0.columns.remove(at: section) }
        if scroll.indices.contains(section) { scroll.remove(at: section) }
        status = "Deleted column “\(DisplayText.safe(t))” (u undoes)"
        if board.columns.isEmpty { selection = nil }
        else {
            let s = min(section, board.columns.count - 1)
            selection = IndexPath(section: s, item: board.columns[s].cards.isEmpty ? -1 : 0)
        }
        changed()
    }

    /// External edit finished: replace the card's details (one undo step).
    public mutating func finishExternalEdit(_ id: ItemID, edited: Card?) {
        guard let edited, let path = board.indexPath(for: id) else { status = "Edit abandoned"; return }
        document.perform("edit card") { $0[path] = edited }
        status = "Card updated"
        changed()
    }

    /// Replaces the whole board (reloaded from disk); history is kept so undo can go back.
    public mutating func replaceBoard(_ new: Board, status words: String) {
        if coordinator.isDragging { apply(coordinator.cancel(reason: .requested), now: 0) }
        document.perform("reload") { $0 = new }
        status = words
        clampSelection()
        changed()
    }

    public mutating func setStatus(_ words: String) { status = words }

    /// Whether the user is in the middle of something (a drag or a prompt) that a reload would disturb.
    public var isBusy: Bool {
        if coordinator.isDragging { return true }
        if case .normal = mode { return false }
        return true
    }

    // MARK: Selection and moves

    private mutating func clampSelection() {
        guard !board.columns.isEmpty else { selection = nil; return }
        let s = min(max(0, selection?.section ?? 0), board.columns.count - 1)
        let count = board.columns[s].cards.count
        selection = IndexPath(section: s, item: count == 0 ? -1 : min(max(0, selection?.item ?? 0), count - 1))
    }

    private mutating func selectColumn(delta: Int) {
        guard !board.columns.isEmpty else { return }
        let cur = selection ?? IndexPath(section: 0, item: 0)
        let s = min(max(0, cur.section + delta), board.columns.count - 1)
        let row = rowOf(cur)
        selection = IndexPath(section: s, item: nearestIndex(in: s, toRow: row, excluding: nil))
        showSection(s)
        ensureSelectionVisible()
    }

    private mutating func selectCard(delta: Int = 0, absolute: Int? = nil) {
        guard let cur = selection, board.columns.indices.contains(cur.section) else { clampSelection(); return }
        let count = board.columns[cur.section].cards.count
        guard count > 0 else { return }
        var i = min(max(0, absolute ?? (cur.item + delta)), count - 1)
        if !filter.isEmpty {
            // Jump to the nearest matching card in the direction of travel.
            let cards = board.columns[cur.section].cards
            let step = absolute == Int.max || delta > 0 ? 1 : (absolute == 0 ? 1 : -1)
            var j = absolute == 0 ? 0 : i
            while j >= 0 && j < count && !CardFilter.matches(cards[j], filter) { j += step }
            if j >= 0 && j < count { i = j } else if absolute == nil { i = cur.item }
        }
        selection = IndexPath(section: cur.section, item: i)
        ensureSelectionVisible()
    }

    /// A column's geometry, from the page that shows it (not necessarily the visible one).
    private func geometry(of section: Int) -> ColumnDraggable? {
        if let c = layout.column(section: section) { return c }
        let other = ScreenLayout(board: board, size: size, page: layout.page(of: section), scroll: scroll, cache: cache)
        return other.column(section: section)
    }

    /// The screen row of a card (its top), for keeping the row when changing columns.
    private func rowOf(_ path: IndexPath) -> Int {
        guard let c = geometry(of: path.section), path.item >= 0, path.item < c.itemCount else { return 0 }
        return c.frameOfItem(at: path.item).minY
    }

    /// The row of the boundary above gap `gap` of a column (below its last card for the end).
    private func rowOfGap(_ gap: Int, in section: Int) -> Int {
        guard let c = geometry(of: section) else { return 0 }
        if gap < c.itemCount { return c.frameOfItem(at: gap).minY }
        return c.itemCount > 0 ? c.frameOfItem(at: c.itemCount - 1).maxY : c.viewport.minY
    }

    /// The card in a column nearest a screen row, for selection (-1 when the column is empty).
    private func nearestIndex(in section: Int, toRow row: Int, excluding: ItemID?) -> Int {
        let count = board.columns[section].cards.count
        guard count > 0 else { return -1 }
        return min(insertionIndex(in: section, atRow: row), count - 1)
    }

    /// Where a card arriving sideways at a screen row lands: before the first card that ends
    /// below that row, or at the end (clamped to the column's length).
    private func insertionIndex(in section: Int, atRow row: Int) -> Int {
        let count = board.columns[section].cards.count
        guard let c = geometry(of: section) else { return count }
        return min(c.firstItem(endingBelow: row), count)
    }

    private mutating func quickMove(dx: Int = 0, dy: Int = 0) {
        guard let sel = validSelection else { status = "No card selected"; return }
        let card = board[sel]
        var to: IndexPath
        if dx != 0 {
            var s = sel.section + dx
            while board.columns.indices.contains(s), board.columns[s].isFull { s += dx }
            guard board.columns.indices.contains(s) else { status = "No column there takes the card"; return }
            to = IndexPath(section: s, item: insertionIndex(in: s, atRow: rowOf(sel)))
        } else {
            let count = board.columns[sel.section].cards.count
            to = IndexPath(section: sel.section, item: min(max(0, sel.item + dy), count - 1))
            guard to != sel else { return }
        }
        let transaction = DropTransaction(item: card.id, target: DropTarget(section: to.section, index: to.item, gap: to.item, anchor: nil))
        let before = board
        var b = board
        guard let result = exactMove(transaction, in: &b) else { return }
        document.perform("move card") { $0 = b }
        _ = before
        selection = result
        status = "Moved “\(DisplayText.truncate(DisplayText.safe(card.title), to: 30))” to \(DisplayText.safe(board.columns[result.section].title)), position \(result.item + 1)"
        changed()
        showSection(result.section)
        ensureSelectionVisible()
    }

    /// Moves a card to an exact final index (quick moves know the index, not an anchor).
    private func exactMove(_ t: DropTransaction, in b: inout Board) -> IndexPath? {
        guard let from = b.indexPath(for: t.item) else { return nil }
        let to = t.target.indexPath
        if from.section == to.section { b.moveItem(from: from, to: to) }
        else {
            let card = b[from]
            b.deleteItem(at: from)
            b.insertItem(card, at: to)
        }
        return to
    }

    private mutating func liftedMove(dx: Int = 0, dy: Int = 0, toIndex: Int? = nil) {
        guard let s = coordinator.session, let t = s.hover.target ?? Optional(DropTarget(section: s.current.section, index: s.current.item, gap: s.current.item, anchor: nil)) else { return }
        var section = t.section
        var index = t.index
        if let toIndex { index = toIndex }
        index += dy
        if dy < 0 && t.index == 0 && toIndex == nil { return }
        if dx != 0 {
            // The neighbouring column that accepts, at the index nearest the card's row.
            var next = section + dx
            let row = rowOfGap(t.gap, in: t.section)
            while board.columns.indices.contains(next) {
                showSection(next)
                let idx = insertionIndex(in: next, atRow: row)
                if coordinator.canDrop(s.start.item, from: s.current, toSection: next, index: idx) {
                    section = next
                    index = idx
                    break
                }
                next += dx
            }
            guard board.columns.indices.contains(next) else {
                showSection(t.section)
                status = "No column that way takes the card"
                return
            }
        }
        showSection(section)
        apply(coordinator.moveLifted(toSection: section, index: index), now: 0)
        selection = IndexPath(section: section, item: min(index, board.columns[section].cards.count))
        ensureRowVisible(section: section, gap: coordinator.session?.hover.target?.gap ?? index)
    }

    private mutating func flipPage(_ delta: Int) {
        let l = layout
        let target = min(max(0, l.page + delta), l.pageCount - 1)
        guard target != l.page else { return }
        page = target
        refreshLayout()
        if !coordinator.isDragging, let first = layout.columns.first {
            selection = IndexPath(section: first.section, item: first.itemCount > 0 ? 0 : -1)
        }
        status = "Page \(page + 1) of \(layout.pageCount)"
    }

    /// Flips to the page showing a section.
    private mutating func showSection(_ section: Int) {
        let l = layout
        guard !l.visibleSections.contains(section), section >= 0, section < board.columns.count else { return }
        page = l.page(of: section)
        refreshLayout()
    }

    private mutating func ensureSelectionVisible() {
        guard let sel = selection, sel.item >= 0 else { return }
        ensureRowVisible(section: sel.section, gap: sel.item)
    }

    /// Scrolls a column so the card at `gap` (or the end) is inside its viewport.
    private mutating func ensureRowVisible(section: Int, gap: Int) {
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

    // MARK: Drawing

    /// Draws the whole frame.
    public func render(into buf: inout CellBuffer, now: Double) {
        if buf.width != size.width || buf.height != size.height { buf = CellBuffer(width: size.width, height: size.height) }
        var statusText = status
        if case .prompt(let p, let editor) = mode {
            statusText = p.label + editor.text
        } else if case .confirm(.deleteColumn(let s)) = mode, board.columns.indices.contains(s) {
            statusText = "Delete column “\(board.columns[s].title)” and its \(board.columns[s].cards.count) cards? y/n"
        }
        let scene = BoardScene(board: board, layout: layout,
                               selection: coordinator.isDragging ? nil : selection,
                               decorations: renderer.decorations(now: now), ghost: renderer.ghost(now: now),
                               title: title, status: statusText, filter: filter)
        BoardView.draw(scene, into: &buf)
        if case .prompt(let p, let editor) = mode, size.height > 0 {
            let y = size.height - 1
            let labelWidth = TextWidth.width(of: p.label) + 1
            let shown = editor.visible(width: max(1, size.width - labelWidth - 1))
            buf.fill(x: 0, y: y, width: size.width, height: 1, style: Style(reverse: true))
            buf.write(" " + p.label, x: 0, y: y, style: Style(reverse: true, bold: false))
            buf.write(shown.text, x: labelWidth, y: y, style: Style(reverse: true))
            let cx = labelWidth + shown.cursor
            if cx < size.width { buf[cx, y] = Cell(buf[cx, y].text.isEmpty ? " " : buf[cx, y].text, style: Style()) }
        }
        if case .help(let scroll) = mode { HelpView.draw(keymap: keymap, scroll: scroll, into: &buf) }
    }
}

extension Style {
    init(reverse: Bool, bold: Bool) {
        self.init(bold: bold, reverse: reverse)
    }
}

/// Which cards a filter matches: every word must appear in the title, description or
/// sub-tasks (case-insensitive); a word starting with `#` must be one of the card's tags.
public enum CardFilter {
    public static func matches(_ card: Card, _ query: String) -> Bool {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty else { return true }
        let tags = Set(card.tags.map { $0.lowercased() })
        let text = ([card.title] + card.description + card.subtasks.map(\.title)).joined(separator: "\n").lowercased()
        return words.allSatisfy { w in
            w.hasPrefix("#") && w.count > 1 ? tags.contains(String(w.dropFirst())) : text.contains(w)
        }
    }
}

/// The `?` screen: every binding from the keymap table.
public enum HelpView {
    public static func lines(keymap: Keymap) -> [String] {
        var out = ["Mouse: press on a card, drag it, release where it belongs.",
                   "      click selects · wheel scrolls a column · release outside or esc cancels", ""]
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map(\.description)
            guard !keys.isEmpty else { continue }
            let k = keys.joined(separator: " ")
            out.append(k.padding(toLength: max(k.count, 16)) + " " + action.summary)
        }
        return out
    }

    /// The bindings as a Markdown table, for the README (a test keeps the README equal to it).
    public static func markdownTable(keymap: Keymap = Keymap()) -> String {
        var out = "| keys | action | what it does |\n|---|---|---|\n"
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map { "`\($0.description.replacingOccurrences(of: "|", with: "\\|"))`" }
            guard !keys.isEmpty else { continue }
            out += "| \(keys.joined(separator: " ")) | `\(action.rawValue)` | \(action.summary) |\n"
        }
        return out
    }

    public static func draw(keymap: Keymap, scroll: Int, into buf: inout CellBuffer) {
        let all = lines(keymap: keymap)
        let w = min(buf.width - 2, 78), h = min(buf.height - 2, all.count + 2)
        guard w > 10, h > 3 else { return }
        let x0 = (buf.width - w) / 2, y0 = (buf.height - h) / 2
        buf.fill(x: x0, y: y0, width: w, height: h)
        buf.write("╭" + String(repeating: "─", count: w - 2) + "╮", x: x0, y: y0, style: Style(bold: true))
        buf.write(" Keys (any key closes) ", x: x0 + 2, y: y0, style: Style(bold: true))
        for r in 1..<(h - 1) {
            buf.write("│", x: x0, y: y0 + r, style: Style(bold: true))
            buf.write("│", x: x0 + w - 1, y: y0 + r, style: Style(bold: true))
            let i = scroll + r - 1
            if i < all.count { buf.write(DisplayText.truncate(all[i], to: w - 4), x: x0 + 2, y: y0 + r) }
        }
        buf.write("╰" + String(repeating: "─", count: w - 2) + "╯", x: x0, y: y0 + h - 1, style: Style(bold: true))
    }
}

extension String {
    func padding(toLength n: Int) -> String {
        count >= n ? self : self + String(repeating: " ", count: n - count)
    }
}
