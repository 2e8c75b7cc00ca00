import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The questions as values: each key's exact outcome, and the words on the status line.
@Suite struct ConfirmModeTests {
    let board = sampleBoard()
    var todo: Column { board.columns[0] }

    @Test func deletingAColumnTakesYOnlyAndNamesTheCardsItSaw() {
        let q = ConfirmMode.deleteColumn(todo.id, seen: todo.cards.map(\.id))
        #expect(
            q.answer(.char("y"), copyPath: "")
                == .send(.deleteColumn(todo.id, seen: [CardID(1), CardID(2), CardID(3)])))
        for key in [Key.char("n"), .char("Y"), .escape, .enter, .char("q")] {
            #expect(q.answer(key, copyPath: "") == .close("Kept the column"), "\(key)")
        }
        #expect(q.words(on: board) == "Delete column “To do” and its 3 cards? y/n")
    }

    @Test func aColumnGoneMeanwhileLeavesNoQuestionWords() {
        let q = ConfirmMode.deleteColumn(ColumnID(999), seen: [])
        #expect(q.words(on: board) == nil)
        // The door answers a "y" for it (the column is gone); the question only asks.
        #expect(q.answer(.char("y"), copyPath: "") == .send(.deleteColumn(ColumnID(999), seen: [])))
    }

    @Test func quittingUnsavedOffersRetryCopyDiscardOrStay() {
        let q = ConfirmMode.quitUnsaved("disk full")
        #expect(q.words(on: board) == "NOT SAVED — r retry · s save a copy · d quit, discard · esc stay — disk full")
        #expect(q.answer(.char("r"), copyPath: "/rec/a.md") == .effect(.retrySaveAndQuit, "Saving again…"))
        #expect(q.answer(.char("s"), copyPath: "/rec/a.md") == .prompt(PromptMode(.saveCopy, text: "/rec/a.md")))
        #expect(q.answer(.char("d"), copyPath: "/rec/a.md") == .effectAndStay(.quitDiscarding))
        #expect(q.answer(.escape, copyPath: "") == .close("Not quitting. NOT SAVED: disk full"))
        #expect(q.answer(.char("n"), copyPath: "") == .close("Not quitting. NOT SAVED: disk full"))
        for key in [Key.char("y"), .char("q"), .enter, .char("R")] {
            #expect(q.answer(key, copyPath: "") == .stay, "\(key)")
        }
    }

    @Test func theReasonReachesTheScreenWithoutControlSequences() {
        let q = ConfirmMode.quitUnsaved("bad \u{1b}[31mred")
        #expect(q.words(on: board)?.contains("\u{1b}") == false)
        #expect(q.answer(.escape, copyPath: "") != .close("Not quitting. NOT SAVED: bad \u{1b}[31mred"))
    }
}
