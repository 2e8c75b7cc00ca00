import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The column drag's draggable as a value: its headers are where the columns are drawn, and
/// columns on other pages lie far off screen in board order.
@Suite struct ColumnDragTests {
    /// Seven columns at 60 cells wide: more than one page.
    static func layout() -> (Board, ScreenLayout) {
        let board = sampleBoard((0..<7).map { ("C\($0)", ["c\($0)"]) })
        let d = AppDriver(board: board, width: 60, height: 16)
        return (board, d.app.layout)
    }

    @Test func eachColumnIsAnItemGrabbedByItsHeader() {
        let (board, layout) = Self.layout()
        #expect(layout.pageCount > 1, "the test needs columns on other pages")
        let draggable = BoardDraggable(board: board, layout: layout)
        #expect(draggable.section == BoardDraggable.section && draggable.section == -1)
        #expect(draggable.itemCount == 7)
        #expect((0..<7).map { draggable.itemID(at: $0) } == board.columns.map(\.id.item))
        #expect(draggable.frame == layout.boardArea)
        #expect(draggable.itemKind == .section && draggable.axis == .horizontal)
        #expect(draggable.priority == 1, "above the card columns: a press on a header grabs the column")
        #expect(!draggable.hidesDraggedItem)
        let top = layout.columns[0].frame.minY
        #expect(draggable.viewport == Rect(x: layout.boardArea.minX, y: top, width: layout.boardArea.width, height: 2))
        for c in layout.columns {
            #expect(
                draggable.frameOfItem(at: c.section) == Rect(x: c.frame.minX, y: top, width: c.frame.width, height: 2))
        }
    }

    @Test func columnsOnOtherPagesLieFarOffScreenInOrder() {
        let (board, layout) = Self.layout()
        let draggable = BoardDraggable(board: board, layout: layout)
        let visible = layout.visibleSections
        let after = (0..<7).filter { $0 >= visible.upperBound }
        #expect(!after.isEmpty)
        for i in after { #expect(draggable.frameOfItem(at: i).minX >= 100_000) }
        let xs = (0..<7).map { draggable.frameOfItem(at: $0).minX }
        #expect(xs == xs.sorted(), "left to right in board order")
    }
}
