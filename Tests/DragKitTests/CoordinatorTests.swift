import DragKit
import Synchronization
import Testing

/// The grab of card `item` (id `raw`) in the standard layout, pressed at `origin`.
func grab(_ raw: UInt64, _ section: Int, _ item: Int, at origin: Point) -> DragStart {
    DragStart(
        item: ItemID(raw), source: path(section, item), origin: origin,
        itemFrame: Layout.itemFrame(section: section, item: item))
}

/// A thread-safe switch for acceptance closures whose answer changes during a drag.
final class Switch: Sendable {
    private let state: Mutex<Bool>
    private let calls = Mutex<[String]>([])
    init(_ on: Bool) { state = Mutex(on) }
    var on: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
    func ask(_ item: ItemID, _ source: Int, _ index: Int) -> Bool {
        calls.withLock { $0.append("\(item) from \(source) at \(index)") }
        return on
    }
    var asked: [String] { calls.withLock { $0 } }
}

/// Columns a = [0...4] (x 0..<10), b = [100, 101, 102] (x 12..<22), c = [] (x 24..<34).
let standard: [[UInt64]] = [[0, 1, 2, 3, 4], [100, 101, 102], []]
let ax = Layout.x(0), bx = Layout.x(1), cx = Layout.x(2)

@Suite("Coordinator events")
struct CoordinatorEventTests {
    @Test func beganReportsSourceGrabOffsetAndFrame() {
        var d = Driver(ids: standard)
        let events = d.began(pt(6, 5), pt(7, 5))
        let start = grab(1, 0, 1, at: pt(6, 5))
        // The ghost sits on the card's own slot: the gap before it, anchored to the next card.
        #expect(
            events == [
                .began(start), .moved(to: pt(7, 5), hover: target(0, index: 1, gap: 1, anchor: 2)),
                .targetChanged(section: 0),
            ])
        #expect(start.grabOffset == pt(6, 1))
        #expect(start.ghostFrame(at: pt(20, 9)) == Rect(x: 14, y: 8, width: 10, height: 2))
        #expect(d.coordinator.isDragging)
        #expect(d.coordinator.session?.current == path(0, 1))
    }

    @Test func pointerInputBeginsAtThePressPoint() {
        var d = Driver(ids: standard)
        #expect(d.press(ax, Layout.upper(1)) == [])
        let events = d.move(ax + 1, Layout.upper(1))
        #expect(
            events == [
                .began(grab(1, 0, 1, at: pt(ax, Layout.upper(1)))),
                .moved(to: pt(ax + 1, Layout.upper(1)), hover: target(0, index: 1, gap: 1, anchor: 2)),
                .targetChanged(section: 0),
            ])
    }

    @Test func beganOutsideEveryDraggable() {
        var d = Driver(ids: standard)
        var events = d.press(10, 4) + d.move(16, 4)
        #expect(events == [.beganOutside(at: pt(10, 4))])
        events = d.move(17, 4) + d.release(17, 4)
        #expect(events == [], "no drag, and the release is not a tap")
        #expect(!d.coordinator.isDragging && d.source.log.isEmpty)
    }

    @Test func notDraggableOnEmptyAreaOrRefusedItem() {
        var d = Driver(ids: standard)
        #expect(
            d.began(pt(ax, Layout.gapRow(below: 0)), pt(ax, 9)) == [.notDraggable(at: pt(ax, 3), section: 0, item: nil)]
        )
        #expect(
            d.began(pt(cx, 5), pt(cx, 9)) == [.notDraggable(at: pt(cx, 5), section: 2, item: nil)], "an empty column")
        #expect(d.changed(pt(bx, 4)) == [] && d.ended(pt(bx, 4)) == [])
        let src = RecordingSource(ids: standard)
        let arena = DragArena(
            container: Layout.container(columns: 3),
            draggables: [
                Layout.column(0, in: src, draggableItem: { $0 != 2 }), Layout.column(1, in: src),
                Layout.column(2, in: src),
            ])
        var e = Driver(src, arena: arena)
        #expect(e.began(pt(ax, Layout.lower(2)), pt(bx, 4)) == [.notDraggable(at: pt(ax, 8), section: 0, item: 2)])
        #expect(e.began(pt(ax, Layout.lower(3)), pt(ax, 2)).first == .began(grab(3, 0, 3, at: pt(ax, 11))))
        #expect(e.source.log.isEmpty)
    }

    @Test func tapIsNotADrag() {
        var d = Driver(ids: standard)
        #expect(d.press(ax, 4) + d.release(ax, 4) == [.tapped(at: pt(ax, 4), item: path(0, 1))])
        #expect(d.press(10, 4) + d.release(10, 4) == [.tapped(at: pt(10, 4), item: nil)])
        #expect(d.press(bx, 3) + d.release(bx, 3) == [.tapped(at: pt(bx, 3), item: nil)], "gap row")
        #expect(d.source.log.isEmpty && d.source.raw == standard)
    }

    @Test func movedOnlyWhenSomethingChanges() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(d.changed(pt(ax, 4)) == [], "same place, same hover")
        #expect(
            d.changed(pt(ax + 1, 4)) == [.moved(to: pt(ax + 1, 4), hover: target(0, index: 1, gap: 1, anchor: 2))],
            "a new location with the same hover is still reported")
        #expect(d.changed(pt(ax + 1, 5)) == [.moved(to: pt(ax + 1, 5), hover: target(0, index: 1, gap: 1, anchor: 2))])
        // Two rows down the ghost's lower edge reaches card 2's centre: the hover moves past it.
        #expect(d.changed(pt(ax + 1, 6)) == [.moved(to: pt(ax + 1, 6), hover: target(0, index: 2, gap: 3, anchor: 3))])
    }

    @Test func targetChangedOnlyWhenTheDraggableChanges() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(
            d.changed(pt(bx, 1)) == [
                .moved(to: pt(bx, 1), hover: target(1, index: 0, gap: 0, anchor: 100)),
                .targetChanged(section: 1),
            ])
        #expect(d.changed(pt(bx, 8)) == [.moved(to: pt(bx, 8), hover: target(1, index: 3, gap: 3, anchor: nil))])
        #expect(
            d.changed(pt(cx, 8)) == [
                .moved(to: pt(cx, 8), hover: target(2, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 2),
            ])
        #expect(d.changed(pt(cx, 23)) == [.moved(to: pt(cx, 23), hover: .none), .targetChanged(section: nil)])
        #expect(d.changed(pt(cx, 24)) == [.moved(to: pt(cx, 24), hover: .none)])
        #expect(
            d.changed(pt(ax, 1)) == [
                .moved(to: pt(ax, 1), hover: target(0, index: 0, gap: 0, anchor: 0)),
                .targetChanged(section: 0),
            ])
    }

    @Test func releaseOverNothingSnapsBack() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(ax, 6))
        let events = d.ended(pt(cx, 23))
        #expect(
            events == [
                .moved(to: pt(cx, 23), hover: .none), .targetChanged(section: nil),
                .endedOutside(item: ItemID(1), source: path(0, 1), at: pt(cx, 23)),
            ])
        #expect(d.source.log.isEmpty && !d.coordinator.isDragging)
    }

    @Test func releaseOutsideTheContainerIsOutsideEvenOverADraggable() {
        // The second column sticks out of a 20-wide container (x 12..<22).
        let src = RecordingSource(ids: [[0, 1], [100]])
        let arena = DragArena(
            container: Rect(x: 0, y: 0, width: 20, height: 25),
            draggables: [Layout.column(0, in: src), Layout.column(1, in: src)])
        var d = Driver(src, arena: arena)
        _ = d.began(pt(ax, 1), pt(ax, 2))
        #expect(
            d.changed(pt(19, 1)) == [
                .moved(to: pt(19, 1), hover: target(1, index: 0, gap: 0, anchor: 100)),
                .targetChanged(section: 1),
            ])
        let events = d.ended(pt(20, 1))
        #expect(
            events == [
                .moved(to: pt(20, 1), hover: .none), .targetChanged(section: nil),
                .endedOutside(item: ItemID(0), source: path(0, 0), at: pt(20, 1)),
            ])
        #expect(d.source.log.isEmpty)
    }

    @Test func gestureCancelSnapsBack() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(bx, 4))
        #expect(d.gestureCancelled(pt(bx, 4)) == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .gesture)])
        #expect(d.ended(pt(bx, 4)) == [] && d.source.log.isEmpty)
    }

    @Test func pointerCancelThroughTheRecognizer() {
        var d = Driver(ids: standard)
        _ = d.press(ax, 4) + d.move(bx, 4)
        #expect(d.cancelInput(bx, 5) == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .gesture)])
        #expect(d.move(bx, 6) + d.release(bx, 6) == [] && d.source.log.isEmpty)
    }

    @Test func requestedCancelResetsTheGesture() {
        var d = Driver(ids: standard)
        _ = d.press(ax, 4) + d.move(bx, 4)
        #expect(d.coordinator.cancel() == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .requested)])
        #expect(d.coordinator.cancel() == [], "nothing left to cancel")
        #expect(d.move(bx, 7) + d.release(bx, 7) == [], "the rest of the gesture is ignored, not a tap or a new drag")
        #expect(d.source.log.isEmpty)
    }

    @Test func newPressDuringADragCancelsIt() {
        var d = Driver(ids: standard)
        _ = d.press(ax, 4) + d.move(bx, 4)
        #expect(d.press(ax, 7) == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .gesture)])
        #expect(d.move(ax + 1, 7).first == .began(grab(2, 0, 2, at: pt(ax, 7))))
    }

    @Test func itemVanishingMidDragCancels() {
        var d = Driver(ids: standard)
        _ = d.press(ax, 4) + d.move(bx, 4)
        d.source.sections[0].remove(at: 1)
        #expect(d.relayout() == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .itemVanished)])
        #expect(d.move(bx, 7) + d.release(bx, 7) == [], "the gesture is reset")
        #expect(d.source.log.isEmpty)
    }

    @Test func itemVanishingWithoutARelayoutCancelsOnRelease() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 4), pt(bx, 4))
        d.source.sections[0].remove(at: 1)
        #expect(d.ended(pt(bx, 4)) == [.cancelled(item: ItemID(1), source: path(0, 1), reason: .itemVanished)])
        #expect(d.source.log.isEmpty)
    }

    @Test func itemShiftingMidDragUpdatesItsCurrentPlace() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, Layout.upper(2)), pt(ax, Layout.upper(2)))
        d.source.sections[0].remove(at: 0)  // [1, 2, 3, 4]: the dragged 2 is now at 1 and 3 is under the pointer
        let events = d.relayout()
        #expect(
            events == [.moved(to: pt(ax, 7), hover: target(0, index: 2, gap: 3, anchor: 4))],
            "the ghost now covers 3, which stood after the dragged item at 1: it lands after 3, final index 2")
        #expect(d.coordinator.session?.current == path(0, 1))
        #expect(d.coordinator.cancel() == [.cancelled(item: ItemID(2), source: path(0, 1), reason: .requested)])
    }

    @Test func scrollingUnderAStillPointerRetargets() {
        var d = Driver(ids: standard)
        _ = d.began(pt(ax, 1), pt(bx, 4))
        #expect(d.relayout(scroll: 3) == [.moved(to: pt(bx, 4), hover: target(1, index: 2, gap: 2, anchor: 102))])
        #expect(
            d.ended(pt(bx, 4)) == [
                .dropped(Drop(item: ItemID(0), from: path(0, 0), to: path(1, 2), location: pt(bx, 4)))
            ])
        #expect(d.source.raw == [[1, 2, 3, 4], [100, 101, 0, 102], []])
    }

    @Test func relayoutWithoutADragIsSilent() {
        var d = Driver(ids: standard)
        #expect(d.relayout(scroll: 2) == [])
    }
}
