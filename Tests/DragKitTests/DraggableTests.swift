import DragKit
import Testing

@Suite("Draggable hit testing and gaps")
struct DraggableTests {
    /// Cards of heights 1, 2, 3, 4 from row 2 with one blank row between: rows 2 | 4-5 | 7-9 | 11-14.
    let column = TestColumn(
        section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 20),
        ids: [10, 11, 12, 13].map(ItemID.init), heights: [1, 2, 3, 4], top: 2, spacing: 1)

    @Test func itemFramesStack() {
        #expect(column.frameOfItem(at: 0) == Rect(x: 0, y: 2, width: 10, height: 1))
        #expect(column.frameOfItem(at: 3) == Rect(x: 0, y: 11, width: 10, height: 4))
    }

    @Test(arguments: [(0, 0), (2, 0), (3, 1), (4, 1), (7, 2), (10, 3), (11, 3), (14, 3), (15, 4), (19, 4), (50, 4)])
    func firstItemEndingBelow(_ y: Int, _ expected: Int) {
        #expect(column.firstItem(endingBelow: y) == expected)
    }

    @Test(
        arguments: [(0, nil), (2, 0), (3, nil), (4, 1), (5, 1), (6, nil), (9, 2), (14, 3), (15, nil)] as [(Int, Int?)])
    func itemIndexAt(_ y: Int, _ expected: Int?) {
        #expect(column.itemIndex(at: pt(3, y)) == expected)
    }

    @Test func itemIndexRequiresThePointInsideTheFrameAndTheCard() {
        #expect(column.itemIndex(at: pt(10, 4)) == nil, "maxX of the column is outside")
        #expect(column.itemIndex(at: pt(-1, 4)) == nil)
        let inset = TestColumn(
            section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 20), ids: [ItemID(1)],
            top: 0, cardInset: 1)
        #expect(inset.itemIndex(at: pt(0, 0)) == nil, "the column's margin beside a card is not the card")
        #expect(inset.itemIndex(at: pt(1, 0)) == 0)
    }

    /// Upper half before, lower half after; the middle row of an odd height counts as lower.
    @Test(arguments: [
        (0, 0), (1, 0),  // above the first card
        (2, 1),  // height 1: its only row is the middle, so after
        (3, 1),  // gap row between cards 0 and 1
        (4, 1), (5, 2),  // height 2: upper, lower
        (6, 2),  // gap row
        (7, 2), (8, 3), (9, 3),  // height 3: upper, middle (lower), lower
        (10, 3),  // gap row
        (11, 3), (12, 3), (13, 4), (14, 4),  // height 4: two upper, two lower
        (15, 4), (19, 4), (40, 4),  // below the last card
    ])
    func gapIndexAt(_ y: Int, _ expected: Int) {
        #expect(column.gapIndex(at: pt(3, y)) == expected, "row \(y)")
    }

    @Test func emptyColumnGapIsZeroEverywhere() {
        let empty = TestColumn(section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 20), ids: [])
        for y in -3...25 { #expect(empty.gapIndex(at: pt(4, y)) == 0) }
        #expect(empty.itemIndex(at: pt(4, 1)) == nil)
    }

    @Test func scrolledItemsOutsideTheFrameAreNotHit() {
        // Scrolled by 6: card 0 at rows -5..-4, card 1 at -2..-1, card 2 at 1..2.
        let c = TestColumn(
            section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 20),
            ids: [1, 2, 3, 4].map(ItemID.init), scroll: 6)
        #expect(c.frameOfItem(at: 0).minY == -5)
        #expect(c.itemIndex(at: pt(4, -1)) == nil, "above the frame")
        #expect(c.itemIndex(at: pt(4, 0)) == nil, "the gap row at the top of the frame")
        #expect(c.itemIndex(at: pt(4, 1)) == 2)
        #expect(c.gapIndex(at: pt(4, 0)) == 2)
        #expect(c.gapIndex(at: pt(4, 2)) == 3)
    }

    @Test func arenaPicksTheHighestPriorityThenTheEarliest() {
        let f = Rect(x: 0, y: 0, width: 10, height: 10)
        let a = TestColumn(section: 0, frame: f, ids: [])
        let b = TestColumn(section: 1, frame: f, ids: [], priority: 1)
        let c = TestColumn(section: 2, frame: f, ids: [], priority: 1)
        let d = TestColumn(section: 3, frame: Rect(x: 20, y: 0, width: 5, height: 5), ids: [])
        let arena = DragArena(container: Rect(x: 0, y: 0, width: 30, height: 10), draggables: [a, b, c, d])
        #expect(arena.draggable(at: pt(1, 1))?.section == 1)
        #expect(arena.draggable(at: pt(21, 1))?.section == 3)
        #expect(arena.draggable(at: pt(15, 1)) == nil)
        #expect(arena.draggable(forSection: 2)?.priority == 1)
        #expect(arena.draggable(forSection: 7) == nil)
        let tie = DragArena(container: f, draggables: [c, b])
        #expect(tie.draggable(at: pt(1, 1))?.section == 2, "ties go to the earlier draggable")
    }

    @Test func protocolDefaults() {
        struct Bare: Draggable {
            var section: Int { 0 }
            var frame: Rect { .zero }
            var itemCount: Int { 0 }
            func itemID(at index: Int) -> ItemID { ItemID(0) }
            func frameOfItem(at index: Int) -> Rect { .zero }
        }
        let b = Bare()
        #expect(b.canDragItem(at: 0) && b.canRearrange && b.hidesDraggedItem && b.priority == 0)
        #expect(b.canAcceptDrop(of: ItemID(1), from: 3, at: 0))
    }
}
