import DragKit
@testable import LanesCore
import Testing

/// Cards on their way to another board, held in the document's door (`CardsInTransit`).
struct CardsInTransitTests {
    static func parsed(_ text: String) throws -> Board { try BoardFormat.parse(text, file: "t.md").board }
    static let text = "## To do\n\n- a0\n- a1\n- a2\n\n## Done\n\n- a3\n"

    func id(_ title: String, _ board: Board) -> CardID {
        board.columns.flatMap(\.cards).first { $0.title == title }!.id
    }

    @Test func everyEditNamingTheCardIsRefusedInWordsAndOthersApply() throws {
        let board = try Self.parsed(Self.text)
        var doc = BoardDocument(board: board)
        let a1 = id("a1", board), a0 = id("a0", board)
        let done = board.columns[1].id, todo = board.columns[0].id
        doc.inTransit.hold([a1], of: board, toBoard: "B.md")
        let named: [BoardEdit] = [
            .setTitle(a1, "x", seen: nil), .setDone(a1, true), .moveCards([a0, a1], to: done, at: .end),
            .deleteCards([a1], seen: nil), .deleteColumn(todo, seen: nil), .sendCards([a1], toBoard: "C"),
            .group([.setDone(a0, true), .setDone(a1, true)]),
        ]
        for edit in named {
            #expect(
                throws: EditRefusal(.changedElsewhere, "“a1” is moving to B.md; edit it there once the move is done")
            ) {
                try doc.apply(edit)
            }
        }
        #expect(doc.board == board, "nothing changed")
        // Other cards, and a1 only as a place: through.
        try doc.apply(.setTitle(a0, "a0 renamed", seen: nil))
        try doc.apply(.moveCards([id("a3", board)], to: todo, at: .before(a1, orIndex: 1)))
        #expect(doc.board.columns.map { $0.cards.map(\.title) } == [["a0 renamed", "a3", "a1", "a2"], []])
    }

    @Test func anUndoNamingTheCardWaitsOnItsStackUntilTheHoldGoes() throws {
        let board = try Self.parsed(Self.text)
        var doc = BoardDocument(board: board)
        let a1 = id("a1", board)
        _ = try doc.apply(.setTitle(a1, "a1 late", seen: nil))
        doc.inTransit.hold([a1], of: doc.board, toBoard: "B.md")
        let replay = doc.undo()
        let r = try #require(replay)
        #expect(r.waits && !r.changed)
        #expect(r.words == "“a1 late” is moving to B.md; edit it there once the move is done")
        #expect(doc.history.undoStack.count == 1, "the step stays")
        doc.inTransit.moveFinished([a1], took: [])
        #expect(doc.inTransit.isEmpty, "a move that did not take it lets it go")
        #expect(doc.undo()?.changed == true)
        #expect(doc.board.columns[0].cards[1].title == "a1")
    }

    @Test func theHoldFollowsTheCardThroughABoardReadBackWithNewIdentitiesAndEndsWhenItIsGone() throws {
        let board = try Self.parsed(Self.text)
        var doc = BoardDocument(board: board)
        doc.inTransit.hold([id("a1", board)], of: board, toBoard: "B.md")
        // Another writer added a card; the board read back has identities of its own.
        let stored = try Self.parsed("## To do\n\n- a0\n- a1\n- a2\n- new\n\n## Done\n\n- a3\n")
        doc.absorb(stored: stored, base: board)
        let a1now = id("a1", doc.board)
        #expect(doc.inTransit.ids == [a1now])
        #expect(throws: EditRefusal.self) { try doc.apply(.setDone(a1now, true)) }
        // Another writer edited it meanwhile (a note added): still held, found by title in its column.
        let edited = try Self.parsed("## To do\n\n- a0\n- a1\n    > note\n- a2\n- new\n\n## Done\n\n- a3\n")
        doc.absorb(stored: edited, base: stored)
        #expect(doc.inTransit.ids == [id("a1", doc.board)])
        // The move took it: held until the board read back no longer has it.
        doc.inTransit.moveFinished(Array(doc.inTransit.ids), took: doc.inTransit.ids)
        #expect(
            throws: EditRefusal(
                .changedElsewhere, "“a1” has moved to B.md; it leaves this board as soon as the board is read back")
        ) {
            try doc.apply(.setDone(id("a1", doc.board), true))
        }
        let gone = try Self.parsed("## To do\n\n- a0\n- a2\n- new\n\n## Done\n\n- a3\n")
        doc.absorb(stored: gone, base: edited)
        #expect(doc.inTransit.isEmpty)
        #expect(doc.board.columns[0].cards.map(\.title) == ["a0", "a2", "new"])
    }
}
