import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The prompt as a value: exact answers for exact keys, on a known board. It builds edits and
/// checks no board rule (a full column, an accept rule: the door's); only what the text says.
@Suite struct PromptModeTests {
    /// To do [a0 a1 a2] · Doing [b0 b1] · Done [].
    let board = sampleBoard()
    var todo: ColumnID { board.columns[0].id }
    var doing: ColumnID { board.columns[1].id }
    var done: ColumnID { board.columns[2].id }
    func seen(_ s: Int, _ i: Int) -> SeenCard {
        SeenCard(card: board.columns[s].cards[i], column: board.columns[s].id, columnIndex: s, position: i)
    }

    /// Types `text`, then Enter; every key before Enter answers `.editing`.
    func answer(_ purpose: PromptMode.Purpose, start: String = "", typing text: String) -> (
        PromptMode, PromptMode.Outcome
    ) {
        var p = PromptMode(purpose, text: start)
        for ch in text { #expect(p.handle(.char(ch), [], on: board) == .editing) }
        let outcome = p.handle(.enter, [], on: board, newCard: { CardID(900) }, newColumn: { ColumnID(901) })
        return (p, outcome)
    }

    @Test func addingACardSendsTheTrimmedTitleWithTheColumnByIdentity() {
        let purpose = PromptMode.Purpose.addCard(column: doing, index: 1, slot: .after(CardID(4), orIndex: 1))
        let (p, outcome) = answer(purpose, typing: "  new card ")
        #expect(p.editor.text == "  new card ")
        #expect(
            outcome
                == .submit(
                    .send(
                        .addCard(
                            Card(id: CardID(900), title: "new card"), column: doing,
                            at: .after(CardID(4), orIndex: 1), fallbackColumn: 1))))
    }

    @Test func anEmptyTitleAddsNothingAndSaysSo() {
        #expect(
            answer(.addCard(column: todo, index: 0, slot: .top), typing: " \t ").1
                == .submit(.nothing("Empty title: nothing added")))
        #expect(answer(.addColumn(.index(0)), typing: "").1 == .submit(.nothing("Empty title: nothing added")))
        #expect(answer(.editTitle(seen(0, 0)), typing: "  ").1 == .submit(.nothing("Empty title: kept the old one")))
        #expect(answer(.renameColumn(todo), typing: "").1 == .submit(.nothing("Empty title: kept the old one")))
    }

    @Test func editingATitleStartsFromItAndSendsWhatTheCardWasWhenThePromptOpened() {
        var p = PromptMode(.editTitle(seen(0, 1)), text: "a1")
        #expect(p.handle(.backspace, [], on: board) == .editing)
        #expect(p.editor.text == "a")
        #expect(p.handle(.char("X"), [], on: board) == .editing)
        #expect(p.handle(.enter, [], on: board) == .submit(.send(.setTitle(CardID(2), "aX", seen: seen(0, 1)))))
    }

    @Test func columnsByIdentity() {
        #expect(
            answer(.addColumn(.after(doing, orIndex: 2)), typing: "Review").1
                == .submit(.send(.addColumn(Column(id: ColumnID(901), title: "Review"), at: .after(doing, orIndex: 2))))
        )
        #expect(
            answer(.renameColumn(done), start: "Done", typing: "!").1 == .submit(.send(.renameColumn(done, "Done!"))))
    }

    @Test func aLimitIsANumberOrNothingAndTheDoorJudgesTheRest() {
        #expect(answer(.setLimit(doing), typing: " 3 ").1 == .submit(.send(.setWIPLimit(doing, 3))))
        #expect(answer(.setLimit(doing), typing: "").1 == .submit(.send(.setWIPLimit(doing, nil))))
        // Not a number: 0, which the door refuses with the words of what a limit is.
        #expect(answer(.setLimit(doing), typing: "three").1 == .submit(.send(.setWIPLimit(doing, 0))))
        #expect(answer(.setLimit(doing), typing: "-2").1 == .submit(.send(.setWIPLimit(doing, -2))))
    }

    @Test func dueAndTagsAreSentAsTyped() {
        #expect(
            answer(.setDue(seen(1, 0)), typing: "2026-12-01").1
                == .submit(.send(.setDue(CardID(4), "2026-12-01", seen: seen(1, 0)))))
        #expect(answer(.setDue(seen(1, 0)), typing: "").1 == .submit(.send(.setDue(CardID(4), "", seen: seen(1, 0)))))
        #expect(
            answer(.setTags(seen(1, 1)), typing: "#a  b ").1
                == .submit(.send(.setTags(CardID(5), ["#a", "b"], seen: seen(1, 1)))))
    }

    @Test func acceptRulesNameColumnsExactlyOrIgnoringCase() {
        #expect(
            answer(.setAccepts(done), typing: "doing, To do").1
                == .submit(.send(.setAcceptRule(done, from: [doing, todo]))))
        #expect(answer(.setAccepts(done), typing: "").1 == .submit(.send(.setAcceptRule(done, from: []))))
        #expect(
            answer(.setAccepts(done), typing: "Doing, Nowhere").1
                == .submit(.again("No column is called “Nowhere”: the rule is unchanged")))
        let twins = Board(columns: [
            Column(id: ColumnID(1), title: "ab"), Column(id: ColumnID(2), title: "AB"),
            Column(id: ColumnID(3), title: "C"),
        ])
        var p = PromptMode(.setAccepts(ColumnID(3)), text: "Ab")
        #expect(p.handle(.enter, [], on: twins) == .submit(.again("“Ab” could be ab or AB: write it exactly")))
        p = PromptMode(.setAccepts(ColumnID(3)), text: "AB")
        #expect(p.handle(.enter, [], on: twins) == .submit(.send(.setAcceptRule(ColumnID(3), from: [ColumnID(2)]))))
    }

    @Test func theAcceptPromptStartsFromTheRuleWithCommasQuoted() {
        var b = board
        #expect(PromptMode.acceptsText(for: done, on: b) == "")
        b.acceptRules.setSources(["Doing", "A, B", "\"q"], for: "Done")
        #expect(PromptMode.acceptsText(for: done, on: b) == "Doing, \"A, B\", \"\\\"q\"")
        #expect(PromptMode.splitNames(PromptMode.acceptsText(for: done, on: b)) == ["Doing", "A, B", "\"q"])
        #expect(PromptMode.splitNames(" a , \"b \\\"c\\\", d\" ,, e") == ["a", "b \"c\", d", "e"])
    }

    @Test func theFilterAndTheCopyPathAreAnswersNotEdits() {
        #expect(answer(.filter, typing: "  #bug x ").1 == .submit(.filter("#bug x")))
        #expect(answer(.filter, start: "old", typing: "").1 == .submit(.filter("old")))
        #expect(answer(.saveCopy, start: "/tmp/copy.md", typing: " ").1 == .submit(.saveCopy("/tmp/copy.md")))
        // No path: asked again (the prompt stays open), never a quiet close.
        #expect(
            answer(.saveCopy, typing: "  ").1 == .submit(.again("Type the path to write the copy to (esc: not now)")))
    }

    @Test func escCancelsAndKeepsNothingElse() {
        var p = PromptMode(.addCard(column: todo, index: 0, slot: .top))
        #expect(p.handle(.char("x"), [], on: board) == .editing)
        #expect(p.handle(.escape, [], on: board) == .cancel)
        #expect(p.editor.text == "x")
    }

    @Test func aPasteBecomesOneLineWithWordsAboveThePrompt() {
        var p = PromptMode(.addCard(column: todo, index: 0, slot: .end))
        p.paste("one\ntwo")
        #expect(p.editor.text == "one two")
        #expect(p.editor.note == "Pasted text: 1 line break became a space (a title or name is one line)")
        #expect(
            p.handle(.enter, [], on: board, newCard: { CardID(7) })
                == .submit(
                    .send(.addCard(Card(id: CardID(7), title: "one two"), column: todo, at: .end, fallbackColumn: 0))))
    }

    @Test func eachPromptSaysWhatItAsks() {
        let labels = [
            PromptMode.Purpose.addCard(column: todo, index: 0, slot: .top), .editTitle(seen(0, 0)),
            .addColumn(.index(0)),
            .renameColumn(todo), .setLimit(todo), .setAccepts(todo), .setDue(seen(0, 0)), .setTags(seen(0, 0)),
            .filter, .saveCopy,
        ].map { PromptMode($0).label }
        #expect(
            labels == [
                "New card: ", "Title: ", "New column: ", "Column title: ", "WIP limit (empty for none): ",
                "Accepts from (names, commas; empty = any): ", "Due date (empty clears): ", "Tags: ", "Filter: ",
                "Save a copy to: ",
            ])
    }
}
