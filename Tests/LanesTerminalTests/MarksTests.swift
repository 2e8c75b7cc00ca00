import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The marks as a value: which cards are marked after exact toggles, clicks and board changes.
@Suite struct MarksTests {
    @Test func toggleMarksAndUnmarksAndCounts() {
        var m = Marks()
        #expect(m.toggle(CardID(1)) == "1 card marked: drag one to carry all · esc clears")
        #expect(m.toggle(CardID(2)) == "2 cards marked: drag one to carry all · esc clears")
        #expect(m.ids == [CardID(1), CardID(2)])
        #expect(m.toggle(CardID(1)) == "1 card marked: drag one to carry all · esc clears")
        #expect(m.toggle(CardID(2)) == "No cards marked")
        #expect(m.isEmpty)
    }

    @Test func clearSaysSoOnlyWhenSomethingWasMarked() {
        var m = Marks()
        #expect(m.clear() == nil)
        _ = m.toggle(CardID(4))
        #expect(m.clear() == "Marks cleared")
        #expect(m == Marks())
    }

    @Test func marksFollowTheCardsOnTheBoard() {
        var m = Marks()
        for id in [1, 4, 99] { _ = m.toggle(CardID(UInt64(id))) }
        var board = sampleBoard()
        board.columns[1].cards.swapAt(0, 1)  // moving a card keeps its mark
        m.prune(to: board)
        #expect(m.ids == [CardID(1), CardID(4)], "the card that is on no board loses its mark")
        board.columns[0].cards.remove(at: 0)
        m.prune(to: board)
        #expect(m.ids == [CardID(4)])
    }

    @Test func anAltOrCtrlPressMarksAndSwallowsItsDragAndRelease() {
        var m = Marks()
        let press = MouseEvent(.press, .left, x: 3, y: 4, modifiers: [.alt])
        #expect(
            m.take(press, card: CardID(2), dragging: false) == (
                true, "1 card marked: drag one to carry all · esc clears"
            ))
        #expect(m.markingClick)
        #expect(m.take(MouseEvent(.drag, .left, x: 9, y: 4), card: nil, dragging: false) == (true, nil))
        #expect(m.take(MouseEvent(.release, .left, x: 9, y: 4), card: nil, dragging: false) == (true, nil))
        #expect(!m.markingClick)
        #expect(m.ids == [CardID(2)])
        // Ctrl does the same; a press on no card marks nothing but still swallows the gesture.
        #expect(
            m.take(MouseEvent(.press, .left, x: 3, y: 4, modifiers: [.ctrl]), card: CardID(2), dragging: false)
                == (true, "No cards marked"))
        #expect(
            m.take(MouseEvent(.press, .left, x: 3, y: 4, modifiers: [.alt]), card: nil, dragging: false) == (true, nil))
        #expect(m.take(MouseEvent(.release, .left, x: 3, y: 4), card: nil, dragging: false) == (true, nil))
        #expect(m == Marks())
    }

    @Test func otherPointerInputIsNotTheMarks() {
        var m = Marks()
        #expect(
            m.take(MouseEvent(.press, .left, x: 3, y: 4), card: CardID(2), dragging: false) == (false, nil),
            "a plain press drags")
        #expect(
            m.take(MouseEvent(.press, .left, x: 3, y: 4, modifiers: [.shift]), card: CardID(2), dragging: false) == (
                false, nil
            ),
            "shift-click is the terminal's selection")
        #expect(
            m.take(MouseEvent(.press, .right, x: 3, y: 4, modifiers: [.alt]), card: CardID(2), dragging: false) == (
                false, nil
            ))
        #expect(
            m.take(MouseEvent(.press, .left, x: 3, y: 4, modifiers: [.alt]), card: CardID(2), dragging: true) == (
                false, nil
            ),
            "during a drag a press is the drag's")
        #expect(m.take(MouseEvent(.drag, .left, x: 3, y: 4), card: nil, dragging: false) == (false, nil))
        #expect(m.take(MouseEvent(.release, .left, x: 3, y: 4), card: nil, dragging: false) == (false, nil))
        #expect(m == Marks())
    }
}
