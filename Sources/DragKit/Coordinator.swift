/// What the coordinator knows about the item when a drag starts.
public struct DragStart: Hashable, Sendable {
    public var item: ItemID
    public var source: ItemPath
    /// Where the drag grabbed the item (the press point).
    public var origin: Point
    /// The item's frame when it was grabbed.
    public var itemFrame: Rect
    /// Whether the renderer should hide the original while dragging.
    public var hidesOriginal: Bool
    /// Lifted from the keyboard: there is no pointer, the item sits where it would land.
    public var viaKeyboard: Bool

    public init(item: ItemID, source: ItemPath, origin: Point, itemFrame: Rect, hidesOriginal: Bool = true,
                viaKeyboard: Bool = false) {
        self.item = item
        self.source = source
        self.origin = origin
        self.itemFrame = itemFrame
        self.hidesOriginal = hidesOriginal
        self.viaKeyboard = viaKeyboard
    }

    /// Where inside the item it was grabbed; the ghost keeps this offset to the pointer.
    public var grabOffset: Point { origin - itemFrame.origin }

    /// The dragged item's frame when the pointer is at `location`.
    public func ghostFrame(at location: Point) -> Rect {
        Rect(origin: location - grabOffset, size: itemFrame.size)
    }
}

/// What the dragged item is over.
public enum Hover: Hashable, Sendable, CustomStringConvertible {
    /// Nothing that could take it: a release snaps back.
    case none
    /// A draggable that accepts it, with the exact place it would land.
    case target(DropTarget)
    /// A draggable that refuses it: no marker, and a release snaps back.
    case refused(section: Int)

    public var section: Int? {
        switch self {
        case .none: nil
        case .target(let t): t.section
        case .refused(let s): s
        }
    }

    public var target: DropTarget? {
        if case .target(let t) = self { return t }
        return nil
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .target(let t): "target \(t)"
        case .refused(let s): "refused by \(s)"
        }
    }
}

/// Why a drag ended without a drop.
public enum CancelReason: Hashable, Sendable {
    /// The gesture was taken away (the recognizer cancelled it).
    case gesture
    /// The app asked (Esc, a resize, a mouse event during a keyboard drag).
    case requested
    /// The dragged item left the data source during the drag.
    case itemVanished
}

/// A completed drop, already applied to the data source.
public struct Drop: Hashable, Sendable {
    public var item: ItemID
    public var from: ItemPath
    public var to: ItemPath
    public var location: Point
    /// The release velocity from the gesture's end sample.
    public var velocity: Velocity

    public init(item: ItemID, from: ItemPath, to: ItemPath, location: Point, velocity: Velocity = .zero) {
        self.item = item
        self.from = from
        self.to = to
        self.location = location
        self.velocity = velocity
    }

    /// Dropped where it was: the data source was not called.
    public var isNoOp: Bool { from == to }
}

/// What the coordinator tells the renderer (and anyone else listening).
public enum DragEvent: Hashable, Sendable {
    /// A press and release without a drag.
    case tapped(at: Point, item: ItemPath?)
    /// A drag gesture started outside every draggable; no drag starts.
    case beganOutside(at: Point)
    /// A drag gesture started on a draggable but not on an item it lets go of; no drag starts.
    case notDraggable(at: Point, section: Int, item: Int?)
    case began(DragStart)
    /// The pointer moved or what is under it changed.
    case moved(to: Point, hover: Hover)
    /// The draggable under the drag changed (accepting or refusing); nil when none.
    case targetChanged(section: Int?)
    case dropped(Drop)
    /// Released where nothing takes the item: it snaps back to `source`.
    case endedOutside(item: ItemID, source: ItemPath, at: Point)
    case cancelled(item: ItemID, source: ItemPath, reason: CancelReason)
}

/// The drag-and-drop state machine: gesture samples in, events out, drops applied to a data source.
///
/// A value type: copy it to snapshot a drag, compare event lists in tests.
/// The arena is replaced whenever the layout or the data changes
/// (`updateArena`), and every target is re-evaluated against it.
public struct DragCoordinator: Sendable {
    /// The drag under way.
    public struct Session: Hashable, Sendable {
        public var start: DragStart
        /// Where the item is now (it can shift when the data changes mid-drag).
        public var current: ItemPath
        public var location: Point
        public var hover: Hover
        /// Started from the keyboard: moves come from `moveLifted`, not from the pointer.
        public var isKeyboard: Bool
        /// Where the drag last aimed: for the pointer, the last valid target, kept
        /// while the pointer rests in the gutter beside it; for the keyboard, the
        /// place `moveLifted` chose, accepted or not. Re-anchored by `updateArena`.
        public internal(set) var lastTarget: DropTarget? = nil
    }

    public var arena: DragArena
    public var recognizer: any GestureRecognizing
    public var overlap: OverlapEvaluator
    /// How far outside the last target's frame (cells) the pointer may rest and still keep that target.
    public var gutterTolerance: Int
    public private(set) var session: Session?

    public init(arena: DragArena, recognizer: (any GestureRecognizing)? = nil,
                overlap: OverlapEvaluator = OverlapEvaluator(), gutterTolerance: Int = 2) {
        self.arena = arena
        self.recognizer = recognizer ?? DragGestureRecognizer()
        self.overlap = overlap
        self.gutterTolerance = gutterTolerance
    }

    public var isDragging: Bool { session != nil }

    // MARK: Pointer input

    /// Feeds raw pointer input through the recognizer.
    public mutating func handle<D: DragDataSource>(_ input: PointerInput, dataSource: inout D) -> [DragEvent] {
        var events: [DragEvent] = []
        for output in recognizer.handle(input) {
            switch output {
            case .tap(let p, _):
                events.append(.tapped(at: p, item: hitTest(p)))
            case .sample(let s):
                events += handle(s, dataSource: &dataSource)
            }
        }
        return events
    }

    /// Feeds one gesture sample; a drop is applied to `dataSource` as one transaction.
    public mutating func handle<D: DragDataSource>(_ sample: GestureSample, dataSource: inout D) -> [DragEvent] {
        switch sample.phase {
        case .began:
            var events: [DragEvent] = []
            if let s = session {
                // A mouse drag during a keyboard drag is a requested cancel, not a lost gesture.
                session = nil
                events.append(.cancelled(item: s.start.item, source: s.current,
                                         reason: s.isKeyboard ? .requested : .gesture))
            }
            guard let d = arena.draggable(at: sample.start) else {
                return events + [.beganOutside(at: sample.start)]
            }
            guard let index = d.itemIndex(at: sample.start), d.canDragItem(at: index) else {
                return events + [.notDraggable(at: sample.start, section: d.section, item: d.itemIndex(at: sample.start))]
            }
            let path = ItemPath(section: d.section, item: index)
            let start = DragStart(item: d.itemID(at: index), source: path, origin: sample.start,
                                  itemFrame: d.frameOfItem(at: index), hidesOriginal: d.hidesDraggedItem)
            session = Session(start: start, current: path, location: sample.start, hover: .none, isKeyboard: false)
            events.append(.began(start))
            events += move(to: sample.location, force: true)
            return events
        case .changed:
            guard let s = session, !s.isKeyboard else { return [] }
            return move(to: sample.location, force: false)
        case .ended:
            guard let s = session, !s.isKeyboard else { return [] }
            var events = move(to: sample.location, force: false)
            events += finish(velocity: sample.velocity, dataSource: &dataSource)
            return events
        case .cancelled:
            guard let s = session, !s.isKeyboard else { return [] }
            session = nil
            return [.cancelled(item: s.start.item, source: s.current, reason: .gesture)]
        }
    }

    /// Ends any drag without a drop (Esc); the original snaps back.
    public mutating func cancel(reason: CancelReason = .requested) -> [DragEvent] {
        recognizer.reset()
        guard let s = session else { return [] }
        session = nil
        return [.cancelled(item: s.start.item, source: s.current, reason: reason)]
    }

    /// Takes a new layout (scroll, resize, data change); re-asks the target under the drag.
    ///
    /// Cancels the drag when the dragged item is no longer in `dataSource`.
    public mutating func updateArena<D: DragDataSource>(_ newArena: DragArena, dataSource: D) -> [DragEvent] {
        arena = newArena
        guard let s = session else { return [] }
        guard let now = dataSource.indexPath(for: s.start.item) else {
            session = nil
            recognizer.reset()
            return [.cancelled(item: s.start.item, source: s.current, reason: .itemVanished)]
        }
        session!.current = now
        // Re-anchor what the drag aimed at: indices of the old layout mean nothing in the new one.
        if let last = s.lastTarget, let d = arena.draggable(forSection: last.section) {
            session!.lastTarget = refreshed(last, in: d, session: session!)
        } else {
            session!.lastTarget = nil
        }
        if s.isKeyboard {
            // A keyboard drag stays keyboard-driven, accepted or refused; with its column gone it returns home.
            let goal = session!.lastTarget.map { ItemPath(section: $0.section, item: $0.index) } ?? now
            guard arena.draggable(forSection: goal.section) != nil else {
                return apply(location: s.location, hover: .none, force: true)
            }
            return moveLifted(toSection: goal.section, index: goal.item, force: true)
        }
        return move(to: s.location, force: true)
    }

    /// The item under a point, if any.
    public func hitTest(_ p: Point) -> ItemPath? {
        guard let d = arena.draggable(at: p), let i = d.itemIndex(at: p) else { return nil }
        return ItemPath(section: d.section, item: i)
    }

    // MARK: Keyboard drags

    /// Lifts an item without a pointer; it hovers over its own place.
    public mutating func lift(at path: ItemPath) -> [DragEvent] {
        var events = cancel(reason: .requested)
        guard let d = arena.draggable(forSection: path.section), path.item >= 0, path.item < d.itemCount,
              d.canDragItem(at: path.item) else { return events }
        let frame = d.frameOfItem(at: path.item)
        let start = DragStart(item: d.itemID(at: path.item), source: path, origin: frame.origin,
                              itemFrame: frame, hidesOriginal: d.hidesDraggedItem, viaKeyboard: true)
        session = Session(start: start, current: path, location: frame.origin, hover: .none, isKeyboard: true)
        events.append(.began(start))
        events += moveLifted(toSection: path.section, index: path.item, force: true)
        return events
    }

    /// Whether the lifted (or any) item could be dropped at `section`, final `index`.
    public func canDrop(_ item: ItemID, from current: ItemPath, toSection section: Int, index: Int) -> Bool {
        guard let d = arena.draggable(forSection: section) else { return false }
        if section == current.section { return index == current.item || d.canRearrange }
        return d.canAcceptDrop(of: item, from: current.section, at: index)
    }

    /// Moves a lifted item to a final index in a section; the ghost sits where it would land.
    public mutating func moveLifted(toSection section: Int, index: Int, force: Bool = false) -> [DragEvent] {
        guard let s = session, s.isKeyboard, let d = arena.draggable(forSection: section) else { return [] }
        let same = section == s.current.section
        let maxIndex = d.itemCount - (same ? 1 : 0)
        let final = min(max(0, index), max(0, maxIndex))
        let gap = same && final > s.current.item ? final + 1 : final
        let goal = DropTarget(section: section, index: final, gap: gap,
                              anchor: anchor(in: d, gap: gap, dragged: s.start.item))
        let hover: Hover = canDrop(s.start.item, from: s.current, toSection: section, index: final)
            ? .target(goal) : .refused(section: section)
        session!.lastTarget = goal
        let y: Int
        if gap < d.itemCount {
            y = d.frameOfItem(at: gap).minY
        } else if d.itemCount > 0 {
            y = d.frameOfItem(at: d.itemCount - 1).maxY
        } else {
            y = d.frame.minY
        }
        let sourceX = arena.draggable(forSection: s.start.source.section)?.frame.minX ?? d.frame.minX
        let location = Point(x: d.frame.minX + (s.start.itemFrame.minX - sourceX), y: y)
        return apply(location: location, hover: hover, force: force)
    }

    /// Drops a lifted item where it hovers (snaps back when that refuses).
    public mutating func dropLifted<D: DragDataSource>(dataSource: inout D) -> [DragEvent] {
        guard let s = session, s.isKeyboard else { return [] }
        return finish(velocity: .zero, dataSource: &dataSource)
    }

    // MARK: Internals

    private func anchor(in d: any Draggable, gap: Int, dragged: ItemID) -> ItemID? {
        var i = gap
        while i < d.itemCount {
            let id = d.itemID(at: i)
            if id != dragged { return id }
            i += 1
        }
        return nil
    }

    /// The drop target a draggable offers at a pointer location, or nil when it refuses.
    private func target(in d: any Draggable, at p: Point, session s: Session) -> DropTarget? {
        let gap = d.gapIndex(at: p)
        let same = d.section == s.current.section
        let index = same && gap > s.current.item ? gap - 1 : gap
        guard canDrop(s.start.item, from: s.current, toSection: d.section, index: index) else { return nil }
        return DropTarget(section: d.section, index: index, gap: gap, anchor: anchor(in: d, gap: gap, dragged: s.start.item))
    }

    private mutating func move(to p: Point, force: Bool) -> [DragEvent] {
        guard let s = session else { return [] }
        var hover = Hover.none
        var kept: DropTarget?
        // Outside the container nothing takes the item, whatever a draggable's frame or the ghost overlaps.
        if arena.container.contains(p) {
            let ghost = s.start.ghostFrame(at: p)
            let candidates = arena.draggables.map { OverlapCandidate(rect: $0.frame, priority: $0.priority) }
            var found: DropTarget?
            let result = overlap.evaluate(pointer: p, dragged: ghost, candidates: candidates) { i in
                found = target(in: arena.draggables[i], at: p, session: s)
                return found != nil
            }
            if result.target != nil, let t = found {
                hover = .target(t)
                kept = t
            } else if let r = result.refused.first {
                hover = .refused(section: arena.draggables[r].section)
            } else if let last = s.lastTarget, let d = arena.draggable(forSection: last.section),
                      d.frame.insetBy(-gutterTolerance).contains(p) {
                // Resting in the gutter keeps the last valid target, re-asked on every move;
                // while it refuses it stays kept, so it comes back without a flip to none.
                hover = canDrop(s.start.item, from: s.current, toSection: last.section, index: last.index)
                    ? .target(last) : .refused(section: last.section)
                kept = last
            }
        }
        session!.lastTarget = kept
        return apply(location: p, hover: hover, force: force)
    }

    /// `t` re-expressed in `d`'s current layout: the same gap while it still holds
    /// the same anchor, else the anchor's new gap (the end for none; the old gap,
    /// clamped, when the anchor has gone), with the final index recomputed from
    /// the dragged item's current place.
    private func refreshed(_ t: DropTarget, in d: any Draggable, session s: Session) -> DropTarget {
        var gap = t.gap
        if gap < 0 || gap > d.itemCount || anchor(in: d, gap: gap, dragged: s.start.item) != t.anchor {
            if let a = t.anchor {
                gap = (0..<d.itemCount).first { d.itemID(at: $0) == a } ?? min(max(0, t.gap), d.itemCount)
            } else {
                gap = d.itemCount
            }
        }
        let same = d.section == s.current.section
        let index = same && gap > s.current.item ? gap - 1 : gap
        return DropTarget(section: d.section, index: index, gap: gap, anchor: anchor(in: d, gap: gap, dragged: s.start.item))
    }

    private mutating func apply(location: Point, hover: Hover, force: Bool) -> [DragEvent] {
        guard let s = session else { return [] }
        guard force || location != s.location || hover != s.hover else { return [] }
        session!.location = location
        session!.hover = hover
        var events: [DragEvent] = [.moved(to: location, hover: hover)]
        if hover.section != s.hover.section {
            events.append(.targetChanged(section: hover.section))
        }
        return events
    }

    private mutating func finish<D: DragDataSource>(velocity: Velocity, dataSource: inout D) -> [DragEvent] {
        guard let s = session else { return [] }
        session = nil
        guard let t = s.hover.target else {
            return [.endedOutside(item: s.start.item, source: s.current, at: s.location)]
        }
        let transaction = DropTransaction(item: s.start.item, target: t)
        guard let (from, to) = transaction.apply(to: &dataSource) else {
            return [.cancelled(item: s.start.item, source: s.current, reason: .itemVanished)]
        }
        return [.dropped(Drop(item: s.start.item, from: from, to: to, location: s.location, velocity: velocity))]
    }
}
