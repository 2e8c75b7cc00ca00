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
    /// Every item the drag carries, in board order, when it carries more than `item` (a selection); else empty.
    public var carried: [ItemID]
    /// An item of the data source, or a section (a column dragged by its header).
    public var kind: DragItemKind

    public init(
        item: ItemID, source: ItemPath, origin: Point, itemFrame: Rect, hidesOriginal: Bool = true,
        viaKeyboard: Bool = false, carried: [ItemID] = [], kind: DragItemKind = .item
    ) {
        self.item = item
        self.source = source
        self.origin = origin
        self.itemFrame = itemFrame
        self.hidesOriginal = hidesOriginal
        self.viaKeyboard = viaKeyboard
        self.carried = carried
        self.kind = kind
    }

    /// The items the drag carries: `carried`, or just `item`.
    public var items: [ItemID] { carried.isEmpty ? [item] : carried }

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
    /// A draggable that refuses it: no marker, and a release snaps back. `because`: the data
    /// source's words (nil when the draggable itself refuses).
    case refused(section: Int, because: String? = nil)

    public var section: Int? {
        switch self {
        case .none: nil
        case .target(let t): t.section
        case .refused(let s, _): s
        }
    }

    /// The data source's words for a refusal (nil: none, or not refused).
    public var refusal: String? {
        if case .refused(_, let why) = self { return why }
        return nil
    }

    public var target: DropTarget? {
        if case .target(let t) = self { return t }
        return nil
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .target(let t): "target \(t)"
        case .refused(let s, let why): "refused by \(s)" + (why.map { ": \($0)" } ?? "")
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
    /// For a drag carrying several items: each one's move, in board order (the grabbed one among them).
    public var carried: [CarriedMove]

    public init(
        item: ItemID, from: ItemPath, to: ItemPath, location: Point, velocity: Velocity = .zero,
        carried: [CarriedMove] = []
    ) {
        self.item = item
        self.from = from
        self.to = to
        self.location = location
        self.velocity = velocity
        self.carried = carried
    }

    /// Dropped where it was: the data source was not called.
    public var isNoOp: Bool { from == to && carried.allSatisfy { $0.from == $0.to } }
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
    /// Released over a place the data source took, but it refused the drop when asked to perform
    /// it (the data changed meanwhile): nothing changed, the item snaps back to `source`.
    case dropRefused(item: ItemID, source: ItemPath, at: Point, because: String)
    case cancelled(item: ItemID, source: ItemPath, reason: CancelReason)
}

/// The drag-and-drop state machine: gesture samples in, events out, drops applied to a data source.
///
/// A value type: copy it to snapshot a drag, compare event lists in tests.
/// The arena is replaced whenever the layout or the data changes
/// (`updateArena`), and every target is re-evaluated against it.
///
/// A swimlane board is a grid of draggables, one per lane × column cell, each its own
/// section. A cell with an empty frame (a collapsed lane) is never a target: not under the
/// pointer, not through the gutter, not by `moveLifted`, and nothing in it can be lifted.
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
        /// Where each carried item is now, in board order (the dragged item alone for a single drag).
        public internal(set) var carriedPaths: [ItemPath] = []
        /// The identities of `carriedPaths`, in the same order.
        public internal(set) var carriedIDs: [ItemID] = []
        /// The gesture's velocity at the last sample (cells/s): the app's fling detection reads it here.
        public internal(set) var velocity: Velocity = .zero

        /// How many carried items sit in `section` before layout index `gap`.
        func carriedBefore(_ gap: Int, in section: Int) -> Int {
            carriedPaths.reduce(0) { $0 + ($1.section == section && $1.item < gap ? 1 : 0) }
        }

        func carriedCount(in section: Int) -> Int {
            carriedPaths.reduce(0) { $0 + ($1.section == section ? 1 : 0) }
        }
    }

    public var arena: DragArena
    public var recognizer: any GestureRecognizing
    public var overlap: OverlapEvaluator
    /// How far outside the last target's frame (cells) the pointer may rest and still keep that target.
    public var gutterTolerance: Int
    public private(set) var session: Session?
    /// The app's multi-selection: a drag that grabs one of these carries all of them
    /// (those the data source still has). A drag of an item outside it carries that item alone.
    public var selectedItems: Set<ItemID> = []

    public init(
        arena: DragArena, recognizer: (any GestureRecognizing)? = nil,
        overlap: OverlapEvaluator = OverlapEvaluator(), gutterTolerance: Int = 2
    ) {
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
                events.append(
                    .cancelled(
                        item: s.start.item, source: s.current,
                        reason: s.isKeyboard ? .requested : .gesture))
            }
            let hit = arena.item(at: sample.start)
            guard let d = hit?.draggable ?? arena.draggable(at: sample.start) else {
                return events + [.beganOutside(at: sample.start)]
            }
            guard let index = hit?.index, d.canDragItem(at: index) else {
                return events + [.notDraggable(at: sample.start, section: d.section, item: hit?.index)]
            }
            let path = ItemPath(section: d.section, item: index)
            let id = d.itemID(at: index)
            let (carried, paths) =
                d.itemKind == .item
                ? carriedItems(grabbing: id, at: path, dataSource: dataSource)
                : ([], [path])
            let start = DragStart(
                item: id, source: path, origin: sample.start,
                itemFrame: d.frameOfItem(at: index), hidesOriginal: d.hidesDraggedItem,
                carried: carried, kind: d.itemKind)
            session = Session(
                start: start, current: path, location: sample.start, hover: .none, isKeyboard: false,
                carriedPaths: paths, carriedIDs: carried.isEmpty ? [id] : carried, velocity: sample.velocity)
            events.append(.began(start))
            events += move(to: sample.location, force: true, dataSource: dataSource)
            return events
        case .changed:
            guard let s = session, !s.isKeyboard else { return [] }
            session!.velocity = sample.velocity
            return move(to: sample.location, force: false, dataSource: dataSource)
        case .ended:
            guard let s = session, !s.isKeyboard else { return [] }
            session!.velocity = sample.velocity
            var events = move(to: sample.location, force: false, dataSource: dataSource)
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
        guard let now = locate(s.start.item, kind: s.start.kind, section: s.start.source.section, in: dataSource) else {
            session = nil
            recognizer.reset()
            return [.cancelled(item: s.start.item, source: s.current, reason: .itemVanished)]
        }
        session!.current = now
        if s.start.carried.isEmpty {
            session!.carriedPaths = [now]
        } else {
            // Carried items another writer deleted are no longer carried; the rest are confirmed
            // where they were (no search) or looked for.
            let found = zip(s.carriedIDs, s.carriedPaths).compactMap { id, hint in
                dataSource.indexPath(for: id, hint: hint).map { (id, $0) }
            }.sorted { $0.1 < $1.1 }
            session!.carriedIDs = found.map(\.0)
            session!.carriedPaths = found.map(\.1)
        }
        // Re-anchor what the drag aimed at: indices of the old layout mean nothing in the new one.
        if let last = s.lastTarget, let d = arena.draggable(forSection: last.section), !d.frame.isEmpty {
            session!.lastTarget = refreshed(last, in: d, session: session!)
        } else {
            session!.lastTarget = nil
        }
        if s.isKeyboard {
            // A keyboard drag stays keyboard-driven, accepted or refused; with its column gone it returns home.
            let goal =
                session!.lastTarget.map { ItemPath(section: $0.section, item: $0.index) }
                ?? ItemPath(section: now.section, item: now.item - session!.carriedBefore(now.item, in: now.section))
            guard let d = arena.draggable(forSection: goal.section), !d.frame.isEmpty else {
                return apply(location: s.location, hover: .none, force: true)
            }
            return moveLifted(toSection: goal.section, index: goal.item, force: true, dataSource: dataSource)
        }
        return move(to: s.location, force: true, dataSource: dataSource)
    }

    /// The item under a point, if any.
    public func hitTest(_ p: Point) -> ItemPath? {
        guard let (d, i) = arena.item(at: p) else { return nil }
        return ItemPath(section: d.section, item: i)
    }

    /// The selection's items in board order when `id` is one of several selected, else none; and their paths.
    private func carriedItems<D: DragDataSource>(
        grabbing id: ItemID, at path: ItemPath,
        dataSource: D
    ) -> ([ItemID], [ItemPath]) {
        guard selectedItems.count > 1, selectedItems.contains(id) else { return ([], [path]) }
        let found = selectedItems.compactMap { i in dataSource.indexPath(for: i).map { (i, $0) } }.sorted {
            $0.1 < $1.1
        }
        guard found.count > 1 else { return ([], [path]) }
        return (found.map(\.0), found.map(\.1))
    }

    /// Where a dragged item or section is in `dataSource` now.
    private func locate<D: DragDataSource>(_ id: ItemID, kind: DragItemKind, section: Int, in dataSource: D)
        -> ItemPath?
    {
        switch kind {
        case .item: dataSource.indexPath(for: id)
        case .section: dataSource.sectionIndex(for: id).map { ItemPath(section: section, item: $0) }
        }
    }

    // MARK: Keyboard drags

    /// Lifts an item without a pointer; it hovers over its own place.
    public mutating func lift(at path: ItemPath) -> [DragEvent] {
        lift(at: path, dataSource: NoSource())
    }

    /// Lifts an item without a pointer, with the selection it belongs to (see `selectedItems`).
    public mutating func lift<D: DragDataSource>(at path: ItemPath, dataSource: D) -> [DragEvent] {
        var events = cancel(reason: .requested)
        guard let d = arena.draggable(forSection: path.section), !d.frame.isEmpty, d.itemKind == .item, path.item >= 0,
            path.item < d.itemCount, d.canDragItem(at: path.item)
        else { return events }
        let frame = d.frameOfItem(at: path.item)
        let id = d.itemID(at: path.item)
        let (carried, paths) = carriedItems(grabbing: id, at: path, dataSource: dataSource)
        let start = DragStart(
            item: id, source: path, origin: frame.origin,
            itemFrame: frame, hidesOriginal: d.hidesDraggedItem, viaKeyboard: true, carried: carried)
        session = Session(
            start: start, current: path, location: frame.origin, hover: .none, isKeyboard: true,
            carriedPaths: paths, carriedIDs: carried.isEmpty ? [id] : carried)
        events.append(.began(start))
        // Where the grabbed item stands, counted among the items the drag does not carry.
        let home = path.item - session!.carriedBefore(path.item, in: path.section)
        events += moveLifted(toSection: path.section, index: home, force: true, dataSource: dataSource)
        return events
    }

    /// Whether the draggable at `section` takes the lifted (or any) item at final `index`; for
    /// the dragged item, with everything the drag carries (each from its own section). The
    /// draggable's own answer only: `verdict(toSection:index:dataSource:)` asks the data too.
    public func canDrop(_ item: ItemID, from current: ItemPath, toSection section: Int, index: Int) -> Bool {
        guard let d = arena.draggable(forSection: section) else { return false }
        if let s = session, s.start.item == item, !s.start.carried.isEmpty {
            let incoming = zip(s.carriedIDs, s.carriedPaths).filter { $0.1.section != section }
                .map { IncomingItem(item: $0.0, source: $0.1.section) }
            if incoming.isEmpty { return d.canRearrange }
            if s.carriedCount(in: section) > 0, !d.canRearrange { return false }
            return d.canAcceptDrop(of: incoming, at: index)
        }
        if section == current.section { return index == current.item || d.canRearrange }
        return d.canAcceptDrop(of: [IncomingItem(item: item, source: current.section)], at: index)
    }

    /// Whether the drag may land at final `index` of `section`: the draggable's answer, then the
    /// data source's (with its words). Nil when there is no drag or no such section to land in.
    public func verdict<D: DragDataSource>(toSection section: Int, index: Int, dataSource: D) -> Hover? {
        guard let s = session, let d = arena.draggable(forSection: section), !d.frame.isEmpty else { return nil }
        return hover(at: goal(in: d, index: index, session: s), session: s, dataSource: dataSource)
    }

    /// The target at final `index` of `d` for the drag: its layout gap and anchor.
    private func goal(in d: any Draggable, index: Int, session s: Session) -> DropTarget {
        let maxIndex = d.itemCount - s.carriedCount(in: d.section)
        let final = min(max(0, index), max(0, maxIndex))
        // The layout gap with `final` uncarried items before it.
        var gap = final
        for p in s.carriedPaths where p.section == d.section {
            if p.item < gap { gap += 1 } else { break }
        }
        return DropTarget(section: d.section, index: final, gap: gap, anchor: anchor(in: d, gap: gap, session: s))
    }

    /// What the drag hovering at `t` is: a target, or refused by the draggable or by the data (with its words).
    private func hover<D: DragDataSource>(at t: DropTarget, session s: Session, dataSource: D) -> Hover {
        guard canDrop(s.start.item, from: s.current, toSection: t.section, index: t.index) else {
            return .refused(section: t.section)
        }
        if let why = dataSource.refusal(of: proposal(t, session: s)) {
            return .refused(section: t.section, because: why)
        }
        return .target(t)
    }

    private func proposal(_ t: DropTarget, session s: Session) -> DropProposal {
        DropProposal(kind: s.start.kind, items: s.start.kind == .section ? [s.start.item] : s.carriedIDs, target: t)
    }

    /// Moves a lifted item to a final index in a section; the ghost sits where it would land.
    ///
    /// A section whose frame is empty (a collapsed swimlane cell) is never a target: the call does nothing.
    public mutating func moveLifted<D: DragDataSource>(
        toSection section: Int, index: Int, force: Bool = false, dataSource: D
    ) -> [DragEvent] {
        guard let s = session, s.isKeyboard, let d = arena.draggable(forSection: section),
            !d.frame.isEmpty
        else { return [] }
        let aim = goal(in: d, index: index, session: s)
        let gap = aim.gap
        let hover = hover(at: aim, session: s, dataSource: dataSource)
        session!.lastTarget = aim
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

    /// The first item at or after `gap` that the drag does not carry.
    private func anchor(in d: any Draggable, gap: Int, session s: Session) -> ItemID? {
        var i = gap
        while i < d.itemCount {
            let id = d.itemID(at: i)
            if id != s.start.item && !(s.start.carried.count > 1 && s.start.carried.contains(id)) { return id }
            i += 1
        }
        return nil
    }

    /// What a draggable offers the ghost at a pointer location: a target, or a refusal.
    private func offer<D: DragDataSource>(in d: any Draggable, at p: Point, session s: Session, dataSource: D) -> Hover
    {
        let same = d.section == s.current.section
        let gap = d.gapIndex(ghost: s.start.ghostFrame(at: p), dragged: same ? s.current.item : nil)
        let index = gap - s.carriedBefore(gap, in: d.section)
        let t = DropTarget(section: d.section, index: index, gap: gap, anchor: anchor(in: d, gap: gap, session: s))
        return hover(at: t, session: s, dataSource: dataSource)
    }

    private mutating func move<D: DragDataSource>(to p: Point, force: Bool, dataSource: D) -> [DragEvent] {
        guard let s = session else { return [] }
        var hover = Hover.none
        var kept: DropTarget?
        // Outside the container nothing takes the item, whatever a draggable's frame or the ghost overlaps.
        if arena.container.contains(p) {
            let ghost = s.start.ghostFrame(at: p)
            // Items drop only into draggables of their kind: cards into columns, columns into the board.
            // A draggable with an empty frame (a collapsed swimlane cell) is never a candidate.
            let candidates = arena.draggables.map { d in
                d.itemKind == s.start.kind && !d.frame.isEmpty
                    ? OverlapCandidate(rect: d.frame, priority: d.priority)
                    : OverlapCandidate(rect: .zero, priority: d.priority)
            }
            var offers: [Int: Hover] = [:]
            let result = overlap.evaluate(pointer: p, dragged: ghost, candidates: candidates) { i in
                let o = offer(in: arena.draggables[i], at: p, session: s, dataSource: dataSource)
                offers[i] = o
                return o.target != nil
            }
            if let i = result.target, let t = offers[i]?.target {
                hover = .target(t)
                kept = t
            } else if let r = result.refused.first {
                hover = offers[r] ?? .refused(section: arena.draggables[r].section)
            } else if let last = s.lastTarget, let d = arena.draggable(forSection: last.section),
                !d.frame.isEmpty, d.frame.insetBy(-gutterTolerance).contains(p)
            {
                // Resting in the gutter keeps the last valid target, re-asked on every move;
                // while it refuses it stays kept, so it comes back without a flip to none.
                hover = self.hover(at: last, session: s, dataSource: dataSource)
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
        if gap < 0 || gap > d.itemCount || anchor(in: d, gap: gap, session: s) != t.anchor {
            if let a = t.anchor {
                gap = (0..<d.itemCount).first { d.itemID(at: $0) == a } ?? min(max(0, t.gap), d.itemCount)
            } else {
                gap = d.itemCount
            }
        }
        let index = gap - s.carriedBefore(gap, in: d.section)
        return DropTarget(section: d.section, index: index, gap: gap, anchor: anchor(in: d, gap: gap, session: s))
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
        let vanished: [DragEvent] = [.cancelled(item: s.start.item, source: s.current, reason: .itemVanished)]
        let drop: Drop
        if s.start.kind == .section {
            guard let (from, to) = proposal(t, session: s).sectionMove(in: dataSource) else { return vanished }
            let section = s.start.source.section
            drop = Drop(
                item: s.start.item, from: ItemPath(section: section, item: from),
                to: ItemPath(section: section, item: to), location: s.location, velocity: velocity)
        } else if !s.start.carried.isEmpty {
            guard dataSource.indexPath(for: s.start.item) != nil else { return vanished }
            let moves = GroupDropTransaction(items: s.start.carried, target: t).resolve(in: dataSource)
            guard let mine = moves.first(where: { $0.item == s.start.item }) else { return vanished }
            drop = Drop(
                item: s.start.item, from: mine.from, to: mine.to, location: s.location, velocity: velocity,
                carried: moves)
        } else {
            guard let (from, to) = DropTransaction(item: s.start.item, target: t).resolve(in: dataSource) else {
                return vanished
            }
            drop = Drop(item: s.start.item, from: from, to: to, location: s.location, velocity: velocity)
        }
        // Dropped where it was: the data source is not asked.
        guard !drop.isNoOp else { return [.dropped(drop)] }
        var proposal = proposal(t, session: s)
        if !drop.carried.isEmpty { proposal.items = drop.carried.map(\.item) }
        if let why = dataSource.perform(proposal) {
            return [.dropRefused(item: s.start.item, source: s.current, at: s.location, because: why)]
        }
        return [.dropped(drop)]
    }
}

/// The data source of a drag that needs none (a keyboard lift without a selection).
private struct NoSource: DragDataSource {
    func numberOfItems(inSection section: Int) -> Int { 0 }
    func indexPath(for item: ItemID) -> ItemPath? { nil }
    func item(at indexPath: ItemPath) -> Int? { nil }
    mutating func perform(_ drop: DropProposal) -> String? { nil }
}
