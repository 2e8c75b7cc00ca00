import DragKit
import Testing
@testable import LanesCore

/// To do: "Fix login #frontend", "Write docs"; Doing (WIP 2): "API #backend"; lanes frontend, backend.
private func board() throws -> Board {
    var b = try BoardFormat.parse("## To do\n\n- Fix login #frontend\n- Write docs\n\n## Doing\n\n- API #backend\n", file: "b.md").board
    b.acceptRules.swimlanes = try Swimlanes(["frontend", "backend"])
    b.columns[1].wipLimit = 2
    return b
}

private func titles(_ b: Board) -> [[String]] { b.columns.map { $0.cards.map(\.title) } }

@Suite("BoardEdit.moveCardsToLane: a drop in a lane × column cell, through the door")
struct LaneMoveEditTests {
    @Test func moveAcrossLaneAndColumnIsOneStepAndUndoIsItsInverse() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[1].id, at: .end, lane: "backend"))
        #expect(titles(out.board) == [["Write docs"], ["API #backend", "Fix login #backend"]])
        #expect(out.words == "Moved “Fix login #frontend” to “Doing”, lane #backend")
        let back = try out.board.applying(out.inverse!, force: true)
        #expect(back.board == b)
    }

    @Test func sameColumnOtherLaneOnlyRetags_andNoLaneRemovesTags() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .index(0), lane: nil))
        #expect(titles(out.board) == [["Fix login", "Write docs"], ["API #backend"]])
        #expect(out.words == "Moved “Fix login #frontend” to No lane")
        let docs = b.columns[0].cards[1].id
        let out2 = try b.applying(.moveCardsToLane([docs], to: b.columns[0].id, at: .end, lane: "frontend"))
        #expect(titles(out2.board) == [["Fix login #frontend", "Write docs #frontend"], ["API #backend"]])
        #expect(try out2.board.applying(out2.inverse!, force: true).board == b)
    }

    @Test func multiSelectEveryCardTakesTheLane_WIPCountsTheWholeColumn() throws {
        let b = try board()
        let ids = b.columns[0].cards.map(\.id)
        // Doing holds 1 of 2: two more cards break the limit whatever lane they go to.
        #expect(throws: EditRefusal(.full, "column \"Doing\" is full (WIP limit 2)")) {
            try b.applying(.moveCardsToLane(ids, to: b.columns[1].id, at: .end, lane: "frontend"))
        }
        let out = try b.applying(.moveCardsToLane(ids, to: b.columns[0].id, at: .end, lane: "backend"))
        #expect(titles(out.board) == [["Fix login #backend", "Write docs #backend"], ["API #backend"]])
        #expect(out.words == "Moved 2 cards to lane #backend")
    }

    @Test func undoNeverRevertsAnotherWritersTitle() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[1].id, at: .end, lane: "backend"))
        // Another writer retitles the moved card; undo puts it back in its column but keeps their title.
        var other = out.board
        other.columns[1].cards[1].title = "Fix login properly #backend"
        let back = try other.applying(out.inverse!, force: true).board
        #expect(titles(back) == [["Fix login properly #backend", "Write docs"], ["API #backend"]])
    }

    @Test func lanesGoneOrChangedElsewhereRefuseInWords() throws {
        var b = try board()
        let id = b.columns[0].cards[0].id
        #expect(throws: EditRefusal(.changedElsewhere, "#ops is no longer a lane (the lanes were changed elsewhere)")) {
            try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .end, lane: "ops"))
        }
        b.acceptRules.swimlanes = nil
        #expect(throws: EditRefusal(.changedElsewhere, "the board has no swimlanes now (removed elsewhere)")) {
            try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .end, lane: "frontend"))
        }
    }
}
