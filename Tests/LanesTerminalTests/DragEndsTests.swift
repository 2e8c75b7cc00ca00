import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

// The sample board at 80×16: columns at x = 0, 27, 54; a0 is rows 3–5 of To do, b1 rows 6–8 of Doing.

/// Issue #31: a drag always ends, even when the terminal never reports the release.
@Suite struct DragAlwaysEndsTests {
    /// A drag of a0 held over Doing (where a release would drop it after b1).
    func heldOverDoing() -> AppDriver {
        var d = AppDriver(board: sampleBoard())
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        #expect(d.app.status == "Over Doing, position 3 of 3")
        return d
    }

    @Test func anyMotionIsWantedOnlyWhileThePointerDrags() {
        var d = AppDriver(board: sampleBoard())
        #expect(!d.app.wantsAllMotion)
        d.mouse(.press, 5, 4)
        #expect(!d.app.wantsAllMotion, "a press alone is not a drag")
        d.mouse(.drag, 20, 5)
        #expect(d.app.wantsAllMotion)
        d.mouse(.release, 20, 5)
        #expect(!d.app.wantsAllMotion)
        d.key(.char(" "))  // a keyboard lift needs no pointer reports
        #expect(d.app.coordinator.isDragging && !d.app.wantsAllMotion)
    }

    @Test func aButtonlessMotionDuringADragIsAReleaseElsewhere() {
        var d = heldOverDoing()
        let before = d.app.board
        let revision = d.app.revision
        // kitty: the button went up outside the window; the pointer comes back over Doing.
        d.mouse(.motion, 32, 8, button: .none)
        #expect(!d.app.coordinator.isDragging)
        #expect(d.app.board == before && d.app.revision == revision)
        #expect(d.app.status == "Released outside the window: “a0” back in To do, position 1")
        #expect(d.app.selection == ItemPath(section: 0, item: 0))
        #expect(!d.app.wantsAllMotion)
        // Later motion and a late release change nothing.
        d.mouse(.motion, 40, 9, button: .none)
        d.mouse(.release, 32, 8)
        #expect(d.app.board == before && d.app.revision == revision)
    }

    @Test func aColumnDraggedByItsHeaderSnapsBackToo() {
        var d = AppDriver(board: sampleBoard())
        d.drag([(3, 1), (20, 1), (40, 1)], release: false)
        #expect(d.app.coordinator.isDragging)
        let before = d.app.board
        d.mouse(.motion, 40, 1, button: .none)
        #expect(!d.app.coordinator.isDragging && d.app.board == before)
        #expect(d.app.status.hasPrefix("Released outside the window: column"), "\(d.app.status)")
    }

    @Test func aMotionWithoutADragIsNothing() {
        var d = AppDriver(board: sampleBoard())
        let before = d.app.board
        d.mouse(.motion, 32, 8, button: .none)
        #expect(d.app.board == before && d.app.status == "ready")
    }

    @Test func focusLostDuringAPointerDragEndsIt() {
        var d = heldOverDoing()
        let before = d.app.board
        _ = d.app.handle(.focusOut, now: d.now + 0.01)
        #expect(!d.app.coordinator.isDragging && d.app.board == before)
        #expect(d.app.status == "The window lost focus: “a0” back in To do, position 1")
    }

    @Test func focusLostDuringAKeyboardLiftKeepsIt() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char(" "))
        #expect(d.app.coordinator.isDragging)
        _ = d.app.handle(.focusOut, now: d.now + 0.01)
        #expect(d.app.coordinator.isDragging, "a keyboard lift does not wait for a release")
    }

    @Test func bothMarkedCardsSnapBackTogether() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("v"))  // a0
        d.key(.char("j")); d.key(.char("v"))  // a1
        let before = d.app.board
        d.drag([(5, 4), (20, 5), (32, 8)], release: false)
        d.mouse(.motion, 32, 8, button: .none)
        #expect(!d.app.coordinator.isDragging && d.app.board == before)
        #expect(d.app.marked.count == 2, "the marks stay for the next try")
    }
}

/// Issue #31: marking cards needs no modifier key: a click on a card's mark box.
@Suite struct MarkBoxTests {
    @Test func aPlainClickOnTheMarkBoxTogglesTheMark() {
        var d = AppDriver(board: sampleBoard())
        // a1's top border is row 6; its mark box is x = 1…3.
        d.mouse(.press, 2, 6); d.mouse(.release, 2, 6)
        #expect(d.app.marked == [d.app.board.columns[0].cards[1].id])
        #expect(d.app.status.hasPrefix("1 card marked"))
        #expect(d.app.selection == ItemPath(section: 0, item: 1))
        let rows = d.screen().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[6].hasPrefix("╭─●"), "the ● shows in the box")
        // b0's box: marked too, in another column.
        d.mouse(.press, 28, 3); d.mouse(.release, 28, 3)
        #expect(d.app.marked.count == 2)
        // Again: unmarked.
        d.mouse(.press, 3, 6); d.mouse(.release, 3, 6)
        #expect(d.app.marked == [d.app.board.columns[1].cards[0].id])
    }

    @Test func aClickElsewhereOnTheCardOnlySelectsAndOpens() {
        var d = AppDriver(board: sampleBoard())
        d.mouse(.press, 10, 6); d.mouse(.release, 10, 6)  // a1's top border, past the box
        #expect(d.app.marked.isEmpty && d.app.selection == ItemPath(section: 0, item: 1))
        d.mouse(.press, 5, 7); d.mouse(.release, 5, 7)
        #expect(d.app.marked.isEmpty)
    }

    @Test func aDragStartedOnTheMarkBoxStillDrags() {
        var d = AppDriver(board: sampleBoard())
        d.drag([(2, 3), (20, 4), (32, 5)])
        #expect(d.app.marked.isEmpty)
        #expect(titles(d.app.board)[1].contains("a0"))
    }

    @Test func inTheCompactViewTheBoxIsTheRowsFirstCell() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("z"))
        #expect(d.app.isCompact)
        let y = d.app.layout.columns[0].frameOfItem(at: 2).minY
        d.mouse(.press, 0, y); d.mouse(.release, 0, y)
        #expect(d.app.marked == [d.app.board.columns[0].cards[2].id])
    }

    @Test func altAndCtrlClicksStillMark() {
        var d = AppDriver(board: sampleBoard())
        for (mods, x) in [(Modifiers.alt, 10), (Modifiers.ctrl, 30)] {
            d.now += 0.1
            _ = d.app.handle(.mouse(MouseEvent(.press, .left, x: x, y: 4, modifiers: mods)), now: d.now)
            _ = d.app.handle(.mouse(MouseEvent(.release, .left, x: x, y: 4, modifiers: mods)), now: d.now + 0.01)
        }
        #expect(d.app.marked.count == 2)
    }
}
