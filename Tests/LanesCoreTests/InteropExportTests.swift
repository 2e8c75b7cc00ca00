import Testing
import DragKit
@testable import LanesCore

private let taskellBoard = """
    ## To do (2)

    - Write "docs" #writing
        @ 2024-01-31
        > First line
        > Second line
        * [x] outline
        * [ ] draft
    - Plain

    ## Done

    """

private let obsidianBoard = """
    ---

    kanban-plugin: board

    ---

    ## Doing

    - [ ] Fix bug #urgent @{2025/6/30}
        Steps to reproduce
        - [x] find it
        - [ ] fix it


    ## Complete

    **Complete**
    - [x] Ship it




    %% kanban:settings
    ```
    {"kanban-plugin":"board"}
    ```
    %%
    """

@Suite("Interop: export")
struct InteropExportTests {
    @Test func jsonShapeOfATaskellBoard() throws {
        let (board, info) = try BoardFormat.parse(taskellBoard, file: "b.md")
        #expect(
            BoardExport.text(board, info: info, format: .json) == """
                {
                  "version": 1,
                  "dialect": "taskell",
                  "columns": [
                    {
                      "number": 1,
                      "title": "To do",
                      "wipLimit": 2,
                      "cards": [
                        {
                          "id": 1,
                          "title": "Write \\"docs\\" #writing",
                          "done": false,
                          "due": "2024-01-31",
                          "dueDate": "2024-01-31",
                          "tags": [
                            "writing"
                          ],
                          "description": "First line\\nSecond line",
                          "subtasks": [
                            {
                              "title": "outline",
                              "done": true
                            },
                            {
                              "title": "draft",
                              "done": false
                            }
                          ]
                        },
                        {
                          "id": 2,
                          "title": "Plain",
                          "done": false,
                          "due": null,
                          "dueDate": null,
                          "tags": [],
                          "description": "",
                          "subtasks": []
                        }
                      ]
                    },
                    {
                      "number": 2,
                      "title": "Done",
                      "wipLimit": null,
                      "cards": []
                    }
                  ]
                }

                """)
    }

    @Test func jsonReadsObsidianBodiesDoneAndSlashDates() throws {
        let (board, info) = try BoardFormat.parse(obsidianBoard, file: "o.md")
        let json = try JSONReader.parse(Array(BoardExport.json(board, info: info).utf8), file: "out.json")
        #expect(json["dialect"]?.string == "obsidian")
        let columns = try #require(json["columns"]?.array)
        let bug = try #require(columns[0]["cards"]?.array?.first)
        #expect(bug["title"]?.string == "Fix bug #urgent")
        #expect(bug["due"]?.string == "2025/6/30")
        #expect(bug["dueDate"]?.string == "2025-06-30")
        #expect(bug["description"]?.string == "Steps to reproduce")
        #expect(bug["subtasks"]?.array?.map { $0["title"]?.string ?? "" } == ["find it", "fix it"])
        #expect(bug["subtasks"]?.array?.map { $0["done"]?.bool ?? false } == [true, false])
        let ship = try #require(columns[1]["cards"]?.array?.first)
        #expect(ship["done"]?.bool == true)
        #expect(ship["id"]?.number == 2)
    }

    @Test func markdownIsTheFileAsSaved() throws {
        for text in [taskellBoard, obsidianBoard] {
            let (board, info) = try BoardFormat.parse(text, file: "b.md")
            #expect(BoardExport.text(board, info: info, format: .markdown) == text)
            let own: BoardExport.Format = info.dialect == .taskell ? .taskell : .obsidian
            #expect(BoardExport.text(board, info: info, format: own) == text)
        }
    }

    @Test func obsidianConvertsToTaskell() throws {
        let (board, info) = try BoardFormat.parse(obsidianBoard, file: "o.md")
        #expect(
            BoardExport.text(board, info: info, format: .taskell) == """
                ## Doing

                - Fix bug #urgent
                    @ 2025/6/30
                    > Steps to reproduce
                    * [x] find it
                    * [ ] fix it

                ## Complete

                - Ship it

                """)
    }

    @Test func taskellConvertsToObsidian() throws {
        let (board, info) = try BoardFormat.parse(taskellBoard, file: "b.md")
        let text = BoardExport.text(board, info: info, format: .obsidian)
        #expect(
            text.hasPrefix(
                "---\n\nkanban-plugin: board\n\n---\n\n## To do (2)\n\n- [ ] Write \"docs\" #writing @{2024-01-31}\n    First line\n    Second line\n    - [x] outline\n    - [ ] draft\n- [ ] Plain\n"
            ))
        let (again, againInfo) = try BoardFormat.parse(text, file: "o.md")
        #expect(againInfo.dialect == .obsidian)
        #expect(again.columns.map(\.title) == ["To do", "Done"])
        let card = BoardExport.interpretedObsidianBody(again.columns[0].cards[0])
        #expect(card.descriptionLines == ["First line", "Second line"])
        #expect(card.subtasks == board.columns[0].cards[0].subtasks)
    }

    @Test func dueDatesReadAsDays() {
        #expect(BoardExport.isoDay("2024-01-31") == "2024-01-31")
        #expect(BoardExport.isoDay("2025/6/3") == "2025-06-03")
        #expect(BoardExport.isoDay("2025-6-30 14:00") == "2025-06-30")
        #expect(BoardExport.isoDay("2021-07-10T17:01:58.633Z") == "2021-07-10")
        #expect(BoardExport.isoDay("tomorrow") == nil)
        #expect(BoardExport.isoDay("2025-13-01") == nil)
        #expect(BoardExport.isoDay("31/01/2024") == nil)
    }
}
