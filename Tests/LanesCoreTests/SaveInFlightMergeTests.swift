import DragKit
import Testing
@testable import LanesCore

/// A screen whose save is on its way takes in a board another writer stored, then its save's
/// answer: the answer is absorbed from the save with what came in merged in (as `Runner` keeps its
/// save in flight), so the screen shows the store's order and has nothing left to save (41.11).
@Suite("A save's answer is absorbed from the save with what came in meanwhile merged in")
struct SaveInFlightMergeTests {
    /// Review: X, Y; Done: W.
    let s0 = try! BoardFormat.parse("## Review\n\n- X\n- Y\n\n## Done\n\n- W\n", file: "board.md").board

    func titles(_ board: Board) -> [[String]] { board.columns.map { $0.cards.map(\.title) } }

    func card(_ board: Board, _ title: String) -> CardID {
        board.columns.flatMap(\.cards).first { $0.title == title }!.id
    }

    /// Bob's W moved to the top of Review; alice's A2 and A1 added at the top of her Review (sent);
    /// the store's answer puts hers after W, above X (where the PostgreSQL store places them).
    func boards() throws -> (s1: Board, sent: Board, s2: Board) {
        let review = s0.columns[0].id
        let s1 = try s0.applying(.moveCards([card(s0, "W")], to: review, at: .top)).board
        var sent = s0
        for title in ["A1", "A2"] {
            sent = try sent.applying(
                .addCard(Card(id: .fresh(), title: title), column: review, at: .top, fallbackColumn: 0)
            ).board
        }
        var s2 = s1
        s2.columns[0].cards.insert(contentsOf: sent.columns[0].cards.prefix(2), at: 1)
        return (s1, sent, s2)
    }

    @Test func fromTheSaveAsSentTheScreenKeepsTheMergesOrderAndWouldSaveIt() throws {
        let (s1, sent, s2) = try boards()
        var doc = BoardDocument(board: sent)
        doc.absorb(stored: s1, base: s0)
        // The merge orders the two runs put at the top by content: alice's first.
        #expect(titles(doc.board) == [["A2", "A1", "W", "X", "Y"], []])
        doc.absorb(stored: s2, base: sent)
        // What came in counts as the document's own change: its order stays, unlike the store's.
        #expect(titles(doc.board) == [["A2", "A1", "W", "X", "Y"], []])
        #expect(titles(s2) == [["W", "A2", "A1", "X", "Y"], []])
    }

    @Test func fromTheSaveWithWhatCameInTheScreenShowsWhatIsStored() throws {
        let (s1, sent, s2) = try boards()
        var doc = BoardDocument(board: sent)
        let inFlight = BoardMerge.merge(base: s0, ours: sent, theirs: s1).board
        doc.absorb(stored: s1, base: s0)
        #expect(inFlight == doc.board)
        let taken = doc.absorb(stored: s2, base: inFlight)
        #expect(taken.conflicts.isEmpty)
        #expect(doc.board == s2)
    }

    @Test func anEditMadeAfterSendingStaysOnTopOfWhatIsStored() throws {
        let (s1, sent, s2) = try boards()
        var doc = BoardDocument(board: sent)
        try doc.apply(.setTitle(card(sent, "Y"), "Y2", seen: nil))
        let inFlight = BoardMerge.merge(base: s0, ours: sent, theirs: s1).board
        doc.absorb(stored: s1, base: s0)
        doc.absorb(stored: s2, base: inFlight)
        #expect(titles(doc.board) == [["W", "A2", "A1", "X", "Y2"], []])
    }
}
