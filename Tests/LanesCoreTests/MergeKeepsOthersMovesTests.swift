import Testing
import DragKit
@testable import LanesCore

/// A move stored by one writer survives another writer's save made from an older view.
@Suite("Board merge: another writer's move is never put back")
struct MergeKeepsOthersMovesTests {
    let base = try! BoardFormat.parse(
        """
        ## Review

        - a
        - b
        - c

        ## Done

        - x

        """, file: "board.md"
    ).board

    func id(_ board: Board, _ title: String) -> CardID {
        board.columns.flatMap(\.cards).first { $0.title == title }!.id
    }

    func titles(_ board: Board) -> [[String]] { board.columns.map { $0.cards.map(\.title) } }

    @Test(arguments: [CardSlot.top, .end, .index(1), .index(2)])
    func anInsertFromAnOlderViewKeepsTheMove(slot: CardSlot) throws {
        let review = base.columns[0].id, done = base.columns[1].id
        let b = id(base, "b")
        let theirs = try base.applying(.moveCards([b], to: done, at: .end)).board
        let ours = try base.applying(
            .addCard(Card(id: .fresh(), title: "new"), column: review, at: slot, fallbackColumn: 0)
        ).board
        let r = BoardMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(r.conflicts.isEmpty)
        #expect(titles(r.board)[1] == ["x", "b"])
        #expect(!titles(r.board)[0].contains("b"))
    }
}
