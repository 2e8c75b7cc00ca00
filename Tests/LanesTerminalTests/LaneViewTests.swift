import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

@Suite("LaneBands: the bands of a swimlane board on screen, exact rows")
struct LaneBandsTests {
    /// Area rows 3..<13 (10 rows); lanes: 4 rows of cards, collapsed, empty (minimum 3), 6 rows.
    let area = Rect(x: 0, y: 3, width: 40, height: 10)
    let lanes = [
        LaneBands.Lane(contentHeight: 4), LaneBands.Lane(contentHeight: 9, collapsed: true),
        LaneBands.Lane(contentHeight: 0), LaneBands.Lane(contentHeight: 6),
    ]

    @Test func unscrolledBandsStackHeaderThenBody_collapsedIsItsHeaderAlone() {
        let l = LaneBands(area: area, lanes: lanes, scroll: 0, minimumBody: 3)
        #expect(l.contentHeight == 5 + 1 + 4 + 7)
        #expect(l.scroll == 0)
        #expect(
            l.bands.map(\.header) == [
                Rect(x: 0, y: 3, width: 40, height: 1), Rect(x: 0, y: 8, width: 40, height: 1),
                Rect(x: 0, y: 9, width: 40, height: 1), Rect(x: 0, y: 13, width: 40, height: 0),
            ])
        #expect(
            l.bands.map(\.body) == [
                Rect(x: 0, y: 4, width: 40, height: 4), Rect(x: 0, y: 9, width: 40, height: 0),
                Rect(x: 0, y: 10, width: 40, height: 3), Rect(x: 0, y: 13, width: 40, height: 0),
            ])
        #expect(l.bands.map(\.contentTop) == [4, 9, 10, 14])
        #expect(l.bands.map(\.top) == [0, 5, 6, 10])
    }

    @Test func scrollIsClampedAndClipsBandsAtBothEdges() {
        let l = LaneBands(area: area, lanes: lanes, scroll: 99, minimumBody: 3)
        #expect(l.scroll == 17 - 10)
        // Lane 0 is above the area but for nothing; lane 2's header is out, its body partly in.
        #expect(l.bands[0].header.height == 0 && l.bands[0].body == Rect(x: 0, y: 3, width: 40, height: 0))
        #expect(l.bands[2].header == Rect(x: 0, y: 3, width: 40, height: 0))
        #expect(l.bands[2].body == Rect(x: 0, y: 3, width: 40, height: 3))
        #expect(l.bands[2].contentTop == 3)
        #expect(l.bands[3].header == Rect(x: 0, y: 6, width: 40, height: 1))
        #expect(l.bands[3].body == Rect(x: 0, y: 7, width: 40, height: 6))
        #expect(l.lane(headerAt: Point(x: 5, y: 6)) == 3)
        #expect(l.lane(headerAt: Point(x: 5, y: 3)) == nil)
    }

    @Test func scrollToShowMovesAsLittleAsPossible() {
        let l = LaneBands(area: area, lanes: lanes, scroll: 2, minimumBody: 3)
        #expect(l.scroll(toShow: 0, height: 1) == 0)
        #expect(l.scroll(toShow: 4, height: 2) == 2)
        #expect(l.scroll(toShow: 11, height: 3) == 4)
        // Taller than the area: its top first.
        #expect(l.scroll(toShow: 5, height: 30) == 5)
    }
}

/// To do: "Fix login #frontend", "Write docs", "API #backend"; Doing: "Ship #backend #frontend"; Done: none.
func laneBoard() -> Board {
    var b = sampleBoard([
        ("To do", ["Fix login #frontend", "Write docs", "API #backend"]), ("Doing", ["Ship #backend #frontend"]),
        ("Done", []),
    ])
    b.acceptRules.swimlanes = try! Swimlanes(["frontend", "backend"])
    return b
}

@Suite("Lane view: grid arena, drawing and drags through the door")
struct LaneViewTests {
    @Test func gridCellsAreOnePerLaneAndColumn_pathsRoundTrip() throws {
        var state = LaneViewState()
        state.scroll = 0
        let layout = ScreenLayout(
            board: laneBoard(), size: Size(width: 80, height: 24), page: 0, scroll: [0, 0, 0],
            cache: LayoutCache(), laneView: state)
        let grid = try #require(layout.lanes)
        #expect(grid.lanes == [0, 1, 2])
        #expect(grid.cells.map(\.section) == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(grid.placement.map { Array($0) } == [[[0], [0], []], [[2], [], []], [[1], [], []]])
        let c = layout.columns.map(\.frame)
        // Lane area from row 3; "frontend": header row 3, then as tall as its tallest cell ("Ship…" wraps: 4 rows).
        #expect(grid.cells[0].frame == Rect(x: c[0].minX, y: 3, width: c[0].width, height: 5))
        #expect(grid.cells[0].viewport == Rect(x: c[0].minX, y: 4, width: c[0].width, height: 4))
        #expect(grid.cells[0].frameOfItem(at: 0) == Rect(x: c[0].minX, y: 4, width: c[0].width, height: 3))
        #expect(grid.cells[1].frameOfItem(at: 0) == Rect(x: c[1].minX, y: 4, width: c[1].width, height: 4))
        #expect(grid.cells[3].frame == Rect(x: c[0].minX, y: 8, width: c[0].width, height: 4))
        #expect(grid.boardPath(ItemPath(section: 6, item: 0)) == ItemPath(section: 0, item: 1))
        #expect(grid.cellPath(ItemPath(section: 0, item: 2)) == ItemPath(section: 3, item: 0))
        #expect(grid.alsoIn.count == 1)
        #expect(layout.arena.draggables.count == 9 + 1)
    }
}

@Suite("Lane view in the app")
struct LaneAppTests {
    static let screen80 = """
         Lanes · test.md                                                         ? help
        To do 3                    Doing 1                    Done 0
        ────────────────────────── ────────────────────────── ──────────────────────────
        ▾ #frontend  2 cards ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄
        ╭────────────────────────╮ ╭──────────────────────⧉─╮  (empty)
        │ Fix login #frontend    │ │ Ship #backend          │
        ╰────────────────────────╯ │ #frontend              │
                                   ╰────────────────────────╯
        ▾ #backend  1 card ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄
        ╭────────────────────────╮  (empty)                    (empty)
        │ API #backend           │
        ╰────────────────────────╯
        ▾ No lane  1 card ┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄
        ╭────────────────────────╮  (empty)                    (empty)
        │ Write docs             │
        ╰────────────────────────╯
        """

    /// The screen's rows, trailing blanks trimmed.
    static func rows(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    @Test func drawsOneBandPerLaneWithCountsTotalsAndTheOtherLaneMark() {
        let d = AppDriver(board: laneBoard(), width: 80, height: 24)
        #expect(Array(Self.rows(d.screen()).prefix(16)) == Self.rows(Self.screen80))
    }

    @Test func mouseDragAcrossLaneAndColumnRetagsInOneUndoableStep() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        let before = d.app.board
        // "Fix login #frontend" (To do, lane frontend) to Doing in lane backend (its empty cell at row 9).
        d.drag([(5, 5), (10, 7), (20, 9), (30, 10), (31, 10)])
        #expect(
            titles(d.app.board) == [
                ["Write docs", "API #backend"], ["Ship #backend #frontend", "Fix login #backend"], [],
            ])
        #expect(d.app.status == "Dropped “Fix login #frontend” in Doing · #backend at position 1")
        #expect(d.app.selection == ItemPath(section: 1, item: 1))
        #expect(d.app.revision == 1)
        d.key(.char("u"))
        #expect(d.app.board == before)
    }

    @Test func dragToAnotherLaneInTheSameColumnAndToNoLane() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        // "API #backend" (row 10) up into lane frontend under "Fix login" (row 7).
        d.drag([(5, 10), (5, 8), (5, 7), (6, 7)])
        // Next to the lane's last card in the column (after "Fix login"), not at the column's end.
        #expect(titles(d.app.board)[0] == ["Fix login #frontend", "API #frontend", "Write docs"])
        #expect(d.app.revision == 1)
        // "Ship #backend #frontend" (Doing, shown in lane frontend) down to "No lane": both lane tags go.
        d.drag([(30, 5), (30, 10), (30, 15), (31, 15)])
        #expect(titles(d.app.board)[1] == ["Ship"])
        #expect(d.app.revision == 2)
        #expect(d.app.status == "Dropped “Ship #backend #frontend” in Doing · No lane at position 1")
    }

    @Test func aClickOnALaneHeaderCollapsesAndExpandsIt() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        d.mouse(.press, 3, 8)
        d.mouse(.release, 3, 8)
        let rows = Self.rows(d.screen())
        #expect(rows[8].hasPrefix("▸ #backend  1 card (collapsed) ┄"))
        #expect(rows[9].hasPrefix("▾ No lane  1 card ┄"))
        #expect(d.app.status == "Lane #backend collapsed")
        d.mouse(.press, 3, 8)
        d.mouse(.release, 3, 8)
        #expect(Array(Self.rows(d.screen()).prefix(16)) == Self.rows(Self.screen80))
    }

    @Test func braceKeysMoveTheSelectedCardALaneUpOrDownInItsColumn() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        #expect(d.app.selection == ItemPath(section: 0, item: 0))
        d.key(.char("}"))
        // "Fix login" to the top of lane backend: before "API", its first card in To do.
        #expect(titles(d.app.board)[0] == ["Write docs", "Fix login #backend", "API #backend"])
        #expect(d.app.status == "Moved “Fix login #frontend” to lane #backend")
        #expect(d.app.selection == ItemPath(section: 0, item: 1))
        d.key(.char("}"))
        #expect(titles(d.app.board)[0] == ["Fix login", "Write docs", "API #backend"])
        d.key(.char("}"))
        #expect(d.app.status == "Already in \"No lane\", the last")
        d.key(.char("{"))
        // To the bottom of lane backend (after "API"), then into the empty frontend cell where it is.
        #expect(titles(d.app.board)[0] == ["Write docs", "API #backend", "Fix login #backend"])
        d.key(.char("{"))
        #expect(titles(d.app.board)[0] == ["Write docs", "API #backend", "Fix login #frontend"])
        d.key(.char("{"))
        #expect(d.app.status == "Already in the top lane")
        // Each move was one step: four undos bring the first board back.
        for _ in 0..<4 { d.key(.char("u")) }
        #expect(titles(d.app.board) == titles(laneBoard()))
    }

    @Test func upAndDownFollowTheLanesOnScreen_SSwitchesTheViewAndZCollapses() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        d.key(.char("j"))
        #expect(d.app.selection == ItemPath(section: 0, item: 2))  // "API", lane backend, drawn second
        d.key(.char("j"))
        #expect(d.app.selection == ItemPath(section: 0, item: 1))  // "Write docs", No lane
        d.key(.char("Z"))
        #expect(d.app.status == "Lane No lane collapsed")
        #expect(Self.rows(d.screen())[12].hasPrefix("▸ No lane  1 card (collapsed)"))
        d.key(.char("Z"))
        d.key(.char("S"))
        #expect(d.app.status == "Columns only (S: swimlanes)")
        #expect(!d.app.showsLanes)
        #expect(!d.screen().contains("#frontend  2 cards"))
        d.key(.char("S"))
        #expect(d.app.showsLanes)
    }

    @Test func aLiftedCardCrossesLanesWithUpAndDownAtACellsEdge() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        d.key(.char(" "))
        d.key(.down)  // past the end of its cell: into lane backend, above "API"
        d.key(.down)  // below "API"
        d.key(.enter)
        #expect(titles(d.app.board)[0] == ["Write docs", "API #backend", "Fix login #backend"])
        #expect(d.app.revision == 1)
        d.key(.char("u"))
        #expect(titles(d.app.board) == titles(laneBoard()))
    }

    @Test func WIPLimitCountsTheWholeColumnAndTheRefusalIsInWords() {
        var b = laneBoard()
        b.columns[1].wipLimit = 1
        var d = AppDriver(board: b, width: 80, height: 24)
        // Doing holds one card (lane frontend); its empty backend cell still refuses.
        d.drag([(5, 5), (20, 9), (30, 10), (31, 10)], release: false)
        #expect(d.app.status == "Column \"Doing\" is full (WIP limit 1)")
        d.mouse(.release, 31, 10)
        #expect(titles(d.app.board) == titles(b))
    }

    @Test func anotherWritersChangeReLaysTheLanesAndKeepsTheSelectedCard() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        d.key(.char("j"))
        let api = d.app.board.columns[0].cards[2].id
        #expect(d.app.selection == ItemPath(section: 0, item: 2))
        var stored = d.app.board
        stored.columns[0].cards.insert(Card(id: CardID(99), title: "Deploy #backend"), at: 0)
        stored.acceptRules.swimlanes = try! Swimlanes(["backend", "frontend"])
        d.app.absorb(stored: stored, base: d.app.board)
        #expect(d.app.selection == ItemPath(section: 0, item: 3))
        #expect(d.app.board.columns[0].cards[3].id == api)
        let rows = Self.rows(d.screen())
        #expect(rows[3].hasPrefix("▾ #backend  3 cards ┄"))
        #expect(d.app.layout.lanes?.lanes == [0, 1, 2])
    }

    @Test func filterDimsInLanesAndALaneWithNoMatchStaysAsEmptyAsItIs_compactIsOneRowPerCard() {
        var d = AppDriver(board: laneBoard(), width: 80, height: 24)
        d.key(.char("/"))
        d.type("docs")
        d.key(.enter)
        let rows = Self.rows(d.screen())
        // Every lane still drawn, with its cards (dimmed when they do not match).
        #expect(rows[3].hasPrefix("▾ #frontend  2 cards"))
        #expect(rows[8].hasPrefix("▾ #backend  1 card"))
        d.key(.escape)
        d.key(.char("z"))
        let compact = Self.rows(d.screen())
        #expect(compact[3].hasPrefix("▾ #frontend  2 cards"))
        #expect(compact[4] == " Fix login #frontend        Ship #backend #frontend ⧉  (empty)")
        #expect(compact[5].hasPrefix("▾ #backend  1 card"))
        #expect(compact[6] == " API #backend               (empty)                    (empty)")
        #expect(compact[7].hasPrefix("▾ No lane  1 card"))
    }
}
