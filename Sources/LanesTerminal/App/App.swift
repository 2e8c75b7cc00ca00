import DragKit
import LanesCore

/// The board app: state and behaviour, no I/O. Input events in, effects out; `render` draws a frame.
///
/// Input goes to the open mode, a small value of its own (`Modes/`: a prompt, the card detail,
/// help, metrics, the messages, a question; the drag, the marks, the filter and the lane view
/// beside them), which turns it into its new state and an outcome: stay, close, an edit, an
/// effect. The app sends every edit
/// through the door (`BoardDocument.apply`, which holds every rule) and keeps the selection,
/// pages and scroll offsets around it.
public struct BoardApp {
    /// What has the keyboard: the board, or a view or question over it.
    enum Mode: Sendable {
        case normal
        case help(HelpMode)
        case detail(CardDetail)
        case metrics(MetricsScreen)
        case messages(MessagesMode)
        case prompt(PromptMode)
        case confirm(ConfirmMode)
    }

    public internal(set) var document: BoardDocument
    public var board: Board { document.board }
    public internal(set) var size: Size
    /// The page, the columns' scroll offsets, the page breaks a resize kept, the last layout.
    var viewport = BoardViewport()
    public internal(set) var page: Int {
        get { viewport.page }
        set { viewport.page = newValue }
    }
    /// The scroll offsets in board order (what the layout takes).
    public internal(set) var scroll: [Int] {
        get { viewport.scroll(of: board) }
        set { viewport.setScroll(newValue, of: board) }
    }
    /// The board's own keys: the selection, and what each key asks for (see `BoardKeys`).
    var keys = BoardKeys()
    public internal(set) var selection: ItemPath? {
        get { keys.selection }
        set { keys.selection = newValue }
    }
    public internal(set) var status: String {
        didSet { if statusHeld.holding { statusHeld.changed = true } else { noteStatus() } }
    }
    /// While an input event is handled, the status it sets is kept in the messages log once, as it
    /// stands when the event is done (an edit's words and then its key hint are one message).
    var statusHeld = (holding: false, changed: false)
    /// The session's status messages, for the messages view.
    public internal(set) var messages = MessageLog()
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
    /// The filter (`/`): what it matches, where up and down jump.
    var filtering = FilterMode()
    public var filter: String { filtering.query }
    /// The multi-selection: a drag of any marked card carries all of them.
    var marks = Marks()
    public var marked: Set<CardID> { marks.ids }
    var mode: Mode = .normal
    let cache: LayoutCache
    /// The last frame's board layer, redrawn only when what it shows changes.
    let frames = FrameCache()
    /// Where "save a copy" suggests writing when a save failed (the runner sets it).
    public var copySuggestion = ""
    /// Reading settings: compact cards, whether the file keeps done marks, where a prompt returns to.
    var reading = ReadingState()
    /// The board's history and flow metrics, read when `M` or a card's detail asks (see `wantsFlow`).
    var flow = FlowState()
    /// Swimlanes: shown or not this session, collapsed lanes, the lanes' scroll.
    var laneView = LaneViewMode()
    /// A board shown from its first cards while the whole file is read (the runner holds input
    /// meanwhile): every column's card count in the file, for the headers. nil once whole.
    public var fileCardCounts: [Int]?

    public init(
        board: Board, title: String, size: Size = Size(width: 80, height: 24), status: String = "",
        keymap: Keymap = Keymap(),
        metrics: LayoutMetrics = LayoutMetrics()
    ) {
        document = BoardDocument(board: board)
        self.title = title
        self.size = size
        self.keymap = keymap
        cache = LayoutCache(metrics: metrics)
        self.status = status.isEmpty ? BoardApp.idleHint(keymap: keymap, filter: "") : status
        noteStatus()
        if board.columns.first.map({ !$0.cards.isEmpty }) == true {
            selection = ItemPath(section: 0, item: 0)
        } else if !board.columns.isEmpty {
            selection = ItemPath(section: 0, item: -1)
        }
        refreshLayout()
    }

    // MARK: Layout

    /// The layout for the current state.
    public var layout: ScreenLayout {
        if let l = viewport.last { return l }
        return makeLayout()
    }

    func makeLayout() -> ScreenLayout {
        ScreenLayout(
            board: board, size: size, page: page, scroll: scroll, cache: cache, anchor: viewport.anchor,
            compact: reading.compact,
            laneView: laneView.state)
    }

    /// Recomputes the layout and hands the new arena to the drag.
    mutating func refreshLayout() {
        let l = makeLayout()
        viewport.keep(l, of: board)
        if let grid = l.lanes {
            laneView.state.scroll = grid.layout.scroll
            // The cell board (words in cell terms) is made only when a drag can speak of cells (#26).
            let (events, words) = drag.layoutChanged(
                l.arena, dataSource: laneSource(grid),
                board: coordinator.isDragging ? grid.cellBoard : board, now: 0)
            if let words { status = words }
            applyLaneEvents(events, grid: grid, now: 0, rendered: true)
            return
        }
        let (events, words) = drag.layoutChanged(l.arena, dataSource: document, board: board, now: 0)
        if let words { status = words }
        apply(events, now: 0, rendered: true)
    }

    // MARK: Input

    /// Handles one decoded input event at time `now` (seconds).
    public mutating func handle(_ event: InputEvent, now: Double) -> [AppEffect] {
        let outer = !statusHeld.holding
        if outer { statusHeld = (true, false) }
        defer {
            if outer {
                let changed = statusHeld.changed
                statusHeld = (false, false)
                if changed { noteStatus() }
            }
        }
        return handleEvent(event, now: now)
    }

    private mutating func handleEvent(_ event: InputEvent, now: Double) -> [AppEffect] {
        switch event {
        case .mouse(let m): return handleMouse(m, now: now)
        case .key(let k, let mods): return handleKey(k, mods, now: now)
        case .paste(let text):
            if case .prompt(var prompt) = mode {
                mode = .normal  // the editor's text is then ours alone: changing it copies nothing
                prompt.paste(text)
                mode = .prompt(prompt)
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

    /// Lays the board out for `newSize`; the same size with no drag changes nothing (the layout is current).
    public mutating func resize(_ newSize: Size) {
        if newSize == size, viewport.last != nil, coordinator.session == nil { return }
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
        if let step, step.id == LaneViewMode.scrollerID {
            carryOut(laneView.scroll(by: step.rows))
            if let p = drag.edgePointer { trackEdges(p, now: now) }
        } else if let step, board.columns.indices.contains(step.id) {
            viewport.scroll(section: step.id, by: step.rows, of: board)
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
            drag.pointerMoved(
                p, scrollers: LaneViewMode.scrollers(grid), board: layout.boardArea, pages: layout.pageCount, now: now)
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
}
