import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Cards three rows high from row 2 in every column, as a plain layout would put them.
private struct EvenRows: CardRows {
    let board: Board

    func row(of path: ItemPath) -> Int {
        guard board.item(at: path) != nil else { return 0 }
        return 2 + 3 * path.item
    }

    func insertionIndex(in section: Int, atRow row: Int) -> Int {
        min(max(0, (row - 2) / 3), board.columns[section].cards.count)
    }
}

/// The board's own keys as a value: exact selection and outcome for exact actions.
@Suite struct BoardKeysTests {
    let board = sampleBoard()  // To do: a0 a1 a2 · Doing: b0 b1 · Done: (empty)

    func at(_ s: Int, _ i: Int) -> ItemPath { ItemPath(section: s, item: i) }

    /// Takes `action` from `selection`; the selection after and the outcome.
    func key(_ action: Action, from selection: ItemPath?, on board: Board? = nil, filter: String = "") -> (
        ItemPath?, BoardKeys.Outcome
    ) {
        let b = board ?? self.board
        var keys = BoardKeys(selection: selection)
        let outcome = keys.take(
            action, on: b, rows: EvenRows(board: b), filter: FilterMode(query: filter), keymap: Keymap())
        return (keys.selection, outcome)
    }

    func card(_ s: Int, _ i: Int, on b: Board? = nil) -> Card { (b ?? board)[at(s, i)] }

    @Test func sidewaysKeepsTheRowAndStopsAtTheEnds() {
        #expect(key(.right, from: at(0, 2)) == (at(1, 1), .show(section: 1)), "a2's row is past b1: the nearest is b1")
        #expect(key(.right, from: at(0, 1)) == (at(1, 1), .show(section: 1)))
        #expect(key(.right, from: at(1, 0)) == (at(2, -1), .show(section: 2)), "an empty column selects no card")
        #expect(key(.right, from: at(2, -1)) == (at(2, -1), .show(section: 2)))
        #expect(key(.left, from: at(2, -1)) == (at(1, 0), .show(section: 1)))
        #expect(key(.left, from: at(0, 1)) == (at(0, 1), .show(section: 0)), "the first column's left is itself")
        #expect(key(.left, from: nil, on: Board()) == (nil, .stay))
    }

    @Test func upAndDownStayInTheColumnAndFollowTheFilter() {
        #expect(key(.down, from: at(0, 0)) == (at(0, 1), .reveal))
        #expect(key(.up, from: at(0, 0)) == (at(0, 0), .reveal))
        #expect(key(.last, from: at(0, 0)) == (at(0, 2), .reveal))
        #expect(key(.first, from: at(0, 2)) == (at(0, 0), .reveal))
        #expect(key(.down, from: at(2, -1)) == (at(2, -1), .stay), "an empty column has nothing to select")
        #expect(key(.down, from: at(0, 0), filter: "a2") == (at(0, 2), .reveal), "down jumps to the next match")
        #expect(key(.down, from: at(0, 2), filter: "a2") == (at(0, 2), .reveal), "no match further: it stays")
        #expect(key(.up, from: at(7, 0)) == (at(2, -1), .stay), "a selection past the board is put back on it")
    }

    @Test func quickMovesAimAndTheSelectionFollowsTheCardAfterTheDoor() throws {
        let a1 = card(0, 1)
        let right = key(.moveRight, from: at(0, 1))
        #expect(right == (at(0, 1), .move(.moveCards([a1.id], to: board.columns[1].id, at: .index(1)), card: a1.id)))
        guard case .move(let edit, let id) = right.1 else { return }
        let after = try board.applying(edit).board
        var keys = BoardKeys(selection: at(0, 1))
        let moved = keys.moved(id, on: after)
        #expect(moved?.section == 1 && moved?.words == "Moved “a1” to Doing, position 2")
        #expect(keys.selection == at(1, 1))

        #expect(
            key(.moveDown, from: at(0, 0)) == (
                at(0, 0),
                .move(.moveCards([card(0, 0).id], to: board.columns[0].id, at: .index(1)), card: card(0, 0).id)
            ))
        #expect(key(.moveUp, from: at(0, 0)) == (at(0, 0), .stay), "the top card goes no higher")
        #expect(key(.moveDown, from: at(0, 2)) == (at(0, 2), .stay))
        #expect(key(.moveLeft, from: at(2, -1)) == (at(2, -1), .words("No card selected")))
    }

    /// Sideways, a column the card could not enter is skipped, as a keyboard drag skips it.
    @Test func quickMovesSkipAFullOrRefusingColumn() {
        var full = board
        full.columns[1].wipLimit = 2
        let a0 = card(0, 0)
        #expect(
            key(.moveRight, from: at(0, 0), on: full)
                == (at(0, 0), .move(.moveCards([a0.id], to: full.columns[2].id, at: .index(0)), card: a0.id)))
        var ruled = full
        ruled.acceptRules.setSources(["Doing"], for: "Done")
        #expect(
            key(.moveRight, from: at(0, 0), on: ruled)
                == (at(0, 0), .words("No column there takes the card (column \"Doing\" is full (WIP limit 2))")))
    }

    @Test func promptsOpenWithTheCardAsSeenAndItsText() {
        let a1 = card(0, 1), col = board.columns[0].id
        let seen = SeenCard(card: a1, column: col, columnIndex: 0, position: 1)
        #expect(key(.editTitle, from: at(0, 1)) == (at(0, 1), .prompt(PromptMode(.editTitle(seen), text: "a1"))))
        #expect(key(.setDue, from: at(0, 1)) == (at(0, 1), .prompt(PromptMode(.setDue(seen), text: ""))))
        #expect(
            key(.addBelow, from: at(0, 1))
                == (at(0, 1), .prompt(PromptMode(.addCard(column: col, index: 0, slot: .after(a1.id, orIndex: 2))))))
        #expect(
            key(.addTop, from: at(2, -1))
                == (at(2, -1), .prompt(PromptMode(.addCard(column: board.columns[2].id, index: 2, slot: .top)))))
        #expect(
            key(.addBelow, from: at(2, -1))
                == (at(2, -1), .prompt(PromptMode(.addCard(column: board.columns[2].id, index: 2, slot: .index(0))))))
        #expect(
            key(.renameColumn, from: at(1, 0)) == (
                at(1, 0), .prompt(PromptMode(.renameColumn(board.columns[1].id), text: "Doing"))
            ))
        #expect(
            key(.addColumn, from: at(1, 0))
                == (at(1, 0), .prompt(PromptMode(.addColumn(.after(board.columns[1].id, orIndex: 2))))))
        #expect(key(.filter, from: at(0, 0), filter: "a") == (at(0, 0), .prompt(PromptMode(.filter, text: "a"))))
        #expect(key(.addBelow, from: nil, on: Board()) == (nil, .words("Add a column first (A)")))
    }

    @Test func cardEditsGoToTheDoorAsEdits() {
        let b0 = card(1, 0)
        #expect(
            key(.deleteCard, from: at(1, 0)) == (at(1, 0), .send(.deleteCards([b0.id], seen: [b0]), undoHint: true)))
        #expect(
            key(.toggleSubtask, from: at(1, 0)) == (
                at(1, 0), .words("This card has no sub-tasks (E edits the whole card)")
            ))
        var withSub = board
        withSub[at(1, 0)].subtasks = [Subtask("s")]
        #expect(
            key(.toggleSubtask, from: at(1, 0), on: withSub) == (at(1, 0), .send(.tickSubtask(b0.id), undoHint: false)))
        #expect(key(.toggleMark, from: at(1, 0)) == (at(1, 0), .mark(b0.id)))
        #expect(
            key(.editExternal, from: at(1, 0))
                == (
                    at(1, 0),
                    .editExternally(SeenCard(card: b0, column: board.columns[1].id, columnIndex: 1, position: 0))
                ))
        #expect(
            key(.moveColumnRight, from: at(0, 2))
                == (at(0, 2), .moveColumn(.moveColumn(board.columns[0].id, to: 1), select: at(1, 2))))
        #expect(key(.moveColumnLeft, from: at(0, 2)) == (at(0, 2), .stay), "the first column goes no further left")
        for action in [Action.editTitle, .deleteCard, .setTags, .editExternal] {
            #expect(key(action, from: at(2, -1)) == (at(2, -1), .words("No card selected")))
        }
        #expect(key(.toggleMark, from: at(2, -1)) == (at(2, -1), .words("No card to mark")))
    }

    @Test func theAppsOwnActionsPassThrough() {
        for action in [Action.lift, .drop, .undo, .redo, .help, .quit, .nextPage, .toggleDone, .deleteColumn] {
            #expect(key(action, from: at(0, 0)) == (at(0, 0), .app(action)))
        }
    }
}
