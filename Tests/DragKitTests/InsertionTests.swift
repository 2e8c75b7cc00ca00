import DragKit
import Testing

@Suite("Insertion index rules")
struct InsertionTests {
    /// Drags card `item` of column a (pressed on its upper half) and releases at `p`; returns the release's events.
    func dragA(_ item: Int, to p: Point, in d: inout Driver) -> [DragEvent] {
        _ = d.began(pt(ax, Layout.upper(item)), pt(ax + 1, Layout.upper(item)))
        return d.ended(p)
    }

    @Test func lowerHalfWhenMovingDownGivesTheIndexAfterRemoval() {
        var d = Driver(ids: standard)
        let p = pt(ax, Layout.lower(3))
        #expect(
            dragA(1, to: p, in: &d) == [
                .moved(to: p, hover: target(0, index: 3, gap: 4, anchor: 4)),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(0, 3), location: p)),
            ])
        #expect(d.source.raw[0] == [0, 2, 3, 1, 4])
        #expect(d.source.log == [.begin, .move(path(0, 1), path(0, 3)), .commit])
    }

    @Test func ghostShortOfTheCentreWhenMovingDown() {
        var d = Driver(ids: standard)
        // The ghost covers rows 8–9: its lower edge (row 10) is short of card 3's centre (rows 10–11), so it lands before 3.
        let p = pt(ax, Layout.lower(2))
        #expect(
            dragA(1, to: p, in: &d) == [
                .moved(to: p, hover: target(0, index: 2, gap: 3, anchor: 3)),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(0, 2), location: p)),
            ])
        #expect(d.source.raw[0] == [0, 2, 1, 3, 4])
        #expect(d.source.log == [.begin, .move(path(0, 1), path(0, 2)), .commit])
    }

    /// Card 3 (rows 10–11) grabbed on its upper row, so the ghost's top is the pointer's row: it goes
    /// before card i once that top reaches card i's centre (row 2 + 3i, counting the centre line's upper row).
    @Test(arguments: [
        (Layout.upper(0), 0, [3, 0, 1, 2, 4]), (Layout.lower(0), 0, [3, 0, 1, 2, 4]),
        (Layout.gapRow(below: 0), 1, [0, 3, 1, 2, 4]), (Layout.upper(1), 1, [0, 3, 1, 2, 4]),
        (Layout.lower(2), 2, [0, 1, 3, 2, 4]), (Layout.gapRow(below: 2), 3, [0, 1, 2, 3, 4]),
    ])
    func movingUp(_ y: Int, _ index: Int, _ expected: [UInt64]) {
        var d = Driver(ids: standard)
        let events = dragA(3, to: pt(ax, y), in: &d)
        #expect(
            events.last == .dropped(Drop(item: ItemID(3), from: path(0, 3), to: path(0, index), location: pt(ax, y))))
        #expect(d.source.raw[0] == expected)
    }

    /// Every spot on or next to the dragged card itself is a drop in place: a Drop with no data-source call.
    @Test(arguments: [Layout.gapRow(below: 1), Layout.upper(2), Layout.lower(2)])
    func droppingOntoItselfIsANoOp(_ y: Int) {
        var d = Driver(ids: standard)
        let events = dragA(2, to: pt(ax + 2, y), in: &d)
        guard case .dropped(let drop) = events.last else {
            Issue.record("expected a drop, got \(events)")
            return
        }
        #expect(drop.from == path(0, 2) && drop.to == path(0, 2) && drop.isNoOp)
        #expect(d.source.log.isEmpty)
        #expect(d.source.raw == standard)
    }

    @Test(arguments: [0, 1, 5, 10, 19])
    func anywhereInAnEmptyColumnIsIndexZero(_ y: Int) {
        var d = Driver(ids: standard)
        let events = dragA(1, to: pt(cx, y), in: &d)
        #expect(
            events == [
                .moved(to: pt(cx, y), hover: target(2, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 2),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(2, 0), location: pt(cx, y))),
            ])
        #expect(d.source.raw == [[0, 2, 3, 4], [100, 101, 102], [1]])
        #expect(d.source.log == [.begin, .delete(path(0, 1)), .insert(ItemID(1), path(2, 0)), .commit])
    }

    @Test(arguments: [9, 12, 19])
    func belowTheLastCardAppends(_ y: Int) {
        var d = Driver(ids: standard)
        let events = dragA(0, to: pt(bx, y), in: &d)
        #expect(events.first == .moved(to: pt(bx, y), hover: target(1, index: 3, gap: 3, anchor: nil)))
        #expect(d.source.raw[1] == [100, 101, 102, 0])
    }

    @Test func belowTheLastCardOfItsOwnColumnMovesToTheEnd() {
        var d = Driver(ids: standard)
        let p = pt(ax, 17)
        #expect(dragA(1, to: p, in: &d).first == .moved(to: p, hover: target(0, index: 4, gap: 5, anchor: nil)))
        #expect(d.source.raw[0] == [0, 2, 3, 4, 1])
    }

    @Test(
        arguments: [(0, 0, 100), (Layout.gapRow(below: 0), 1, 101), (Layout.gapRow(below: 1), 2, 102)]
            as [(Int, Int, UInt64)])
    func gapsBetweenCards(_ y: Int, _ gap: Int, _ anchor: UInt64) {
        var d = Driver(ids: standard)
        let events = dragA(4, to: pt(bx, y), in: &d)
        #expect(events.first == .moved(to: pt(bx, y), hover: target(1, index: gap, gap: gap, anchor: anchor)))
        var expected: [UInt64] = [100, 101, 102]
        expected.insert(4, at: gap)
        #expect(d.source.raw[1] == expected)
    }

    /// Odd heights through the coordinator: the middle row of a 3-row card counts as its lower half.
    @Test(arguments: [(3, 0), (4, 1), (5, 1)])
    func oddHeightMiddleRowIsLower(_ y: Int, _ index: Int) {
        let src = RecordingSource(ids: [[0], [100]])
        let tall = TestColumn(section: 1, frame: Layout.columnFrame(1), ids: [ItemID(100)], heights: [3], top: 3)
        let arena = DragArena(container: Layout.container(columns: 2), draggables: [Layout.column(0, in: src), tall])
        var d = Driver(src, arena: arena)
        _ = d.began(pt(ax, 1), pt(ax, 2))
        #expect(
            d.ended(pt(bx, y)).first
                == .moved(to: pt(bx, y), hover: target(1, index: index, gap: index, anchor: index == 0 ? 100 : nil)))
        #expect(d.source.raw[1] == (index == 0 ? [0, 100] : [100, 0]))
    }

    @Test func gutterKeepsTheLastTargetWithoutFlipFlopping() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        let held = target(0, index: 1, gap: 1, anchor: 2)
        #expect(d.changed(pt(10, 4)) == [.moved(to: pt(10, 4), hover: held)])
        #expect(
            d.changed(pt(11, 9)) == [.moved(to: pt(11, 9), hover: held)],
            "resting in the gutter keeps the target as it was")
        #expect(
            d.changed(pt(bx, 7)) == [
                .moved(to: pt(bx, 7), hover: target(1, index: 2, gap: 2, anchor: 102)),
                .targetChanged(section: 1),
            ])
        let heldB = target(1, index: 2, gap: 2, anchor: 102)
        #expect(d.changed(pt(11, 7)) == [.moved(to: pt(11, 7), hover: heldB)], "the gutter now keeps b")
        #expect(d.changed(pt(10, 7)) == [.moved(to: pt(10, 7), hover: heldB)])
        #expect(d.changed(pt(22, 7)) == [.moved(to: pt(22, 7), hover: heldB)], "the gutter on b's other side")
        #expect(d.changed(pt(bx, 21)) == [.moved(to: pt(bx, 21), hover: heldB)], "two rows below b")
        #expect(
            d.ended(pt(11, 7)) == [
                .moved(to: pt(11, 7), hover: heldB),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(1, 2), location: pt(11, 7))),
            ])
        #expect(d.source.raw[1] == [100, 101, 1, 102])
    }

    @Test func farOutsideIsNoneAndTheGutterDoesNotBringItBack() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(bx, 4))
        #expect(
            d.changed(pt(bx, 22)) == [.moved(to: pt(bx, 22), hover: .none), .targetChanged(section: nil)],
            "three rows below b is past the 2-cell tolerance")
        #expect(d.changed(pt(11, 4)) == [.moved(to: pt(11, 4), hover: .none)], "no last target any more")
        #expect(d.changed(pt(-1, 4)) == [.moved(to: pt(-1, 4), hover: .none)], "outside the container")
        #expect(d.ended(pt(-1, 4)) == [.endedOutside(item: ItemID(1), source: path(0, 1), at: pt(-1, 4))])
    }

    @Test func gutterOutsideTheContainerIsNone() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(
            d.changed(pt(-1, 4)) == [.moved(to: pt(-1, 4), hover: .none), .targetChanged(section: nil)],
            "within tolerance of a but outside the container")
    }

    @Test func refusingTargetHasNoMarkerAndSnapsBack() {
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src), Layout.column(1, in: src, accept: { _, _, _ in false }),
                Layout.column(2, in: src),
            ])
        var d = Driver(src, arena: arena)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(
            d.changed(pt(bx, 4)) == [.moved(to: pt(bx, 4), hover: .refused(section: 1)), .targetChanged(section: 1)])
        #expect(d.changed(pt(bx, 8)) == [.moved(to: pt(bx, 8), hover: .refused(section: 1))])
        #expect(
            d.changed(pt(22, 8)) == [.moved(to: pt(22, 8), hover: .none), .targetChanged(section: nil)],
            "the gutter keeps only a valid target")
        _ = d.changed(pt(bx, 8))
        #expect(d.ended(pt(bx, 8)) == [.endedOutside(item: ItemID(1), source: path(0, 1), at: pt(bx, 8))])
        #expect(d.source.log.isEmpty && d.source.raw == standard)
    }

    @Test func acceptanceIsAskedOnEveryMove() {
        let gate = Switch(true)
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src), Layout.column(1, in: src, accept: gate.ask), Layout.column(2, in: src),
            ])
        var d = Driver(src, arena: arena)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(d.changed(pt(bx, 4)).first == .moved(to: pt(bx, 4), hover: target(1, index: 1, gap: 1, anchor: 101)))
        gate.on = false
        #expect(d.changed(pt(bx + 1, 4)) == [.moved(to: pt(bx + 1, 4), hover: .refused(section: 1))])
        gate.on = true
        #expect(
            d.changed(pt(bx + 1, 5)) == [.moved(to: pt(bx + 1, 5), hover: target(1, index: 2, gap: 2, anchor: 102))])
        gate.on = false
        #expect(
            d.changed(pt(bx + 1, 5)) == [.moved(to: pt(bx + 1, 5), hover: .refused(section: 1))],
            "a report without motion still re-asks")
        gate.on = true
        #expect(
            d.changed(pt(bx + 1, 5)) == [.moved(to: pt(bx + 1, 5), hover: target(1, index: 2, gap: 2, anchor: 102))])
        gate.on = false
        #expect(
            d.changed(pt(11, 5)) == [.moved(to: pt(11, 5), hover: .refused(section: 1))],
            "the gutter re-asks before keeping the target")
        gate.on = true
        #expect(
            d.changed(pt(11, 6)) == [.moved(to: pt(11, 6), hover: target(1, index: 2, gap: 2, anchor: 102))],
            "still resting in the gutter: the kept target comes back once it accepts again")
        gate.on = false
        #expect(
            d.ended(pt(11, 6)) == [
                .moved(to: pt(11, 6), hover: .refused(section: 1)),
                .endedOutside(item: ItemID(1), source: path(0, 1), at: pt(11, 6)),
            ])
        #expect(gate.asked == ["#1 from 0 at 1", "#1 from 0 at 1"] + Array(repeating: "#1 from 0 at 2", count: 6))
        #expect(d.source.log.isEmpty)
    }

    @Test func nonRearrangeableColumnAllowsOnlyDroppingBackInPlace() {
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src, canRearrange: false), Layout.column(1, in: src), Layout.column(2, in: src),
            ])
        var d = Driver(src, arena: arena)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(d.changed(pt(ax, 10)) == [.moved(to: pt(ax, 10), hover: .refused(section: 0))])
        #expect(d.changed(pt(ax, 1)) == [.moved(to: pt(ax, 1), hover: .refused(section: 0))])
        #expect(d.changed(pt(ax, 3)) == [.moved(to: pt(ax, 3), hover: target(0, index: 1, gap: 1, anchor: 2))])
        #expect(
            d.ended(pt(ax, 5)) == [
                .moved(to: pt(ax, 5), hover: target(0, index: 1, gap: 1, anchor: 2)),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(0, 1), location: pt(ax, 5))),
            ])
        #expect(d.source.log.isEmpty)
        // Out to another column is still fine.
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(
            d.ended(pt(bx, 1)).last
                == .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(1, 0), location: pt(bx, 1))))
        #expect(d.source.raw == [[0, 2, 3, 4], [1, 100, 101, 102], []])
    }

    @Test func canDropAnswersForEveryRule() {
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src, canRearrange: false), Layout.column(1, in: src, accept: { _, _, i in i < 2 }),
                Layout.column(2, in: src),
            ])
        let c = DragCoordinator(arena: arena)
        let item = ItemID(1), from = path(0, 1)
        #expect(c.canDrop(item, from: from, toSection: 0, index: 1))
        #expect(!c.canDrop(item, from: from, toSection: 0, index: 2))
        #expect(c.canDrop(item, from: from, toSection: 1, index: 1))
        #expect(!c.canDrop(item, from: from, toSection: 1, index: 2))
        #expect(c.canDrop(item, from: from, toSection: 2, index: 0))
        #expect(!c.canDrop(item, from: from, toSection: 3, index: 0), "no such section")
    }

    @Test func insertedBeforeTheTargetMidDragResolvesByAnchor() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 1), pt(bx, 4))  // a0 over the upper half of b1
        d.source.sections[1].insert(contentsOf: [ItemID(900), ItemID(901)], at: 0)
        let events = d.ended(pt(bx, 4))  // the arena has not caught up yet
        #expect(events == [.dropped(Drop(item: ItemID(0), from: path(0, 0), to: path(1, 3), location: pt(bx, 4)))])
        #expect(d.source.raw[1] == [900, 901, 100, 0, 101, 102])
        #expect(d.source.log == [.begin, .delete(path(0, 0)), .insert(ItemID(0), path(1, 3)), .commit])
    }

    @Test func insertedBeforeTheTargetWhileInTheGutterKeepsTheAnchor() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 1), pt(bx, 4))  // a0 over the upper half of b1
        _ = d.changed(pt(22, 4))  // into the gutter beside b
        d.source.sections[1].insert(ItemID(900), at: 0)
        #expect(
            d.relayout() == [.moved(to: pt(22, 4), hover: target(1, index: 2, gap: 2, anchor: 101))],
            "the kept target follows its anchor into the new layout")
        #expect(
            d.ended(pt(22, 4)).last
                == .dropped(Drop(item: ItemID(0), from: path(0, 0), to: path(1, 2), location: pt(22, 4))))
        #expect(d.source.raw[1] == [900, 100, 0, 101, 102])
    }

    @Test func draggedItemShiftedWhileInTheGutterKeepsAValidIndex() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, Layout.upper(3)), pt(ax, 17))  // a3 to the end of a: gap 5, index 4
        _ = d.changed(pt(11, 17))
        d.source.sections[0].remove(at: 0)  // [1, 2, 3, 4]: a3 at 2, 4 items
        #expect(d.relayout() == [.moved(to: pt(11, 17), hover: target(0, index: 3, gap: 4, anchor: nil))])
        #expect(
            d.ended(pt(11, 17)).last
                == .dropped(Drop(item: ItemID(3), from: path(0, 2), to: path(0, 3), location: pt(11, 17))))
        #expect(d.source.raw[0] == [1, 2, 4, 3])
    }
}
