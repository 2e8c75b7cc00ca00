import Foundation
import Testing
import DragKit
@testable import LanesCore

// Real files from taskell, Obsidian Kanban (super-kanban.nvim) and Trello (Nextcloud Deck's
// test data), kept outside the repository in ../shared/fixtures. A clone without that folder
// skips this suite (Swift Testing reports it skipped, and SharedFixtures.available prints
// why); the committed fixtures in Tests/Fixtures cover the same dialects everywhere.
@Suite(
    "Interop: real files from taskell, Obsidian Kanban and Trello",
    .enabled(if: SharedFixtures.available, "needs ../shared/fixtures beside the package (present in CI)"))
struct InteropSharedFixturesTests {
    // MARK: taskell

    @Test func taskellRoadmapLoadsAsTaskellWrote() throws {
        let bytes = try SharedFixtures.bytes("taskell-roadmap.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "taskell-roadmap.md")
        #expect(info.dialect == .taskell)
        #expect(board.columns.map(\.title) == ["Misc.", "Refactoring", "Bugs", "Features", "In Progress", "Done"])
        #expect(board.cardCount == 202)
        #expect(board.allIDs == (1...202).map { CardID(UInt64($0)) })
        #expect(info.layout == BoardLayout.standard(for: .taskell))
        #expect(info.endsWithNewline && !info.hasByteOrderMark && info.lineEnding == .lf)

        let misc = board.columns[0]
        #expect(misc.wipLimit == nil && misc.extraLines.isEmpty)
        #expect(
            misc.cards[0]
                == Card(
                    id: CardID(1), title: "Add more information to taskell.app",
                    descriptionLines: [
                        "Update taskell.app to have more than just README.md contents. Use cases, more images, examples, etc."
                    ],
                    subtasks: [
                        Subtask("Use case example: checklist"), Subtask("Use case example: Git controlled tasks"),
                        Subtask("Blog posts for updates"),
                    ]))
        #expect(
            misc.cards[1]
                == Card(
                    id: CardID(2), title: "Add to Flatpack",
                    descriptionLines: ["https://opensource.com/article/19/10/how-build-flatpak-packaging"]))
        #expect(board.columns[1].cards[0].title == "乤乭 乤亍 乤乭乫 乤乭亍乫 乤乭 乤乭亍")
        let dueList = try #require(
            board.columns[3].cards.first { $0.title == "Some way to just see tasks with due dates" })
        #expect(dueList.subtasks.prefix(3).map(\.done) == [true, true, true])
        #expect(dueList.subtasks.count == 10)
        #expect(dueList.subtasks.filter(\.done).count == 6)
    }

    @Test func taskellRoadmapSavesBackByteForByte() throws {
        let bytes = try SharedFixtures.bytes("taskell-roadmap.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "taskell-roadmap.md")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
        // With no file info at all, taskell's own style gives the same bytes.
        #expect(Array(BoardFormat.serialize(board, as: .taskell).utf8) == bytes)
    }

    @Test func taskellMoveToAnotherColumnChangesOnlyThatCardsLines() throws {
        let text = try SharedFixtures.text("taskell-roadmap.md")
        let (board, info) = try BoardFormat.parse(text, file: "roadmap.md")
        let flatpack = board.columns[0].cards[1].id
        let moved = moving(board, card: flatpack, toColumn: 2, index: 3)
        let output = BoardFormat.serialize(moved, info: info)
        let block = ["- Add to Flatpack", "    > https://opensource.com/article/19/10/how-build-flatpak-packaging"]
        let diff = lineDiff(fileLines(text), fileLines(output))
        #expect(diff.removed == block)
        #expect(diff.added == block)
        let lines = fileLines(output)
        let bugs = try #require(lines.firstIndex(of: "## Bugs"))
        // Heading, blank line, three cards (two with a description), then the moved card.
        #expect(Array(lines[(bugs + 7)...(bugs + 8)]) == block)
        #expect(
            try BoardFormat.parse(output, file: "roadmap.md").board.columns.map(\.cards.count)
                == board.columns.map(\.cards.count).enumerated().map {
                    $0.offset == 0 ? $0.element - 1 : $0.offset == 2 ? $0.element + 1 : $0.element
                })
    }

    @Test func taskellMoveInsideAColumnChangesOnlyThatCardsLines() throws {
        let text = try SharedFixtures.text("taskell-roadmap.md")
        let (board, info) = try BoardFormat.parse(text, file: "roadmap.md")
        let features = board.columns[3]
        let first = features.cards[0]
        #expect(first.title == "Add Cabal test to build process")
        let output = BoardFormat.serialize(moving(board, card: first.id, toColumn: 3, index: 4), info: info)
        let block = ["- Add Cabal test to build process", "    > Use `stack sdist .` to generate cabal file"]
        let diff = lineDiff(fileLines(text), fileLines(output))
        #expect(diff.removed.sorted() == block.sorted())
        #expect(diff.added.sorted() == block.sorted())
        let reparsed = try BoardFormat.parse(output, file: "roadmap.md").board
        #expect(reparsed.columns[3].cards[4].title == first.title)
        #expect(reparsed.columns[3].cards[4].descriptionLines == first.descriptionLines)
    }

    // MARK: Obsidian

    @Test func obsidianDemoLoads() throws {
        let bytes = try SharedFixtures.bytes("obsidian-format-super-kanban-demo.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "demo.md")
        #expect(info.dialect == .obsidian)
        #expect(info.frontmatter == ["---", "", "kanban-plugin: basic", "", "---"])
        #expect(info.preamble == [""])
        #expect(info.settings == ["%% kanban:settings", "```", #"{"kanban-plugin":"basic"}"#, "```", "%%"])
        #expect(info.archive.isEmpty && info.epilogue.isEmpty)
        #expect(
            info.layout
                == BoardLayout(
                    blankLinesAfterHeading: 1, blankLinesBetweenCards: 1,
                    blankLinesBetweenColumns: 1, blankLinesAfterColumns: 2))
        #expect(board.columns.map(\.title) == ["Backlog", "Todo", "Work in progress", "Completed", "Unlisted"])
        #expect(board.columns.map(\.cards.count) == [4, 3, 2, 4, 1])
        #expect(board.allIDs == (1...14).map { CardID(UInt64($0)) })

        let backlog = board.columns[0].cards
        #expect(
            backlog[0] == Card(id: CardID(1), title: "Tuning my [[init.lua]] like a vintage guitar", due: "2025/6/30"))
        #expect(backlog[1].title == "Research if coffee counts as water #super_important")
        #expect(backlog[1].tags == ["super_important"])
        #expect(backlog[1].due == "2025/6/26")
        #expect(backlog[3] == Card(id: CardID(4), title: "Learn Lua… again #someday"))
        #expect(board.columns[1].cards[1].title == "Debugging a feature I haven’t written yet")

        let completed = board.columns[3]
        #expect(completed.extraLines == ["**Complete**", ""])
        #expect(completed.marksCardsComplete)
        #expect(!board.columns[0].marksCardsComplete)
        #expect(completed.cards.map(\.done) == [true, true, false, false])
        #expect(completed.cards[3].due == "2025/6/24")
        #expect(board.columns.flatMap(\.cards).allSatisfy { $0.extraLines.isEmpty && $0.descriptionLines.isEmpty })
    }

    @Test func obsidianDemoSavesBackByteForByte() throws {
        let bytes = try SharedFixtures.bytes("obsidian-format-super-kanban-demo.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "demo.md")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
    }

    @Test func obsidianMoveChangesOnlyTheMovedCardsLines() throws {
        let text = try SharedFixtures.text("obsidian-format-super-kanban-demo.md")
        let (board, info) = try BoardFormat.parse(text, file: "demo.md")
        let coffee = board.columns[0].cards[1]
        let output = BoardFormat.serialize(moving(board, card: coffee.id, toColumn: 1, index: 0), info: info)
        let cardLine = "- [ ] Research if coffee counts as water #super_important @{2025/6/26}"
        let diff = lineDiff(fileLines(text), fileLines(output))
        // The card line and the one blank line that separates it from its neighbour.
        #expect(diff.removed.sorted() == ["", cardLine])
        #expect(diff.added.sorted() == ["", cardLine])
        let lines = fileLines(output)
        let todo = try #require(lines.firstIndex(of: "## Todo"))
        #expect(
            Array(lines[todo...(todo + 4)]) == [
                "## Todo", "", cardLine, "", "- [ ] Switching [[color schemes]] until enlightenment #todo",
            ])
    }

    @Test func obsidianMovingALastCardKeepsTheLaneSpacing() throws {
        let text = try SharedFixtures.text("obsidian-format-super-kanban-demo.md")
        let (board, info) = try BoardFormat.parse(text, file: "demo.md")
        let lua = board.columns[0].cards[3]
        let output = BoardFormat.serialize(moving(board, card: lua.id, toColumn: 3, index: 4), info: info)
        let lines = fileLines(output)
        let todo = try #require(lines.firstIndex(of: "## Todo"))
        #expect(
            Array(lines[(todo - 2)..<todo]) == [
                #"- [ ] Decide whether Kanban is pronounced "kan-ban" or "kahn-bahn" @{2025/6/28}"#, "",
            ])
        let unlisted = try #require(lines.firstIndex(of: "## Unlisted"))
        #expect(
            Array(lines[(unlisted - 4)..<unlisted]) == [
                "- [ ] Fixed it by restarting Neovim and my life @{2025/6/24}", "", "- [ ] Learn Lua… again #someday",
                "",
            ])
        let diff = lineDiff(fileLines(text), lines)
        #expect(diff.removed.sorted() == ["", "- [ ] Learn Lua… again #someday"])
        #expect(diff.added.sorted() == ["", "- [ ] Learn Lua… again #someday"])
    }

    @Test func checkingACardInObsidianChangesItsLineOnly() throws {
        let text = try SharedFixtures.text("obsidian-format-super-kanban-demo.md")
        let (parsed, info) = try BoardFormat.parse(text, file: "demo.md")
        var board = parsed
        board.columns[4].cards[0].done = true
        let diff = lineDiff(fileLines(text), fileLines(BoardFormat.serialize(board, info: info)))
        #expect(diff.removed == ["- [ ] Find a girlfiend #maybe"])
        #expect(diff.added == ["- [x] Find a girlfiend #maybe"])
    }
    // MARK: Trello

    @Test func realNextcloudDeckExportGivesItsOneListAndCard() throws {
        let bytes = try SharedFixtures.bytes("trello-export-nextcloud-deck.json")
        let board = try TrelloImport.board(from: bytes, file: "trello-export-nextcloud-deck.json")
        #expect(board == Board(columns: [Column(title: "TODO", cards: [Card(id: CardID(1), title: "Name Card 7")])]))
        #expect(BoardFormat.serialize(board, as: .taskell) == "## TODO\n\n- Name Card 7\n")
        #expect(
            BoardFormat.serialize(board, as: .obsidian) == """
                ---

                kanban-plugin: board

                ---

                ## TODO

                - [ ] Name Card 7




                %% kanban:settings
                ```
                {"kanban-plugin":"board"}
                ```
                %%
                """)
    }

    @Test func realRESTListsWithCardsKeepTheirOrder() throws {
        let bytes = try SharedFixtures.bytes("taskell-trello-api-lists.json")
        let board = try TrelloImport.board(from: bytes, file: "taskell-trello-api-lists.json")
        #expect(board.columns.map(\.title) == ["List 1", "List 2", "List 3", "List 4", "List 5"])
        #expect(
            board.columns.map { $0.cards.map(\.title) } == [
                ["Item 1", "Item 2", "Item 3", "Item 4"],
                ["Item 1", "Item 2", "Item 3"],
                ["Item 1", "Item 2", "Item 3", "Item 4", "Item 5"],
                ["Item 1"],
                ["Item 1", "Item 2"],
            ])
        #expect(board.allIDs == (1...15).map { CardID(UInt64($0)) })
        #expect(
            board.columns.allSatisfy {
                $0.cards.allSatisfy { $0.subtasks.isEmpty && $0.descriptionLines.isEmpty && $0.due == nil }
            })
    }

    @Test func convertingTheRealFilesBetweenDialectsKeepsTheModel() throws {
        let taskell = try SharedFixtures.text("taskell-roadmap.md")
        let (board, _) = try BoardFormat.parse(taskell, file: "roadmap.md")
        let (again, info) = try BoardFormat.parse(
            BoardFormat.serialize(board, as: .obsidian), file: "roadmap-obsidian.md")
        #expect(info.dialect == .obsidian)
        #expect(again.columns.map(\.title) == board.columns.map(\.title))
        #expect(again.columns.flatMap(\.cards).map(\.title) == board.columns.flatMap(\.cards).map(\.title))

        let demo = try SharedFixtures.text("obsidian-format-super-kanban-demo.md")
        let (lanes, _) = try BoardFormat.parse(demo, file: "demo.md")
        let (back, backInfo) = try BoardFormat.parse(
            BoardFormat.serialize(lanes, as: .taskell), file: "demo-taskell.md")
        #expect(backInfo.dialect == .taskell)
        #expect(back.columns.flatMap(\.cards).map(\.due) == lanes.columns.flatMap(\.cards).map(\.due))
        #expect(back.columns.flatMap(\.cards).map(\.title) == lanes.columns.flatMap(\.cards).map(\.title))
    }
}
