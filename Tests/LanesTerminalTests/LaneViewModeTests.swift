import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The lane view as a value: each key or press in, its new state and the exact steps out.
/// (`laneBoard()`: To do holds "Fix login #frontend", "Write docs", "API #backend"; Doing "Ship
/// #backend #frontend", in lane frontend; Done nothing. `LaneKeysTests.mixed()`: To do A1, B1, A2, N1, B2, A3.)
@Suite("Lane view mode: state and steps")
struct LaneViewModeTests {
    static func grid(_ board: Board, _ state: LaneViewState = LaneViewState(), height: Int = 24, page: Int = 0)
        -> LaneGrid?
    {
        ScreenLayout(
            board: board, size: Size(width: 80, height: height), page: page, scroll: board.columns.map { _ in 0 },
            cache: LayoutCache(), laneView: state
        ).lanes
    }

    static func context(
        _ board: Board, _ mode: LaneViewMode = LaneViewMode(), selection: ItemPath?, filter: String = "",
        shown: Bool = true
    ) -> LaneViewMode.Context {
        LaneViewMode.Context(
            board: board, grid: shown ? grid(board, mode.state) : nil, selection: selection, filter: filter,
            placement: LanePlacementCache())
    }

    @Test func sTogglesTheLanesOnlyOnABoardThatHasThem() {
        var mode = LaneViewMode()
        #expect(
            mode.take(.toggleLanes, Self.context(sampleBoard(), selection: nil)) == [.say(LaneViewMode.noSwimlanes)])
        #expect(mode == LaneViewMode())
        let board = laneBoard()
        #expect(
            mode.take(.toggleLanes, Self.context(board, selection: nil))
                == [.layOut, .reveal, .say("Columns only (S: swimlanes)")])
        #expect(!mode.state.enabled)
        #expect(
            mode.take(.toggleLanes, Self.context(board, selection: nil))
                == [.layOut, .reveal, .say("Swimlanes shown (S: columns only)")])
        #expect(mode.state.enabled)
    }

    @Test func collapsingKeepsTheLaneByTagAndSaysItsName() {
        var mode = LaneViewMode()
        let board = laneBoard()
        #expect(mode.toggleCollapse(lane: 1, on: board) == [.say("Lane #backend collapsed"), .layOut])
        #expect(mode.state.collapsed == ["backend"])
        #expect(mode.toggleCollapse(lane: 2, on: board) == [.say("Lane No lane collapsed"), .layOut])
        #expect(mode.state.collapsed == ["backend", ""])
        #expect(mode.toggleCollapse(lane: 1, on: board) == [.say("Lane #backend expanded"), .layOut])
        #expect(mode.state.collapsed == [""])
        // The grid now shows "No lane" collapsed: expanding it is a toggle; "backend" is left as it is.
        #expect(mode.expanded(1, in: Self.grid(board, mode.state), on: board) == [])
        #expect(
            mode.expanded(2, in: Self.grid(board, mode.state), on: board) == [.say("Lane No lane expanded"), .layOut])
        #expect(mode.state.collapsed == [])
        #expect(mode.toggleCollapse(lane: 0, on: sampleBoard()) == [])
    }

    @Test func zCollapsesTheSelectedCardsLane_orSaysWhyNot() {
        var mode = LaneViewMode()
        let board = laneBoard()
        #expect(
            mode.take(.collapseLane, Self.context(board, selection: ItemPath(section: 0, item: 2)))
                == [.say("Lane #backend collapsed"), .layOut, .reveal])
        #expect(mode.state.collapsed == ["backend"])
        #expect(
            mode.take(.collapseLane, Self.context(board, selection: nil, shown: false))
                == [.say("Swimlanes are off (S shows them)")])
        #expect(
            mode.take(.collapseLane, Self.context(sampleBoard(), selection: nil, shown: false))
                == [.say("This board has no swimlanes")])
        #expect(mode.state.collapsed == ["backend"])
    }

    @Test func upAndDownGoThroughTheColumnLaneByLane() {
        let mode = LaneViewMode()
        let board = laneBoard()
        // Column To do as the lanes show it: Fix login (frontend), API (backend), Write docs (No lane).
        #expect(
            mode.selectCard(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 0)))
                == [.select(ItemPath(section: 0, item: 2)), .reveal])
        #expect(
            mode.selectCard(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 2)))
                == [.select(ItemPath(section: 0, item: 1)), .reveal])
        #expect(
            mode.selectCard(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 1)))
                == [.select(ItemPath(section: 0, item: 1)), .reveal])
        // A collapsed lane is skipped; a filter keeps to the matching cards.
        var collapsed = LaneViewMode()
        collapsed.state.collapsed = ["backend"]
        #expect(
            collapsed.selectCard(delta: 1, Self.context(board, collapsed, selection: ItemPath(section: 0, item: 0)))
                == [.select(ItemPath(section: 0, item: 1)), .reveal])
        #expect(
            mode.selectCard(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 0), filter: "docs"))
                == [.select(ItemPath(section: 0, item: 1)), .reveal])
        // Columns only: the board's own keys.
        #expect(
            mode.selectCard(delta: -1, Self.context(board, selection: ItemPath(section: 0, item: 0), shown: false))
                == [.selectCard(delta: -1)])
    }

    @Test func leftAndRightKeepTheLane_elseTheColumnsFirstCard() {
        let mode = LaneViewMode()
        let board = laneBoard()
        #expect(
            mode.selectColumn(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 0)))
                == [.select(ItemPath(section: 1, item: 0)), .showColumn(1), .reveal])
        // API is in backend; Doing has no backend card: its first card on screen.
        #expect(
            mode.selectColumn(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 2)))
                == [.select(ItemPath(section: 1, item: 0)), .showColumn(1), .reveal])
        #expect(
            mode.selectColumn(delta: 1, Self.context(board, selection: ItemPath(section: 1, item: 0)))
                == [.select(ItemPath(section: 2, item: -1)), .showColumn(2), .reveal])
        #expect(mode.selectColumn(delta: -1, Self.context(board, selection: ItemPath(section: 0, item: 0))) == [])
        #expect(
            mode.selectColumn(delta: 1, Self.context(board, selection: ItemPath(section: 0, item: 0), shown: false))
                == [.selectColumn(delta: 1)])
    }

    @Test func braceMovesTheCardOneLaneAsOneEdit_orSaysWhyNot() {
        var mode = LaneViewMode()
        let board = laneBoard()
        let docs = board.columns[0].cards[1].id, api = board.columns[0].cards[2].id
        // Write docs (No lane) up: to the bottom of backend, after API.
        #expect(
            mode.take(.moveLaneUp, Self.context(board, selection: ItemPath(section: 0, item: 1)))
                == [
                    .send(
                        .moveCardsToLane([docs], to: board.columns[0].id, at: .after(api, orIndex: 3), lane: "backend"),
                        then: [.expand(lane: 1), .reveal])
                ])
        // API (backend) down: to the top of No lane, before Write docs.
        #expect(
            mode.take(.moveLaneDown, Self.context(board, selection: ItemPath(section: 0, item: 2)))
                == [
                    .send(
                        .moveCardsToLane([api], to: board.columns[0].id, at: .before(docs, orIndex: 1), lane: nil),
                        then: [.expand(lane: 2), .reveal])
                ])
        #expect(
            mode.take(.moveLaneUp, Self.context(board, selection: ItemPath(section: 0, item: 0)))
                == [.say("Already in the top lane")])
        #expect(
            mode.take(.moveLaneDown, Self.context(board, selection: ItemPath(section: 0, item: 1)))
                == [.say("Already in \"No lane\", the last")])
        #expect(
            mode.take(.moveLaneDown, Self.context(board, selection: ItemPath(section: 2, item: -1)))
                == [.say("No card selected")])
        #expect(
            mode.take(.moveLaneDown, Self.context(sampleBoard(), selection: ItemPath(section: 0, item: 0)))
                == [.say(LaneViewMode.noSwimlanes)])
        #expect(mode == LaneViewMode(), "a move changes the board, not the view")
    }

    @Test func KAndJMoveWithinTheCell_thenTheCardIsSelectedAndItsPlaceSaid() throws {
        let mode = LaneViewMode()
        let board = LaneKeysTests.mixed()
        let cards = board.columns[0].cards
        let a1 = cards[0].id, a2 = cards[2].id
        let steps = mode.quickMove(dy: 1, Self.context(board, selection: ItemPath(section: 0, item: 0)))
        let edit = BoardEdit.moveCards([a1], to: board.columns[0].id, at: .after(a2, orIndex: 2))
        #expect(steps == [.send(edit, then: [.announce(a1, lane: "#frontend", place: 2)])])
        #expect(
            mode.quickMove(dy: -1, Self.context(board, selection: ItemPath(section: 0, item: 0)))
                == [.say("Already the first card of lane #frontend here")])
        #expect(
            mode.quickMove(dy: 1, Self.context(board, selection: ItemPath(section: 0, item: 0), shown: false)) == nil)
        #expect(mode.quickMove(dy: 1, Self.context(board, selection: ItemPath(section: 1, item: -1))) == nil)

        var document = BoardDocument(board: board)
        _ = try document.apply(edit)
        let after = document.board
        let said = "Moved “A1 #frontend” to position 2 of lane #frontend in To do"
        #expect(
            LaneViewMode.moved(a1, lane: "#frontend", place: 2, on: after, grid: Self.grid(after))
                == [.select(ItemPath(section: 0, item: 2)), .say(said), .reveal])
        #expect(LaneViewMode.moved(CardID(999_999), lane: "#frontend", place: 2, on: after, grid: nil) == [])
    }

    @Test func scrollingStopsAtTheTop_andRevealBringsTheSelectionOnScreen() throws {
        var mode = LaneViewMode()
        #expect(mode.scroll(by: -3) == [.layOut])
        #expect(mode.state.scroll == 0)
        #expect(mode.scroll(by: 5) == [.layOut])
        #expect(mode.state.scroll == 5)
        #expect(mode.scroll(to: 5, from: 5) == [])
        #expect(mode.scroll(to: 0, from: 5) == [.layOut])
        #expect(mode.state.scroll == 0)

        // N1, in "No lane" (the last lane), lies below a 12-row screen; revealing it scrolls it into the lane area.
        let board = LaneKeysTests.mixed()
        let n1 = ItemPath(section: 0, item: 3)
        let before = try #require(Self.grid(board, mode.state, height: 12))
        let area = before.layout.area
        #expect(LaneViewMode.cardFrame(of: n1, in: before).map { !area.contains($0.origin) } ?? true)
        #expect(mode.reveal(n1, in: before) == [.layOut])
        #expect(mode.state.scroll > 0)
        let after = try #require(Self.grid(board, mode.state, height: 12))
        #expect(area.contains(try #require(LaneViewMode.cardFrame(of: n1, in: after)).origin))
        #expect(mode.reveal(n1, in: after) == [])
    }

    @Test func aPressOnALaneHeaderCollapsesThatLane_elsewhereItIsNotTheModes() throws {
        var mode = LaneViewMode()
        let board = laneBoard()
        let grid = try #require(Self.grid(board))
        let header = grid.layout.bands[1].header
        #expect(
            mode.pressHeader(at: Point(x: header.minX + 2, y: header.minY), grid: grid, on: board)
                == [.say("Lane #backend collapsed"), .layOut])
        let card = try #require(LaneViewMode.cardFrame(of: ItemPath(section: 0, item: 0), in: grid))
        #expect(mode.pressHeader(at: Point(x: card.minX + 2, y: card.minY + 1), grid: grid, on: board) == nil)
        #expect(mode.pressHeader(at: Point(x: header.minX, y: header.minY), grid: nil, on: board) == nil)
        #expect(mode.state.collapsed == ["backend"])
    }

    @Test func aPageFlipKeepsTheLaneTheEyeWasOnWhereItWas_andPicksItsFirstCardThere() throws {
        // `LaneKeysTests.wide()` at 80×24: two pages; lane frontend's band is 25 rows, backend's follows.
        let board = LaneKeysTests.wide()
        var state = LaneViewState()
        state.scroll = 30
        let before = try #require(Self.grid(board, state))
        #expect(before.layout.scroll == 30)
        // b0-7, 5 rows into backend, is on screen: its lane is kept.
        let anchor = LaneViewMode.PageAnchor(before, selection: ItemPath(section: 0, item: 15))
        #expect(anchor == LaneViewMode.PageAnchor(lane: 1, top: 25, scroll: 30))
        // Page 2's backend band starts at content row 19: 5 rows into it again is scroll 24.
        let page2Before = try #require(Self.grid(board, state, page: 1))
        #expect(page2Before.layout.bands.map(\.top) == [0, 19])
        #expect(anchor.scroll(in: page2Before) == 24)
        state.scroll = 24
        // Its first card there, b3-0 (which the app then scrolls into view).
        #expect(anchor.firstCard(in: try #require(Self.grid(board, state, page: 1))) == ItemPath(section: 3, item: 6))

        // Nothing selected: the lane at the top, which stays at the top.
        let top = LaneViewMode.PageAnchor(try #require(Self.grid(board)), selection: nil)
        #expect(top == LaneViewMode.PageAnchor(lane: 0, top: 0, scroll: 0))
        let page2 = try #require(Self.grid(board, page: 1))
        #expect(top.scroll(in: page2) == 0)
        #expect(top.firstCard(in: page2) == ItemPath(section: 3, item: 0))
    }
}
