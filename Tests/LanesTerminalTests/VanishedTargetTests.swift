import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Prompts hold identities: when another writer deletes, renames or inserts meanwhile, the
/// answer still means what was on screen, or is answered in words, and what was typed is kept.
@Suite("Prompts whose card or column vanished")
struct VanishedTargetTests {
    /// Another writer's change arrives (as the storage worker hands it in).
    static func elsewhere(_ d: inout AppDriver, _ change: (inout Board) -> Void) {
        let base = d.app.board
        var theirs = base
        change(&theirs)
        d.app.absorb(stored: theirs, base: base)
    }

    static func all(_ b: Board) -> [String] { b.columns.flatMap { $0.cards.map(\.title) } }

    @Test func anEditedTitleBringsADeletedCardBack() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("j"))
        d.key(.char("e"))
        d.key(.char("u"), [.ctrl])
        d.type("a1 rewritten")
        Self.elsewhere(&d) { $0.columns[0].cards.remove(at: 1) }
        #expect(!Self.all(d.app.board).contains("a1"))
        d.key(.enter)
        #expect(d.app.board.columns[0].cards.map(\.title) == ["a0", "a1 rewritten", "a2"])
        #expect(d.app.status == "“a1” was deleted elsewhere: brought back in “To do” with your change")
        d.key(.char("u"))
        #expect(
            d.app.board.columns[0].cards.map(\.title) == ["a0", "a2"], "undo takes back only what this session did")
    }

    @Test func aDueDateAndTagsBringADeletedCardBackToo() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("@"))
        d.type("2026-05-01")
        Self.elsewhere(&d) { $0.columns[0].cards.remove(at: 0) }
        d.key(.enter)
        #expect(d.app.board.columns[0].cards.first?.due == "2026-05-01")
        #expect(d.app.status.hasPrefix("“a0” was deleted elsewhere: brought back"))
        d.key(.char("g"))
        d.key(.char("#"))
        d.type("#urgent")
        Self.elsewhere(&d) { $0.columns[0].cards.remove(at: 0) }
        d.key(.enter)
        #expect(Self.all(d.app.board).contains("a0 #urgent"))
    }

    @Test func aCardTypedForADeletedColumnLandsInTheOneThatTookItsPlace() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l"))
        d.key(.char("a"))
        d.type("typed card")
        Self.elsewhere(&d) { $0.columns.remove(at: 1) }
        d.key(.enter)
        #expect(d.app.board.columns.map(\.title) == ["To do", "Done"])
        #expect(d.app.board.columns[1].cards.map(\.title) == ["typed card"])
        #expect(d.app.status == "Its column was deleted elsewhere: added the card to “Done”")
    }

    @Test func aCardTypedWhenTheLastColumnWentLandsInTheFirst() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l")); d.key(.char("l"))
        d.key(.char("O"))
        d.type("typed card")
        Self.elsewhere(&d) { $0.columns.remove(at: 2) }
        d.key(.enter)
        #expect(d.app.board.columns[0].cards.last?.title == "typed card")
        #expect(d.app.status == "Its column was deleted elsewhere: added the card to “To do”")
    }

    @Test func aRenameOfADeletedColumnIsRefusedAndKeepsTheText() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l"))
        d.key(.char("R"))
        d.key(.char("u"), [.ctrl])
        d.type("In progress")
        Self.elsewhere(&d) { $0.columns.remove(at: 1) }
        d.key(.enter)
        #expect(d.app.status == "The column is gone (deleted elsewhere)")
        #expect(d.screen().contains("Column title: In progress"), "the prompt is open again with the text")
        #expect(d.app.board.columns.map(\.title) == ["To do", "Done"])
    }

    @Test func aLimitOrRuleForADeletedColumnIsRefusedAndKeepsTheText() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l"))
        d.key(.char("W"))
        d.type("4")
        Self.elsewhere(&d) { $0.columns.remove(at: 1) }
        d.key(.enter)
        #expect(d.app.status == "The column is gone (deleted elsewhere)")
        #expect(d.screen().contains("WIP limit (empty for none): 4"))
        d.key(.escape)
        d.key(.char("F"))
        d.type("To do")
        Self.elsewhere(&d) { $0.columns.remove(at: 1) }
        d.key(.enter)
        #expect(d.app.status == "The column is gone (deleted elsewhere)")
        #expect(d.screen().contains("Accepts from (names, commas; empty = any): To do"))
        #expect(d.app.board.acceptRules.isEmpty)
    }

    @Test func renameRenamesTheColumnOnScreenAfterAnotherWriterInsertsOne() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l"))
        d.key(.char("R"))
        d.key(.char("u"), [.ctrl])
        d.type("In progress")
        Self.elsewhere(&d) { $0.columns.insert(Column(title: "Inbox"), at: 0) }
        d.key(.enter)
        #expect(d.app.board.columns.map(\.title) == ["Inbox", "To do", "In progress", "Done"])
    }

    @Test func aColumnDeletionAskedAboutIsRefusedWhenACardArrivedMeanwhile() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l"))
        d.key(.char("D"))
        Self.elsewhere(&d) { $0.columns[1].cards.append(Card(id: CardID(99), title: "theirs")) }
        d.key(.char("y"))
        #expect(d.app.board.columns.map(\.title) == ["To do", "Doing", "Done"])
        #expect(d.app.status == "Not deleted: a card was added to “Doing” elsewhere meanwhile")
    }

    @Test func scrollPositionsFollowTheirColumns() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        let doing = d.app.board.columns[1].id
        d.app.viewport.offsets[doing] = 1
        Self.elsewhere(&d) { $0.columns.insert(Column(title: "Inbox"), at: 0) }
        #expect(d.app.viewport.offsets[doing] != nil)
        #expect(d.app.scroll.count == 4 && d.app.scroll[0] == 0)
    }

    // MARK: Undo over others' changes

    @Test func undoAfterAnotherWriterEditedAndMovedTheCardMakesNoCopy() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("e")); d.key(.char("u"), [.ctrl]); d.type("mine"); d.key(.enter)
        Self.elsewhere(&d) { b in
            var card = b.columns[0].cards.remove(at: 0)
            card.title = "theirs"
            b.columns[2].cards.append(card)
        }
        d.key(.char("u"))
        #expect(
            Self.all(d.app.board).sorted() == ["a1", "a2", "b0", "b1", "theirs"], "no second copy, their title kept")
        #expect(d.app.status.hasPrefix("Nothing to undo of edit title"))
    }

    @Test func repeatedUndoAndRedoNeverGrowATitle() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("e")); d.key(.char("u"), [.ctrl]); d.type("b"); d.key(.enter)
        Self.elsewhere(&d) { $0.columns[0].cards[0].title = "c" }
        for _ in 0..<10 {
            d.key(.char("u"))
            d.key(.char("r"), [.ctrl])
        }
        #expect(d.app.board.columns[0].cards[0].title == "c")
        #expect(Self.all(d.app.board).count == 5)
    }

    @Test func undoOfADeleteBringsTheCardBackOnceWherever() {
        var d = AppDriver(board: sampleBoard(), width: 100)
        d.key(.char("l")); d.key(.char("d"))
        Self.elsewhere(&d) { $0.columns.remove(at: 1) }
        d.key(.char("u"))
        #expect(Self.all(d.app.board).filter { $0 == "b0" }.count == 1)
        #expect(d.app.board.columns.map(\.title) == ["To do", "Done"], "their deletion of the column stands")
        d.key(.char("r"), [.ctrl])
        d.key(.char("u"))
        #expect(Self.all(d.app.board).filter { $0 == "b0" }.count == 1)
    }
}
