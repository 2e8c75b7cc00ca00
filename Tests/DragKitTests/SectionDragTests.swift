import DragKit
import Testing

/// Columns as items of the board: a header strip on row 0 over the standard columns.
struct TestBoard: Draggable {
    var ids: [ItemID]
    var section: Int { -1 }
    var frame: Rect
    var viewport: Rect { Rect(x: frame.minX, y: 0, width: frame.width, height: 1) }
    var itemCount: Int { ids.count }
    func itemID(at index: Int) -> ItemID { ids[index] }
    func frameOfItem(at index: Int) -> Rect { Rect(x: index * 12, y: 0, width: 10, height: 1) }
    var axis: ScrollAxis { .horizontal }
    var itemKind: DragItemKind { .section }
    var priority: Int { 1 }
    var hidesDraggedItem: Bool { false }
}

/// Cards in sections whose sections have identities and can move.
struct SectionSource: DragDataSource {
    var cards: RecordingSource
    var sections: [ItemID]
    var moves: [String] = []

    func numberOfItems(inSection section: Int) -> Int { cards.numberOfItems(inSection: section) }
    func indexPath(for item: ItemID) -> ItemPath? { cards.indexPath(for: item) }
    func item(at indexPath: ItemPath) -> ItemID? { cards.item(at: indexPath) }
    func sectionIndex(for id: ItemID) -> Int? { sections.firstIndex(of: id) }
    var numberOfSections: Int { sections.count }
    func refusal(of drop: DropProposal) -> String? { cards.refusal(of: drop) }
    /// Cards as the recording source does; a section to its final index, logged in `moves`.
    mutating func perform(_ drop: DropProposal) -> String? {
        guard drop.kind == .section else { return cards.perform(drop) }
        guard let (from, to) = drop.sectionMove(in: self) else { return "gone" }
        moves.append("\(from)->\(to)")
        sections.insert(sections.remove(at: from), at: to)
        cards.sections.insert(cards.sections.remove(at: from), at: to)
        return nil
    }
}

@Suite("Section drags")
struct SectionDragTests {
    static let ids: [[UInt64]] = [[0, 1], [100], [], [300, 301]]

    func arena(_ s: SectionSource) -> DragArena {
        DragArena(
            container: Layout.container(columns: 4),
            draggables: s.cards.sections.indices.map { Layout.column($0, in: s.cards) }
                + [TestBoard(ids: s.sections, frame: Layout.container(columns: 4))])
    }

    func source() -> SectionSource {
        SectionSource(cards: RecordingSource(ids: Self.ids), sections: (0..<4).map { ItemID(1000 + UInt64($0)) })
    }

    @Test func aHeaderDraggedPastTwoColumnsLandsAfterThem() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        let start = DragStart(
            item: ItemID(1000), source: path(-1, 0), origin: pt(4, 0),
            itemFrame: Rect(x: 0, y: 0, width: 10, height: 1), hidesOriginal: false, kind: .section)
        let began = GestureSample(.began, start: pt(4, 0), location: pt(28, 6), timestamp: 1)
        // The ghost (x 24–33) has its right edge past the centres of columns 1 and 2, not 3's.
        #expect(
            c.handle(began, dataSource: &s) == [
                .began(start), .moved(to: pt(28, 6), hover: target(-1, index: 2, gap: 3, anchor: 1003)),
                .targetChanged(section: -1),
            ])
        let ended = GestureSample(.ended, start: pt(4, 0), location: pt(28, 6), timestamp: 2)
        #expect(
            c.handle(ended, dataSource: &s) == [
                .dropped(Drop(item: ItemID(1000), from: path(-1, 0), to: path(-1, 2), location: pt(28, 6)))
            ])
        #expect(s.moves == ["0->2"])
        #expect(s.sections.map(\.rawValue) == [1001, 1002, 1000, 1003])
        #expect(s.cards.log.isEmpty)
    }

    @Test func leftwardsTheLeadingEdgeDecidesTooAndCardColumnsNeverTakeAHeader() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        _ = c.handle(GestureSample(.began, start: pt(40, 0), location: pt(40, 0), timestamp: 1), dataSource: &s)
        // Ghost x 10–19: its left edge is left of column 1's centre (17), right of column 0's (5).
        #expect(
            c.handle(GestureSample(.changed, start: pt(40, 0), location: pt(14, 10), timestamp: 2), dataSource: &s)
                == [.moved(to: pt(14, 10), hover: target(-1, index: 1, gap: 1, anchor: 1001))])
        #expect(
            c.handle(GestureSample(.ended, start: pt(40, 0), location: pt(14, 10), timestamp: 3), dataSource: &s)
                == [.dropped(Drop(item: ItemID(1003), from: path(-1, 3), to: path(-1, 1), location: pt(14, 10)))])
        #expect(s.sections.map(\.rawValue) == [1000, 1003, 1001, 1002])
        #expect(s.cards.raw == [[0, 1], [300, 301], [100], []])
    }

    @Test func aCardOverTheHeaderStripStillDropsIntoItsColumn() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        let events = c.handle(
            GestureSample(.began, start: pt(ax, Layout.upper(1)), location: pt(bx, 0), timestamp: 1),
            dataSource: &s)
        #expect(events.dropFirst().first == .moved(to: pt(bx, 0), hover: target(1, index: 0, gap: 0, anchor: 100)))
    }

    @Test func aHeaderResolvesByIdentityWhenAnotherWriterReordersTheColumns() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        _ = c.handle(GestureSample(.began, start: pt(4, 0), location: pt(28, 6), timestamp: 1), dataSource: &s)
        #expect(c.session?.hover == target(-1, index: 2, gap: 3, anchor: 1003))
        // Someone moves column 1003 to the front before the release: the drop still lands before 1003.
        s.sections = [1003, 1000, 1001, 1002].map(ItemID.init)
        s.cards.sections = [[300, 301], [0, 1], [100], []].map { $0.map(ItemID.init) }
        #expect(
            c.handle(GestureSample(.ended, start: pt(4, 0), location: pt(28, 6), timestamp: 2), dataSource: &s)
                == [.dropped(Drop(item: ItemID(1000), from: path(-1, 1), to: path(-1, 0), location: pt(28, 6)))])
        #expect(s.sections.map(\.rawValue) == [1000, 1003, 1001, 1002])
        // A dragged column that disappears cancels the drag.
        c.arena = arena(s)
        _ = c.handle(GestureSample(.began, start: pt(4, 0), location: pt(28, 6), timestamp: 3), dataSource: &s)
        s.sections.removeFirst()
        s.cards.sections.removeFirst()
        #expect(
            c.updateArena(arena(s), dataSource: s)
                == [.cancelled(item: ItemID(1000), source: path(-1, 0), reason: .itemVanished)])
    }
}
