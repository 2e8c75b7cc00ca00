import DragKit
@testable import LanesCore
import Testing

/// The door knows what the board's storage keeps of a card (`Board.capacity`), whoever asks:
/// no caller passes the format, so no caller can forget it.
@Suite struct DoorCapacityTests {
    static let noDone = "taskell files have no done mark: nothing changed (move the card to a done column instead)"

    static func board(_ capacity: CardCapacity) -> Board {
        Board(
            columns: [
                Column(title: "To do", cards: [Card(id: CardID(1), title: "a")]), Column(title: "Done", cards: []),
            ],
            capacity: capacity)
    }

    static func refusal(_ edit: BoardEdit, on board: Board) -> EditRefusal? {
        do { _ = try board.applying(edit); return nil } catch { return error }
    }

    @Test func aTaskellBoardRefusesEveryWayADoneMarkCouldArrive() throws {
        let b = Self.board(.taskell)
        let column = b.columns[0].id
        var done = Card(id: CardID(7), title: "finished")
        done.done = true
        #expect(Self.refusal(.setDone(CardID(1), true), on: b) == EditRefusal(.format, Self.noDone))
        var edited = b.columns[0].cards[0]
        edited.done = true
        #expect(Self.refusal(.replaceCard(edited, seen: nil), on: b)?.reason == .format)
        #expect(Self.refusal(.addCard(done, column: column, at: .end, fallbackColumn: 0), on: b)?.reason == .format)
        let arriving = Self.refusal(.receiveCards([done], to: column, position: nil, from: ["x"], board: "b.md"), on: b)
        #expect(
            arriving?.words
                == "“finished” is marked done and taskell files have no done mark: nothing changed (mark it not done first)"
        )
        // Marking not done is nothing a taskell file cannot keep.
        #expect(Self.refusal(.setDone(CardID(1), false), on: b) == nil)
    }

    @Test func everythingElseKeepsTheDoneMarkAsGiven() throws {
        let b = Self.board(.everything)
        let outcome = try b.applying(.setDone(CardID(1), true))
        #expect(outcome.board.columns[0].cards[0].done)
    }

    /// Lines a taskell file would not keep arrive as description lines (what it keeps), in order.
    @Test func extraLinesBecomeDescriptionLinesOnATaskellBoard() throws {
        var card = Card(id: CardID(9), title: "notes")
        card.descriptionLines = ["first"]
        card.extraLines = ["  indented", "", "plain"]
        for capacity in [CardCapacity.taskell, .everything] {
            let b = Self.board(capacity)
            let out = try b.applying(.receiveCards([card], to: b.columns[1].id, position: nil, from: ["x"], board: "b"))
            let arrived = out.board.columns[1].cards[0]
            if capacity == .taskell {
                #expect(arrived.extraLines.isEmpty && arrived.descriptionLines == ["first", "indented", "plain"])
            } else {
                #expect(arrived.extraLines == card.extraLines && arrived.descriptionLines == ["first"])
            }
        }
    }

    /// A board read from a file knows its file's capacity, and keeps it through a merge.
    @Test func readersSetTheCapacityAndMergesKeepIt() throws {
        let taskell = try BoardFormat.parse("## A\n\n- a\n", file: "t.md").board
        let obsidian = try BoardFormat.parse("---\n\nkanban-plugin: basic\n\n---\n\n## A\n\n- [ ] a\n", file: "o.md")
            .board
        #expect(taskell.capacity == .taskell && obsidian.capacity == .everything)
        let theirs = try taskell.applying(.setTitle(taskell.columns[0].cards[0].id, "b", seen: nil)).board
        let merged = BoardMerge.merge(base: taskell, ours: taskell, theirs: theirs).board
        #expect(merged.capacity == .taskell)
    }
}
