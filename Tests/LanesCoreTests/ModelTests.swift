import DragKit
@testable import LanesCore
import Testing

/// A board with columns of cards titled by their ids: `board([[1, 2], [3]])`.
func board(_ ids: [[UInt64]]) -> Board {
    Board(
        columns: ids.enumerated().map { s, col in
            Column(title: "C\(s)", cards: col.map { Card(id: CardID($0), title: "card \($0)") })
        })
}

func rawIDs(_ b: Board) -> [[UInt64]] { b.columns.map { $0.cards.map(\.id.rawValue) } }

private struct Boom: Error {}

@Suite("Board model")
struct ModelTests {
    @Test func freshIdentitiesNeverMeetParsedOnesNorRepeat() {
        var b = board([[3, 9], [], [4]])
        let made = (0..<1000).map { _ in CardID.fresh() }
        #expect(Set(made).count == 1000)
        #expect(made.allSatisfy { $0.rawValue >= 1 << 41 && $0.rawValue < 1 << 62 })
        // One process-wide counter (cards and columns share it, other tests draw from it at the
        // same time): one caller's identities only ever increase.
        #expect(zip(made, made.dropFirst()).allSatisfy { $0.rawValue < $1.rawValue })
        let empty = Board()
        #expect(empty.cardCount == 0 && empty.allIDs.isEmpty)
    }

    @Test func countsAndSubscript() {
        var b = board([[1, 2], [], [3]])
        #expect(b.cardCount == 3)
        #expect(b.allIDs == [1, 2, 3].map(CardID.init))
        #expect(b[path(2, 0)].title == "card 3")
        b[path(0, 1)].title = "renamed"
        #expect(b.columns[0].cards[1].title == "renamed")
    }

    @Test(arguments: [
        ("plain #tag here", ["tag"]), ("#start and #end", ["start", "end"]), ("no#tag", []),
        ("#a-b/c_d!", ["a-b/c_d"]), ("# lonely", []), ("two ##x", []), ("(#x)", []), ("tab\t#t", ["t"]),
    ])
    func tags(_ title: String, _ expected: [String]) {
        #expect(Card.tags(in: title) == expected)
    }

    @Test func wipLimit() {
        var c = Column(title: "Doing", cards: [Card(id: CardID(1), title: "a")], wipLimit: 2)
        #expect(!c.isFull)
        c.cards.append(Card(id: CardID(2), title: "b"))
        #expect(c.isFull)
        #expect(!Column(title: "x", cards: [], wipLimit: nil).isFull)
        #expect(Column(title: "x", cards: [], wipLimit: 0).isFull)
    }

    @Test func dataSourceLookups() {
        let b = board([[1, 2], [], [3]])
        #expect(b.numberOfItems(inSection: 0) == 2)
        #expect(b.numberOfItems(inSection: 1) == 0)
        #expect(b.numberOfItems(inSection: 3) == 0 && b.numberOfItems(inSection: -1) == 0)
        #expect(b.indexPath(for: CardID(3)) == path(2, 0))
        #expect(b.indexPath(for: CardID(99)) == nil)
        #expect(b.item(at: path(0, 1))?.id == CardID(2))
        #expect(b.item(at: path(0, 2)) == nil && b.item(at: path(5, 0)) == nil && b.item(at: path(0, -1)) == nil)
    }

    @Test func dataSourceMutations() {
        var b = board([[1, 2, 3], [4]])
        b.moveItem(from: path(0, 0), to: path(0, 2))
        #expect(rawIDs(b) == [[2, 3, 1], [4]])
        b.deleteItem(at: path(0, 1))
        #expect(rawIDs(b) == [[2, 1], [4]])
        b.insertItem(Card(id: CardID(3), title: "card 3"), at: path(1, 1))
        #expect(rawIDs(b) == [[2, 1], [4, 3]])
    }

    @Test func dropOnABoardKeepsTheWholeCard() {
        var b = board([[1, 2], [3]])
        b.columns[0].cards[0].subtasks = [Subtask("x", done: true)]
        b.columns[0].cards[0].due = "2026-01-01"
        let card = b.columns[0].cards[0]
        var doc = BoardDocument(board: b)
        #expect(doc.perform(drop(1, to: 1, index: 1, anchor: nil)) == nil)
        #expect(doc.board.columns[1].cards[1] == card)
    }
}

@Suite("Undo history")
struct HistoryTests {
    @Test func undoAndRedoStacksKeepTheirOrderAndLimit() {
        var h = History<Int>(limit: 10)
        #expect(!h.canUndo && !h.canRedo)
        h.record(1)
        h.record(2)
        #expect(h.popUndo() == 2)
        h.pushRedo(2)
        #expect(h.canRedo && h.popRedo() == 2)
        h.pushUndo(2)
        #expect(h.undoStack == [1, 2])
        h.pushRedo(9)
        h.record(3)
        #expect(!h.canRedo, "a new change clears redo")
        var small = History<Int>(limit: 3)
        for i in 0..<5 { small.record(i) }
        #expect(small.undoStack == [2, 3, 4])
        #expect(History<Int>(limit: 0).limit == 1)
    }

    @Test func applyRecordsOnlyRealChanges() throws {
        var doc = BoardDocument(board: board([[1, 2]]))
        let column = doc.board.columns[0].id
        let same = try doc.apply(.renameColumn(column, doc.board.columns[0].title))
        #expect(!same.changed && !doc.history.canUndo)
        #expect(try doc.apply(.renameColumn(column, "X")).changed)
        #expect(doc.undo()?.label == "rename column")
        #expect(doc.board == board([[1, 2]]))
        #expect(doc.redo()?.label == "rename column")
        #expect(doc.board.columns[0].title == "X")
        #expect(doc.undo()?.label == "rename column" && doc.undo() == nil)
    }

    /// A store that names a new column itself (PostgreSQL: its row id) hands it back under that
    /// name; the document keeps the identity its prompts and undo steps hold.
    @Test func aColumnRenamedByTheStoreKeepsItsIdentity() throws {
        var doc = BoardDocument(board: board([[1, 2]]))
        try doc.apply(.addColumn(Column(title: "New"), at: .index(1)))
        let mine = doc.board.columns[1].id
        var stored = doc.board
        stored.columns[1].id = ColumnID(7)
        doc.absorb(stored: stored, base: doc.board)
        #expect(doc.board.columns.map(\.id) == [stored.columns[0].id, mine])
        #expect(doc.undo()?.changed == true && doc.board.columns.count == 1, "the undo step still finds the column")
    }

    @Test func aRefusedEditLeavesTheBoardAsItWas() {
        var doc = BoardDocument(board: board([[1, 2]]))
        #expect(throws: EditRefusal.self) {
            try doc.apply(.renameColumn(doc.board.columns[0].id, "  "))
        }
        #expect(doc.board == board([[1, 2]]))
        #expect(!doc.history.canUndo)
    }

    @Test func oneDropIsOneUndoStep() {
        var doc = BoardDocument(board: board([[1, 2, 3], [4]]))
        #expect(doc.perform(drop(2, to: 1, index: 0, anchor: 4)) == nil)
        #expect(rawIDs(doc.board) == [[1, 3], [2, 4]])
        #expect(doc.history.undoStack.count == 1)
        #expect(doc.undo()?.label == "move")
        #expect(rawIDs(doc.board) == [[1, 2, 3], [4]])
        _ = doc.redo()
        #expect(rawIDs(doc.board) == [[1, 3], [2, 4]])
    }

    @Test func aDropInPlaceRecordsNothing() {
        var doc = BoardDocument(board: board([[1, 2]]))
        #expect(doc.perform(drop(1, to: 0, index: 0, anchor: 2)) == nil)
        #expect(rawIDs(doc.board) == [[1, 2]] && !doc.history.canUndo)
    }

    /// A save that comes back with nothing from elsewhere leaves later changes as they are; one
    /// that brings a change elsewhere keeps both, and neither is an undo step.
    @Test func absorbKeepsLaterChanges() {
        var doc = BoardDocument(board: board([[1, 2, 3], [4]]))
        let sent = doc.board
        #expect(doc.perform(drop(1, to: 1, index: 1, anchor: nil)) == nil)
        let later = doc.board
        let quiet = doc.absorb(stored: sent, base: sent)
        #expect(quiet.conflicts.isEmpty && quiet.incoming == 0)
        #expect(doc.board == later && doc.history.undoStack.count == 1)
        var elsewhere = sent
        elsewhere.columns[0].cards.remove(at: 2)
        let busy = doc.absorb(stored: elsewhere, base: sent)
        #expect(busy.conflicts.isEmpty && busy.incoming == 1)
        #expect(rawIDs(doc.board) == [[2], [4, 1]])
        #expect(doc.history.undoStack.count == 1)
    }

    @Test func documentForwardsTheDataSource() {
        let doc = BoardDocument(board: board([[1, 2], [3]]))
        #expect(doc.numberOfItems(inSection: 0) == 2 && doc.indexPath(for: ItemID(3)) == path(1, 0))
        #expect(doc.item(at: path(0, 1))?.id == CardID(2))
    }

    /// Hovering asks the door what the drop would do; the drop is the door's edit: the same
    /// words for the same refusal, and asking changes nothing.
    @Test func theHoverAndTheDropAreTheSameDoor() {
        var b = board([[1, 2], [3]])
        b.columns[1].wipLimit = 1
        var doc = BoardDocument(board: b)
        let into = drop(1, to: 1, index: 0, anchor: 3)
        #expect(doc.refusal(of: into) == "column \"C1\" is full (WIP limit 1)")
        #expect(doc.board == b && !doc.history.canUndo)
        #expect(doc.perform(into) == doc.refusal(of: into))
        #expect(doc.board == b && !doc.history.canUndo)
        #expect(doc.edit(for: into) == .moveCards([CardID(1)], to: b.columns[1].id, at: .before(CardID(3), orIndex: 0)))
        let column = DropProposal(
            kind: .section, items: [b.columns[0].id.item],
            target: DropTarget(section: -1, index: 1, gap: 2, anchor: nil))
        #expect(doc.edit(for: column) == .moveColumn(b.columns[0].id, to: 1))
        #expect(doc.refusal(of: drop(1, to: 7, index: 0, anchor: nil)) == "the column is gone (deleted elsewhere)")
    }
}

func path(_ s: Int, _ i: Int) -> ItemPath { ItemPath(section: s, item: i) }

/// A drag's proposal of card `id` to `section` at final `index`, before card `anchor` (nil: the end).
func drop(_ id: UInt64, to section: Int, index: Int, anchor: UInt64?) -> DropProposal {
    DropProposal(
        items: [ItemID(id)],
        target: DropTarget(section: section, index: index, gap: index, anchor: anchor.map(ItemID.init)))
}
