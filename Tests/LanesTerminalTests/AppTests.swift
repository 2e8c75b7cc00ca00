import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

// Geometry of the sample board at 80×16: three columns 26 cells wide at x = 0, 27, 54;
// titles on row 1, rules on row 2, cards of height 3 from row 3 (a0: 3–5, a1: 6–8, a2: 9–11).

@Suite struct MouseDragTests {
    @Test func dragToAnotherColumnLandsWhereTheMarkerShows() {
        var d = AppDriver(board: sampleBoard())
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        let mid = d.screen()
        // The ghost (rows 7–9) has its centre below b1's (rows 6–8): after b1, position 3 of 3.
        #expect(d.app.status == "Over Doing, position 3 of 3")
        let rows = mid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[9].contains("▶━━━━━━━━━━━━━━━━━━━━━━━━◀"), "marker below b1:\n\(mid)")
        #expect(rows[1].hasPrefix("To do 3") && rows[1].contains("Doing 2 ◆"), "target highlighted:\n\(mid)")
        #expect(rows[3].hasPrefix("┌╌╌"), "original left as an empty slot:\n\(mid)")
        // The ghost keeps the grab offset (5,1): its box starts at (27, 7).
        #expect(rows[7].dropFirst(27).hasPrefix("╭────"), "ghost top:\n\(mid)")
        #expect(rows[8].dropFirst(27).hasPrefix("│ a0"), "ghost title:\n\(mid)")
        d.mouse(.release, 32, 8)
        #expect(titles(d.app.board) == [["a1", "a2"], ["b0", "b1", "a0"], []])
        #expect(d.app.status == "Dropped “a0” in Doing at position 3")
        #expect(d.app.selection == ItemPath(section: 1, item: 2))
    }

    @Test func reorderDownwardUsesTheFinalIndex() {
        var d = AppDriver(board: sampleBoard([("A", ["a0", "a1", "a2", "a3", "a4"])]))
        // a1 is rows 6–8; a3 rows 12–14 (lower half: row 13 or 14).
        d.drag([(3, 7), (3, 10), (3, 13)])
        #expect(titles(d.app.board) == [["a0", "a2", "a3", "a1", "a4"]])
        var e = AppDriver(board: sampleBoard([("A", ["a0", "a1", "a2", "a3", "a4"])]))
        // One row less: the ghost's bottom row (12) is short of a3's centre row (13).
        e.drag([(3, 7), (3, 10), (3, 11)])
        #expect(titles(e.app.board) == [["a0", "a2", "a1", "a3", "a4"]])
    }

    @Test func releaseOutsideSnapsBack() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.drag([(5, 4), (10, 2), (40, 0)])
        #expect(d.app.board == before)
        #expect(d.app.status.hasPrefix("Released outside"))
        #expect(d.app.revision == 0)
        // The snap-back animates: the ghost travels home, then the card is back.
        let during = d.screen(at: d.now + 0.05)
        #expect(during.contains("┌╌╌"))
        let after = d.screen(at: d.now + 1)
        #expect(!after.contains("┌╌╌"))
        #expect(after.split(separator: "\n")[4].hasPrefix("│ a0"))
    }

    @Test func escapeCancelsADrag() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.drag([(5, 4), (32, 7)], release: false)
        d.key(.escape)
        #expect(d.app.status == "Cancelled: “a0” back in To do, position 1")
        d.mouse(.drag, 33, 8)
        d.mouse(.release, 33, 8)
        #expect(d.app.board == before)
    }

    @Test func clickSelectsWithoutMoving() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.mouse(.press, 30, 7)
        d.mouse(.release, 30, 7)
        #expect(d.app.board == before)
        #expect(d.app.selection == ItemPath(section: 1, item: 1))
    }

    @Test func undoAndRedoAMouseDrop() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.drag([(5, 4), (32, 3)])
        let after = d.app.board
        #expect(titles(after) == [["a1", "a2"], ["a0", "b0", "b1"], []])
        d.key(.char("u"))
        #expect(d.app.board == before)
        d.key(.char("r"), .ctrl)
        #expect(d.app.board == after)
    }

    @Test func aFullColumnRefusesAndTheReleaseSnapsBack() {
        var board = sampleBoard()
        board.columns[1].wipLimit = 2
        var d = AppDriver(board: board)
        d.drag([(5, 4), (32, 7)], release: false)
        #expect(d.app.status == "Column \"Doing\" is full (WIP limit 2)")
        #expect(d.screen().split(separator: "\n")[1].contains("✕ full"))
        d.mouse(.release, 32, 7)
        #expect(d.app.board == board)
        #expect(d.app.status == "“a0” back in To do: column \"Doing\" is full (WIP limit 2)")
    }

    @Test func resizingDuringADragKeepsTheCard() {
        var d = AppDriver(board: sampleBoard())
        d.drag([(5, 4), (32, 7)], release: false)
        d.app.resize(Size(width: 50, height: 16))
        d.mouse(.drag, 10, 10)
        d.mouse(.release, 10, 10)
        #expect(d.app.board.allIDs.sorted() == sampleBoard().allIDs.sorted())
        d.app.resize(Size(width: 80, height: 16))
        #expect(d.app.board.cardCount == 5)
    }

    @Test func wheelScrollsTheColumnUnderThePointer() {
        let many = (0..<10).map { "c\($0)" }
        var d = AppDriver(board: sampleBoard([("Long", many), ("Other", ["o"])]))
        d.mouse(.wheelDown, 3, 5, button: .none)
        #expect(d.app.scroll[0] == 3)
        #expect(d.app.scroll[1] == 0)
        #expect(d.screen().contains("▲ more"))
    }
}

@Suite struct KeyboardTests {
    @Test func liftMoveAndDropAcrossColumns() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char(" "))
        #expect(d.app.status == "Picked up “a0” from To do, position 1")
        d.key(.right)
        d.key(.down)
        #expect(d.app.status == "Over Doing, position 2 of 3")
        #expect(d.screen().split(separator: "\n")[6].hasSuffix("▶━ a0 ━━━━━━━━━━━━━━━━━━━◀"))
        d.key(.enter)
        #expect(titles(d.app.board) == [["a1", "a2"], ["b0", "a0", "b1"], []])
    }

    @Test func liftThenEscapeChangesNothing() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.key(.char(" "))
        d.key(.right)
        d.key(.escape)
        #expect(d.app.board == before)
        #expect(d.app.coordinator.isDragging == false)
    }

    @Test func upAtTheTopDoesNothing() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char(" "))
        d.key(.up)
        #expect(d.app.coordinator.session?.hover.target?.index == 0)
        d.key(.char(" "))
        #expect(d.app.board == sampleBoard())
    }

    @Test func quickMovesHJKL() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("J"))
        #expect(titles(d.app.board) == [["a1", "a0", "a2"], ["b0", "b1"], []])
        d.key(.char("L"))
        #expect(titles(d.app.board)[0] == ["a1", "a2"])
        #expect(titles(d.app.board)[1].contains("a0"))
        d.key(.char("L"))
        #expect(titles(d.app.board)[2] == ["a0"])
        d.key(.char("H"))
        #expect(titles(d.app.board)[2] == [])
        d.key(.char("K"))
        d.key(.char("u"))
        d.key(.char("u"))
        d.key(.char("u"))
        d.key(.char("u"))
        d.key(.char("u"))
        #expect(d.app.board == sampleBoard())
    }

    @Test func keyboardDragSkipsAColumnThatRefuses() {
        var board = sampleBoard()
        board.columns[1].wipLimit = 2
        var d = AppDriver(board: board)
        d.key(.char(" "))
        d.key(.right)
        #expect(d.app.coordinator.session?.hover.target?.section == 2)
        d.key(.enter)
        #expect(titles(d.app.board)[2] == ["a0"])
    }

    @Test func addEditDeleteUndoRedo() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("a"))
        d.type("新しいカード")
        d.key(.enter)
        #expect(titles(d.app.board)[0] == ["a0", "新しいカード", "a1", "a2"])
        d.key(.char("e"))
        d.key(.char("u"), .ctrl)
        d.type("编辑 done")
        d.key(.enter)
        #expect(titles(d.app.board)[0][1] == "编辑 done")
        d.key(.char("d"))
        #expect(titles(d.app.board)[0] == ["a0", "a1", "a2"])
        d.key(.char("u"))
        #expect(titles(d.app.board)[0][1] == "编辑 done")
        d.key(.char("u"))
        d.key(.char("u"))
        #expect(d.app.board.columns == sampleBoard().columns)
        d.key(.char("r"), .ctrl)
        #expect(titles(d.app.board)[0][1] == "新しいカード")
    }

    @Test func columnsCanBeAddedRenamedLimitedAndDeleted() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("A"))
        d.type("Review")
        d.key(.enter)
        #expect(d.app.board.columns.map(\.title) == ["To do", "Review", "Doing", "Done"])
        d.key(.char("R"))
        d.key(.char("u"), .ctrl)
        d.type("QA")
        d.key(.enter)
        d.key(.char("W"))
        d.type("2")
        d.key(.enter)
        #expect(d.app.board.columns[1].title == "QA")
        #expect(d.app.board.columns[1].wipLimit == 2)
        d.key(.char("D"))
        #expect(d.app.board.columns.count == 3)
        d.key(.char("D"))
        #expect(d.screen().contains("Delete column “Doing” and its 2 cards? y/n"), "a column with cards asks first")
        d.key(.char("n"))
        #expect(d.app.board.columns.count == 3)
    }

    @Test func helpListsEveryBoundAction() {
        // The help scrolls: read it page by page until a page changes nothing, as a person would.
        var d = AppDriver(board: sampleBoard(), width: 100, height: 60)
        d.key(.char("?"))
        var s = d.screen()
        var pages = [s]
        while pages.count < 20 {
            d.key(.pageDown)
            s = d.screen()
            if s == pages.last { break }
            pages.append(s)
        }
        #expect(pages.count < 20, "the help never stops scrolling")
        let seen = pages.joined(separator: "\n")
        for action in Action.allCases where !Keymap().keys(for: action).isEmpty {
            #expect(seen.contains(action.summary.prefix(30)), "help lacks \(action)")
        }
        d.key(.escape)
        #expect(!d.screen().contains("Keys ·"))
    }
}

@Suite struct ScreenTests {
    @Test func idleBoardAsText() {
        var board = sampleBoard()
        board.columns[0].cards[1].descriptionLines = ["more"]
        board.columns[0].cards[1].subtasks = [Subtask("x", done: true), Subtask("y")]
        let d = AppDriver(board: board, width: 80, height: 14)
        let lines = d.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == " Lanes · test.md" + String(repeating: " ", count: 57) + "? help")
        #expect(
            lines[1] == "To do 3" + String(repeating: " ", count: 20) + "Doing 2" + String(repeating: " ", count: 20)
                + "Done 0")
        #expect(
            lines[2] == String(repeating: "─", count: 26) + " " + String(repeating: "─", count: 26) + " "
                + String(repeating: "─", count: 26))
        #expect(
            lines[3] == "╭" + String(repeating: "─", count: 24) + "╮ ╭" + String(repeating: "─", count: 24)
                + "╮  (empty)")
        #expect(
            lines[4] == "│ a0" + String(repeating: " ", count: 21) + "│ │ b0" + String(repeating: " ", count: 21) + "│")
        #expect(
            lines[7] == "│ a1" + String(repeating: " ", count: 21) + "│ │ b1" + String(repeating: " ", count: 21) + "│")
        #expect(
            lines[8] == "│ ≡  ☑ 1/2" + String(repeating: " ", count: 15) + "│ ╰" + String(repeating: "─", count: 24)
                + "╯")
        #expect(lines[13].hasPrefix(" ready"))
    }

    @Test func controlCharactersNeverReachTheScreenRaw() {
        var d = AppDriver(board: sampleBoard([("Evil \u{1b}[2J", ["x \u{1b}[31mred\u{07}"])]))
        let s = d.screen()
        #expect(!s.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(s.contains("x ^[[31mred^G"))
        #expect(s.contains("Evil ^[[2J"))
        d.drag([(3, 4), (3, 6)])
        #expect(d.app.board.columns[0].cards[0].title == "x \u{1b}[31mred\u{07}")
    }

    @Test func tooSmallTerminalSaysSo() {
        let d = AppDriver(board: sampleBoard(), width: 20, height: 5)
        #expect(d.screen().contains("Terminal too small"))
        #expect(d.screen().contains("20×5"))
    }

    @Test func narrowTerminalPagesColumns() {
        var d = AppDriver(board: sampleBoard(), width: 50, height: 16)
        // Below 80 columns pages are narrow: one wider column each here.
        #expect(d.screen().contains("◀ page 1/3 ▶"))
        d.key(.char("]"))
        #expect(d.screen().contains("◀ page 2/3 ▶"))
        #expect(d.screen().contains("Doing 2"))
        d.key(.char("]"))
        #expect(d.screen().contains("Done 0"))
        #expect(d.screen().split(separator: "\n")[2].count == 50, "a column alone on a page takes the whole width")
    }

    @Test func wideCharactersWrapAligned() {
        let d = AppDriver(board: sampleBoard([("列", ["日本語のカードも大丈夫です長いタイトル"]), ("B", []), ("C", [])]))
        let rows = d.screen().split(separator: "\n").map(String.init)
        #expect(rows[4] == "│ 日本語のカードも大丈夫 │")
        #expect(TextWidth.width(of: rows[4]) == 26)
        #expect(rows[5].hasPrefix("│ です長いタイトル"))
    }
}

@Suite struct EdgeTests {
    @Test func restingAtTheRightEdgeFlipsThePageAndTheDragGoesOn() {
        let spec = (0..<6).map { ("C\($0)", ["c\($0)a", "c\($0)b"]) }
        var d = AppDriver(board: sampleBoard(spec))
        #expect(d.app.layout.pageCount == 2)
        // Slowly, so it is not a fling.
        d.mouse(.press, 5, 4)
        for x in stride(from: 10, through: 79, by: 3) {
            d.now += 0.1
            _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: x, y: 4)), now: d.now)
        }
        #expect(d.app.page == 0)
        let t0 = d.now
        d.app.tick(now: t0 + 0.3)
        #expect(d.app.page == 0, "not before the dwell time")
        #expect(d.app.deadline(now: t0 + 0.3) != nil)
        d.app.tick(now: t0 + 0.6)
        #expect(d.app.page == 1)
        #expect(d.app.coordinator.isDragging)
        // Page 2 shows C3 at x 0–25: drop below c3b.
        d.now = t0 + 0.7
        d.mouse(.drag, 10, 9)
        d.mouse(.release, 10, 9)
        #expect(titles(d.app.board)[3] == ["c3a", "c3b", "c0a"])
        #expect(titles(d.app.board)[0] == ["c0b"])
    }

    @Test func stayingAtTheEdgeKeepsFlippingEveryThreeQuartersOfASecond() {
        let spec = (0..<10).map { ("C\($0)", ["c\($0)a"]) }
        var d = AppDriver(board: sampleBoard(spec))
        #expect(d.app.layout.pageCount == 4)
        d.mouse(.press, 5, 4)
        for x in stride(from: 10, through: 79, by: 3) {
            d.now += 0.1
            _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: x, y: 4)), now: d.now)
        }
        let t0 = d.now
        d.app.tick(now: t0 + 0.5)
        #expect(d.app.page == 1)
        d.app.tick(now: t0 + 1.2)
        #expect(d.app.page == 1, "not before another 0.75 s")
        d.app.tick(now: t0 + 1.25)
        #expect(d.app.page == 2)
        d.app.tick(now: t0 + 2.0)
        #expect(d.app.page == 3)
        d.app.tick(now: t0 + 2.75)
        #expect(d.app.page == 3, "the last page stays")
        #expect(d.app.coordinator.isDragging)
    }

    @Test func aFlingTowardTheEdgeFlipsAtOnce() {
        let spec = (0..<6).map { ("C\($0)", ["c\($0)a"]) }
        var d = AppDriver(board: sampleBoard(spec))
        d.mouse(.press, 5, 4)
        d.now += 0.01; _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: 30, y: 4)), now: d.now)
        d.now += 0.01; _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: 60, y: 4)), now: d.now)
        d.now += 0.01; _ = d.app.handle(.mouse(MouseEvent(.drag, .left, x: 79, y: 4)), now: d.now)
        d.app.tick(now: d.now)
        #expect(d.app.page == 1)
    }

    /// A long column is measured only as far as the auto-scroll has reached, and the
    /// scroll still runs to the very end of the content and stops there.
    @Test func autoScrollMeasuresAsItGoesAndStopsAtTheEnd() {
        let many = (0..<400).map { "k\($0)" }
        var d = AppDriver(board: sampleBoard([("Long", many), ("Other", ["o0"])]))
        d.drag([(45, 4), (20, 8), (20, 14)], release: false)
        var t = d.now
        for _ in 0..<10 {
            t += 0.05
            d.app.tick(now: t)
        }
        guard let long = d.app.layout.column(section: 0) else { Issue.record("no column"); return }
        #expect(long.scroll > 0)
        let measured = long.metrics.storage.measured
        #expect(
            measured < 100, "after half a second only what scrolled by is measured, not all 400 cards (\(measured))")
        for _ in 0..<2000 {
            t += 0.05
            d.app.tick(now: t)
        }
        guard let end = d.app.layout.column(section: 0) else { Issue.record("no column"); return }
        #expect(end.scroll == end.metrics.contentHeight - end.viewport.height, "scrolled to the end")
        #expect(d.app.deadline(now: t) == nil, "and stopped there")
        d.now = t
        d.mouse(.release, 20, 14)
        let landed = d.app.board.columns[0].cards.firstIndex { $0.title == "o0" }
        #expect((landed ?? 0) > 390)
    }

    @Test func holdingNearTheBottomScrollsAndTheDropLandsWhereTheMarkerWas() {
        let many = (0..<20).map { "k\($0)" }
        var d = AppDriver(board: sampleBoard([("Long", many), ("Other", ["o0"])]))
        // Grab o0 (column 2 at x 40–78 since two columns share 80 cells) and hold it at the bottom of Long.
        d.drag([(45, 4), (20, 8), (20, 14)], release: false)
        var t = d.now
        for _ in 0..<20 {
            t += 0.05
            d.app.tick(now: t)
        }
        #expect(d.app.scroll[0] > 0, "the column scrolled")
        let marked = d.app.coordinator.session?.hover.target
        #expect(marked != nil)
        d.now = t
        d.mouse(.release, 20, 14)
        let landed = d.app.board.columns[0].cards.firstIndex { $0.title == "o0" }
        #expect(landed == marked?.index)
        #expect((landed ?? 0) > 4, "it landed below what was visible before scrolling")
    }
}

@Suite struct CardDetailTests {
    @Test func subTasksDueDateAndTags() {
        var board = sampleBoard()
        board.columns[0].cards[0].subtasks = [Subtask("one"), Subtask("two")]
        var d = AppDriver(board: board)
        d.key(.char("t"))
        d.key(.char("t"))
        #expect(d.app.board.columns[0].cards[0].subtasks.map(\.done) == [true, true])
        d.key(.char("t"))
        #expect(d.app.board.columns[0].cards[0].subtasks.map(\.done) == [false, false])
        d.key(.char("@"))
        d.type("2026-12-24")
        d.key(.enter)
        #expect(d.app.board.columns[0].cards[0].due == "2026-12-24")
        #expect(d.screen().contains("@2026-12-24"))
        d.key(.char("#"))
        d.type("#urgent ops")
        d.key(.enter)
        #expect(d.app.board.columns[0].cards[0].title == "a0 #urgent #ops")
        #expect(d.app.board.columns[0].cards[0].tags == ["urgent", "ops"])
        d.key(.char("#"))
        d.key(.char("u"), .ctrl)
        d.type("ops")
        d.key(.enter)
        #expect(d.app.board.columns[0].cards[0].title == "a0 #ops")
        for _ in 0..<6 { d.key(.char("u")) }
        #expect(d.app.board == board)
    }

    @Test func filterDimsOthersAndKeepsMovesInTheFullColumn() {
        var board = sampleBoard([("A", ["x1", "apple", "x2", "apricot"]), ("B", ["b"])])
        board.columns[0].cards[3].title = "apricot #fruit"
        var d = AppDriver(board: board)
        d.key(.char("/"))
        d.type("#fruit")
        d.key(.enter)
        #expect(d.app.status.contains("1 matching"))
        #expect(d.app.selection == ItemPath(section: 0, item: 3), "the selection jumps to the match")
        d.key(.char("K"))
        #expect(titles(d.app.board)[0] == ["x1", "apple", "apricot #fruit", "x2"])
        d.key(.escape)
        #expect(d.app.filter.isEmpty)
    }
}
