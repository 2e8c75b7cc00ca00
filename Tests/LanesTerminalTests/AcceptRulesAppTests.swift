import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

// The sample board at 80×16: To do (x 0–25: a0 rows 3–5, a1 6–8, a2 9–11), Doing (x 27–52: b0, b1),
// Done (x 54–79, empty).

/// The sample board with accept rules in the sidecar's syntax.
private func ruledBoard(_ rules: String) throws -> Board {
    var b = sampleBoard()
    b.acceptRules = try AcceptRules.parse(Array(rules.utf8), file: "rules")
    return b
}

private func row(_ screen: String, _ y: Int) -> String {
    screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[y]
}

@Suite struct AcceptRulesMouseTests {
    @Test func aColumnWhoseRuleRefusesSaysWhyAndTheReleaseSnapsBack() throws {
        let board = try ruledBoard("accept Done from Doing\n")
        var d = AppDriver(board: board)
        d.drag([(5, 4), (30, 5), (60, 5)], release: false)
        #expect(
            d.app.coordinator.session?.hover
                == .refused(
                    section: 2, because: "column \"Done\" accepts cards only from \"Doing\", not from \"To do\""))
        #expect(d.app.status == "Column \"Done\" accepts cards only from \"Doing\", not from \"To do\"")
        let header = row(d.screen(), 1)
        #expect(header.hasSuffix("Done 0 ✕"), "refused, and not called full:\n\(header)")
        // Back over Doing the usual words return.
        d.mouse(.drag, 32, 8)
        #expect(d.app.status == "Over Doing, position 3 of 3")
        d.mouse(.drag, 60, 5)
        #expect(d.app.status == "Column \"Done\" accepts cards only from \"Doing\", not from \"To do\"")
        d.mouse(.release, 60, 5)
        #expect(d.app.board == board)
        #expect(d.app.revision == 0)
        #expect(
            d.app.status == "“a0” back in To do: column \"Done\" accepts cards only from \"Doing\", not from \"To do\"")
        #expect(d.app.selection == ItemPath(section: 0, item: 0))
    }

    @Test func aCardFromAListedColumnIsDropped() throws {
        var d = AppDriver(board: try ruledBoard("accept Done from Doing\n"))
        d.drag([(30, 4), (45, 5), (60, 5)])
        #expect(titles(d.app.board) == [["a0", "a1", "a2"], ["b1"], ["b0"]])
        #expect(d.app.status == "Dropped “b0” in Done at position 1")
        #expect(d.app.revision == 1)
    }

    @Test func reorderingInsideARuledColumnIsAlwaysAllowed() throws {
        // To do takes nothing from anywhere but itself ("Nowhere" is no column).
        var d = AppDriver(board: try ruledBoard("accept \"To do\" from Nowhere\n"))
        d.drag([(5, 4), (5, 8), (5, 10)])
        #expect(titles(d.app.board)[0] == ["a1", "a2", "a0"])
        d.drag([(30, 4), (15, 5), (5, 5)], release: false)
        #expect(d.app.status.hasPrefix("Column \"To do\" accepts cards only from \"Nowhere\" (no such column), not"))
        d.mouse(.release, 5, 5)
        #expect(titles(d.app.board)[0] == ["a1", "a2", "a0"])
    }

    @Test func aFullColumnThatTheRuleAllowsStillSaysItIsFull() throws {
        var board = try ruledBoard("accept Doing from \"To do\"\n")
        board.columns[1].wipLimit = 2
        var d = AppDriver(board: board)
        d.drag([(5, 4), (32, 7)], release: false)
        #expect(d.app.status == "Column \"Doing\" is full (WIP limit 2)")
        d.mouse(.release, 32, 7)
        #expect(d.app.board == board)
    }
}

@Suite struct AcceptRulesKeyboardTests {
    @Test func aLiftedCardSkipsAColumnWhoseRuleRefuses() throws {
        var d = AppDriver(board: try ruledBoard("accept Doing from Done\n"))
        d.key(.char(" "))
        d.key(.right)
        #expect(d.app.coordinator.session?.hover.target?.section == 2)
        d.key(.left)
        #expect(d.app.coordinator.session?.hover.target?.section == 0, "back home, Doing skipped again")
        d.key(.right)
        d.key(.enter)
        #expect(titles(d.app.board) == [["a1", "a2"], ["b0", "b1"], ["a0"]])
    }

    @Test func whenNoColumnThatWayTakesTheCardTheStatusSaysWhy() throws {
        var d = AppDriver(board: try ruledBoard("accept Doing from Done\naccept Done from Doing\n"))
        d.key(.char(" "))
        d.key(.right)
        #expect(
            d.app.status
                == "No column that way takes the card (column \"Doing\" accepts cards only from \"Done\", not from \"To do\")"
        )
        #expect(d.app.coordinator.session?.hover.target?.section == 0)
        d.key(.escape)
        d.key(.char("L"))
        #expect(
            d.app.status
                == "No column there takes the card (column \"Doing\" accepts cards only from \"Done\", not from \"To do\")"
        )
        #expect(d.app.revision == 0)
    }

    @Test func quickMovesSkipARefusingColumnLikeAFullOne() throws {
        var d = AppDriver(board: try ruledBoard("accept Doing from Done\n"))
        d.key(.char("L"))
        #expect(titles(d.app.board) == [["a1", "a2"], ["b0", "b1"], ["a0"]])
        // From Done, Doing takes it.
        d.key(.char("H"))
        #expect(titles(d.app.board)[1].contains("a0"))
    }
}

@Suite struct AcceptRulesPromptTests {
    @Test func thePromptSetsShowsAndClearsAColumnsRule() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("l"))
        d.key(.char("l"))
        d.key(.char("F"))
        #expect(row(d.screen(), 15).hasPrefix(" Accepts from (names, commas; empty = any):"))
        d.type("doing,  To do ")
        d.key(.enter)
        #expect(d.app.board.acceptRules.rules == [AcceptRule(column: "Done", sources: ["Doing", "To do"])])
        #expect(d.app.status == "Done accepts only from Doing or To do")
        #expect(d.app.revision == 1)
        // It is prefilled with the list.
        d.key(.char("F"))
        #expect(row(d.screen(), 15).contains("empty = any): Doing, To do"))
        d.key(.escape)
        // The rule is in force at once.
        d.key(.char("h"))
        d.key(.char("h"))
        d.key(.char("L"))
        d.key(.char("L"))
        #expect(titles(d.app.board)[2] == ["a0"])
        d.key(.char("u"))
        d.key(.char("u"))
        d.key(.char("u"))
        #expect(d.app.board.acceptRules.isEmpty, "setting a rule is one undo step")
        d.key(.char("r"), .ctrl)
        #expect(d.app.board.acceptRules.sources(for: "Done") == ["Doing", "To do"])
    }

    @Test func unknownNamesChangeNothingAndSaySo() throws {
        var d = AppDriver(board: try ruledBoard("accept Done from Doing\n"))
        let before = d.app.board
        d.key(.char("l"))
        d.key(.char("l"))
        d.key(.char("F"))
        d.key(.char("u"), .ctrl)
        d.type("Doing, Reviw")
        d.key(.enter)
        #expect(d.app.status == "No column is called “Reviw”: the rule is unchanged")
        #expect(d.app.board == before)
        #expect(
            d.screen().contains("Accepts from (names, commas; empty = any): Doing, Reviw"),
            "the prompt stays open with what was typed")
        d.key(.char("u"), .ctrl)
        d.type("Done")
        d.key(.enter)
        #expect(d.app.status == "A column always takes its own cards; name another column to accept from")
        #expect(d.app.board == before)
        d.key(.char("u"), .ctrl)
        d.key(.enter)
        #expect(d.app.status == "Done accepts from any column")
        #expect(d.app.board.acceptRules.isEmpty)
    }

    @Test func namesWithCommasAreQuoted() {
        var d = AppDriver(board: sampleBoard([("To do", ["a0"]), ("Later, maybe", []), ("Done", [])]), width: 120)
        d.key(.char("l"))
        d.key(.char("l"))
        d.key(.char("F"))
        d.type("\"Later, maybe\", to do")
        d.key(.enter)
        #expect(d.app.board.acceptRules.sources(for: "Done") == ["Later, maybe", "To do"])
        d.key(.char("F"))
        #expect(d.screen().contains("empty = any): \"Later, maybe\", To do"))
        #expect(PromptMode.splitNames(" a , \"b \\\"c\\\", d\" ,, e") == ["a", "b \"c\", d", "e"])
    }

    @Test func renamingAndDeletingColumnsKeepTheRulesInStepAndUndoRewindsThem() throws {
        var d = AppDriver(board: try ruledBoard("accept Done from Doing\n"))
        d.key(.char("l"))
        d.key(.char("R"))
        d.key(.char("u"), .ctrl)
        d.type("Review")
        d.key(.enter)
        #expect(d.app.board.acceptRules.sources(for: "Done") == ["Review"])
        d.key(.char("u"))
        #expect(d.app.board.columns[1].title == "Doing")
        #expect(d.app.board.acceptRules.sources(for: "Done") == ["Doing"])
        d.key(.char("D"))
        d.key(.char("y"))
        #expect(d.app.board.columns.map(\.title) == ["To do", "Done"])
        #expect(d.app.board.acceptRules.isEmpty)
        #expect(d.app.status == "Deleted column “Doing”; Done now accepts from any column (u undoes)")
        d.key(.char("u"))
        #expect(d.app.board.acceptRules.sources(for: "Done") == ["Doing"])
    }
}
