import DragKit
import Testing
@testable import LanesCore

/// The `flow` line of the `.NAME.lanes` settings file: parsed, written back with comments kept,
/// following column renames and deletions, merged like the rest of the board.
@Suite("Flow: the flow setting in the settings file")
struct FlowSettingTests {
    @Test("parsed beside accept rules; comments and the line's own comment kept on rewrite")
    func parseAndRewrite() throws {
        let text = "# ours\naccept \"Done\" from \"Review\"\nflow started \"In progress\" done \"Done\"  # agreed\n"
        var rules = try AcceptRules.parse(Array(text.utf8), file: ".b.md.lanes")
        #expect(rules.flow == FlowColumns(started: "In progress", done: "Done"))
        #expect(rules.serialized() == text)
        // A bare word is a name too (written back quoted, like accept rules).
        #expect(try AcceptRules.parse(Array("flow done Done\n".utf8), file: "x").flow == FlowColumns(done: "Done"))
        rules.flow.done = "Shipped"
        #expect(
            rules.serialized()
                == "# ours\naccept \"Done\" from \"Review\"\nflow started \"In progress\" done \"Shipped\"  # agreed\n")
        rules.flow = FlowColumns()
        #expect(rules.serialized() == "# ours\naccept \"Done\" from \"Review\"\n")
        var fresh = AcceptRules()
        fresh.flow = FlowColumns(started: "Doing")
        #expect(fresh.serialized() == AcceptRules.header + "\nflow started \"Doing\"\n")
        #expect(!fresh.isDisposable && fresh.isEmpty)
    }

    @Test(
        "bad flow lines are refused with file and line",
        arguments: [
            (
                "flow\n",
                ".x.lanes:1: flow names no column: write flow started \"COLUMN\" done \"COLUMN\", or remove the line"
            ),
            (
                "flow begun \"A\"\n",
                ".x.lanes:1: expected started \"COLUMN\" or done \"COLUMN\" after flow, found \"flow begun \"A\"\""
            ),
            ("flow done \"A\"\nflow done \"B\"\n", ".x.lanes:2: a second flow line (the first is on line 1); keep one"),
            ("flow done\n", ".x.lanes:1: expected the column's name after done"),
        ])
    func refused(text: String, message: String) {
        #expect(throws: ParseError.self) { try AcceptRules.parse(Array(text.utf8), file: ".x.lanes") }
        do {
            _ = try AcceptRules.parse(Array(text.utf8), file: ".x.lanes")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test("a renamed column keeps its meaning; a deleted one falls back to the default")
    func renameAndDelete() {
        var board = Board(columns: [Column(title: "To do"), Column(title: "Doing"), Column(title: "Done")])
        board.acceptRules.flow = FlowColumns(started: "Doing", done: "Done")
        board.renameColumn(at: 1, to: "In progress")
        #expect(board.acceptRules.flow == FlowColumns(started: "In progress", done: "Done"))
        board.removeColumn(at: 2)
        #expect(board.acceptRules.flow == FlowColumns(started: "In progress", done: nil))
        #expect(
            FlowMetrics.columnStages(titles: board.columns.map(\.title), setting: board.acceptRules.flow) == [
                .notStarted, .done,
            ])
    }

    @Test(
        "what the setting means for the columns",
        arguments: [
            (["A", "B", "C", "D"], FlowColumns(), [FlowStage.notStarted, .inProgress, .inProgress, .done]),
            (["A", "B", "C", "D"], FlowColumns(started: "C"), [.notStarted, .notStarted, .inProgress, .done]),
            (["A", "B", "C", "D"], FlowColumns(done: "C"), [.notStarted, .inProgress, .done, .done]),
            (["A", "B", "C", "D"], FlowColumns(started: "B", done: "B"), [.notStarted, .done, .done, .done]),
            (["A", "B"], FlowColumns(), [.notStarted, .done]),
            (["A"], FlowColumns(), [.notStarted]),
            (["A", "B", "C"], FlowColumns(started: "gone", done: "gone"), [.notStarted, .inProgress, .done]),
        ])
    func stages(titles: [String], setting: FlowColumns, want: [FlowStage]) {
        #expect(FlowMetrics.columnStages(titles: titles, setting: setting) == want)
    }

    @Test("a flow setting changed by another writer is merged in, never reverted")
    func merge() throws {
        let base = Board(columns: [
            Column(title: "A", cards: [Card(id: CardID(1), title: "x")]), Column(title: "B"), Column(title: "C"),
        ])
        var theirs = base
        theirs.acceptRules.flow = FlowColumns(done: "B")
        var ours = base
        ours.columns[0].cards.append(Card(id: CardID(2), title: "y"))
        let merged = BoardMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged.board.acceptRules.flow == FlowColumns(done: "B"))
        #expect(merged.board.cardCount == 2)
    }
}
