import DragKit
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// A workspace of two boards, driven with exact events as the runner would.
struct WorkspaceDriver {
    var ws: Workspace
    var now = 100.0

    init(
        boards: [Board] = [sampleBoard(), sampleBoard([("Backlog", ["x0"]), ("Doing", ["y0", "y1"])])],
        names: [String] = ["A.md", "B.md"], width: Int = 80, height: Int = 20
    ) {
        let apps = boards.enumerated().map { i, b in BoardApp(board: b, title: "Lanes · \(names[i])", status: "ready") }
        ws = Workspace(
            boards: apps, tabs: names.map { Workspace.Tab(name: $0) }, size: Size(width: width, height: height))
    }

    @discardableResult
    mutating func key(_ k: Key, _ mods: Modifiers = []) -> [WorkspaceEffect] {
        now += 0.05
        return ws.handle(.key(k, mods), now: now)
    }

    mutating func type(_ text: String) { for ch in text { key(.char(ch)) } }

    @discardableResult
    mutating func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, after dt: Double = 0.02) -> [WorkspaceEffect] {
        now += dt
        let effects = ws.handle(.mouse(MouseEvent(kind, .left, x: x, y: y)), now: now)
        ws.tick(now: now)
        return effects
    }

    mutating func wait(_ dt: Double) {
        now += dt
        ws.tick(now: now)
    }

    func screen() -> [String] {
        var buf = CellBuffer(width: ws.size.width, height: ws.size.height)
        ws.render(into: &buf, now: now)
        return buf.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The moves among effects.
    static func moves(_ effects: [WorkspaceEffect]) -> [CrossMove] {
        effects.compactMap { if case .move(let m) = $0 { m } else { nil } }
    }
}

/// The board shown's first card's title row on screen (one row below the tab bar when there is one).
private func firstCardPoint(_ ws: Workspace, column k: Int, card i: Int) -> (Int, Int) {
    let c = ws.app.layout.columns[k]
    let f = c.frameOfItem(at: i)
    return (f.minX + 4, f.minY + 1 + ws.top)
}

@Suite struct WorkspaceTests {
    @Test func oneBoardHasNoTabBarAndDrawsAsTheBoardAlone() {
        var d = WorkspaceDriver(boards: [sampleBoard()], names: ["A.md"])
        #expect(!d.ws.showsTabs)
        var alone = BoardApp(board: sampleBoard(), title: "Lanes · A.md", status: "ready")
        alone.resize(Size(width: 80, height: 20))
        var buf = CellBuffer(width: 80, height: 20)
        alone.render(into: &buf, now: d.now)
        #expect(d.screen().joined(separator: "\n") == buf.text)
        // ctrl-n with one board is the board's: it says how to open several.
        d.key(.char("n"), .ctrl)
        #expect(d.ws.app.status.hasPrefix("Only one board is open"))
    }

    @Test func tabsShowNamesCountsAndTheBoardBelow() {
        let d = WorkspaceDriver()
        let s = d.screen()
        #expect(s[0].hasPrefix(" A.md (5) │ B.md (3) │"))
        #expect(s[1].contains("Lanes · A.md"))
        #expect(d.ws.app.size == Size(width: 80, height: 19))
    }

    @Test func switchingKeepsEachBoardsSelectionAndUndo() {
        var d = WorkspaceDriver()
        d.key(.char("j"))  // A: a1
        d.key(.char("d"))  // A: a1 deleted, one undo step
        #expect(titles(d.ws.boards[0].board) == [["a0", "a2"], ["b0", "b1"], []])
        let selA = d.ws.boards[0].selection
        d.key(.char("n"), .ctrl)
        #expect(d.ws.active == 1)
        #expect(d.screen()[1].contains("Lanes · B.md"))
        d.key(.char("l")); d.key(.char("j"))  // B: y1
        #expect(d.ws.app.selection == ItemPath(section: 1, item: 1))
        d.key(.char("u"))  // B has no undo of its own
        #expect(d.ws.app.status == "Nothing to undo")
        #expect(titles(d.ws.boards[0].board) == [["a0", "a2"], ["b0", "b1"], []])
        d.key(.char("p"), .ctrl)
        #expect(d.ws.active == 0)
        #expect(d.ws.app.selection == selA)
        d.key(.char("u"))
        #expect(titles(d.ws.boards[0].board) == [["a0", "a1", "a2"], ["b0", "b1"], []])
        d.key(.char("n"), .ctrl)
        #expect(d.ws.app.selection == ItemPath(section: 1, item: 1), "B kept its selection")
        d.key(.char("n"), .ctrl)
        #expect(d.ws.active == 0, "ctrl-n wraps around")
    }

    @Test func aChangeElsewhereMarksTheTabUntilItIsShown() {
        var d = WorkspaceDriver()
        d.ws.changedElsewhere(0)
        #expect(!d.ws.tabs[0].changedElsewhere, "the board shown needs no mark")
        d.ws.changedElsewhere(1)
        #expect(d.screen()[0].hasPrefix(" A.md (5) │ B.md (3) ● │"))
        d.key(.char("n"), .ctrl)
        #expect(!d.ws.tabs[1].changedElsewhere)
        #expect(!d.screen()[0].contains("●"))
    }

    @Test func aClickOnATabShowsItsBoard() {
        var d = WorkspaceDriver()
        d.mouse(.press, 13, 0)
        d.mouse(.release, 13, 0)
        #expect(d.ws.active == 1)
        d.mouse(.press, 2, 0)
        #expect(d.ws.active == 0)
        // A click below the bar reaches the board one row up: a0's title row selects a0... a1 here.
        let (x, y) = firstCardPoint(d.ws, column: 0, card: 1)
        d.mouse(.press, x, y)
        d.mouse(.release, x, y)
        #expect(d.ws.app.selection == ItemPath(section: 0, item: 1))
    }

    @Test func mCompletesBoardThenColumnAndAsksForTheMove() throws {
        var d = WorkspaceDriver()
        d.key(.char("m"))
        #expect(d.screen().last!.contains("Move “a0” to board:column"))
        d.key(.tab)
        #expect(d.ws.prompt?.editor.text == "B.md:")
        d.type("d")
        d.key(.tab)
        #expect(d.ws.prompt?.editor.text == "B.md:Doing")
        let moves = WorkspaceDriver.moves(d.key(.enter))
        #expect(moves.count == 1)
        let m = try #require(moves.first)
        #expect(m.from == 0 && m.to == 1 && m.column == "Doing" && m.position == nil)
        #expect(m.cards.map(\.card.title) == ["a0"] && m.cards[0].column == "To do" && m.cards[0].row == 0)
        #expect(d.ws.prompt == nil)
    }

    @Test func mRefusesAnUnknownBoardInWordsAndStaysOpen() {
        var d = WorkspaceDriver()
        d.key(.char("m"))
        d.type("Zed:Doing")
        #expect(WorkspaceDriver.moves(d.key(.enter)).isEmpty)
        #expect(d.ws.prompt?.editor.note?.contains("No board is called “Zed:Doing”") == true)
        d.key(.escape)
        #expect(d.ws.prompt == nil && d.ws.app.status == "Cancelled")
    }

    @Test func markedCardsMoveTogether() throws {
        var d = WorkspaceDriver()
        d.key(.char("v")); d.key(.char("j")); d.key(.char("j")); d.key(.char("v"))
        d.key(.char("m"))
        d.type("B.md:1")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        #expect(m.cards.map(\.card.title) == ["a0", "a2"])
        #expect(m.column == "1")
    }

    @Test func undoAfterAMoveMovesTheCardsBackToTheirRows() throws {
        var d = WorkspaceDriver()
        d.key(.char("j"))
        d.key(.char("m")); d.type("B.md:Doing")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        let outcome = CrossBoardMove.Outcome(
            titles: ["a1"], targetColumn: "Doing", position: 3, conflicts: [], keptOnSource: [])
        d.ws.moveFinished(m, result: .success(outcome))
        #expect(d.ws.app.status == "Moved “a1” to B.md, “Doing” at 3 · u undoes")
        let back = try #require(WorkspaceDriver.moves(d.key(.char("u"))).first)
        #expect(
            back.from == 1 && back.to == 0 && back.column == "To do" && back.position == 2 && back.force && back.undoing
        )
        #expect(back.cards.map(\.card.title) == ["a1"] && back.cards[0].column == "Doing" && back.cards[0].row == 2)
        // The undo is spent: the next u is the board's own.
        d.key(.char("u"))
        #expect(d.ws.app.status == "Nothing to undo")
    }

    @Test func anEditAfterTheMoveIsUndoneFirst() throws {
        var d = WorkspaceDriver()
        d.key(.char("m")); d.type("B.md:Doing")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        d.ws.moveFinished(
            m,
            result: .success(.init(titles: ["a0"], targetColumn: "Doing", position: 3, conflicts: [], keptOnSource: []))
        )
        d.key(.char("x"))  // a local edit on A after the move
        #expect(WorkspaceDriver.moves(d.key(.char("u"))).isEmpty, "u undoes the later local edit first")
        #expect(WorkspaceDriver.moves(d.key(.char("u"))).count == 1, "then the move")
    }

    @Test func releasingADraggedCardOnATabMovesItToThatBoardsFirstColumn() throws {
        var d = WorkspaceDriver()
        let (x, y) = firstCardPoint(d.ws, column: 0, card: 0)
        d.mouse(.press, x, y)
        d.mouse(.drag, x + 1, y)
        d.mouse(.drag, 14, 2)
        d.mouse(.drag, 14, 0)
        #expect(d.ws.carry.hoveredTab == 1)
        let m = try #require(WorkspaceDriver.moves(d.mouse(.release, 14, 0)).first)
        #expect(m.to == 1 && m.column == "Backlog" && m.position == nil && m.cards.map(\.card.title) == ["a0"])
        #expect(!d.ws.app.coordinator.isDragging)
        #expect(
            titles(d.ws.boards[0].board) == [["a0", "a1", "a2"], ["b0", "b1"], []],
            "the source is unchanged until the move runs")
    }

    @Test func holdingOverATabOpensThatBoardUnderTheCardWhereItDrops() throws {
        var d = WorkspaceDriver()
        let (x, y) = firstCardPoint(d.ws, column: 0, card: 0)
        d.mouse(.press, x, y)
        d.mouse(.drag, x + 1, y)
        d.mouse(.drag, 14, 0)
        d.wait(0.3)
        #expect(d.ws.active == 0, "not before the delay")
        d.wait(0.4)
        #expect(d.ws.active == 1 && d.ws.carry.isActive)
        #expect(d.ws.app.status.hasPrefix("Carrying “a0” from A.md"))
        // Dropped on the upper half of y1 (Doing, second card): position 2.
        let c = d.ws.app.layout.columns[1]
        let f = c.frameOfItem(at: 1)
        let row = f.minY + 1 + d.ws.top
        d.mouse(.drag, f.minX + 3, row)
        #expect(d.screen()[row].contains("▸ a0"), "the carried card's ghost follows the pointer")
        let m = try #require(WorkspaceDriver.moves(d.mouse(.release, f.minX + 3, row)).first)
        #expect(m.from == 0 && m.to == 1 && m.column == "2" && m.position == 2)
        #expect(!d.ws.carry.isActive)
    }

    @Test func escOrAReleaseOutsideBringsTheCarriedCardBack() {
        for ending in ["esc", "outside", "motion without a button", "focus lost"] {
            var d = WorkspaceDriver()
            let (x, y) = firstCardPoint(d.ws, column: 0, card: 0)
            d.mouse(.press, x, y)
            d.mouse(.drag, x + 1, y)
            d.mouse(.drag, 14, 0)
            d.wait(0.7)
            #expect(d.ws.active == 1)
            let effects: [WorkspaceEffect]
            switch ending {
            case "esc": effects = d.key(.escape)
            case "outside": effects = d.mouse(.release, 79, 19)
            case "focus lost": effects = d.ws.handle(.focusOut, now: d.now + 0.1)
            default: effects = d.ws.handle(.mouse(MouseEvent(.motion, .none, x: 30, y: 5)), now: d.now + 0.1)
            }
            #expect(WorkspaceDriver.moves(effects).isEmpty)
            #expect(d.ws.active == 0, "back on the card's own board")
            #expect(d.ws.app.status.contains("“a0” stays on A.md"))
            #expect(titles(d.ws.boards[0].board) == [["a0", "a1", "a2"], ["b0", "b1"], []])
        }
    }
}

@Suite struct WorkspaceMoveExtrasTests {
    @Test func mTakesAPositionAfterTheColumn() throws {
        var d = WorkspaceDriver()
        d.key(.char("m")); d.type("B.md:Doing:2")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        #expect(m.to == 1 && m.column == "Doing" && m.position == 2)
        d.key(.char("m")); d.type("B.md:do")
        d.key(.tab)
        #expect(d.ws.prompt?.editor.text == "B.md:Doing", "completion is as before")
        d.type(":1")
        let first = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        #expect(first.column == "Doing" && first.position == 1)
        // A column whose own title ends in :N is that column.
        var c = WorkspaceDriver(boards: [sampleBoard(), sampleBoard([("Q:3", ["x0"]), ("Doing", [])])])
        c.key(.char("m")); c.type("B.md:Q:3")
        let q = try #require(WorkspaceDriver.moves(c.key(.enter)).first)
        #expect(q.column == "Q:3" && q.position == nil)
    }

    @Test func redoMakesAnUndoneMoveAgainAndCanBeUndoneAgain() throws {
        var d = WorkspaceDriver()
        d.key(.char("j"))
        d.key(.char("m")); d.type("B.md:Doing")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        d.ws.moveFinished(
            m,
            result: .success(.init(titles: ["a1"], targetColumn: "Doing", position: 3, conflicts: [], keptOnSource: []))
        )
        #expect(WorkspaceDriver.moves(d.key(.char("r"), .ctrl)).isEmpty, "nothing undone yet: the board's own redo")
        let back = try #require(WorkspaceDriver.moves(d.key(.char("u"))).first)
        d.ws.moveFinished(
            back,
            result: .success(.init(titles: ["a1"], targetColumn: "To do", position: 2, conflicts: [], keptOnSource: []))
        )
        #expect(d.ws.app.status == "Undid the move: “a1” back on A.md, “To do” · ctrl-r redoes")
        let again = try #require(WorkspaceDriver.moves(d.key(.char("r"), .ctrl)).first)
        #expect(
            again.from == 0 && again.to == 1 && again.column == "Doing" && again.position == 3 && again.force
                && again.redoing)
        #expect(again.cards.map(\.card.title) == ["a1"] && again.cards[0].column == "To do" && again.cards[0].row == 1)
        d.ws.moveFinished(
            again,
            result: .success(.init(titles: ["a1"], targetColumn: "Doing", position: 3, conflicts: [], keptOnSource: []))
        )
        #expect(d.ws.app.status == "Redid the move: moved “a1” to B.md, “Doing” at 3 · u undoes")
        #expect(WorkspaceDriver.moves(d.key(.char("r"), .ctrl)).isEmpty, "the redo is spent")
        let backAgain = try #require(WorkspaceDriver.moves(d.key(.char("u"))).first)
        #expect(backAgain.undoing && backAgain.column == "To do" && backAgain.position == 2)
        // A new move forgets what was undone.
        d.ws.moveFinished(
            backAgain,
            result: .success(.init(titles: ["a1"], targetColumn: "To do", position: 2, conflicts: [], keptOnSource: []))
        )
        d.key(.char("m")); d.type("B.md:Backlog")
        let other = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        d.ws.moveFinished(
            other,
            result: .success(
                .init(titles: ["a0"], targetColumn: "Backlog", position: 2, conflicts: [], keptOnSource: [])))
        #expect(WorkspaceDriver.moves(d.key(.char("r"), .ctrl)).isEmpty)
    }

    @Test func aRefusalInTheTerminalHasNoCommandLineHint() throws {
        var d = WorkspaceDriver()
        d.key(.char("m")); d.type("B.md:Doing")
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        let full = EditRefusal(.full, "column \"Doing\" of B.md is full (WIP limit 2)")
        d.ws.moveFinished(
            m,
            result: .failure(
                CommandError(
                    refused: full,
                    of: .receiveCards(
                        [], to: d.ws.boards[1].board.columns[0].id, position: nil, from: [], board: "B.md"))))
        #expect(d.ws.app.status == "Not moved: column \"Doing\" of B.md is full (WIP limit 2)")
    }
}

/// Boards that open after the first frame (`BoardLoader`): a stand-in with a loading tab until the board arrives.
@Suite struct WorkspaceBackgroundOpeningTests {
    static func loadingWorkspace() -> WorkspaceDriver {
        var d = WorkspaceDriver()
        let first = d.ws.boards[0]
        d.ws = Workspace(
            boards: [first, Workspace.standIn(named: "B.md", like: first)],
            tabs: [Workspace.Tab(name: "A.md"), Workspace.Tab(name: "B.md", loading: true)], size: d.ws.size)
        return d
    }

    @Test func aBoardStillOpeningSaysSoOnItsTabAndInItsPlace() {
        var d = Self.loadingWorkspace()
        #expect(d.screen()[0].hasPrefix(" A.md (5) │ B.md (…) │"))
        d.key(.char("n"), .ctrl)
        #expect(d.ws.active == 1, "switching to a board still opening works")
        let s = d.screen()
        #expect(s.contains { $0.contains("Opening B.md…") })
        #expect(!s.contains { $0.contains("Lanes · B.md") }, "no empty board drawn for it")
        // Its keys do nothing but say why; the workspace's keys still work.
        d.key(.char("a"))
        #expect(d.ws.app.status == "B.md is still opening…")
        #expect(d.ws.boards[1].board.columns.isEmpty && d.ws.prompt == nil)
        d.key(.char("m"))
        #expect(d.ws.prompt == nil, "no move from a board not open")
        d.key(.char("p"), .ctrl)
        #expect(d.ws.active == 0)
    }

    @Test func aBoardShownWhileOpeningAppearsAsSoonAsItIsReady() {
        var d = Self.loadingWorkspace()
        d.key(.char("n"), .ctrl)
        let b = BoardApp(
            board: sampleBoard([("Backlog", ["x0"]), ("Doing", ["y0", "y1"])]), title: "Lanes · B.md", status: "ready")
        d.ws.loaded(1, b)
        let s = d.screen()
        #expect(s[0].hasPrefix(" A.md (5) │ B.md (3) │"))
        #expect(s[1].contains("Lanes · B.md") && s.contains { $0.contains("x0") })
        #expect(d.ws.app.size == Size(width: 80, height: 19), "sized under the tab bar")
        d.key(.char("l"))
        #expect(d.ws.app.status != "B.md is still opening…", "its keys are the board's now")
        #expect(d.ws.app.validSelection == ItemPath(section: 1, item: 0), "l moved right to y0")
    }

    @Test func aBoardThatCouldNotBeOpenedSaysWhy() {
        var d = Self.loadingWorkspace()
        d.ws.failedToOpen(1, "B.md:3: a line the board cannot read")
        #expect(d.screen()[0].hasPrefix(" A.md (5) │ B.md (!) │"))
        d.key(.char("n"), .ctrl)
        let s = d.screen()
        #expect(s.contains { $0.contains("Could not open B.md:") })
        #expect(s.contains { $0.contains("B.md:3: a line the board cannot read") })
        d.key(.char("x"))
        #expect(d.ws.app.status == "B.md could not be opened")
    }

    @Test func theLoaderOpensEachBoardOnItsOwnThreadInTabOrder() throws {
        let names = ["B.md", "C.md", "D.md"]
        let later = names.map { name in
            BoardLoader.Later(tabName: name) {
                if name == "C.md" { throw CommandError(.badInput, "C.md: not a board") }
                return HostedBoard(
                    app: BoardApp(board: sampleBoard([(name, ["card of \(name)"])]), title: name),
                    tabName: name, storage: nil, boardName: name, copyInfo: BoardFileInfo(dialect: .taskell))
            }
        }
        let loader = BoardLoader(later, firstIndex: 1)
        #expect(loader.take().isEmpty, "nothing opens before start")
        loader.start()
        var got: [(Int, String)] = []
        while !loader.isDone {
            var fd = pollfd(fd: loader.descriptor, events: Int16(POLLIN), revents: 0)
            #expect(poll(&fd, 1, 10_000) == 1, "the descriptor wakes the loop")
            for (i, r) in loader.take() {
                switch r {
                case .success(let b): got.append((i, b.app.board.columns[0].cards[0].title))
                case .failure(let e): got.append((i, "\(e)"))
                }
            }
        }
        #expect(got.map(\.0) == [1, 2, 3])
        #expect(got.map(\.1) == ["card of B.md", "C.md: not a board", "card of D.md"])
    }
}

/// A lifted card carried to another board by keyboard alone.
@Suite struct WorkspaceKeyboardCarryTests {
    @Test func spaceLiftsCtrlNCarriesArrowsPlaceAndSpaceDrops() throws {
        var d = WorkspaceDriver()
        d.key(.char("j"))  // a1
        d.key(.char(" "))  // lifted
        #expect(d.ws.app.coordinator.session?.isKeyboard == true)
        #expect(d.key(.char("n"), .ctrl).isEmpty)
        #expect(d.ws.active == 1 && d.ws.carry.keyboard != nil)
        #expect(d.ws.boards[0].coordinator.session == nil, "the lift on A ended with the card in its place")
        #expect(titles(d.ws.boards[0].board)[0] == ["a0", "a1", "a2"])
        #expect(d.ws.app.status.hasPrefix("Carrying “a1” from A.md → “Backlog” at 1"))
        #expect(d.screen().contains { $0.contains("▸ a1") }, "the ghost is drawn on B")
        d.key(.char("l"))  // Doing
        d.key(.char("j"))  // before y1
        #expect(d.ws.app.status.hasPrefix("Carrying “a1” from A.md → “Doing” at 2"))
        d.key(.char("j")); d.key(.char("j"))  // past the end: clamped to the end
        #expect(d.ws.app.status.hasPrefix("Carrying “a1” from A.md → “Doing” at 3"))
        d.key(.char("k"))
        let m = try #require(WorkspaceDriver.moves(d.key(.char(" "))).first)
        #expect(m.from == 0 && m.to == 1 && m.column == "2" && m.position == 2)
        #expect(m.cards.map(\.card.title) == ["a1"] && m.cards[0].column == "To do" && m.cards[0].row == 1)
        #expect(!d.ws.carry.isActive)
    }

    @Test func escOrCarryingItBackLeavesTheCardWhereItWas() {
        var d = WorkspaceDriver()
        d.key(.char(" "))
        d.key(.char("n"), .ctrl)
        #expect(d.ws.active == 1)
        d.key(.escape)
        #expect(d.ws.active == 0 && !d.ws.carry.isActive)
        #expect(d.ws.app.status == "Cancelled: “a0” stays on A.md")
        d.key(.char(" "))
        d.key(.char("n"), .ctrl)
        d.key(.char("n"), .ctrl)  // two boards: on to A again
        #expect(d.ws.active == 0 && !d.ws.carry.isActive)
        #expect(d.ws.app.status == "Back on its own board: “a0” stays on A.md")
        #expect(titles(d.ws.app.board) == titles(sampleBoard()))
    }

    @Test func enterDropsAtTheEndAndTheMouseDoesNotCancelAKeyboardCarry() throws {
        var d = WorkspaceDriver()
        d.key(.char(" "))
        d.key(.char("p"), .ctrl)
        #expect(d.ws.active == 1 && !d.ws.wantsAllMotion, "no pointer to follow")
        _ = d.ws.handle(.mouse(MouseEvent(.motion, .left, x: 3, y: 5)), now: d.now + 0.1)
        #expect(d.ws.carry.isActive, "a stray motion report does not end it")
        d.key(.char("G"))
        let m = try #require(WorkspaceDriver.moves(d.key(.enter)).first)
        #expect(m.column == "1" && m.position == nil, "after the last card: the end")
    }
}

extension WorkspaceKeyboardCarryTests {
    /// The target's door is asked while the card is placed: a full column or an accept rule says
    /// so at once, and space there keeps the card carried instead of asking for a move bound to fail.
    @Test func theTargetsRulesSpeakWhileTheCardIsPlaced() throws {
        var b = sampleBoard([("Backlog", ["x0"]), ("Doing", ["y0", "y1"]), ("Done", [])])
        b.columns[1].wipLimit = 2
        b.acceptRules.setSources(["Doing"], for: "Done")
        var d = WorkspaceDriver(boards: [sampleBoard(), b], width: 100)
        d.key(.char(" "))
        d.key(.char("n"), .ctrl)
        #expect(!d.ws.app.status.contains("refused here"), "Backlog takes it")
        d.key(.char("l"))
        #expect(
            d.ws.app.status.contains("→ “Doing” at 1 · refused here: column \"Doing\" of B.md is full (WIP limit 2) ·"))
        #expect(d.key(.char(" ")).isEmpty)
        #expect(d.ws.carry.isActive, "still carried")
        #expect(
            d.ws.app.status
                == "Refused: column \"Doing\" of B.md is full (WIP limit 2) · choose another column, or esc brings it back"
        )
        d.key(.char("l"))
        #expect(
            d.ws.app.status.contains(
                "refused here: column \"Done\" of B.md accepts cards only from \"Doing\", not from \"To do\""))
        d.key(.char("h")); d.key(.char("h"))
        let m = try #require(WorkspaceDriver.moves(d.key(.char(" "))).first)
        #expect(m.column == "1" && m.position == 1)
    }
}

/// Many boards: the tab bar scrolls to the board shown instead of cutting every name short.
@Suite struct WorkspaceTabScrollTests {
    static func many(_ n: Int) -> WorkspaceDriver {
        let names = (1...n).map { "project-board-\($0).md" }
        return WorkspaceDriver(boards: names.map { _ in sampleBoard() }, names: names, width: 80)
    }

    @Test func theRowScrollsToTheBoardShownWithItsNameWhole() {
        var d = Self.many(12)
        var bar = d.screen()[0]
        #expect(bar.hasPrefix(" project-board-1.md (5) │ project-board-2.md (5) │ project-board-3.md (5) │"))
        #expect(bar.hasSuffix("9›"), "nine boards hidden on the right: \(bar)")
        for _ in 0..<5 { d.key(.char("n"), .ctrl) }
        bar = d.screen()[0]
        #expect(bar.contains(" project-board-6.md (5) "), "the board shown is whole: \(bar)")
        #expect(bar.hasPrefix("‹3 ") && bar.hasSuffix("6›"), "\(bar)")
        // A click on a marker shows the board hidden next to the shown ones.
        let x = bar.count - 1
        d.mouse(.press, x, 0)
        d.mouse(.release, x, 0)
        #expect(d.ws.active == 6)
        d.mouse(.press, 0, 0)
        d.mouse(.release, 0, 0)
        #expect(d.ws.active == 3, "‹ shows the board just before the shown ones (5–7 fit beside the markers)")
        while d.ws.active != 0 { d.key(.char("p"), .ctrl) }
        #expect(d.screen()[0].hasSuffix("9›") && !d.screen()[0].hasPrefix("‹"), "back at the start")
        d.key(.char("p"), .ctrl)  // round to the last board: the row scrolls to the end
        #expect(d.screen()[0].hasPrefix("‹") && !d.screen()[0].contains("›"))
        #expect(d.screen()[0].hasSuffix("│ project-board-12.md (5)"), "the last board whole at the right edge")
    }

    @Test func aFewBoardsDrawAsBefore() {
        let d = WorkspaceDriver()
        #expect(d.screen()[0].hasPrefix(" A.md (5) │ B.md (3) │"))
        #expect(!d.screen()[0].contains("›"))
    }
}
