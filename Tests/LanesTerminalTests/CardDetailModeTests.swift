import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The card detail as a value: exact state and outcome for exact keys and clicks, on a card with
/// six sub-tasks seen through five rows. It asks for edits; whether they are allowed (a taskell
/// file's done mark) is the door's.
@Suite struct CardDetailModeTests {
    let keymap = Keymap()
    static let card = Card(id: CardID(7), title: "Ship it", subtasks: (0..<6).map { Subtask("s\($0)", done: $0 == 1) })
    let page: CardDetail.Page = {
        let content = CardDetailView.content(card: card, column: "Doing", storesDoneMark: true, width: 36)
        return CardDetail.Page(card: card, content: content, rows: 5)
    }()

    func key(_ k: Key, _ mods: Modifiers = [], from start: CardDetail) -> (CardDetail, CardDetail.Outcome) {
        var d = start
        let outcome = d.handle(k, mods, keymap: keymap, page: page)
        return (d, outcome)
    }

    func at(_ scroll: Int, _ cursor: Int) -> CardDetail { CardDetail(id: CardID(7), scroll: scroll, cursor: cursor) }

    @Test func theContentIsWhatTheTestsCount() {
        #expect(page.content.count == 16)
        #expect(page.content.firstIndex { $0.subtask == 0 } == 10)
        #expect(page.content.last?.subtask == 5)
    }

    @Test func downScrollsUntilTheSubTasksShowThenChoosesThem() {
        #expect(key(.down, from: at(0, 0)) == (at(6, 0), .stay), "the first sub-task comes into the last row")
        #expect(key(.down, from: at(6, 0)) == (at(7, 1), .stay), "the next one is chosen and kept in sight")
        #expect(key(.char("j"), from: at(11, 5)) == (at(11, 5), .stay), "nothing past the last")
    }

    @Test func upChoosesTheSubTaskAboveThenScrolls() {
        #expect(key(.up, from: at(7, 1)) == (at(7, 0), .stay))
        #expect(key(.char("k"), from: at(7, 0)) == (at(6, 0), .stay))
        #expect(key(.up, from: at(0, 0)) == (at(0, 0), .stay), "nothing above the top")
    }

    @Test func pagesKeepTheChosenSubTaskInSightOrChooseTheNearestShown() {
        #expect(key(.home, from: at(6, 0)) == (at(0, 0), .stay), "none shown: the choice stays")
        #expect(key(.end, from: at(0, 0)) == (at(11, 1), .stay), "the first shown is chosen")
        #expect(key(.pageUp, from: at(11, 5)) == (at(7, 1), .stay), "the last shown is chosen")
        #expect(key(.pageDown, from: at(0, 0)) == (at(4, 0), .stay))
        #expect(key(.char("G"), from: at(0, 0)) == (at(11, 1), .stay), "the keymap's last key")
    }

    @Test func spaceAndTTickTheChosenSubTask() {
        #expect(key(.char(" "), from: at(8, 2)) == (at(8, 2), .send(.setSubtaskDone(CardID(7), index: 2, done: true))))
        #expect(key(.char("t"), from: at(8, 1)) == (at(8, 1), .send(.setSubtaskDone(CardID(7), index: 1, done: false))))
    }

    @Test func aCardWithoutSubTasksSaysSoAndScrollsNothing() {
        let plain = Card(id: CardID(8), title: "Plain")
        let p = CardDetail.Page(
            card: plain, content: CardDetailView.content(card: plain, column: "A", storesDoneMark: true, width: 36),
            rows: 20)
        var d = CardDetail(id: CardID(8))
        #expect(
            d.handle(.char(" "), [], keymap: keymap, page: p)
                == .say("This card has no sub-tasks (E edits the whole card)"))
        #expect(d.handle(.down, [], keymap: keymap, page: p) == .stay)
        #expect(d == CardDetail(id: CardID(8)))
    }

    @Test func editsAndPromptsAreAskedOfTheApp() {
        #expect(key(.char("x"), from: at(8, 2)) == (at(8, 2), .send(.setDone(CardID(7), true))))
        #expect(key(.char("e"), from: at(8, 2)) == (at(8, 2), .perform(.editTitle)))
        #expect(key(.char("@"), from: at(8, 2)) == (at(8, 2), .perform(.setDue)))
        #expect(key(.char("#"), from: at(8, 2)) == (at(8, 2), .perform(.setTags)))
        #expect(key(.char("u"), from: at(8, 2)) == (at(8, 2), .perform(.undo)))
        #expect(key(.char("r"), [.ctrl], from: at(8, 2)) == (at(8, 2), .perform(.redo)))
        #expect(key(.char("E"), from: at(8, 2)) == (at(8, 2), .effect(.editExternally(CardID(7)))))
    }

    @Test func closingKeysCloseAndBoardKeysDoNothingHere() {
        for k in [Key.escape, .enter, .char("q"), .char("?")] {
            #expect(key(k, from: at(8, 2)) == (at(8, 2), .close), "\(k)")
        }
        for k in [Key.char("a"), .char("d"), .char("D"), .char("Z"), .char("L")] {
            #expect(key(k, from: at(8, 2)) == (at(8, 2), .stay), "\(k)")
        }
    }

    @Test func theMouseScrollsChoosesAndCloses() {
        let box = Rect(x: 2, y: 1, width: 40, height: 7)
        var d = at(8, 2)
        // Content line 13 (sub-task 3) is on row 1 + 1 + (13 - 8).
        #expect(d.handle(MouseEvent(.press, .left, x: 10, y: 7), keymap: keymap, page: page, box: box) == .stay)
        #expect(d == at(8, 3))
        #expect(
            d.handle(MouseEvent(.press, .left, x: 10, y: 3), keymap: keymap, page: page, box: box) == .stay,
            "a line that is no sub-task")
        #expect(d == at(8, 3))
        #expect(d.handle(MouseEvent(.wheelUp, .none, x: 10, y: 3), keymap: keymap, page: page, box: box) == .stay)
        #expect(d == at(4, 3), "a page up; no sub-task shown, the choice stays")
        #expect(d.handle(MouseEvent(.press, .left, x: 50, y: 3), keymap: keymap, page: page, box: box) == .close)
        #expect(d.handle(MouseEvent(.press, .right, x: 50, y: 3), keymap: keymap, page: page, box: box) == .stay)
    }
}
