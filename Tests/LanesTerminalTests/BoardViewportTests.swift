import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The viewport as a value: offsets follow their columns, a layout's clamping is kept.
@Suite struct BoardViewportTests {
    @Test func offsetsFollowTheirColumnsWhenAColumnIsInsertedBeforeThem() {
        var board = sampleBoard()
        var v = BoardViewport()
        v.setScroll([0, 2, 5, 9], of: board)
        #expect(v.scroll(of: board) == [0, 2, 5], "an entry past the board's columns is ignored")
        board.columns.insert(Column(title: "Inbox"), at: 0)
        #expect(v.scroll(of: board) == [0, 0, 2, 5])
        v.scroll(section: 2, by: 3, of: board)
        v.scroll(section: 7, by: 3, of: board)
        #expect(v.scroll(of: board) == [0, 0, 5, 5])
    }

    @Test func keepingALayoutKeepsItsPageAndTheOffsetsItClamped() throws {
        let board = sampleBoard([("To do", (0..<40).map { "card \($0)" }), ("Doing", ["b0"]), ("Done", [])])
        var v = BoardViewport()
        v.setScroll([999, 4, 0], of: board)
        let layout = ScreenLayout(
            board: board, size: Size(width: 80, height: 24), page: 0, scroll: v.scroll(of: board), cache: LayoutCache())
        let clamped = try #require(layout.column(section: 0)).scroll
        #expect(clamped > 0 && clamped < 999)
        v.keep(layout, of: board)
        #expect(v.scroll(of: board) == [clamped, 0, 0])
        #expect(v.page == layout.page)
        #expect(v.last?.columns.map(\.scroll) == layout.columns.map(\.scroll))
    }
}
