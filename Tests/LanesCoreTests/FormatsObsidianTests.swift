import Testing
import DragKit
@testable import LanesCore

@Suite("Formats: Obsidian Kanban dialect")
struct FormatsObsidianTests {
    /// Unknown content in every place it can be; every line must come back.
    static let rich = """
        ---
        kanban-plugin: board
        tags: [work]
        ---

        Some notes above the lanes.
        > a quote

        ## Todo (4)

        Lane description paragraph.

        - [ ] First #urgent @{2025-01-02}
          continued on an indented line

            an indented block after a blank line
        - [X] Upper-case check
         - [ ] Indented bullet
        - plain item
        - [ ]
        - [ ] Meeting @{2025-01-01} with @@{10:00}
        Lazy continuation without indentation
        ### a deeper heading is a lane too

        ## Done

        **Complete**
        - [x] Finished


        ***

        ## Archive

        - [x] Old card


        %% kanban:settings
        ```
        {"kanban-plugin":"board","lane-width":300}
        ```
        %%

        trailing text after the settings
        """

    @Test func keepsEveryUnknownLineVerbatim() throws {
        let (board, info) = try parseOK(Self.rich)
        #expect(info.dialect == .obsidian)
        #expect(info.frontmatter == ["---", "kanban-plugin: board", "tags: [work]", "---"])
        #expect(info.preamble == ["", "Some notes above the lanes.", "> a quote", ""])
        #expect(info.archive == ["***", "", "## Archive", "", "- [x] Old card", "", ""])
        #expect(
            info.settings == ["%% kanban:settings", "```", #"{"kanban-plugin":"board","lane-width":300}"#, "```", "%%"])
        #expect(info.epilogue == ["", "trailing text after the settings"])
        #expect(!info.endsWithNewline)

        let todo = board.columns[0]
        #expect(todo.title == "Todo" && todo.wipLimit == 4)
        #expect(todo.extraLines == ["Lane description paragraph.", ""])
        #expect(
            todo.cards.map(\.title) == [
                "First #urgent", "Upper-case check", "Indented bullet", "plain item", "",
                "Meeting @{2025-01-01} with @@{10:00}",
            ])
        #expect(todo.cards.map(\.done) == [false, true, false, false, false, false])
        #expect(todo.cards[0].due == "2025-01-02")
        #expect(todo.cards[0].tags == ["urgent"])
        #expect(
            todo.cards[0].extraLines == [
                "  continued on an indented line", "", "    an indented block after a blank line",
            ])
        #expect(todo.cards[5].due == nil)
        #expect(todo.cards[5].extraLines == ["Lazy continuation without indentation"])
        // The plugin makes a lane of a heading of any level; its level is kept.
        #expect(board.columns[1].title == "a deeper heading is a lane too" && board.columns[1].cards.isEmpty)
        let done = board.columns[2]
        #expect(done.extraLines == ["**Complete**"])
        #expect(done.marksCardsComplete)
        #expect(done.cards == [Card(id: CardID(7), title: "Finished", done: true)])

        #expect(BoardFormat.serialize(board, info: info) == Self.rich)
    }

    @Test func markersAreKeptUntilTheCheckChanges() throws {
        let (parsed, info) = try parseOK(Self.rich)
        var board = parsed
        board.columns[0].cards[1].done = false  // was "- [X] "
        board.columns[0].cards[3].done = true  // was "- " with no checkbox
        board.columns[0].cards[2].title = "Indented bullet, renamed"
        let lines = fileLines(BoardFormat.serialize(board, info: info))
        #expect(lines.contains("- [ ] Upper-case check"))
        #expect(lines.contains("- [x] plain item"))
        #expect(lines.contains(" - [ ] Indented bullet, renamed"))
    }

    @Test func dueDatesOnlyComeFromATrailingAtBrace() {
        #expect(splitDue("Call @{2025/6/30}") == ("Call", "2025/6/30"))
        #expect(splitDue("Call @{2025/6/30} later") == ("Call @{2025/6/30} later", nil))
        #expect(splitDue("@{2025/6/30}") == ("@{2025/6/30}", nil))
        #expect(splitDue("Call @{}") == ("Call @{}", nil))
        #expect(splitDue("Call @@{10:00}") == ("Call @@{10:00}", nil))
        #expect(splitDue("Call @{a}b}") == ("Call @{a}b}", nil))
        #expect(splitDue("Call x@{2025}") == ("Call x@{2025}", nil))
        #expect(splitDue("Twice @{1} @{2}") == ("Twice @{1}", "2"))
    }

    @Test func aNewDueIsWrittenAsAtBrace() throws {
        let text = "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] Call mum\n"
        let (parsed, info) = try parseOK(text)
        var board = parsed
        board.columns[0].cards[0].due = "2025/7/1"
        #expect(
            BoardFormat.serialize(board, info: info)
                == "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] Call mum @{2025/7/1}\n")
    }

    @Test func aFreshBoardIsWrittenAsObsidianKanbanWritesIt() throws {
        var board = Board()
        // The numbers a parse gives, so the reread board compares equal.
        let a = CardID(1), b = CardID(2), c = CardID(3)
        board.columns = [
            Column(
                title: "Todo", cards: [Card(id: a, title: "One #tag", due: "2025-01-01"), Card(id: b, title: "Two")]),
            Column(title: "Doing", wipLimit: 1),
            Column(title: "Done", cards: [Card(id: c, title: "Three", done: true)], extraLines: ["**Complete**"]),
        ]
        let text = BoardFormat.serialize(board, as: .obsidian)
        #expect(
            text == """
                ---

                kanban-plugin: board

                ---

                ## Todo

                - [ ] One #tag @{2025-01-01}
                - [ ] Two


                ## Doing (1)



                ## Done

                **Complete**
                - [x] Three




                %% kanban:settings
                ```
                {"kanban-plugin":"board"}
                ```
                %%
                """)
        let (reread, info) = try parseOK(text)
        #expect(reread == board)
        #expect(info.dialect == .obsidian)
        #expect(BoardFormat.serialize(reread, info: info) == text)
    }

    @Test func descriptionAndSubtasksBecomeIndentedLines() {
        let board = Board(columns: [
            Column(
                title: "A",
                cards: [
                    Card(
                        id: CardID(1), title: "t", descriptionLines: ["why"],
                        subtasks: [Subtask("s"), Subtask("d", done: true)])
                ])
        ])
        let text = BoardFormat.serialize(
            board,
            info: {
                var info = BoardFileInfo(dialect: .obsidian)
                info.settings = []
                info.endsWithNewline = true
                info.layout.blankLinesAfterColumns = 0
                return info
            }())
        #expect(text == "---\n\nkanban-plugin: board\n\n---\n\n## A\n\n- [ ] t\n    why\n    - [ ] s\n    - [x] d\n")
    }

    @Test func oddButValidFilesRoundTrip() throws {
        let samples: [String] = [
            "---\nkanban-plugin: basic\n---\n",  // no lanes
            "---\nkanban-plugin: basic\n---",  // no final newline
            "---\nkanban-plugin: basic\n---\n## A\n- [ ] a\n- [ ] b\n## B\n",  // no blank lines
            "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] a\n\n\n\n- [ ] b\n- [ ] c\n\n- [ ] d\n",  // uneven gaps
            "---\r\nkanban-plugin: basic\r\n---\r\n\r\n## A\r\n\r\n- [ ] a\r\n  more\r\n",  // CRLF
            "\u{FEFF}---\nkanban-plugin: basic\n---\n\n## 看板\n\n- [ ] 任务 #标签\n",  // BOM, CJK
            "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] a\n   \n\t\n- [ ] b\n",  // whitespace-only lines
            "---\nkanban-plugin: basic\n---\n\n***\n\n## Archive\n\n- [ ] x\n",  // only an archive
            "---\nkanban-plugin: basic\n---\n\n## A\n\n***\n\nnot an archive\n",  // *** without ## Archive
            "---\nkanban-plugin: basic\n---\n\n## Archive\n\n- [ ] a lane named Archive\n",
            "---\ntitle: x\nkanban-plugin: basic\nother: y\n---\n\n## A\n",
        ]
        for text in samples {
            let (board, info) = try parseOK(text)
            #expect(info.dialect == .obsidian)
            #expect(BoardFormat.serialize(board, info: info) == text, "\(text.debugDescription)")
        }
    }

    @Test func unevenGapsFollowTheCardTheyPrecede() throws {
        let text = "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] a\n\n\n\n- [ ] b\n- [ ] c\n\n## B\n\n- [ ] x\n"
        let (board, info) = try parseOK(text)
        #expect(info.layout.blankLinesBetweenCards == 3)
        let c = board.columns[0].cards[2].id
        let output = BoardFormat.serialize(moving(board, card: c, toColumn: 1, index: 1), info: info)
        #expect(
            output == "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] a\n\n\n\n- [ ] b\n\n## B\n\n- [ ] x\n- [ ] c\n")
    }

    @Test func dialectIsDetectedFromFrontmatter() throws {
        #expect(try parseOK("---\nkanban-plugin: basic\n---\n").info.dialect == .obsidian)
        #expect(try parseOK("## A\n\n- [ ] a\n").info.dialect == .taskell)
        #expect(try parseOK("## A\n\n- [ ] a\n").board.columns[0].cards[0].title == "[ ] a")
        // A settings block without frontmatter is not Obsidian: taskell rejects it.
        #expect(parseError("## A\n\n%% kanban:settings\n")?.line == 3)
    }

    @Test func convertingBetweenDialectsKeepsTheModel() throws {
        let taskell = try Fixtures.text("taskell-release-plan.md")
        let (board, _) = try BoardFormat.parse(taskell, file: "roadmap.md")
        let obsidian = BoardFormat.serialize(board, as: .obsidian)
        let (again, info) = try BoardFormat.parse(obsidian, file: "roadmap-obsidian.md")
        #expect(info.dialect == .obsidian)
        #expect(again.columns.map(\.title) == board.columns.map(\.title))
        #expect(again.columns.flatMap(\.cards).map(\.title) == board.columns.flatMap(\.cards).map(\.title))

        let demo = try Fixtures.text("obsidian-garden.md")
        let (lanes, _) = try BoardFormat.parse(demo, file: "demo.md")
        let asTaskell = BoardFormat.serialize(lanes, as: .taskell)
        let (back, backInfo) = try BoardFormat.parse(asTaskell, file: "demo-taskell.md")
        #expect(backInfo.dialect == .taskell)
        #expect(back.columns.flatMap(\.cards).map(\.due) == lanes.columns.flatMap(\.cards).map(\.due))
        #expect(back.columns.flatMap(\.cards).map(\.title) == lanes.columns.flatMap(\.cards).map(\.title))
    }
}
