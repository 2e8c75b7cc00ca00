import Testing
@testable import LanesTerminal

/// The status line: a message wider than the screen wraps onto the rows above; none is cut mid-word.
struct StatusLineTests {
    @Test func aShortMessageTakesOneRow() {
        #expect(BoardView.statusLines("Saved", width: 40, height: 10) == [" Saved"])
    }

    @Test func aLongMessageWrapsAtWordsAndKeepsEveryWord() {
        let message = "NOT SAVED — r retry · s save a copy · d quit, discard · esc stay — board.md is read-only"
        let rows = BoardView.statusLines(message, width: 40, height: 24)
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { TextWidth.width(of: $0) <= 40 && $0.hasPrefix(" ") })
        #expect(rows.map { $0.dropFirst() }.joined(separator: " ") == message)
    }

    @Test func everyRowButTheTitleThenCutWithAnEllipsis() {
        let fits = Array(repeating: "word", count: 30).joined(separator: " ")  // 149 cells: 9 rows of 19
        #expect(
            BoardView.statusLines(fits, width: 20, height: 10).map { $0.dropFirst() }.joined(separator: " ") == fits)
        let message = Array(repeating: "word", count: 200).joined(separator: " ")
        let rows = BoardView.statusLines(message, width: 20, height: 10)
        #expect(rows.count == 9)
        #expect(rows.last?.hasSuffix("…") == true)
    }

    @Test func aPromptIsNotWrapped() {
        let rows = BoardView.statusLines(String(repeating: "x", count: 50), width: 20, height: 10, wraps: false)
        #expect(rows.count == 1)
    }
}
