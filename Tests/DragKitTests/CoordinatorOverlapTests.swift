import DragKit
import Testing

@Suite("Overlap policies through the coordinator")
struct CoordinatorOverlapTests {
    /// A wide column 0 (x 0..<20) with a narrower column 1 (x 5..<15) on top of it.
    func stacked(topPriority: Int, topAccepts: Bool) -> Driver {
        let src = RecordingSource(ids: [[0, 1], [100]])
        let wide = TestColumn(
            section: 0, frame: Rect(x: 0, y: 0, width: 20, height: 20), ids: src.sections[0], cardInset: 0)
        let narrow = TestColumn(
            section: 1, frame: Rect(x: 5, y: 10, width: 10, height: 10), ids: src.sections[1],
            top: 1, priority: topPriority, accept: { _, _, _ in topAccepts })
        return Driver(
            src, arena: DragArena(container: Rect(x: 0, y: 0, width: 20, height: 20), draggables: [wide, narrow]))
    }

    @Test func higherPriorityWinsWhereTargetsOverlap() {
        var d = stacked(topPriority: 1, topAccepts: true)
        _ = d.began(pt(2, 1), pt(2, 2))
        #expect(
            d.changed(pt(8, 11)) == [
                .moved(to: pt(8, 11), hover: target(1, index: 0, gap: 0, anchor: 100)),
                .targetChanged(section: 1),
            ])
        #expect(
            d.changed(pt(16, 11)) == [
                .moved(to: pt(16, 11), hover: target(0, index: 1, gap: 2, anchor: nil)),
                .targetChanged(section: 0),
            ], "beside the narrow column only the wide one is under the pointer")
    }

    @Test func equalPriorityGoesToTheEarlierDraggable() {
        var d = stacked(topPriority: 0, topAccepts: true)
        _ = d.began(pt(2, 1), pt(2, 2))
        #expect(d.changed(pt(8, 11)) == [.moved(to: pt(8, 11), hover: target(0, index: 1, gap: 2, anchor: nil))])
    }

    @Test func aRefusingTargetFallsThroughToTheNext() {
        var d = stacked(topPriority: 1, topAccepts: false)
        _ = d.began(pt(2, 1), pt(2, 2))
        #expect(d.changed(pt(8, 11)) == [.moved(to: pt(8, 11), hover: target(0, index: 1, gap: 2, anchor: nil))])
        #expect(
            d.ended(pt(8, 11)) == [
                .dropped(Drop(item: ItemID(0), from: path(0, 0), to: path(0, 1), location: pt(8, 11)))
            ])
        #expect(d.source.raw == [[1, 0], [100]])
    }

    @Test func startingUnderAHigherPriorityDraggableStartsThere() {
        var d = stacked(topPriority: 1, topAccepts: true)
        #expect(
            d.began(pt(8, 11), pt(9, 11)).first
                == .began(
                    DragStart(
                        item: ItemID(100), source: path(1, 0), origin: pt(8, 11),
                        itemFrame: Rect(x: 5, y: 11, width: 10, height: 2))))
    }

    @Test func intersectionFollowsTheGhostNotThePointer() {
        var d = Driver(RecordingSource(ids: standard), overlap: OverlapEvaluator(policy: .intersection))
        _ = d.began(pt(ax, 4), pt(ax, 4))  // grabbed 4 cells into a 10-wide card
        #expect(
            d.changed(pt(9, 4)) == [.moved(to: pt(9, 4), hover: target(0, index: 1, gap: 1, anchor: 2))],
            "ghost x 5..<15: 5 cells over a, 3 over b")
        #expect(
            d.changed(pt(11, 4)) == [
                .moved(to: pt(11, 4), hover: target(1, index: 1, gap: 1, anchor: 101)),
                .targetChanged(section: 1),
            ],
            "ghost x 7..<17: 3 cells over a, 5 over b, though the pointer is in the gutter")
        #expect(
            d.changed(pt(10, 4)) == [
                .moved(to: pt(10, 4), hover: target(0, index: 1, gap: 1, anchor: 2)),
                .targetChanged(section: 0),
            ], "4 and 4: the earlier column")
        #expect(
            d.ended(pt(11, 1)) == [
                .moved(to: pt(11, 1), hover: target(1, index: 0, gap: 0, anchor: 100)),
                .targetChanged(section: 1),
                .dropped(Drop(item: ItemID(1), from: path(0, 1), to: path(1, 0), location: pt(11, 1))),
            ])
    }

    @Test func containmentNeedsTheWholeGhostInside() {
        var d = Driver(RecordingSource(ids: standard), overlap: OverlapEvaluator(policy: .containment))
        _ = d.began(pt(ax, 4), pt(ax, 4))
        #expect(
            d.changed(pt(bx, 7)) == [
                .moved(to: pt(bx, 7), hover: target(1, index: 2, gap: 2, anchor: 102)),
                .targetChanged(section: 1),
            ], "ghost x 12..<22 is exactly b")
        #expect(
            d.changed(pt(bx + 1, 7)) == [.moved(to: pt(bx + 1, 7), hover: target(1, index: 2, gap: 2, anchor: 102))],
            "one cell past b: no longer contained, but within the gutter tolerance the target is kept")
        #expect(
            d.changed(pt(cx + 2, 7)) == [.moved(to: pt(cx + 2, 7), hover: .none), .targetChanged(section: nil)],
            "over c but sticking out of it")
        #expect(
            d.changed(pt(cx, 7)) == [
                .moved(to: pt(cx, 7), hover: target(2, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 2),
            ])
    }
}
