import Testing
import DragKit
@testable import LanesCore

/// Untouched parts of a file stay byte for byte: column edits and merges rewrite only their own lines.
@Suite("Board merge: file fidelity")
struct MergeFileTests {
    /// Doing has spacing of its own (no blank line after its heading, three after its cards).
    let taskellText = """
        ## To do

        - Write spec
        - Fix login

        ## Doing
        - Review PR



        ## Done

        - Ship 1.0

        """

    let obsidianText = """
        ---

        kanban-plugin: board

        ---

        ## Backlog

        - [X] Odd marker card
        - [ ] Plain card

        - [ ] After a gap
            indented note


        ## Doing
        - [ ] Busy card



        ## Done

        **Complete**
        - [x] Finished card


        %% kanban:settings
        ```
        {"kanban-plugin":"board"}
        ```
        %%
        """

    @Test(arguments: [BoardDialect.taskell, .obsidian])
    func addingAColumnWritesOnlyItsLines(dialect: BoardDialect) throws {
        let text = dialect == .taskell ? taskellText : obsidianText
        var (board, info) = try BoardFormat.parse(text, file: "board.md")
        board.columns.insert(Column(title: "New"), at: 1)
        let out = BoardFormat.serialize(board, info: info)
        let (removed, added) = lineDiff(fileLines(text), fileLines(out))
        #expect(removed == [])
        #expect(added.filter { !$0.isEmpty } == ["## New"])
        // Doing keeps its own spacing although its index moved.
        let doing =
            dialect == .taskell ? "## Doing\n- Review PR\n\n\n\n## Done" : "## Doing\n- [ ] Busy card\n\n\n\n## Done"
        #expect(out.contains(doing))
    }

    @Test func movingAndDeletingColumnsKeepOthersSpacing() throws {
        var (board, info) = try BoardFormat.parse(taskellText, file: "board.md")
        // Done first: every column's lines travel with it.
        let done = board.columns.remove(at: 2)
        board.columns.insert(done, at: 0)
        #expect(
            BoardFormat.serialize(board, info: info) == """
                ## Done

                - Ship 1.0

                ## To do

                - Write spec
                - Fix login

                ## Doing
                - Review PR

                """)
        // Deleting To do leaves Doing as it was.
        (board, info) = try BoardFormat.parse(taskellText, file: "board.md")
        board.columns.remove(at: 0)
        #expect(
            BoardFormat.serialize(board, info: info) == """
                ## Doing
                - Review PR



                ## Done

                - Ship 1.0

                """)
    }

    @Test func aRenamedColumnKeepsItsSpacingWhenTheInfoFollowsTheBoard() throws {
        let (board, info) = try BoardFormat.parse(taskellText, file: "board.md")
        var renamed = board
        renamed.columns[1].title = "In progress"
        // Written with the old info, the renamed column would fall back on the usual spacing.
        #expect(
            BoardFormat.serialize(renamed, info: info)
                != taskellText.replacingOccurrences(of: "## Doing", with: "## In progress"))
        #expect(
            BoardFormat.serialize(renamed, info: info.following(board, to: renamed))
                == taskellText.replacingOccurrences(of: "## Doing", with: "## In progress"))
    }

    /// The file store's merge: base is what it last wrote, ours the app's board (same identities),
    /// theirs the file as another program left it. Only the card ours moved changes lines.
    @Test func aMergeWritesOnlyTheLinesOfWhatWeChanged() throws {
        let (base, baseInfo) = try BoardFormat.parse(obsidianText, file: "board.md")
        var ours = base
        // Ours moves "Plain card" to the top of Done.
        let plain = ours.columns[0].cards.remove(at: 1)
        ours.columns[2].cards.insert(plain, at: 0)
        // Theirs renames Doing, edits the busy card and adds a card in Backlog.
        let theirs =
            obsidianText
            .replacingOccurrences(of: "## Doing", with: "## In progress")
            .replacingOccurrences(of: "- [ ] Busy card", with: "- [ ] Busy card @{2026-12-01}")
            .replacingOccurrences(of: "    indented note\n", with: "    indented note\n- [ ] Their new card\n")
        let (text, info, result) = try BoardMerge.mergeFiles(
            base: (base, baseInfo), ours: ours, theirs: Array(theirs.utf8), theirsFile: "board.md")
        #expect(result.conflicts.isEmpty)
        #expect(result.incomingChanges == 2)
        #expect(
            text == """
                ---

                kanban-plugin: board

                ---

                ## Backlog

                - [X] Odd marker card

                - [ ] After a gap
                    indented note
                - [ ] Their new card


                ## In progress
                - [ ] Busy card @{2026-12-01}



                ## Done

                **Complete**
                - [ ] Plain card
                - [x] Finished card


                %% kanban:settings
                ```
                {"kanban-plugin":"board"}
                ```
                %%
                """)
        // Our cards keep our identities; theirs' new card gets a fresh one, mapped.
        #expect(result.board.columns[2].cards[0].id == plain.id)
        let theirsBoard = try BoardFormat.parse(theirs, file: "board.md").board
        let newID = try #require(result.theirsIdentity[theirsBoard.columns[0].cards[3].id])
        #expect(result.board.columns[0].cards[2].id == newID)
        // The returned info with the merged board is the next base: nothing changed since, nothing rewritten.
        #expect(BoardFormat.serialize(result.board, info: info) == text)
        let again = try BoardMerge.mergeFiles(
            base: (result.board, info), ours: result.board, theirs: Array(text.utf8), theirsFile: "board.md")
        #expect(again.text == text)
        #expect(again.result.board.allIDs == result.board.allIDs)
        #expect(again.result.incomingChanges == 0)
    }

    @Test func gitStyleMergeOfThreeTaskellFiles() throws {
        let base = try BoardFormat.parse(taskellText, file: "base")
        let oursText = taskellText.replacingOccurrences(of: "- Fix login\n", with: "").replacingOccurrences(
            of: "- Ship 1.0\n", with: "- Ship 1.0\n- Fix login\n")
        let ours = try BoardFormat.parse(oursText, file: "ours")
        let theirs = taskellText.replacingOccurrences(of: "## Done", with: "## Review\n\n## Done")
        let (text, _, result) = try BoardMerge.mergeFiles(
            base: base, ours: ours.board, oursInfo: ours.info, oursMatching: .content,
            theirs: Array(theirs.utf8), theirsFile: "theirs")
        #expect(result.conflicts.isEmpty)
        #expect(
            text == """
                ## To do

                - Write spec

                ## Doing
                - Review PR



                ## Review

                ## Done

                - Ship 1.0
                - Fix login

                """)
    }

    @Test func aFileThatCannotBeParsedIsAnErrorWithItsLine() throws {
        let base = try BoardFormat.parse(taskellText, file: "board.md")
        #expect(
            throws: ParseError(
                file: "theirs.md", line: 4,
                message:
                    "after a blank line only a \"## \" column heading may follow; taskell allows no blank lines between cards or their details; found \"- b\""
            )
        ) {
            try BoardMerge.mergeFiles(
                base: base, ours: base.board, theirs: Array("## A\n- a\n\n- b\n".utf8), theirsFile: "theirs.md")
        }
    }
}
