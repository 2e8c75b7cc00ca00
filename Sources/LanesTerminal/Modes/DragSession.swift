import DragKit
import LanesCore

/// Everything a drag needs in the app, as one value: the engine (coordinator), the renderer,
/// the edge auto-scroller and the page dwell.
///
/// The app owns one and asks it: pointer input and keyboard drags go through `coordinator`,
/// whose events `take` hands to the renderer; `pointerMoved` and `tick` run the edges with
/// the velocity the engine measured (the app keeps no estimator of its own); `layoutChanged`
/// re-resolves a drag when the board is replaced under it (another writer's change) as when it scrolls.
public struct DragSession: Sendable {
    public internal(set) var coordinator: DragCoordinator
    public internal(set) var renderer = DragRenderer()
    /// Scrolls a column while a card is held near its top or bottom edge.
    public internal(set) var autoScroller = EdgeAutoScroller()
    /// Flips the page while a card or column rests at the board's left or right edge (or is flung there).
    public internal(set) var dwell = PageDwell(config: DragSession.dwellConfig)
    /// Where the pointer was when the edges last heard of it.
    public internal(set) var edgePointer: Point?

    /// Half a second at the edge flips the page; staying there flips again every 0.75 s, so
    /// a card can travel several pages without leaving the edge and coming back.
    public static let dwellConfig: PageDwell.Config = {
        var c = PageDwell.Config()
        c.repeatInterval = 0.75
        return c
    }()

    public init(arena: DragArena = DragArena(container: .zero, draggables: [])) {
        coordinator = DragCoordinator(arena: arena)
    }

    public var isDragging: Bool { coordinator.isDragging }
    /// A drag by the pointer (not a keyboard lift) is under way.
    public var isPointerDrag: Bool { coordinator.session.map { !$0.isKeyboard } ?? false }

    /// Hands engine events to the renderer; returns the last words for the status line, if any.
    /// A drag that ends stops the edges.
    public mutating func take(_ events: [DragEvent], board: Board, now: Double) -> String? {
        var words: String?
        for e in events {
            if let w = renderer.handle(e, board: board, now: now) { words = w }
            switch e {
            case .dropped, .endedOutside, .cancelled: stopEdges()
            default: break
            }
        }
        return words
    }

    /// Tells the edges where the pointer is during a pointer drag: `scrollers` are the columns
    /// under it (innermost first), `board` the area the pages show in. The page dwell gets the
    /// velocity of the engine's last gesture sample. Nothing runs without a pointer drag.
    public mutating func pointerMoved(_ p: Point, scrollers: [Scrollable], board: Rect, pages: Int, now: Double) {
        guard let s = coordinator.session, !s.isKeyboard else {
            stopEdges()
            return
        }
        edgePointer = p
        // Cards scroll their columns; a column dragged by its header only flips pages.
        autoScroller.update(pointer: p, scrollers: s.start.kind == .item ? scrollers : [], now: now)
        if pages > 1 { dwell.update(pointer: p, velocity: s.velocity, board: board, now: now) }
    }

    /// What the edges ask for by `now`: rows to scroll a column, a page flip.
    public mutating func tick(now: Double) -> (scroll: ScrollStep?, flip: FlipRequest?) {
        renderer.tick(now: now)
        guard isPointerDrag else { return (nil, nil) }
        return (autoScroller.tick(now: now), dwell.tick(now: now))
    }

    /// When the session wants to run again without input (animations, auto-scroll, dwell).
    public func deadline(now: Double) -> Double? {
        [renderer.deadline(now: now), autoScroller.nextDeadline, dwell.nextDeadline].compactMap { $0 }.min()
    }

    /// Takes a new layout (scroll, page, resize) or a board replaced under the drag (another
    /// writer's change): the target is asked again. The card (or column) in hand stays in hand
    /// if it still exists, re-resolved by identity with the target's anchor; if it was deleted
    /// the drag is cancelled and the words say so. Carried cards that were deleted are left behind.
    public mutating func layoutChanged<D: DragDataSource>(
        _ arena: DragArena, dataSource: D, board: Board,
        now: Double
    ) -> (events: [DragEvent], words: String?) {
        guard coordinator.isDragging else {
            coordinator.arena = arena
            return ([], nil)
        }
        let events = coordinator.updateArena(arena, dataSource: dataSource)
        return (events, take(events, board: board, now: now))
    }

    /// Cancels any drag (Esc, a resize during a keyboard drag, a mouse press during one).
    public mutating func cancel(board: Board, now: Double) -> (events: [DragEvent], words: String?) {
        let events = coordinator.cancel(reason: .requested)
        return (events, take(events, board: board, now: now))
    }

    /// Ends a pointer drag whose release the terminal never reported (the button went up
    /// outside the window, or the window lost focus) as a release where nothing takes it: the
    /// engine cancels it, the card (or column) snaps back and the board is unchanged. The
    /// words start with `why`, then say where it went back.
    public mutating func endReleasedElsewhere(
        because why: String, board: Board,
        now: Double
    ) -> (events: [DragEvent], words: String?) {
        guard isPointerDrag else { return ([], nil) }
        let events = coordinator.cancel(reason: .gesture)
        guard let said = take(events, board: board, now: now) else { return (events, why) }
        let rest = said.hasPrefix("Cancelled: ") ? String(said.dropFirst("Cancelled: ".count)) : said
        return (events, why + ": " + (rest.first.map { $0.lowercased() + rest.dropFirst() } ?? ""))
    }

    /// Stops auto-scroll and the dwell (a drag ended).
    public mutating func stopEdges() {
        autoScroller.reset()
        dwell.reset()
        edgePointer = nil
    }
}

extension DragSession {
    /// What a key action does while a card is lifted by the keyboard.
    enum LiftedCommand: Equatable, Sendable {
        /// To the neighbouring place: `dx` a column that takes the card, `dy` a row.
        case move(dx: Int, dy: Int)
        /// To this index in the column it is over (0 the top, `Int.max` the end).
        case moveTo(index: Int)
        case drop
        case cancel
        /// Cancel the drag, then quit.
        case cancelAndQuit
        /// Nothing happens; the words say how to end the drag first.
        case refuse(String)
    }

    /// The command a keyboard action is during a keyboard drag (movement keys and their
    /// quick-move twins move the card; lift and drop drop it; the rest wait for the drop).
    static func liftedCommand(_ action: Action, keymap: Keymap) -> LiftedCommand {
        switch action {
        case .up, .moveUp: return .move(dx: 0, dy: -1)
        case .down, .moveDown: return .move(dx: 0, dy: 1)
        case .left, .moveLeft: return .move(dx: -1, dy: 0)
        case .right, .moveRight: return .move(dx: 1, dy: 0)
        case .first: return .moveTo(index: 0)
        case .last: return .moveTo(index: Int.max)
        case .lift, .drop: return .drop
        case .cancel: return .cancel
        case .quit: return .cancelAndQuit
        default:
            let drops = [keymap.keys(for: .lift).first, keymap.keys(for: .drop).first].compactMap { $0?.description }
            return .refuse(
                "Drop the card first" + (drops.isEmpty ? "" : " (\(drops.joined(separator: " or ")))")
                    + (keymap.keys(for: .cancel).first.map { ", or \($0) to cancel" } ?? ""))
        }
    }
}
