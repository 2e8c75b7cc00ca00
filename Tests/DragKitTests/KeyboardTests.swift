import DragKit
import Testing

@Suite("Keyboard drags")
struct KeyboardTests {
    func lifted(_ d: inout Driver, _ section: Int = 0, _ item: Int = 1) -> [DragEvent] {
        d.coordinator.lift(at: path(section, item))
    }

    @Test func liftHoversOverItsOwnPlace() {
        var d = Driver(ids: standard)
        let frame = Layout.itemFrame(section: 0, item: 1)
        #expect(
            lifted(&d) == [
                .began(
                    DragStart(
                        item: ItemID(1), source: path(0, 1), origin: frame.origin, itemFrame: frame, viaKeyboard: true)),
                .moved(to: pt(0, 4), hover: target(0, index: 1, gap: 1, anchor: 2)),
                .targetChanged(section: 0),
            ])
        #expect(d.coordinator.session?.isKeyboard == true)
    }

    @Test func ghostSitsWhereTheItemWouldLand() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        #expect(
            d.coordinator.moveLifted(toSection: 0, index: 3, dataSource: d.source) == [
                .moved(to: pt(0, 13), hover: target(0, index: 3, gap: 4, anchor: 4))
            ],
            "after a3: at the top of a4")
        #expect(
            d.coordinator.moveLifted(toSection: 0, index: 4, dataSource: d.source) == [
                .moved(to: pt(0, 15), hover: target(0, index: 4, gap: 5, anchor: nil))
            ],
            "the end: below the last card")
        #expect(d.coordinator.moveLifted(toSection: 0, index: 4, dataSource: d.source) == [], "no change")
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 1, dataSource: d.source) == [
                .moved(to: pt(12, 4), hover: target(1, index: 1, gap: 1, anchor: 101)),
                .targetChanged(section: 1),
            ])
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 99, dataSource: d.source) == [
                .moved(to: pt(12, 9), hover: target(1, index: 3, gap: 3, anchor: nil))
            ],
            "clamped to the end")
        #expect(
            d.coordinator.moveLifted(toSection: 2, index: 5, dataSource: d.source) == [
                .moved(to: pt(24, 0), hover: target(2, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 2),
            ], "an empty column")
        #expect(d.coordinator.moveLifted(toSection: 7, index: 0, dataSource: d.source) == [], "no such column")
        #expect(
            d.coordinator.moveLifted(toSection: 0, index: -3, dataSource: d.source) == [
                .moved(to: pt(0, 1), hover: target(0, index: 0, gap: 0, anchor: 0)),
                .targetChanged(section: 0),
            ])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(0, 0), location: pt(0, 1)))
            ])
        #expect(d.source.raw[0] == [1, 0, 2, 3, 4])
        #expect(d.source.log == [.begin, .move(path(0, 1), path(0, 0)), .commit])
        #expect(!d.coordinator.isDragging)
    }

    @Test func dropAcrossColumns() {
        var d = Driver(ids: standard)
        _ = lifted(&d, 1, 2)
        _ = d.coordinator.moveLifted(toSection: 2, index: 0, dataSource: d.source)
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .dropped(Drop(item: ItemID(102), from: path(1, 2), to: path(2, 0), location: pt(24, 0)))
            ])
        #expect(d.source.raw == [[0, 1, 2, 3, 4], [100, 101], [102]])
        #expect(d.source.log == [.begin, .delete(path(1, 2)), .insert(ItemID(102), path(2, 0)), .commit])
    }

    @Test func refusedColumnsSnapBack() {
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src, canRearrange: false), Layout.column(1, in: src, accept: { _, _, _ in false }),
                Layout.column(2, in: src),
            ])
        var d = Driver(src, arena: arena)
        _ = lifted(&d)
        #expect(
            d.coordinator.moveLifted(toSection: 0, index: 3, dataSource: d.source) == [
                .moved(to: pt(0, 13), hover: .refused(section: 0))
            ],
            "a column that cannot rearrange")
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 0, dataSource: d.source) == [
                .moved(to: pt(12, 1), hover: .refused(section: 1)),
                .targetChanged(section: 1),
            ])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .endedOutside(item: ItemID(1), source: path(0, 1), at: pt(12, 1))
            ])
        #expect(d.source.log.isEmpty)
    }

    @Test func liftRefusesWhatCannotBeDragged() {
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src, draggableItem: { $0 != 1 }), Layout.column(1, in: src),
                Layout.column(2, in: src),
            ])
        var d = Driver(src, arena: arena)
        #expect(lifted(&d) == [])
        #expect(d.coordinator.lift(at: path(0, 5)) == [])
        #expect(d.coordinator.lift(at: path(0, -1)) == [])
        #expect(d.coordinator.lift(at: path(9, 0)) == [])
        #expect(!d.coordinator.isDragging)
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == []
                && d.coordinator.moveLifted(toSection: 0, index: 0, dataSource: d.source) == [])
    }

    @Test func liftingAgainCancelsTheFirstLift() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        let events = d.coordinator.lift(at: path(1, 0))
        #expect(events.first == .cancelled(item: ItemID(1), source: path(0, 1), reason: .requested))
        #expect(
            events.dropFirst().first
                == .began(
                    DragStart(
                        item: ItemID(100), source: path(1, 0), origin: pt(12, 1),
                        itemFrame: Layout.itemFrame(section: 1, item: 0), viaKeyboard: true)))
    }

    @Test func pointerSamplesDuringAKeyboardDrag() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        d.gestureStart = pt(ax, 7)
        #expect(
            d.changed(pt(bx, 4)) == [] && d.ended(pt(bx, 4)) == [] && d.gestureCancelled(pt(bx, 4)) == [],
            "a keyboard drag ignores pointer motion")
        #expect(d.coordinator.isDragging)
        let events = d.began(pt(ax, 7), pt(ax, 8))
        #expect(
            events.first == .cancelled(item: ItemID(1), source: path(0, 1), reason: .requested),
            "a mouse drag during a keyboard drag is a requested cancel")
        #expect(events.dropFirst().first == .began(grab(2, 0, 2, at: pt(ax, 7))))
    }

    @Test func escCancelsAKeyboardDrag() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        _ = d.coordinator.moveLifted(toSection: 1, index: 0, dataSource: d.source)
        #expect(d.coordinator.cancel() == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .requested)])
        #expect(d.coordinator.dropLifted(dataSource: &d.source) == [] && d.source.log.isEmpty)
    }

    @Test func insertionBeforeTheLiftedTargetKeepsItsAnchor() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        _ = d.coordinator.moveLifted(toSection: 1, index: 1, dataSource: d.source)  // before 101
        d.source.sections[1].insert(ItemID(900), at: 0)
        #expect(d.relayout() == [.moved(to: pt(12, 7), hover: target(1, index: 2, gap: 2, anchor: 101))])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source).last
                == .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(1, 2), location: pt(12, 7))))
        #expect(d.source.raw[1] == [900, 100, 1, 101, 102])
    }

    @Test func relayoutOfARefusedLiftStaysKeyboardDriven() {
        let src = RecordingSource(ids: standard)
        func arena(scroll: Int, accepting: Bool) -> DragArena {
            DragArena(
                container: Layout.container(columns: 3),
                draggables: [
                    Layout.column(0, in: src, scroll: scroll),
                    Layout.column(1, in: src, scroll: scroll, accept: { _, _, _ in accepting }),
                    Layout.column(2, in: src, scroll: scroll),
                ])
        }
        var d = Driver(src, arena: arena(scroll: 0, accepting: false))
        _ = lifted(&d)
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 1, dataSource: d.source).first
                == .moved(to: pt(12, 4), hover: .refused(section: 1))
        )
        #expect(
            d.coordinator.updateArena(arena(scroll: 3, accepting: false), dataSource: d.source) == [
                .moved(to: pt(12, 1), hover: .refused(section: 1))
            ], "the ghost follows the scrolled gap")
        #expect(
            d.coordinator.updateArena(arena(scroll: 3, accepting: true), dataSource: d.source) == [
                .moved(to: pt(12, 1), hover: target(1, index: 1, gap: 1, anchor: 101))
            ], "re-asked: now it accepts")
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source).last
                == .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(1, 1), location: pt(12, 1))))
    }

    @Test func liftedItemVanishing() {
        var d = Driver(ids: standard)
        _ = lifted(&d)
        d.source.sections[0].remove(at: 1)
        #expect(d.relayout() == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .itemVanished)])
        #expect(d.coordinator.dropLifted(dataSource: &d.source) == [])
    }
}
