import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Ten columns C0…C9 of one card each (c0…c9).
private func tenColumns() -> Board {
    sampleBoard((0..<10).map { ("C\($0)", ["c\($0)"]) })
}

/// What the screen shows of the layout: the page, the visible sections, and where `section` is.
private func shown(_ app: BoardApp, _ section: Int) -> String {
    let l = app.layout
    let x = l.column(section: section).map { "x \($0.frame.minX) w \($0.frame.width)" } ?? "not shown"
    return "page \(l.page + 1)/\(l.pageCount) \(l.visibleSections) C\(section) \(l.area(of: section) ?? "-") \(x)"
}

@Suite struct ResizeTests {
    @Test func theSelectedColumnKeepsItsAreaThroughResizes() {
        var d = AppDriver(board: tenColumns(), width: 120, height: 40)
        for _ in 0..<6 { d.key(.char("l")) }
        #expect(d.app.selection?.section == 6)
        // 120 cells: four 29-cell columns a page; C6 is the 3rd column of page 2.
        #expect(shown(d.app, 6) == "page 2/3 4..<8 C6 c2 x 60 w 29")
        // 80 cells: three a page. The page holding C6 starts at C4 so it stays 3rd; C3 is alone on page 2.
        d.app.resize(Size(width: 80, height: 24))
        #expect(shown(d.app, 6) == "page 3/4 4..<7 C6 c2 x 54 w 26")
        #expect(d.app.layout.paged.pages.map(\.items) == [[0, 1, 2], [3], [4, 5, 6], [7, 8, 9]])
        // 60 cells: two narrow columns a page, no 3rd area: the canonical page showing C6, where it is 1st.
        d.app.resize(Size(width: 60, height: 24))
        #expect(shown(d.app, 6) == "page 4/5 6..<8 C6 c0 x 0 w 29")
        // Back to 120: it stays 1st, so the page breaks move to put a page start at C6.
        d.app.resize(Size(width: 120, height: 40))
        #expect(shown(d.app, 6) == "page 3/3 6..<10 C6 c0 x 0 w 29")
        #expect(d.app.layout.paged.pages.map(\.items) == [[0, 1, 2, 3], [4, 5], [6, 7, 8, 9]])
    }

    @Test func shrinkingAndGrowingBackReturnsToTheSamePages() {
        var d = AppDriver(board: tenColumns(), width: 120, height: 40)
        for _ in 0..<6 { d.key(.char("l")) }
        d.app.resize(Size(width: 80, height: 24))
        d.app.resize(Size(width: 120, height: 40))
        #expect(shown(d.app, 6) == "page 2/3 4..<8 C6 c2 x 60 w 29")
        #expect(d.app.layout.paged.anchor == nil, "the canonical pages keep C6 3rd")
    }

    @Test func theShiftedPagesStayUntilTheNextResize() {
        var d = AppDriver(board: tenColumns(), width: 120, height: 40)
        for _ in 0..<6 { d.key(.char("l")) }
        d.app.resize(Size(width: 80, height: 24))
        // Flipping pages walks the shifted pages.
        d.key(.char("["))
        #expect(d.app.layout.visibleSections == 3..<4)
        d.key(.char("]"))
        d.key(.char("]"))
        #expect(d.app.layout.visibleSections == 7..<10)
        // Editing (a new card in C7) keeps the page breaks.
        d.key(.char("a"))
        d.type("new")
        d.key(.enter)
        #expect(d.app.layout.paged.pages.map(\.items) == [[0, 1, 2], [3], [4, 5, 6], [7, 8, 9]])
        #expect(d.app.layout.visibleSections == 7..<10)
        // Keyboard selection into the short page shows it.
        for _ in 0..<4 { d.key(.char("h")) }
        #expect(d.app.selection?.section == 3)
        #expect(d.app.layout.visibleSections == 3..<4)
    }

    @Test func aResizeMidMouseDragKeepsTheColumnUnderTheCardAndTheDropLandsThere() {
        var d = AppDriver(board: tenColumns(), width: 120, height: 40)
        d.key(.char("]"))
        #expect(d.app.layout.visibleSections == 4..<8)
        // Pick c5 up (C5 is the 2nd column, x 30–58) and hold it over C6 (3rd, x 60–88).
        d.drag([(35, 4), (50, 5), (66, 5)], release: false)
        #expect(d.app.status == "Over C6, position 2 of 2")
        d.app.resize(Size(width: 80, height: 24))
        // C6 is still the 3rd column (x 54–79), so the pointer at x 66 is still over it.
        #expect(shown(d.app, 6) == "page 3/4 4..<7 C6 c2 x 54 w 26")
        #expect(d.app.coordinator.session?.hover.target?.section == 6)
        #expect(d.app.status == "Over C6, position 2 of 2")
        let rows = d.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[5].contains("│ c5"), "the ghost is drawn where the pointer is:\n\(rows.joined(separator: "\n"))")
        #expect(rows[1].contains("C6 1 ◆"), "the target is highlighted:\n\(rows[1])")
        d.mouse(.drag, 67, 5)
        d.mouse(.release, 67, 5)
        #expect(d.app.board.columns[6].cards.map(\.title) == ["c6", "c5"])
        #expect(d.app.board.columns[5].cards.isEmpty)
    }

    @Test func aResizeWithTheHeldCardOutsideEveryColumnKeepsItsSourceColumn() {
        var d = AppDriver(board: tenColumns(), width: 120, height: 40)
        d.key(.char("]"))
        d.key(.char("]"))
        // c9 from C9 (2nd column of page 3, x 30–58), held over the title row: no column takes it.
        d.drag([(35, 4), (40, 3), (40, 0)], release: false)
        #expect(d.app.coordinator.session?.hover == Hover.none)
        d.app.resize(Size(width: 80, height: 24))
        #expect(shown(d.app, 9) == "page 4/4 8..<10 C9 c1 x 27 w 26")
        d.mouse(.release, 40, 0)
        #expect(d.app.board == tenColumns())
    }
}
