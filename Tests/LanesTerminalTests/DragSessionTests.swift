import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The drag session on its own: engine, renderer, auto-scroll and dwell as one value.
@Suite struct DragSessionTests {
    let cache = LayoutCache()

    func layout(_ board: Board, size: Size = Size(width: 80, height: 24), page: Int = 0) -> ScreenLayout {
        ScreenLayout(
            board: board, size: size, page: page, scroll: Array(repeating: 0, count: board.columns.count), cache: cache)
    }

    @Test func eventsReachTheRendererAndAHoldAtTheEdgeScrollsOnTheInjectedClock() {
        let long = sampleBoard([("Long", (0..<200).map { "k\($0)" }), ("Other", ["mover"])])
        var doc = BoardDocument(board: long)
        let l = layout(long)
        var s = DragSession(arena: l.arena)
        // Grab "mover" (Other: x 40–78, first card rows 3–5) and take it into Long.
        var events = s.coordinator.handle(PointerInput(.press, Point(x: 45, y: 4), at: 0), dataSource: &doc)
        events += s.coordinator.handle(PointerInput(.move, Point(x: 20, y: 12), at: 0.05), dataSource: &doc)
        #expect(s.take(events, board: long, now: 0.05) == "Over Long, position 4 of 201")
        #expect(s.renderer.isDragging)
        // Held on Long's edge row (22): 80 rows/s after the ramp, a crawl first.
        let column = l.column(section: 0)!
        let scroller = Scrollable(id: 0, viewport: column.viewport, contentLength: 600, offset: 0)
        s.pointerMoved(Point(x: 20, y: 22), scrollers: [scroller], board: l.boardArea, pages: l.pageCount, now: 1.0)
        #expect(s.tick(now: 1.2).scroll == nil)  // 0.8 rows
        #expect(s.tick(now: 1.35).scroll == ScrollStep(id: 0, rows: 1))  // 1.4
        #expect(s.tick(now: 3.0).scroll == ScrollStep(id: 0, rows: 100))  // 101.1
        #expect(s.deadline(now: 3.0) != nil)
        // Release: the edges stop with the drag.
        let drop = s.coordinator.handle(PointerInput(.release, Point(x: 20, y: 12), at: 3.1), dataSource: &doc)
        #expect(s.take(drop, board: doc.board, now: 3.1)?.hasPrefix("Dropped “mover” in Long") == true)
        #expect(s.autoScroller.target == nil && s.dwell.side == nil && s.edgePointer == nil)
        #expect(s.tick(now: 4).scroll == nil)
    }

    @Test func theDwellFlipsAtOnceOnAFlingMeasuredByTheEngine() {
        let eight = sampleBoard((0..<8).map { ("C\($0)", ["c\($0)a"]) })
        var doc = BoardDocument(board: eight)
        let l = layout(eight)
        #expect(l.pageCount == 3)
        var s = DragSession(arena: l.arena)
        _ = s.coordinator.handle(PointerInput(.press, Point(x: 5, y: 4), at: 0), dataSource: &doc)
        // Slowly into the middle first: the dwell starts outside its bands.
        for (i, x) in [6, 10, 20, 30, 40].enumerated() {
            _ = s.coordinator.handle(PointerInput(.move, Point(x: x, y: 4), at: 0.1 * Double(i + 1)), dataSource: &doc)
            s.pointerMoved(
                Point(x: x, y: 4), scrollers: [], board: l.boardArea, pages: l.pageCount, now: 0.1 * Double(i + 1))
        }
        #expect(s.tick(now: 0.55).flip == nil)
        // Then flung to the right edge in 20 ms: the engine's velocity (no estimator of the app's) flips now.
        for (i, x) in [60, 79].enumerated() {
            let t = 0.56 + 0.01 * Double(i)
            _ = s.coordinator.handle(PointerInput(.move, Point(x: x, y: 4), at: t), dataSource: &doc)
            s.pointerMoved(Point(x: x, y: 4), scrollers: [], board: l.boardArea, pages: l.pageCount, now: t)
        }
        #expect((s.coordinator.session?.velocity.dx ?? 0) > 60)
        #expect(s.dwell.side == .next, "\(s.dwell) \(String(describing: s.coordinator.session))")
        #expect(s.tick(now: 0.58).flip == .next)
    }

    @Test func boardChangedKeepsTheCardInHandOrCancelsWithWords() {
        let board = sampleBoard()
        var doc = BoardDocument(board: board)
        var s = DragSession(arena: layout(board).arena)
        _ = s.coordinator.handle(PointerInput(.press, Point(x: 5, y: 7), at: 0), dataSource: &doc)  // a1
        _ = s.take(
            s.coordinator.handle(PointerInput(.move, Point(x: 32, y: 8), at: 0.05), dataSource: &doc),
            board: board, now: 0.05)
        // Another writer adds a card at the top of To do: a1 is still in hand, now at index 2.
        doc.board.columns[0].cards.insert(Card(id: CardID(99), title: "new"), at: 0)
        let kept = s.layoutChanged(layout(doc.board).arena, dataSource: doc, board: doc.board, now: 0.1)
        #expect(s.isDragging)
        #expect(s.coordinator.session?.current == ItemPath(section: 0, item: 2))
        #expect(!kept.events.contains { if case .cancelled = $0 { true } else { false } })
        // Then deletes a1: the drag ends, and says why.
        doc.board.columns[0].cards.remove(at: 2)
        let gone = s.layoutChanged(layout(doc.board).arena, dataSource: doc, board: doc.board, now: 0.2)
        #expect(
            gone.events == [.cancelled(item: ItemID(2), source: ItemPath(section: 0, item: 2), reason: .itemVanished)])
        #expect(gone.words == "Cancelled: the card was deleted elsewhere")
        #expect(!s.isDragging && !s.renderer.isDragging)
    }
}

@Suite struct MultiDragAppTests {
    @Test func theWIPLimitCountsEveryCarriedCard() {
        var board = sampleBoard([("To do", ["a0", "a1", "a2"]), ("Doing", ["b0"]), ("Done", [])])
        board.columns[1].wipLimit = 3
        var d = AppDriver(board: board)
        d.key(.char("v")); d.key(.char("j")); d.key(.char("v")); d.key(.char("j")); d.key(.char("v"))
        #expect(d.app.marked.count == 3)
        // Three cards into Doing (1 of 3): one too many.
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        #expect(
            d.app.coordinator.session?.hover == .refused(section: 1, because: "column \"Doing\" is full (WIP limit 3)"))
        #expect(d.screen().contains("+2"))
        d.mouse(.release, 32, 8)
        #expect(d.app.board == board)
        // Two fit: unmark a2.
        d.key(.char("G"))
        d.key(.char("v"))
        #expect(d.app.marked.count == 2)
        d.drag([(5, 4), (20, 5), (32, 8)])
        #expect(titles(d.app.board) == [["a2"], ["b0", "a0", "a1"], []])
        #expect(d.app.status == "Dropped 2 cards in Doing at positions 2–3")
        d.key(.char("u"))
        #expect(d.app.board == board, "one undo step")
    }

    @Test func markedCardsAreDrawnMarkedAndEscClearsThem() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("v"))
        let rows = d.screen().split(separator: "\n").map(String.init)
        #expect(rows[3].hasPrefix("╭─●"), "\(rows.joined(separator: "\n"))")
        d.key(.escape)
        #expect(d.app.marked.isEmpty && d.app.status == "Marks cleared")
        // A ctrl-click marks without dragging or selecting anything else.
        _ = d.app.handle(.mouse(MouseEvent(.press, .left, x: 30, y: 4, modifiers: [.ctrl])), now: 200)
        _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: 35, y: 9, modifiers: [.ctrl])), now: 200.1)
        _ = d.app.handle(.mouse(MouseEvent(.release, .left, x: 35, y: 9, modifiers: [.ctrl])), now: 200.2)
        #expect(d.app.marked == [CardID(4)])
        #expect(!d.app.coordinator.isDragging)
        #expect(d.app.selection == ItemPath(section: 1, item: 0))
    }

    @Test func theCursorRestsOnTheSelectedCardThenOnTheMarker() {
        var d = AppDriver(board: sampleBoard())
        var buf = CellBuffer(width: 0, height: 0)
        d.app.render(into: &buf, now: d.now)
        #expect(buf.cursor == Point(x: 2, y: 4))
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        d.app.render(into: &buf, now: d.now)
        #expect(buf.cursor == Point(x: 27, y: 9), "on the marker below b1")
        d.mouse(.release, 32, 8)
        d.key(.char("?"))
        d.app.render(into: &buf, now: d.now)
        #expect(buf.cursor == nil, "hidden under the help screen")
    }

    @Test func aColumnDraggedByItsHeaderMovesWithItsScrollAndOneUndo() {
        let board = sampleBoard()
        var d = AppDriver(board: board)
        // Grab Doing's header (x 27–52, row 1) and drop it left of To do.
        d.drag([(30, 1), (20, 3), (3, 3)], release: false)
        #expect(d.app.status == "Column Doing to position 1 of 3")
        #expect(d.screen().split(separator: "\n")[3].hasPrefix("╭"))
        d.mouse(.release, 3, 3)
        #expect(titles(d.app.board) == [["b0", "b1"], ["a0", "a1", "a2"], []])
        #expect(d.app.board.columns.map(\.title) == ["Doing", "To do", "Done"])
        #expect(d.app.status == "Moved column Doing to position 1")
        #expect(d.app.revision == 1)
        d.key(.char("u"))
        #expect(d.app.board == board)
        // A click on a header selects that column.
        d.drag([(60, 1), (60, 1)])
        #expect(d.app.selection?.section == 2)
    }

    @Test func aBoardChangedFromOutsideKeepsADrag() {
        var d = AppDriver(board: sampleBoard())
        d.drag([(5, 7), (20, 5), (32, 8)], release: false)
        var other = d.app.board
        other.columns[1].cards.append(Card(id: CardID(50), title: "b2"))
        d.app.absorb(stored: other, base: d.app.board)
        #expect(d.app.coordinator.isDragging)
        #expect(titles(d.app.board)[1] == ["b0", "b1", "b2"])
        d.mouse(.release, 32, 8)
        #expect(titles(d.app.board) == [["a0", "a2"], ["b0", "b1", "a1", "b2"], []])
        // A drag whose card another writer deletes ends with words.
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        var gone = d.app.board
        gone.columns[0].cards.removeFirst()
        d.app.absorb(stored: gone, base: d.app.board)
        #expect(!d.app.coordinator.isDragging)
        #expect(d.app.status == "Cancelled: the card was deleted elsewhere")
    }
}

extension String {
    func hasPrefix(_ p: String, at offset: Int) -> Bool { dropFirst(offset).hasPrefix(p) }
}

@Suite struct DragDetailsTests {
    @Test func theMarkerNeverHidesTheGhostsTitle() {
        var d = AppDriver(board: sampleBoard())
        // a0 grabbed on its top border: as the pointer goes down Doing, the marker falls on the
        // ghost's title row at some rows (the ghost's top is the pointer's row); the title stays.
        d.drag([(5, 3), (20, 4), (32, 4)], release: false)
        var covered = 0
        for y in 4...12 {
            d.mouse(.drag, 32, y)
            let s = d.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let g = d.app.renderer.ghost(now: d.now)!.frame
            #expect(s[g.minY + 1].hasPrefix(" a0 ", at: 28), "pointer row \(y):\n\(s.joined(separator: "\n"))")
            if s[g.minY + 1].hasPrefix("▶", at: 27) { covered += 1 }
        }
        #expect(covered > 0, "the marker met the title row at least once (only its end arrows are drawn there)")
    }

    @Test func theGhostTakesTheColumnsWidthAfterAResize() {
        var d = AppDriver(board: sampleBoard(), width: 80, height: 16)
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        #expect(d.app.scene(now: d.now).ghost?.frame.width == 26)
        d.app.resize(Size(width: 120, height: 30))
        let width = d.app.layout.columns.first!.frame.width
        #expect(width != 26)
        #expect(d.app.scene(now: d.now).ghost?.frame.width == width)
    }

    @Test func theOverflowHintSitsOnTheRuleNotOverCardText() {
        let many = sampleBoard([("Long", (0..<30).map { "card \($0)" })])
        let d = AppDriver(board: many, width: 40, height: 16)
        let rows = d.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[2].hasSuffix("▼ 26 more─"), "\(rows.joined(separator: "\n"))")
        // The last visible row is a card's own row, untouched.
        #expect(!rows[14].contains("more"), "\(rows.joined(separator: "\n"))")
    }
}

@Suite struct ColumnDragPagingTests {
    @Test func aColumnHeldAtTheBoardsEdgeFlipsThePageAndLandsThere() {
        let eight = sampleBoard((0..<8).map { ("C\($0)", ["c\($0)a"]) })
        var d = AppDriver(board: eight, width: 80, height: 16)
        #expect(d.app.layout.pageCount == 3)
        d.drag([(5, 1), (6, 1), (30, 4), (60, 4), (79, 4)], release: false)
        #expect(d.app.status.hasPrefix("Column C0 to position"))
        // Resting at the right edge for half a second flips to page 2 (C3, C4, C5).
        d.now += 0.6
        d.app.tick(now: d.now)
        #expect(d.app.layout.visibleSections == 3..<6)
        // The ghost (x 35–60) has passed C4's centre, not C5's: between C4 and C5.
        d.mouse(.drag, 40, 4)
        #expect(d.app.status == "Column C0 to position 5 of 8")
        d.mouse(.release, 40, 4)
        #expect(d.app.board.columns.map(\.title) == ["C1", "C2", "C3", "C4", "C0", "C5", "C6", "C7"])
        #expect(d.app.status == "Moved column C0 to position 5")
    }
}
