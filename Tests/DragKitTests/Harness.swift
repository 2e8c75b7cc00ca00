import DragKit

/// A board column for tests: cards of fixed heights stacked from a top offset.
///
/// Card `i` starts at `frame.minY + top - scroll + (heights before i) + i * spacing`
/// and spans the column's full width minus `cardInset` on each side.
struct TestColumn: Draggable {
    var section: Int
    var frame: Rect
    var ids: [ItemID]
    var heights: [Int]
    var top: Int
    var spacing: Int
    var scroll: Int
    var cardInset: Int
    var canRearrange: Bool
    var priority: Int
    var hidesDraggedItem: Bool
    var accept: @Sendable (ItemID, Int, Int) -> Bool
    var draggableItem: @Sendable (Int) -> Bool
    private var offsets: [Int]

    init(
        section: Int, frame: Rect, ids: [ItemID], heights: [Int]? = nil, cardHeight: Int = 2,
        top: Int = 1, spacing: Int = 1, scroll: Int = 0, cardInset: Int = 0,
        canRearrange: Bool = true, priority: Int = 0, hidesDraggedItem: Bool = true,
        accept: @escaping @Sendable (ItemID, Int, Int) -> Bool = { _, _, _ in true },
        draggableItem: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) {
        self.section = section
        self.frame = frame
        self.ids = ids
        self.heights = heights ?? Array(repeating: cardHeight, count: ids.count)
        precondition(self.heights.count == ids.count, "one height per card")
        self.top = top
        self.spacing = spacing
        self.scroll = scroll
        self.cardInset = cardInset
        self.canRearrange = canRearrange
        self.priority = priority
        self.hidesDraggedItem = hidesDraggedItem
        self.accept = accept
        self.draggableItem = draggableItem
        var y = 0
        var offsets: [Int] = []
        for h in self.heights {
            offsets.append(y)
            y += h + spacing
        }
        self.offsets = offsets
    }

    var itemCount: Int { ids.count }
    func itemID(at index: Int) -> ItemID { ids[index] }
    func frameOfItem(at index: Int) -> Rect {
        Rect(
            x: frame.minX + cardInset, y: frame.minY + top - scroll + offsets[index],
            width: frame.width - 2 * cardInset, height: heights[index])
    }
    func canDragItem(at index: Int) -> Bool { draggableItem(index) }
    func canAcceptDrop(of item: ItemID, from source: Int, at index: Int) -> Bool { accept(item, source, index) }
}

/// A data source that keeps plain identities and logs what each drop did to them.
///
/// It performs a drop as a plain array source would: one move inside a section, or a delete and
/// an insert across sections (a group: every carried item deleted, then inserted in board order),
/// logged between `begin` and `commit`; the log shows where the coordinator resolved the drop.
/// `refuse` is the source's rule: asked while a drag hovers and again when a drop is performed.
struct RecordingSource: DragDataSource {
    typealias Item = ItemID

    enum Call: Hashable, CustomStringConvertible {
        case begin
        case commit
        case move(ItemPath, ItemPath)
        case insert(ItemID, ItemPath)
        case delete(ItemPath)
        case refused(String)

        var description: String {
            switch self {
            case .begin: "begin"
            case .commit: "commit"
            case .move(let a, let b): "move \(a)->\(b)"
            case .insert(let id, let p): "insert \(id)@\(p)"
            case .delete(let p): "delete \(p)"
            case .refused(let why): "refused: \(why)"
            }
        }
    }

    var sections: [[ItemID]]
    var log: [Call] = []
    var refuse: @Sendable (DropProposal) -> String? = { _ in nil }

    init(_ sections: [[ItemID]]) {
        self.sections = sections
    }

    /// Sections of raw identities: `RecordingSource(ids: [[0, 1], [100]])`.
    init(ids: [[UInt64]]) {
        self.sections = ids.map { $0.map(ItemID.init) }
    }

    var raw: [[UInt64]] { sections.map { $0.map(\.rawValue) } }

    func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].count : 0
    }

    func indexPath(for item: ItemID) -> ItemPath? {
        for (s, ids) in sections.enumerated() {
            if let i = ids.firstIndex(of: item) { return ItemPath(section: s, item: i) }
        }
        return nil
    }

    func item(at indexPath: ItemPath) -> ItemID? {
        guard sections.indices.contains(indexPath.section),
            sections[indexPath.section].indices.contains(indexPath.item)
        else { return nil }
        return sections[indexPath.section][indexPath.item]
    }

    func refusal(of drop: DropProposal) -> String? { refuse(drop) }

    mutating func perform(_ drop: DropProposal) -> String? {
        if let why = refuse(drop) {
            log.append(.refused(why))
            return why
        }
        log.append(.begin)
        if drop.items.count == 1,
            let (from, to) = DropTransaction(item: drop.items[0], target: drop.target).resolve(in: self)
        {
            if from.section == to.section {
                log.append(.move(from, to))
                sections[to.section].insert(sections[from.section].remove(at: from.item), at: to.item)
            } else {
                log.append(.delete(from))
                sections[from.section].remove(at: from.item)
                log.append(.insert(drop.items[0], to))
                sections[to.section].insert(drop.items[0], at: to.item)
            }
        } else {
            let moves = GroupDropTransaction(items: drop.items, target: drop.target).resolve(in: self)
            for m in moves.reversed() {
                log.append(.delete(m.from))
                sections[m.from.section].remove(at: m.from.item)
            }
            for m in moves {
                log.append(.insert(m.item, m.to))
                sections[m.to.section].insert(m.item, at: m.to.item)
            }
        }
        log.append(.commit)
        return nil
    }
}

/// The standard test layout: columns 10 wide, 2-cell gutters, 20 rows tall.
///
/// Column `s` spans x `12s ..< 12s + 10`; with the default cards (height 2,
/// top 1, spacing 1) card `i` covers rows `1 + 3i` (upper half) and `2 + 3i`
/// (lower half), and row `3 + 3i` is the gap below it.
enum Layout {
    static let columnWidth = 10
    static let gutter = 2
    static let height = 20

    static func columnFrame(_ section: Int) -> Rect {
        Rect(x: section * (columnWidth + gutter), y: 0, width: columnWidth, height: height)
    }

    /// A column of the standard layout showing `source`'s section.
    static func column(
        _ section: Int, in source: RecordingSource, scroll: Int = 0,
        canRearrange: Bool = true, priority: Int = 0,
        accept: @escaping @Sendable (ItemID, Int, Int) -> Bool = { _, _, _ in true },
        draggableItem: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) -> TestColumn {
        TestColumn(
            section: section, frame: columnFrame(section), ids: source.sections[section],
            scroll: scroll, canRearrange: canRearrange, priority: priority,
            accept: accept, draggableItem: draggableItem)
    }

    static func container(columns: Int) -> Rect {
        Rect(x: 0, y: 0, width: columns * (columnWidth + gutter), height: height + 5)
    }

    static func arena(_ source: RecordingSource) -> DragArena {
        DragArena(
            container: container(columns: source.sections.count),
            draggables: source.sections.indices.map { column($0, in: source) })
    }

    /// The upper-half row of card `i` in the standard layout.
    static func upper(_ i: Int) -> Int { 1 + 3 * i }
    /// The lower-half row of card `i` in the standard layout.
    static func lower(_ i: Int) -> Int { 2 + 3 * i }
    /// The blank row below card `i` in the standard layout.
    static func gapRow(below i: Int) -> Int { 3 + 3 * i }
    /// A column `x` inside column `section`.
    static func x(_ section: Int) -> Int { section * (columnWidth + gutter) + 4 }

    static func itemFrame(section: Int, item: Int) -> Rect {
        Rect(x: section * (columnWidth + gutter), y: upper(item), width: columnWidth, height: 2)
    }
}

/// Drives a coordinator with pointer input on an injected clock, against a recording source.
struct Driver {
    var coordinator: DragCoordinator
    var source: RecordingSource
    var clock = 0.0
    /// Seconds between successive inputs.
    var step = 1.0 / 60

    init(
        _ source: RecordingSource, arena: DragArena? = nil, overlap: OverlapEvaluator = OverlapEvaluator(),
        recognizer: (any GestureRecognizing)? = nil
    ) {
        self.source = source
        self.coordinator = DragCoordinator(
            arena: arena ?? Layout.arena(source), recognizer: recognizer,
            overlap: overlap)
    }

    init(ids: [[UInt64]]) {
        self.init(RecordingSource(ids: ids))
    }

    mutating func send(_ phase: PointerInput.Phase, _ x: Int, _ y: Int) -> [DragEvent] {
        clock += step
        return coordinator.handle(PointerInput(phase, Point(x: x, y: y), at: clock), dataSource: &source)
    }

    mutating func press(_ x: Int, _ y: Int) -> [DragEvent] { send(.press, x, y) }
    mutating func move(_ x: Int, _ y: Int) -> [DragEvent] { send(.move, x, y) }
    mutating func release(_ x: Int, _ y: Int) -> [DragEvent] { send(.release, x, y) }
    mutating func cancelInput(_ x: Int, _ y: Int) -> [DragEvent] { send(.cancel, x, y) }

    /// Press at one point, move to another, release there; all events.
    mutating func drag(from a: Point, to b: Point) -> [DragEvent] {
        press(a.x, a.y) + move(b.x, b.y) + release(b.x, b.y)
    }

    /// Where the current sample-level gesture started.
    var gestureStart = Point.zero

    mutating func feed(_ phase: GesturePhase, _ location: Point, velocity: Velocity = .zero) -> [DragEvent] {
        clock += step
        let s = GestureSample(phase, start: gestureStart, location: location, timestamp: clock, velocity: velocity)
        return coordinator.handle(s, dataSource: &source)
    }

    /// A `.began` sample: the gesture started at `start` and is now at `location`.
    mutating func began(_ start: Point, _ location: Point) -> [DragEvent] {
        gestureStart = start
        return feed(.began, location)
    }

    mutating func changed(_ location: Point) -> [DragEvent] { feed(.changed, location) }
    mutating func ended(_ location: Point, velocity: Velocity = .zero) -> [DragEvent] {
        feed(.ended, location, velocity: velocity)
    }
    mutating func gestureCancelled(_ location: Point) -> [DragEvent] { feed(.cancelled, location) }

    /// Re-lays the arena out from the source (after a data change or a scroll).
    mutating func relayout(scroll: Int = 0) -> [DragEvent] {
        let arena = DragArena(
            container: coordinator.arena.container,
            draggables: source.sections.indices.map { Layout.column($0, in: source, scroll: scroll) })
        return coordinator.updateArena(arena, dataSource: source)
    }
}

/// Shorthand constructors for expected values.
func id(_ raw: UInt64) -> ItemID { ItemID(raw) }
func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }
func pt(_ x: Int, _ y: Int) -> Point { Point(x: x, y: y) }
func target(_ section: Int, index: Int, gap: Int, anchor: UInt64?) -> Hover {
    .target(DropTarget(section: section, index: index, gap: gap, anchor: anchor.map(ItemID.init)))
}

extension DropTransaction {
    /// What the coordinator does on release: resolve, then ask the source to perform the drop
    /// (nothing when the item would land where it is). Nil when the item has gone or the source refused.
    @discardableResult
    func apply(to s: inout RecordingSource) -> (from: ItemPath, to: ItemPath)? {
        guard let r = resolve(in: s) else { return nil }
        if r.from != r.to, s.perform(DropProposal(items: [item], target: target)) != nil { return nil }
        return r
    }
}
