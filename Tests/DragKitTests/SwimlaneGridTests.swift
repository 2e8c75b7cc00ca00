import DragKit
import Testing

/// One cell of a swimlane board (lane × column): cards of height 2, one blank row apart,
/// stacked from the top of `viewport`.
struct GridCell: Draggable {
    var section: Int
    var frame: Rect
    var viewport: Rect
    var ids: [ItemID]
    var accept: @Sendable (ItemID, Int, Int) -> Bool

    var itemCount: Int { ids.count }
    func itemID(at index: Int) -> ItemID { ids[index] }
    func frameOfItem(at index: Int) -> Rect {
        Rect(x: frame.minX, y: viewport.minY + 3 * index, width: frame.width, height: 2)
    }
    func canAcceptDrop(of item: ItemID, from source: Int, at index: Int) -> Bool { accept(item, source, index) }
}

/// A lane's header: one row across the board, above the cells' frames. It has no items
/// and a higher priority than a cell, so a press on it is the header's.
struct LaneHeader: Draggable {
    var section: Int
    var frame: Rect
    var accepts: Bool
    var priority: Int { 1 }
    var itemCount: Int { 0 }
    func itemID(at index: Int) -> ItemID { ItemID(UInt64(section)) }
    func frameOfItem(at index: Int) -> Rect { .zero }
    func canAcceptDrop(of item: ItemID, from source: Int, at index: Int) -> Bool { accepts }
}

/// A board of 3 lanes × 3 columns; cell (lane l, column c) is section `3l + c`, lane l's header is section `100 + l`.
///
/// Columns are 10 wide at x `12c`. A lane is a header row, then (unless collapsed) a cell
/// whose frame starts on the header row and is 10 rows tall, its viewport the 9 rows below
/// the header. Uncollapsed: headers at rows 0, 10, 20; cards of lane 0 at rows 1, 4, 7, of
/// lane 1 at 11, 14, 17. A collapsed lane is its header row alone; its cells' frames are
/// empty (height 0) on the row below it, where the next lane's header sits.
enum Grid {
    static let lanes = 3, columns = 3

    /// Lane 0: [1, 2] [11] []; lane 1: [101] [111, 112] []; lane 2 ("No lane"): [] [] [221].
    static let ids: [[UInt64]] = [[1, 2], [11], [], [101], [111, 112], [], [], [], [221]]

    static func x(_ column: Int) -> Int { 12 * column + 4 }

    /// The arena: every cell first (lane by lane), then the headers, so only priority puts a header first.
    static func arena(
        _ source: RecordingSource, collapsed: Set<Int> = [], headersAccept: Bool = false,
        laneFrameGrowth: Int = 0,
        accept: @escaping @Sendable (Int, ItemID) -> Bool = { _, _ in true }
    ) -> DragArena {
        var cells: [any Draggable] = []
        var headers: [any Draggable] = []
        var y = 0
        for lane in 0..<lanes {
            headers.append(
                LaneHeader(
                    section: 100 + lane, frame: Rect(x: 0, y: y, width: 34, height: 1),
                    accepts: headersAccept))
            for column in 0..<columns {
                let section = 3 * lane + column
                let frame =
                    collapsed.contains(lane)
                    ? Rect(x: 12 * column, y: y + 1, width: 10, height: 0)
                    : Rect(x: 12 * column, y: y, width: 10, height: 10 + laneFrameGrowth)
                let viewport =
                    collapsed.contains(lane)
                    ? frame
                    : Rect(x: 12 * column, y: y + 1, width: 10, height: 9)
                cells.append(
                    GridCell(
                        section: section, frame: frame, viewport: viewport, ids: source.sections[section],
                        accept: { item, _, _ in accept(section, item) }))
            }
            y += collapsed.contains(lane) ? 1 : 10
        }
        return DragArena(container: Rect(x: 0, y: 0, width: 34, height: 35), draggables: cells + headers)
    }

    static func driver(
        collapsed: Set<Int> = [], headersAccept: Bool = false, laneFrameGrowth: Int = 0,
        overlap: OverlapEvaluator = OverlapEvaluator()
    ) -> Driver {
        let source = RecordingSource(ids: ids)
        return Driver(
            source,
            arena: arena(
                source, collapsed: collapsed, headersAccept: headersAccept,
                laneFrameGrowth: laneFrameGrowth), overlap: overlap)
    }
}

/// Card 1 (lane 0, column 0, first card) grabbed on its upper row.
let gridGrab = DragStart(
    item: ItemID(1), source: path(0, 0), origin: pt(4, 1), itemFrame: Rect(x: 0, y: 1, width: 10, height: 2))

@Suite("Swimlane grid")
struct SwimlaneGridTests {
    @Test func dragAcrossLanesAndColumns() {
        var d = Grid.driver()
        #expect(
            d.began(pt(4, 1), pt(4, 1)) == [
                .began(gridGrab), .moved(to: pt(4, 1), hover: target(0, index: 0, gap: 0, anchor: 2)),
                .targetChanged(section: 0),
            ])
        // Lane 1, column 1: the ghost (rows 14-15) centres on card 112's centre: before it.
        #expect(
            d.changed(pt(16, 14)) == [
                .moved(to: pt(16, 14), hover: target(4, index: 1, gap: 1, anchor: 112)),
                .targetChanged(section: 4),
            ])
        // Lane 2, column 2, below card 221: the end of that cell.
        #expect(
            d.changed(pt(28, 25)) == [
                .moved(to: pt(28, 25), hover: target(8, index: 1, gap: 1, anchor: nil)),
                .targetChanged(section: 8),
            ])
        #expect(
            d.changed(pt(16, 14)) == [
                .moved(to: pt(16, 14), hover: target(4, index: 1, gap: 1, anchor: 112)),
                .targetChanged(section: 4),
            ])
        #expect(
            d.ended(pt(16, 14)) == [
                .dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(4, 1), location: pt(16, 14)))
            ])
        #expect(d.source.log == [.begin, .delete(path(0, 0)), .insert(ItemID(1), path(4, 1)), .commit])
        #expect(d.source.raw == [[2], [11], [], [101], [111, 1, 112], [], [], [], [221]])
    }

    @Test func aCellsOwnRuleRefusesInItsLaneOnly() {
        // Column 1 of lane 1 refuses card 1; the same column in lane 2 takes it.
        let source = RecordingSource(ids: Grid.ids)
        var d = Driver(
            source, arena: Grid.arena(source, accept: { section, item in !(section == 4 && item == ItemID(1)) }))
        _ = d.began(pt(4, 1), pt(4, 1))
        #expect(
            d.changed(pt(16, 14)) == [.moved(to: pt(16, 14), hover: .refused(section: 4)), .targetChanged(section: 4)])
        #expect(
            d.changed(pt(16, 24)) == [
                .moved(to: pt(16, 24), hover: target(7, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 7),
            ])
        #expect(
            d.changed(pt(16, 15)) == [.moved(to: pt(16, 15), hover: .refused(section: 4)), .targetChanged(section: 4)])
        #expect(d.ended(pt(16, 15)) == [.endedOutside(item: ItemID(1), source: path(0, 0), at: pt(16, 15))])
        #expect(d.source.log.isEmpty)
    }

    @Test func aPressOnALaneHeaderIsTheHeaders() {
        var d = Grid.driver()
        // Row 10 is lane 1's header and the top row of its cells' frames: the header has priority.
        #expect(d.coordinator.arena.draggable(at: pt(16, 10))?.section == 101)
        #expect(d.coordinator.arena.draggable(at: pt(16, 11))?.section == 4)
        #expect(d.began(pt(16, 10), pt(16, 12)) == [.notDraggable(at: pt(16, 10), section: 101, item: nil)])
        #expect(d.ended(pt(16, 12)) == [])
        #expect(d.press(16, 10) + d.release(16, 10) == [.tapped(at: pt(16, 10), item: nil)])
        #expect(d.press(16, 11) + d.release(16, 11) == [.tapped(at: pt(16, 11), item: path(4, 0))])
        #expect(d.source.log.isEmpty)
    }

    @Test func aRefusingHeaderLeavesTheDropToTheCellBeneath() {
        var d = Grid.driver()
        _ = d.began(pt(4, 1), pt(4, 1))
        // Over lane 1's header row: the header is asked first, refuses, and the cell beneath takes the card at its top.
        #expect(
            d.changed(pt(16, 10)) == [
                .moved(to: pt(16, 10), hover: target(4, index: 0, gap: 0, anchor: 111)),
                .targetChanged(section: 4),
            ])
        #expect(
            d.ended(pt(16, 10)) == [
                .dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(4, 0), location: pt(16, 10)))
            ])
        #expect(d.source.raw == [[2], [11], [], [101], [1, 111, 112], [], [], [], [221]])
    }

    @Test func anAcceptingHeaderWinsOverTheCellBeneath() {
        var d = Grid.driver(headersAccept: true)
        _ = d.began(pt(4, 1), pt(4, 1))
        #expect(
            d.changed(pt(16, 10)) == [
                .moved(to: pt(16, 10), hover: target(101, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 101),
            ])
        #expect(
            d.changed(pt(16, 11)) == [
                .moved(to: pt(16, 11), hover: target(4, index: 0, gap: 0, anchor: 111)),
                .targetChanged(section: 4),
            ])
    }

    @Test func overlappingCellFramesGoToTheEarlierCell() {
        // Lane 0's cells grow one row into lane 1 (rows 0-10): row 10 is in both lanes' cells and lane 1's header.
        var d = Grid.driver(laneFrameGrowth: 1)
        _ = d.began(pt(4, 1), pt(4, 1))
        // Header refuses; of the two cells the earlier in the arena (lane 0) wins: the ghost is past card 2, the end.
        #expect(d.changed(pt(4, 10)) == [.moved(to: pt(4, 10), hover: target(0, index: 1, gap: 2, anchor: nil))])
        #expect(
            d.changed(pt(4, 11)) == [
                .moved(to: pt(4, 11), hover: target(3, index: 0, gap: 0, anchor: 101)),
                .targetChanged(section: 3),
            ])
        #expect(
            d.changed(pt(4, 10)) == [
                .moved(to: pt(4, 10), hover: target(0, index: 1, gap: 2, anchor: nil)),
                .targetChanged(section: 0),
            ])
    }

    @Test func intersectionPolicyAcrossALaneBoundary() {
        var d = Grid.driver(overlap: OverlapEvaluator(policy: .intersection))
        _ = d.began(pt(4, 1), pt(4, 1))
        // Ghost on rows 9-10: one row in each lane, an equal share: the earlier cell (lane 0) wins.
        #expect(d.changed(pt(4, 9)) == [.moved(to: pt(4, 9), hover: target(0, index: 1, gap: 2, anchor: nil))])
        // Ghost on rows 10-11: wholly in lane 1 (the header row refuses).
        #expect(
            d.changed(pt(4, 10)) == [
                .moved(to: pt(4, 10), hover: target(3, index: 0, gap: 0, anchor: 101)),
                .targetChanged(section: 3),
            ])
        #expect(
            d.ended(pt(4, 10)) == [
                .dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(3, 0), location: pt(4, 10)))
            ])
        #expect(d.source.raw == [[2], [11], [], [1, 101], [111, 112], [], [], [], [221]])
    }

    @Test func aCollapsedLanesCellsAreNeverATarget() {
        // Lane 1 collapsed: its header at row 10, its cells empty at row 11; lane 2's header at 11, its cards from row 12.
        var d = Grid.driver(collapsed: [1])
        _ = d.began(pt(4, 1), pt(4, 1))
        #expect(
            d.changed(pt(4, 10)) == [
                .moved(to: pt(4, 10), hover: .refused(section: 101)), .targetChanged(section: 101),
            ])
        #expect(
            d.changed(pt(16, 11)) == [
                .moved(to: pt(16, 11), hover: target(7, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 7),
            ])
        #expect(
            d.changed(pt(4, 11)) == [
                .moved(to: pt(4, 11), hover: target(6, index: 0, gap: 0, anchor: nil)),
                .targetChanged(section: 6),
            ])
        #expect(
            d.ended(pt(4, 11)) == [
                .dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(6, 0), location: pt(4, 11)))
            ])
        #expect(d.source.raw == [[2], [11], [], [101], [111, 112], [], [1], [], [221]])
        // A point on a collapsed cell's row is never in it, and no item there is hit.
        #expect(d.coordinator.arena.draggable(at: pt(16, 11))?.section == 102)
        #expect(d.coordinator.hitTest(pt(16, 11)) == nil)
    }

    @Test func collapsingTheTargetLaneMidDragDropsItsTargetAndItsGutter() {
        var d = Grid.driver()
        _ = d.began(pt(4, 1), pt(4, 1))
        #expect(
            d.changed(pt(16, 14)) == [
                .moved(to: pt(16, 14), hover: target(4, index: 1, gap: 1, anchor: 112)),
                .targetChanged(section: 4),
            ])
        // The gutter right of the cell keeps its target.
        #expect(d.changed(pt(22, 12)) == [.moved(to: pt(22, 12), hover: target(4, index: 1, gap: 1, anchor: 112))])
        // Lane 1 collapses: its cell's empty frame grown by the gutter would still hold (22, 12); it must not.
        let collapsed = Grid.arena(d.source, collapsed: [1])
        #expect(
            d.coordinator.updateArena(collapsed, dataSource: d.source)
                == [.moved(to: pt(22, 12), hover: .none), .targetChanged(section: nil)])
        #expect(d.coordinator.session?.lastTarget == nil)
        #expect(d.changed(pt(22, 13)) == [.moved(to: pt(22, 13), hover: .none)])
        #expect(d.ended(pt(22, 13)) == [.endedOutside(item: ItemID(1), source: path(0, 0), at: pt(22, 13))])
        #expect(d.source.log.isEmpty)
    }

    @Test func keyboardSkipsCollapsedCells() {
        var d = Grid.driver(collapsed: [1])
        let lifted = DragStart(
            item: ItemID(1), source: path(0, 0), origin: pt(0, 1),
            itemFrame: Rect(x: 0, y: 1, width: 10, height: 2), viaKeyboard: true)
        #expect(
            d.coordinator.lift(at: path(0, 0), dataSource: d.source)
                == [
                    .began(lifted), .moved(to: pt(0, 1), hover: target(0, index: 0, gap: 0, anchor: 2)),
                    .targetChanged(section: 0),
                ])
        #expect(
            d.coordinator.moveLifted(toSection: 3, index: 0, dataSource: d.source) == [],
            "a collapsed cell is not a place to go")
        #expect(d.coordinator.session?.hover == target(0, index: 0, gap: 0, anchor: 2))
        #expect(
            d.coordinator.moveLifted(toSection: 6, index: 0, dataSource: d.source)
                == [.moved(to: pt(0, 11), hover: target(6, index: 0, gap: 0, anchor: nil)), .targetChanged(section: 6)])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source)
                == [.dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(6, 0), location: pt(0, 11)))])
        // Nothing in a collapsed cell can be lifted.
        #expect(d.coordinator.lift(at: path(3, 0), dataSource: d.source) == [])
        #expect(!d.coordinator.isDragging)
    }

    @Test func aKeyboardDragWhoseTargetLaneCollapsesReturnsHome() {
        var d = Grid.driver()
        _ = d.coordinator.lift(at: path(0, 0), dataSource: d.source)
        #expect(
            d.coordinator.moveLifted(toSection: 4, index: 1, dataSource: d.source)
                == [
                    .moved(to: pt(12, 14), hover: target(4, index: 1, gap: 1, anchor: 112)), .targetChanged(section: 4),
                ])
        #expect(
            d.coordinator.updateArena(Grid.arena(d.source, collapsed: [1]), dataSource: d.source)
                == [.moved(to: pt(0, 1), hover: target(0, index: 0, gap: 0, anchor: 2)), .targetChanged(section: 0)])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source)
                == [.dropped(Drop(item: ItemID(1), from: path(0, 0), to: path(0, 0), location: pt(0, 1)))])
        #expect(d.source.log.isEmpty)
    }

    @Test func aKeyboardDragFromALaneThatCollapsesKeepsItsTarget() {
        var d = Grid.driver()
        _ = d.coordinator.lift(at: path(3, 0), dataSource: d.source)
        #expect(
            d.coordinator.moveLifted(toSection: 1, index: 1, dataSource: d.source)
                == [.moved(to: pt(12, 3), hover: target(1, index: 1, gap: 1, anchor: nil)), .targetChanged(section: 1)])
        // Lane 1 (the card's home) collapses: the card is still in the data, its target in lane 0 stands.
        #expect(
            d.coordinator.updateArena(Grid.arena(d.source, collapsed: [1]), dataSource: d.source)
                == [.moved(to: pt(12, 3), hover: target(1, index: 1, gap: 1, anchor: nil))])
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source)
                == [.dropped(Drop(item: ItemID(101), from: path(3, 0), to: path(1, 1), location: pt(12, 3)))])
        #expect(d.source.raw == [[1, 2], [11, 101], [], [], [111, 112], [], [], [], [221]])
    }
}
