import DragKit
import LanesCore

/// The board as a draggable whose items are its columns, grabbed by their headers.
///
/// A second kind of draggable in the same arena as the card columns: its frame is the
/// whole board area (so a dragged header finds a place anywhere over the board) but items
/// are hit only in the header strip (title and rule rows). Every column is an item; those
/// on other pages lie far left or right of the screen, so they are never hit, and the
/// page dwell brings them into view.
public struct BoardDraggable: Draggable {
    /// The section the board answers to in drag events (no column has it).
    public static let section = -1

    public var section: Int { Self.section }
    public var frame: Rect
    public var viewport: Rect
    /// Each column's header rectangle, in board order.
    public var headers: [Rect]
    public var ids: [ItemID]

    public init(board: Board, layout: ScreenLayout) {
        frame = layout.boardArea
        let top = layout.columns.first?.frame.minY ?? layout.boardArea.minY
        viewport = Rect(x: layout.boardArea.minX, y: top, width: layout.boardArea.width, height: 2)
        let visible = layout.visibleSections
        let width = max(1, layout.columns.first?.frame.width ?? 1)
        headers = board.columns.indices.map { i in
            if let c = layout.column(section: i) {
                return Rect(x: c.frame.minX, y: top, width: c.frame.width, height: 2)
            }
            // Off-page columns keep their order far outside the screen.
            let x = i < visible.lowerBound ? -100_000 + i * width : 100_000 + i * width
            return Rect(x: x, y: top, width: width, height: 2)
        }
        ids = board.columns.indices.map { board.columnID(at: $0) }
    }

    public var itemCount: Int { headers.count }
    public func itemID(at index: Int) -> ItemID { ids[index] }
    public func frameOfItem(at index: Int) -> Rect { headers[index] }
    public var axis: ScrollAxis { .horizontal }
    public var itemKind: DragItemKind { .section }
    /// Above the columns, so a press on a header grabs the column rather than starting nothing.
    public var priority: Int { 1 }
    /// The column stays drawn where it is; the ghost header and the marker show the move.
    public var hidesDraggedItem: Bool { false }

}
