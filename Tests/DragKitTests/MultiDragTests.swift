import DragKit
import Testing

/// Several marked items dragged as one: order, anchors, sources asked one by one.
@Suite("Multi-item drags")
struct MultiDragTests {
    @Test func aMarkedItemCarriesTheOthersAcrossColumnsInBoardOrder() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(101), ItemID(3), ItemID(1)]
        let p = pt(cx, 1)
        let start = DragStart(
            item: ItemID(3), source: path(0, 3), origin: pt(ax, Layout.upper(3)),
            itemFrame: Layout.itemFrame(section: 0, item: 3), carried: [ItemID(1), ItemID(3), ItemID(101)])
        #expect(
            d.began(pt(ax, Layout.upper(3)), p) == [
                .began(start), .moved(to: p, hover: target(2, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 2),
            ])
        #expect(
            d.ended(p) == [
                .dropped(
                    Drop(
                        item: ItemID(3), from: path(0, 3), to: path(2, 1), location: p,
                        carried: [
                            CarriedMove(item: ItemID(1), from: path(0, 1), to: path(2, 0)),
                            CarriedMove(item: ItemID(3), from: path(0, 3), to: path(2, 1)),
                            CarriedMove(item: ItemID(101), from: path(1, 1), to: path(2, 2)),
                        ]))
            ])
        #expect(d.source.raw == [[0, 2, 4], [100, 102], [1, 3, 101]])
        // One transaction: every carried item out (last first), then in, in board order.
        #expect(
            d.source.log == [
                .begin, .delete(path(1, 1)), .delete(path(0, 3)), .delete(path(0, 1)),
                .insert(ItemID(1), path(2, 0)), .insert(ItemID(3), path(2, 1)),
                .insert(ItemID(101), path(2, 2)), .commit,
            ])
    }

    @Test func intoAColumnThatHoldsSomeOfThemTheAnchorIsAnUncarriedItem() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        // Grab 101 and take it above 100: the group lands at the top of b, 1 first.
        let p = pt(bx, Layout.upper(0))
        let events = d.began(pt(bx, Layout.upper(1)), p) + d.ended(p)
        #expect(
            events.dropFirst() == [
                .moved(to: p, hover: target(1, index: 0, gap: 0, anchor: 100)), .targetChanged(section: 1),
                .dropped(
                    Drop(
                        item: ItemID(101), from: path(1, 1), to: path(1, 1), location: p,
                        carried: [
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
        #expect(
            events.first
                == .began(
                    DragStart(
                        item: ItemID(2), source: path(0, 2), origin: pt(ax, Layout.upper(2)),
                        itemFrame: Layout.itemFrame(section: 0, item: 2))))
        #expect(events.last == .dropped(Drop(item: ItemID(2), from: path(0, 2), to: path(2, 0), location: pt(cx, 1))))
        #expect(d.source.raw == [[0, 1, 3, 4], [100, 101, 102], [2]])
        #expect(d.coordinator.selectedItems == [ItemID(1), ItemID(3)])
    }

    @Test func everyCarriedItemIsAskedAboutWithItsOwnSource() {
        let src = RecordingSource(ids: standard)
        let asked = Switch(true)
        // Column c takes nothing from b.
        let c = TestColumn(
            section: 2, frame: Layout.columnFrame(2), ids: [],
            accept: { item, source, index in
                _ = asked.ask(item, source, index)
                return source != 1
            })
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [Layout.column(0, in: src), Layout.column(1, in: src), c])
        var d = Driver(src, arena: arena)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        #expect(
            d.began(pt(ax, Layout.upper(1)), pt(cx, 1)).dropFirst() == [
                .moved(to: pt(cx, 1), hover: .refused(section: 2)), .targetChanged(section: 2),
            ])
        #expect(asked.asked == ["#1 from 0 at 0", "#101 from 1 at 0"])
        #expect(d.ended(pt(cx, 1)) == [.endedOutside(item: ItemID(1), source: path(0, 1), at: pt(cx, 1))])
        // Without 101 the same drag is taken.
        d.coordinator.selectedItems = [ItemID(1), ItemID(3)]
        #expect(
            d.began(pt(ax, Layout.upper(1)), pt(cx, 1)).dropFirst().first
                == .moved(to: pt(cx, 1), hover: target(2, index: 0, gap: 0, anchor: nil)))
    }

    @Test func aKeyboardLiftCarriesTheMarkedItems() {
        var d = Driver(ids: standard)
        d.coordinator.selectedItems = [ItemID(1), ItemID(101)]
        let frame = Layout.itemFrame(section: 0, item: 1)
        #expect(
            d.coordinator.lift(at: path(0, 1), dataSource: d.source).first
                == .began(
                    DragStart(
                        item: ItemID(1), source: path(0, 1), origin: frame.origin, itemFrame: frame, viaKeyboard: true,
                        carried: [ItemID(1), ItemID(101)])))
        // In b, index 1 counts the uncarried items only: after 100; the anchor skips the carried 101.
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 1, dataSource: d.source) == [
                .moved(to: pt(12, 4), hover: target(1, index: 1, gap: 1, anchor: 102)), .targetChanged(section: 1),
            ])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .dropped(
                    Drop(
                        item: ItemID(1), from: path(0, 1), to: path(1, 1), location: pt(12, 4),
                        carried: [
                            CarriedMove(item: ItemID(1), from: path(0, 1), to: path(1, 1)),
                            CarriedMove(item: ItemID(101), from: path(1, 1), to: path(1, 2)),
                        ]))
            ])
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
