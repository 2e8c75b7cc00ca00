import Testing
import DragKit
@testable import LanesCore

/// A taskell board from its text (cards numbered 1, 2, 3… as any parse does).
private func taskell(_ text: String) throws -> Board {
    try BoardFormat.parse(text, file: "board.md").board
}

/// A board as taskell text (the standard style): what the examples compare.
private func taskellText(_ board: Board) -> String {
    BoardFormat.serialize(board, as: .taskell)
}

/// Merges three taskell texts as `lanes merge` does (no identities anywhere).
private func mergeTexts(_ base: String, _ ours: String, _ theirs: String) throws -> BoardMerge.Result {
    BoardMerge.merge(
        base: try taskell(base), ours: try taskell(ours), theirs: try taskell(theirs),
        matching: (.content, .content))
}

@Suite("Board merge: examples")
struct MergeExampleTests {
    let base = """
        ## To do

        - Write spec
        - Fix login
        - Plan sprint

        ## Doing

        - Review PR

        ## Done

        - Ship 1.0

        """

    @Test func movesOfDifferentCardsAreBothKept() throws {
        let ours = base.replacingOccurrences(of: "- Fix login\n", with: "").replacingOccurrences(
            of: "- Review PR\n", with: "- Review PR\n- Fix login\n")
        let theirs = base.replacingOccurrences(of: "- Ship 1.0\n", with: "- Ship 1.0\n- Plan sprint\n")
            .replacingOccurrences(of: "- Plan sprint\n\n## Doing", with: "\n## Doing")
        let r = try mergeTexts(base, ours, theirs)
        #expect(
            taskellText(r.board) == """
                ## To do

                - Write spec

                ## Doing

                - Review PR
                - Fix login

                ## Done

                - Ship 1.0
                - Plan sprint

                """)
        #expect(r.conflicts.isEmpty)
        #expect(r.incomingChanges == 1)
    }

    @Test func reorderInsideAColumnKeepsUntouchedNeighbours() throws {
        // Ours moves "Plan sprint" to the top; theirs inserts a card after "Write spec".
        let ours = base.replacingOccurrences(
            of: "- Write spec\n- Fix login\n- Plan sprint\n", with: "- Plan sprint\n- Write spec\n- Fix login\n")
        let theirs = base.replacingOccurrences(of: "- Write spec\n", with: "- Write spec\n- Update docs\n")
        let r = try mergeTexts(base, ours, theirs)
        #expect(r.board.columns[0].cards.map(\.title) == ["Plan sprint", "Write spec", "Update docs", "Fix login"])
        #expect(r.conflicts.isEmpty)
    }

    @Test func insertsAtOneGapFromBothSidesAreOrderedByContentNotBySide() throws {
        let ours = base.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n- Zebra\n")
        let theirs = base.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n- Aardvark\n")
        let r1 = try mergeTexts(base, ours, theirs)
        let r2 = try mergeTexts(base, theirs, ours)
        #expect(r1.board.columns[1].cards.map(\.title) == ["Review PR", "Aardvark", "Zebra"])
        #expect(taskellText(r1.board) == taskellText(r2.board))
    }

    @Test func deletesAndEditsOfDifferentCards() throws {
        let ours = base.replacingOccurrences(of: "- Write spec\n", with: "")
        let theirs = base.replacingOccurrences(
            of: "- Ship 1.0\n", with: "- Ship 1.0\n    @ 2026-12-01\n    > tag the release\n")
        let r = try mergeTexts(base, ours, theirs)
        #expect(r.board.columns[0].cards.map(\.title) == ["Fix login", "Plan sprint"])
        #expect(
            r.board.columns[2].cards[0]
                == Card(
                    id: r.board.columns[2].cards[0].id, title: "Ship 1.0", due: "2026-12-01",
                    descriptionLines: ["tag the release"]))
        #expect(r.conflicts.isEmpty)
    }

    @Test func differentFieldsOfOneCardEditedOnTwoSidesAreBothKept() throws {
        let b = "## A\n\n- Fix login\n    > steps\n    * [ ] repro\n"
        let o = "## A\n\n- Fix login now #urgent\n    > steps\n    * [ ] repro\n"
        let t = "## A\n\n- Fix login\n    @ 2026-12-24\n    > steps\n    > and logs\n    * [x] repro\n    * [ ] patch\n"
        let r = try mergeTexts(b, o, t)
        #expect(
            taskellText(r.board)
                == "## A\n\n- Fix login now #urgent\n    @ 2026-12-24\n    > steps\n    > and logs\n    * [x] repro\n    * [ ] patch\n"
        )
        #expect(r.conflicts.isEmpty)
    }

    @Test func bothTitlesKeptWhenBothEdited() throws {
        let b = "## A\n\n- Fix login #bug\n- Other\n"
        let o = "## A\n\n- Fix login page #bug\n- Other\n"
        let t = "## A\n\n- Repair login #bug #p1\n- Other\n"
        let r = try mergeTexts(b, o, t)
        #expect(r.board.columns[0].cards.map(\.title) == ["Fix login page ⟷ Repair login #bug #p1", "Other"])
        #expect(r.conflicts.map(\.kind) == [.editedTwice])
        #expect(r.conflicts[0].message.contains("“Fix login page ⟷ Repair login #bug #p1”"))
        #expect(r.conflicts[0].card == r.board.columns[0].cards[0].id)
        let swapped = try mergeTexts(b, t, o)
        #expect(swapped.board.columns[0].cards.map(\.title) == ["Repair login ⟷ Fix login page #bug #p1", "Other"])
    }

    @Test func twoDueDatesKeepOursAndTheOtherInTheDescription() throws {
        let b = "## A\n\n- Card\n"
        let r = try mergeTexts(b, "## A\n\n- Card\n    @ 2026-01-01\n", "## A\n\n- Card\n    @ 2026-02-02\n")
        #expect(taskellText(r.board) == "## A\n\n- Card\n    @ 2026-01-01\n    > Due elsewhere: 2026-02-02\n")
        #expect(r.conflicts.map(\.kind) == [.editedTwice])
    }

    @Test func anEditBeatsADelete() throws {
        let ours = base.replacingOccurrences(of: "- Review PR\n", with: "")
        let theirs = base.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n    > needs a second look\n")
        for (o, t) in [(ours, theirs), (theirs, ours)] {
            let r = try mergeTexts(base, o, t)
            #expect(r.board.columns[1].cards.map(\.title) == ["Review PR"])
            #expect(r.board.columns[1].cards[0].descriptionLines == ["needs a second look"])
            #expect(r.conflicts.map(\.kind) == [.editedAndDeleted])
            #expect(r.conflicts[0].message.contains("“Review PR”"))
        }
    }

    @Test func aCardMovedToTwoPlacesGoesToOursAndIsReported() throws {
        let removed = base.replacingOccurrences(of: "- Fix login\n", with: "")
        let ours = removed.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n- Fix login\n")
        let theirs = removed.replacingOccurrences(of: "- Ship 1.0\n", with: "- Fix login\n- Ship 1.0\n")
        let r = try mergeTexts(base, ours, theirs)
        #expect(
            r.board.columns.map { $0.cards.map(\.title) } == [
                ["Write spec", "Plan sprint"], ["Review PR", "Fix login"], ["Ship 1.0"],
            ])
        #expect(r.conflicts.map(\.kind) == [.movedTwice])
        #expect(r.conflicts[0].message.contains("“Fix login”"))
        let swapped = try mergeTexts(base, theirs, ours)
        #expect(
            swapped.board.columns.map { $0.cards.map(\.title) } == [
                ["Write spec", "Plan sprint"], ["Review PR"], ["Fix login", "Ship 1.0"],
            ])
        // The same move on both sides is no collision.
        #expect(try mergeTexts(base, ours, ours).conflicts.isEmpty)
    }

    @Test func columnRenameOnOneSideAndCardsAddedOnTheOther() throws {
        let ours = base.replacingOccurrences(of: "## Doing", with: "## In progress (3)")
        let theirs = base.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n- Pair on tests\n")
        let r = try mergeTexts(base, ours, theirs)
        #expect(r.board.columns.map(\.title) == ["To do", "In progress", "Done"])
        #expect(r.board.columns[1].wipLimit == 3)
        #expect(r.board.columns[1].cards.map(\.title) == ["Review PR", "Pair on tests"])
        #expect(r.conflicts.isEmpty)
    }

    @Test func aColumnRenamedTwoWaysKeepsOursAndIsReported() throws {
        let r = try mergeTexts(
            base, base.replacingOccurrences(of: "## Doing", with: "## Now"),
            base.replacingOccurrences(of: "## Doing", with: "## WIP"))
        #expect(r.board.columns.map(\.title) == ["To do", "Now", "Done"])
        #expect(r.conflicts.map(\.kind) == [.columnChangedTwice])
    }

    @Test func columnsAddedDeletedAndReordered() throws {
        // Ours adds "Review" after Doing and deletes Done (with its card); theirs moves To do to the end.
        let ours = """
            ## To do

            - Write spec
            - Fix login
            - Plan sprint

            ## Doing

            - Review PR

            ## Review

            - Check copy

            """
        let theirs = """
            ## Doing

            - Review PR

            ## Done

            - Ship 1.0

            ## To do

            - Write spec
            - Fix login
            - Plan sprint

            """
        let r = try mergeTexts(base, ours, theirs)
        #expect(r.board.columns.map(\.title) == ["Doing", "Review", "To do"])
        #expect(r.board.columns.map(\.cards.count) == [1, 1, 3])
        #expect(r.conflicts.isEmpty)
    }

    @Test func aDeletedColumnComesBackWithTheCardsTheOtherSideChangedInIt() throws {
        let ours = base.replacingOccurrences(of: "## Doing\n\n- Review PR\n\n", with: "")
        let theirs = base.replacingOccurrences(of: "- Review PR\n", with: "- Review PR\n- Hotfix\n")
        let r = try mergeTexts(base, ours, theirs)
        #expect(r.board.columns.map(\.title) == ["To do", "Doing", "Done"])
        #expect(r.board.columns[1].cards.map(\.title) == ["Hotfix"])  // "Review PR" was deleted with the column
        #expect(r.conflicts.map(\.kind) == [.columnDeletedWithChanges])
        #expect(r.conflicts[0].message.contains("“Hotfix”"))
    }

    @Test func aColumnOnlyRenamedElsewhereGoesWithItsDeletion() throws {
        let ours = base.replacingOccurrences(of: "## Doing\n\n- Review PR\n\n", with: "")
        let theirs = base.replacingOccurrences(of: "## Doing", with: "## In progress (2)")
        for (o, t) in [(ours, theirs), (theirs, ours)] {
            let r = try mergeTexts(base, o, t)
            #expect(r.board.columns.map(\.title) == ["To do", "Done"])
            #expect(r.conflicts.isEmpty)
        }
    }

    @Test func equalCardsMatchTheNearestPosition() throws {
        let b = "## A\n\n- x\n- y\n- x\n- z\n"
        // Ours edits the second "x" (same title, so it is that one), theirs deletes the first "x".
        let o = "## A\n\n- x\n- y\n- x\n    > second\n- z\n"
        let t = "## A\n\n- y\n- x\n- z\n"
        let r = try mergeTexts(b, o, t)
        #expect(taskellText(r.board) == "## A\n\n- y\n- x\n    > second\n- z\n")
        #expect(r.conflicts.isEmpty)
    }

    @Test func aRetitledCardInItsSlotIsTheSameCard() throws {
        let b = "## A\n\n- one\n- Fix the login page\n- three\n"
        let o = "## A\n\n- one\n- Fix the login page quickly\n- three\n"
        let t = "## A\n\n- one\n- Fix the login page\n    > details\n- three\n"
        let r = try mergeTexts(b, o, t)
        #expect(taskellText(r.board) == "## A\n\n- one\n- Fix the login page quickly\n    > details\n- three\n")
    }

    @Test func identitiesOursKeptTheirsKeptWhenSharedElseFresh() throws {
        let b = try taskell(base)
        var o = b
        o.columns[0].cards.append(Card(id: CardID.fresh(), title: "Ours new"))
        var t = b
        let theirsNew = CardID.fresh()
        t.columns[1].cards.append(Card(id: theirsNew, title: "Theirs new"))
        t.columns[0].cards[0].title = "Write the spec"
        let shared = BoardMerge.merge(base: b, ours: o, theirs: t)
        #expect(shared.board.columns[0].cards.map(\.id) == o.columns[0].cards.map(\.id))
        #expect(shared.board.columns[0].cards[0].title == "Write the spec")
        #expect(shared.board.columns[1].cards.map(\.id) == [b.columns[1].cards[0].id, theirsNew])
        #expect(shared.theirsIdentity[theirsNew] == theirsNew)
        let parsed = try taskell(taskellText(t))
        let content = BoardMerge.merge(base: b, ours: o, theirs: parsed, matching: (.identity, .content))
        #expect(content.board.columns[0].cards.map(\.id) == o.columns[0].cards.map(\.id))
        let newID = content.board.columns[1].cards[1].id
        #expect(newID.rawValue >= 1 << 41)  // minted, not a parse number
        #expect(content.theirsIdentity[parsed.columns[1].cards[1].id] == newID)
        #expect(taskellText(content.board) == taskellText(shared.board))
    }

    @Test func wipLimitsAndColumnLinesMergeFieldWise() throws {
        var b = try taskell(base)
        b.columns[1].extraLines = ["**Complete**"]
        var o = b, t = b
        o.columns[1].wipLimit = 2
        t.columns[1].title = "Now"
        t.columns[1].extraLines = ["**Complete**", "note"]
        let r = BoardMerge.merge(base: b, ours: o, theirs: t)
        #expect(r.board.columns[1].title == "Now")
        #expect(r.board.columns[1].wipLimit == 2)
        #expect(r.board.columns[1].extraLines == ["**Complete**", "note"])
        #expect(r.conflicts.isEmpty)
    }

    @Test func acceptRulesFollowRenamesAndMergePerColumn() throws {
        var b = try taskell(base)
        b.acceptRules = AcceptRules([AcceptRule(column: "Done", sources: ["Doing"])])
        var o = b
        o.columns[1].title = "Review"
        o.acceptRules.renameColumn("Doing", to: "Review")
        var t = b
        t.acceptRules.setSources(["To do"], for: "Doing")
        let r = BoardMerge.merge(base: b, ours: o, theirs: t)
        #expect(
            r.board.acceptRules.rules == [
                AcceptRule(column: "Done", sources: ["Review"]),
                AcceptRule(column: "Review", sources: ["To do"]),
            ])
        #expect(r.conflicts.isEmpty)
        // Both sides set one column's rule two ways: ours kept, reported.
        var o2 = b
        o2.acceptRules.setSources(["To do"], for: "Done")
        var t2 = b
        t2.acceptRules.setSources(["Doing", "To do"], for: "Done")
        let r2 = BoardMerge.merge(base: b, ours: o2, theirs: t2)
        #expect(r2.board.acceptRules.rules == [AcceptRule(column: "Done", sources: ["To do"])])
        #expect(r2.conflicts.map(\.kind) == [.columnChangedTwice])
    }

    @Test func noBaseMergesTwoBoardsAsAdditions() throws {
        let r = BoardMerge.merge(
            base: Board(), ours: try taskell(base), theirs: try taskell(base + "- Extra\n"),
            matching: (.content, .content))
        #expect(taskellText(r.board) == taskellText(try taskell(base + "- Extra\n")))
    }
}
