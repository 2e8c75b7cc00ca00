import DragKit
import Testing

/// Multi-item drags, drags of sections by their headers and the symmetric drop rule.

@Suite("Multi-item drags")
struct MultiDragTests {
    @Test func aMarkedItemCarriesTheOthersAcrossColumnsInBoardOrder() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(101), ItemID(3), ItemID(1)]
        let p = pt(cx, 1)
        let start = DragStart(item: ItemID(3), source: path(0, 3), origin: pt(ax, Layout.upper(3)),
                              itemFrame: Layout.itemFrame(section: 0, item: 3), carried: [ItemID(1), ItemID(3), ItemID(101)])
        #expect(d.began(pt(ax, Layout.upper(3)), p) == [
            .began(start), .moved(to: p, hover: target(2, index: 0, gap: 0, anchor: nil)), .targetChanged(section: 2),
        ])
        #expect(d.ended(p) == [.dropped(Drop(item: ItemID(3), from: path(0, 3), to: path(2, 1), location: p, carried: [
            CarriedMove(item: ItemID(1), from: path(0, 1), to: path(2, 0)),
            CarriedMove(item: ItemID(3), from: path(0, 3), to: path(2, 1)),
            CarriedMove(item: ItemID(101), from: path(1, 1), to: path(2, 2)),
        ]))])
        #expect(d.source.raw == [[0, 2, 4], [100, 102], [1, 3, 101]])
        // One transaction: every carried item out (last first), then in, in board order.
        #expect(d.source.log == [.begin, .delete(path(1, 1)), .delete(path(0, 3)), .delete(path(0, 1)),
                                 .insert(ItemID(1), path(2, 0)), .insert(ItemID(3), path(2, 1)),
                                 .insert(ItemID(101), path(2, 2)), .commit])
    }

    @Test func intoAColumnThatHoldsSomeOfThemTheAnchorIsAnUncarriedItem() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        // Grab 101 and take it above 100: the group lands at the top of b, 1 first.
        let p = pt(bx, Layout.upper(0))
        let events = d.began(pt(bx, Layout.upper(1)), p) + d.ended(p)
        #expect(events.dropFirst() == [
            .moved(to: p, hover: target(1, index: 0, gap: 0, anchor: 100)), .targetChanged(section: 1),
            .dropped(Drop(item: ItemID(101), from: path(1, 1), to: path(1, 1), location: p, carried: [
                CarriedMove(item: ItemID(1), from: path(0, 1), to: path(1, 0)),
                CarriedMove(item: ItemID(101), from: path(1, 1), to: path(1, 1)),
            ])),
        ])
        #expect(d.source.raw == [[0, 2, 3, 4], [1, 101, 100, 102], []])
    }

    @Test func droppingTheGroupWhereItStandsTouchesNothing() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(2)]
        let p = pt(ax, Layout.upper(1))
        let events = d.began(p, p) + d.ended(p)
        guard case .dropped(let drop)? = events.last else { Issue.record("no drop: \(events)"); return }
        #expect(drop.isNoOp)
        #expect(drop.carried.map(\.to) == [path(0, 1), path(0, 2)])
        #expect(d.source.log.isEmpty)
    }

    @Test func anUnmarkedItemIsDraggedAloneAndTheMarksStay() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(3)]
        let events = d.began(pt(ax, Layout.upper(2)), pt(cx, 1)) + d.ended(pt(cx, 1))
        #expect(events.first == .began(DragStart(item: ItemID(2), source: path(0, 2), origin: pt(ax, Layout.upper(2)),
                                                 itemFrame: Layout.itemFrame(section: 0, item: 2))))
        #expect(events.last == .dropped(Drop(item: ItemID(2), from: path(0, 2), to: path(2, 0), location: pt(cx, 1))))
        #expect(d.source.raw == [[0, 1, 3, 4], [100, 101, 102], [2]])
        #expect(d.coordinator.selectedItems == [ItemID(1), ItemID(3)])
    }

    @Test func everyCarriedItemIsAskedAboutWithItsOwnSource() {
        let src = RecordingSource(ids: standard)
        let asked = Switch(true)
        // Column c takes nothing from b.
        let c = TestColumn(section: 2, frame: Layout.columnFrame(2), ids: [], accept: { item, source, index in
            _ = asked.ask(item, source, index)
            return source != 1
        })
        let arena = DragArena(container: Layout.container(columns: 3),
                              draggables: [Layout.column(0, in: src), Layout.column(1, in: src), c])
        var d = Driver(src, arena: arena)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        #expect(d.began(pt(ax, Layout.upper(1)), pt(cx, 1)).dropFirst() == [
            .moved(to: pt(cx, 1), hover: .refused(section: 2)), .targetChanged(section: 2),
        ])
        #expect(asked.asked == ["#1 from 0 at 0", "#101 from 1 at 0"])
        #expect(d.ended(pt(cx, 1)) == [.endedOutside(item: ItemID(1), source: path(0, 1), at: pt(cx, 1))])
        // Without 101 the same drag is taken.
        d.coordinator.selectedItems = [ItemID(1), ItemID(3)]
        #expect(d.began(pt(ax, Layout.upper(1)), pt(cx, 1)).dropFirst().first
                == .moved(to: pt(cx, 1), hover: target(2, index: 0, gap: 0, anchor: nil)))
    }

    @Test func aKeyboardLiftCarriesTheMarkedItems() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        let frame = Layout.itemFrame(section: 0, item: 1)
        #expect(d.coordinator.lift(at: path(0, 1), dataSource: d.source).first == .began(DragStart(
            item: ItemID(1), source: path(0, 1), origin: frame.origin, itemFrame: frame, viaKeyboard: true,
            carried: [ItemID(1), ItemID(101)])))
        // In b, index 1 counts the uncarried items only: after 100; the anchor skips the carried 101.
        #expect(d.coordinator.moveLifted(toSection: 1, index: 1) == [
            .moved(to: pt(12, 4), hover: target(1, index: 1, gap: 1, anchor: 102)), .targetChanged(section: 1),
        ])
        #expect(d.coordinator.dropLifted(dataSource: &d.source) == [.dropped(Drop(
            item: ItemID(1), from: path(0, 1), to: path(1, 1), location: pt(12, 4), carried: [
                CarriedMove(item: ItemID(1), from: path(0, 1), to: path(1, 1)),
                CarriedMove(item: ItemID(101), from: path(1, 1), to: path(1, 2)),
            ]))])
        #expect(d.source.raw == [[0, 2, 3, 4], [100, 1, 101, 102], []])
    }

    @Test func aCarriedItemDeletedMidDragIsLeftBehind() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(3)]
        _ = d.began(pt(ax, Layout.upper(1)), pt(cx, 1))
        d.source.sections[0].remove(at: 3)
        _ = d.relayout()
        #expect(d.coordinator.session?.carriedPaths == [path(0, 1)])
        guard case .dropped(let drop)? = d.ended(pt(cx, 1)).last else { Issue.record("no drop"); return }
        #expect(drop.carried == [CarriedMove(item: ItemID(1), from: path(0, 1), to: path(2, 0))])
        #expect(d.source.raw == [[0, 2, 4], [100, 101, 102], [1]])
    }
}

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
    mutating func moveItem(from: ItemPath, to: ItemPath) { cards.moveItem(from: from, to: to) }
    mutating func insertItem(_ item: ItemID, at indexPath: ItemPath) { cards.insertItem(item, at: indexPath) }
    mutating func deleteItem(at indexPath: ItemPath) { cards.deleteItem(at: indexPath) }
    func sectionIndex(for id: ItemID) -> Int? { sections.firstIndex(of: id) }
    var numberOfSections: Int { sections.count }
    mutating func moveSection(from: Int, to: Int) {
        moves.append("\(from)->\(to)")
        sections.insert(sections.remove(at: from), at: to)
        cards.sections.insert(cards.sections.remove(at: from), at: to)
    }
}

@Suite("Section drags")
struct SectionDragTests {
    static let ids: [[UInt64]] = [[0, 1], [100], [], [300, 301]]

    func arena(_ s: SectionSource) -> DragArena {
        DragArena(container: Layout.container(columns: 4),
                  draggables: s.cards.sections.indices.map { Layout.column($0, in: s.cards) }
                    + [TestBoard(ids: s.sections, frame: Layout.container(columns: 4))])
    }

    func source() -> SectionSource {
        SectionSource(cards: RecordingSource(ids: Self.ids), sections: (0..<4).map { ItemID(1000 + UInt64($0)) })
    }

    @Test func aHeaderDraggedPastTwoColumnsLandsAfterThem() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        let start = DragStart(item: ItemID(1000), source: path(-1, 0), origin: pt(4, 0),
                              itemFrame: Rect(x: 0, y: 0, width: 10, height: 1), hidesOriginal: false, kind: .section)
        let began = GestureSample(.began, start: pt(4, 0), location: pt(28, 6), timestamp: 1)
        // The ghost (x 24–33) has its right edge past the centres of columns 1 and 2, not 3's.
        #expect(c.handle(began, dataSource: &s) == [
            .began(start), .moved(to: pt(28, 6), hover: target(-1, index: 2, gap: 3, anchor: 1003)), .targetChanged(section: -1),
        ])
        let ended = GestureSample(.ended, start: pt(4, 0), location: pt(28, 6), timestamp: 2)
        #expect(c.handle(ended, dataSource: &s) == [
            .dropped(Drop(item: ItemID(1000), from: path(-1, 0), to: path(-1, 2), location: pt(28, 6))),
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
        #expect(c.handle(GestureSample(.changed, start: pt(40, 0), location: pt(14, 10), timestamp: 2), dataSource: &s)
                == [.moved(to: pt(14, 10), hover: target(-1, index: 1, gap: 1, anchor: 1001))])
        #expect(c.handle(GestureSample(.ended, start: pt(40, 0), location: pt(14, 10), timestamp: 3), dataSource: &s)
                == [.dropped(Drop(item: ItemID(1003), from: path(-1, 3), to: path(-1, 1), location: pt(14, 10)))])
        #expect(s.sections.map(\.rawValue) == [1000, 1003, 1001, 1002])
        #expect(s.cards.raw == [[0, 1], [300, 301], [100], []])
    }

    @Test func aCardOverTheHeaderStripStillDropsIntoItsColumn() {
        var s = source()
        var c = DragCoordinator(arena: arena(s))
        let events = c.handle(GestureSample(.began, start: pt(ax, Layout.upper(1)), location: pt(bx, 0), timestamp: 1),
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
        #expect(c.handle(GestureSample(.ended, start: pt(4, 0), location: pt(28, 6), timestamp: 2), dataSource: &s)
                == [.dropped(Drop(item: ItemID(1000), from: path(-1, 1), to: path(-1, 0), location: pt(28, 6)))])
        #expect(s.sections.map(\.rawValue) == [1000, 1003, 1001, 1002])
        // A dragged column that disappears cancels the drag.
        c.arena = arena(s)
        _ = c.handle(GestureSample(.began, start: pt(4, 0), location: pt(28, 6), timestamp: 3), dataSource: &s)
        s.sections.removeFirst()
        s.cards.sections.removeFirst()
        #expect(c.updateArena(arena(s), dataSource: s)
                == [.cancelled(item: ItemID(1000), source: path(-1, 0), reason: .itemVanished)])
    }
}

@Suite("Symmetric drop rule")
struct SymmetricDropTests {
    /// Lanes' shape: 3-row cards stacked without gaps (card i on rows 3i…3i+2).
    func driver() -> Driver {
        let src = RecordingSource(ids: [[0, 1, 2, 3, 4]])
        let column = TestColumn(section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 30), ids: src.sections[0],
                                cardHeight: 3, top: 0, spacing: 0)
        return Driver(src, arena: DragArena(container: Rect(x: 0, y: 0, width: 10, height: 30), draggables: [column]))
    }

    /// Drags card `item`, grabbed `grab` rows into it, by `shift` rows; the final index.
    func landing(_ item: Int, grab: Int, shift: Int) -> Int? {
        var d = driver()
        let y = 3 * item + grab
        let events = d.began(pt(3, y), pt(3, y + shift)) + d.ended(pt(3, y + shift))
        guard case .dropped(let drop)? = events.last else { return nil }
        return drop.to.item
    }

    @Test(arguments: [0, 1, 2])
    func oneCardHeightSwapsTheNeighboursEitherWay(_ grab: Int) {
        #expect(landing(2, grab: grab, shift: 3) == 3, "card 2 down one card height lands after card 3")
        #expect(landing(3, grab: grab, shift: -3) == 2, "card 3 up one card height lands before card 2")
    }

    @Test(arguments: [0, 1, 2])
    func theSameShiftGivesTheMirroredResultUpAndDown(_ grab: Int) {
        // Down: the ghost's lower edge reaches the next card's centre after 2 rows; up: its upper edge, after 2 rows.
        let down = [1, 2, 3, 4, 5, 6].map { landing(1, grab: grab, shift: $0) }
        let up = [1, 2, 3, 4, 5, 6].map { landing(3, grab: grab, shift: -$0) }
        #expect(down == [1, 2, 2, 2, 3, 3])
        #expect(up == [3, 2, 2, 2, 1, 1])
        #expect(zip(down, up).allSatisfy { d, u in d! - 1 == 3 - u! })
    }
}
