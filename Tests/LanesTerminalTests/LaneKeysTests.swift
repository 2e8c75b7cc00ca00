import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The board of `laneBoard()` at 80×24 (rows as `LaneAppTests.screen80` draws them): "Fix login"
/// rows 4-6, "API #backend" rows 9-11 (lane backend), "Write docs" rows 13-15 (No lane), all in To do (x 0-25).
@Suite("Lane view: the mark box, K/J and paging know the lanes")
struct LaneKeysTests {
    @Test func aClickOnAMarkBoxInALaneMarksThatCard_altClickMarksTheCardUnderIt() throws {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        let docs = d.app.board.columns[0].cards[1].id, api = d.app.board.columns[0].cards[2].id
        // "Write docs" is drawn at row 13 in lanes (row 6 in plain columns): its mark box is x 1-3 of row 13.
        d.mouse(.press, 2, 13)
        d.mouse(.release, 2, 13)
        #expect(d.app.marked == [docs])
        #expect(d.app.selection == ItemPath(section: 0, item: 1))
        #expect(d.app.status == "1 card marked: drag one to carry all · esc clears")
        #expect(LaneAppTests.rows(d.screen())[13].hasPrefix("╭─●───"))
        // A click inside the card, off its mark box, only selects.
        d.mouse(.press, 10, 10)
        d.mouse(.release, 10, 10)
        #expect(d.app.marked == [docs])
        #expect(d.app.selection == ItemPath(section: 0, item: 2))
        // Alt-click on "API" (lane backend, cell section 3): that card, not what section 3 is as a column.
        d.now += 0.5
        _ = d.app.handle(.mouse(MouseEvent(.press, .left, x: 12, y: 10, modifiers: [.alt])), now: d.now)
        _ = d.app.handle(.mouse(MouseEvent(.release, .left, x: 12, y: 10, modifiers: [.alt])), now: d.now + 0.02)
        #expect(d.app.marked == [docs, api])
        #expect(d.app.status == "2 cards marked: drag one to carry all · esc clears")
        // The marked cards drag together into Done · #frontend, in the order the lanes show them:
        // both take the lane's tag, in one edit.
        d.drag([(8, 10), (30, 6), (60, 5), (61, 5)])
        #expect(
            titles(d.app.board) == [
                ["Fix login #frontend"], ["Ship #backend #frontend"],
                ["API #frontend", "Write docs #frontend"],
            ])
        d.key(.char("u"))
        #expect(titles(d.app.board) == titles(laneBoard()))
    }

    /// To do: A1, B1, A2, N1, B2, A3 (A: #frontend, B: #backend, N: no lane).
    static func mixed() -> Board {
        var b = sampleBoard([
            ("To do", ["A1 #frontend", "B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A3 #frontend"]),
            ("Done", []),
        ])
        b.acceptRules.swimlanes = try! Swimlanes(["frontend", "backend"])
        return b
    }

    @Test func KAndJReorderWithinTheCardsOwnLaneCell() {
        var d = AppDriver(board: Self.mixed(), width: 80, height: 40)
        #expect(d.app.selection == ItemPath(section: 0, item: 0))
        d.key(.char("J"))
        // A1 after A2 (not after B1, the next card of the column).
        #expect(
            titles(d.app.board)[0] == [
                "B1 #backend", "A2 #frontend", "A1 #frontend", "N1", "B2 #backend", "A3 #frontend",
            ])
        #expect(d.app.selection == ItemPath(section: 0, item: 2))
        #expect(d.app.status == "Moved “A1 #frontend” to position 2 of lane #frontend in To do")
        d.key(.char("J"))
        #expect(
            titles(d.app.board)[0] == [
                "B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A3 #frontend", "A1 #frontend",
            ])
        #expect(d.app.selection == ItemPath(section: 0, item: 5))
        d.key(.char("J"))
        #expect(d.app.status == "Already the last card of lane #frontend here")
        d.key(.char("K"))
        #expect(
            titles(d.app.board)[0] == [
                "B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A1 #frontend", "A3 #frontend",
            ])
        #expect(d.app.selection == ItemPath(section: 0, item: 4))
        // Down the lanes on screen to B1, the first of lane backend: K has nowhere to go in its lane.
        d.key(.char("j")); d.key(.char("j"))
        #expect(d.app.selection == ItemPath(section: 0, item: 0))
        let before = d.app.board
        d.key(.char("K"))
        #expect(d.app.status == "Already the first card of lane #backend here")
        #expect(d.app.board == before)
        d.key(.char("J"))
        #expect(
            titles(d.app.board)[0] == [
                "A2 #frontend", "N1", "B2 #backend", "B1 #backend", "A1 #frontend", "A3 #frontend",
            ])
        #expect(d.app.selection == ItemPath(section: 0, item: 3))
        // Four moves, four undos, and the first board is back.
        for _ in 0..<4 { d.key(.char("u")) }
        #expect(titles(d.app.board) == titles(Self.mixed()))
        // Without lanes (S), K and J reorder in the whole column as always.
        d.key(.char("S"))
        d.key(.char("g"))
        d.key(.char("J"))
        #expect(
            titles(d.app.board)[0] == [
                "B1 #backend", "A1 #frontend", "A2 #frontend", "N1", "B2 #backend", "A3 #frontend",
            ])
    }

    /// Six columns, three a page at 80×24. C0: 8 frontend then 8 backend cards; C3: 6 frontend then 8 backend.
    static func wide() -> Board {
        let f = { (c: Int, n: Int) in (0..<n).map { "f\(c)-\($0) #frontend" } }
        let k = { (c: Int, n: Int) in (0..<n).map { "b\(c)-\($0) #backend" } }
        var b = sampleBoard([
            ("C0", f(0, 8) + k(0, 8)), ("C1", f(1, 1)), ("C2", k(2, 1)),
            ("C3", f(3, 6) + k(3, 8)), ("C4", k(4, 2)), ("C5", []),
        ])
        b.acceptRules.swimlanes = try! Swimlanes(["frontend", "backend"])
        return b
    }

    @Test func flippingThePageKeepsTheLaneOfTheSelectionAndSelectsItsFirstCardThere() throws {
        var d = AppDriver(board: Self.wide(), width: 80, height: 24)
        #expect(d.app.layout.pageCount == 2)
        for _ in 0..<15 { d.key(.char("j")) }
        // b0-7, deep in lane backend: the lanes scrolled 30 rows (frontend's band is 25 rows, then 5 into backend's).
        #expect(d.app.selection == ItemPath(section: 0, item: 15))
        #expect(try #require(d.app.layout.lanes).layout.scroll == 30)
        d.key(.char("]"))
        #expect(d.app.status == "Page 2 of 2")
        // Lane backend of page 2 (from content row 19) is where the eye was: its first card, b3-0, selected and on screen.
        #expect(d.app.selection == ItemPath(section: 3, item: 6))
        let grid = try #require(d.app.layout.lanes)
        #expect(grid.layout.scroll == 20)
        let rows = LaneAppTests.rows(d.screen())
        #expect(rows[3].hasPrefix("╭"))
        #expect(rows[4].hasPrefix("│ b3-0 #backend"))
        // And back: lane backend again, its first card of page 1 (b0-0) at the top of the lanes.
        d.key(.char("["))
        #expect(d.app.status == "Page 1 of 2")
        #expect(d.app.selection == ItemPath(section: 0, item: 8))
        #expect(LaneAppTests.rows(d.screen())[4].hasPrefix("│ b0-0 #backend"))
    }

    @Test func aLiftedCardCrossesIntoALaneBelowTheScreen() {
        var d = AppDriver(board: Self.wide(), width: 80, height: 24)
        for _ in 0..<7 { d.key(.char("j")) }
        #expect(d.app.selection == ItemPath(section: 0, item: 7))  // f0-7, the last of lane frontend in C0
        // Lane backend starts below the screen: down at the cell's edge scrolls it in and moves the card there.
        d.key(.char(" "))
        d.key(.down)
        d.key(.enter)
        #expect(titles(d.app.board)[0][7] == "f0-7 #backend")
        #expect(titles(d.app.board)[0][8] == "b0-0 #backend")
        #expect(d.app.revision == 1)
    }

    @Test func aPageFlipWithTheLanesAtTheTopSelectsTheSameLaneOnTheNextPage() {
        var d = AppDriver(board: Self.wide(), width: 80, height: 24)
        d.key(.char("]"))
        #expect(d.app.selection == ItemPath(section: 3, item: 0))  // f3-0: lane frontend, top of page 2
        #expect(LaneAppTests.rows(d.screen())[3].hasPrefix("▾ #frontend  15 cards"))
    }
}
