import Foundation
import Testing
import DragKit
@testable import LanesCore

/// The committed fixtures in Tests/Fixtures, one per dialect feature Lanes reads; every
/// clone has them. (Real files from the tools themselves: InteropSharedFixturesTests.)
@Suite("Formats: the committed taskell and Obsidian Kanban fixtures")
struct FormatsFixtureTests {
    @Test func fixturesAreFoundUnderTheTestsFolder() {
        let dir = Fixtures.directory("/home/someone/lanes/Tests/LanesCoreTests/FormatsFixtureTests.swift")
        #expect(dir.path == "/home/someone/lanes/Tests/Fixtures")
        let shared = SharedFixtures.directory("/work/some-worktree/Tests/LanesCoreTests/FormatsFixtureTests.swift")
        #expect(shared.path == "/work/shared/fixtures")
    }

    @Test func aMissingFixtureFailsTheTestWithThePath() {
        withKnownIssue {
            // #require records the issue, then throws to stop the test.
            _ = try? Fixtures.bytes("nothing-here.md")
        } matching: { issue in
            issue.description.contains("fixture file missing: ")
                && issue.description.contains("Tests/Fixtures/nothing-here.md")
        }
    }

    // MARK: taskell

    @Test func taskellFixtureLoads() throws {
        let bytes = try Fixtures.bytes("taskell-release-plan.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "taskell-release-plan.md")
        #expect(info.dialect == .taskell)
        #expect(info.layout == BoardLayout.standard(for: .taskell))
        #expect(info.endsWithNewline && !info.hasByteOrderMark && info.lineEnding == .lf)
        #expect(board.columns.map(\.title) == ["Inbox", "Doing", "Review", "Done"])
        #expect(board.columns.map(\.wipLimit) == [nil, 3, nil, nil])
        #expect(board.columns.map(\.cards.count) == [3, 3, 1, 2])
        #expect(board.allIDs == (1...9).map { CardID(UInt64($0)) })

        let inbox = board.columns[0].cards
        #expect(
            inbox[0]
                == Card(
                    id: CardID(1), title: "Collect feedback from the beta testers",
                    descriptionLines: [
                        "Ask in the forum thread and on the mailing list.", "Summarise what people tripped over first.",
                    ]))
        #expect(inbox[1] == Card(id: CardID(2), title: "Decide on a logo"))
        #expect(inbox[2] == Card(id: CardID(3), title: "設計レビューの準備", descriptionLines: ["次の会議までに資料をまとめる"]))

        let doing = board.columns[1].cards
        #expect(
            doing[0]
                == Card(
                    id: CardID(4), title: "Rewrite the importer", due: "2026-12-01",
                    descriptionLines: ["The old one read the whole file into memory."],
                    subtasks: [
                        Subtask("Read lists in pos order", done: true), Subtask("Skip closed lists", done: true),
                        Subtask("Map labels to tags"), Subtask("Write the tests"),
                    ]))
        #expect(
            doing[1]
                == Card(
                    id: CardID(5), title: "Fix the crash on resize 🐛", subtasks: [Subtask("Reproduce at 20 columns")]))
        #expect(doing[2].title == "Café menu: naïve “smart” quotes")
        #expect(board.columns[2].cards == [Card(id: CardID(7), title: "Update the man page", due: "2026-11-30")])
        #expect(board.columns[3].cards[0].subtasks.map(\.done) == [true, true])
        #expect(board.columns.flatMap(\.cards).allSatisfy { !$0.done && $0.extraLines.isEmpty })
    }

    @Test func taskellFixtureSavesBackByteForByte() throws {
        let bytes = try Fixtures.bytes("taskell-release-plan.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "taskell-release-plan.md")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
        // With no file info at all, taskell's own style gives the same bytes.
        #expect(Array(BoardFormat.serialize(board, as: .taskell).utf8) == bytes)
    }

    @Test func taskellMoveToAnotherColumnChangesOnlyThatCardsLines() throws {
        let text = try Fixtures.text("taskell-release-plan.md")
        let (board, info) = try BoardFormat.parse(text, file: "plan.md")
        let feedback = board.columns[0].cards[0].id
        let output = BoardFormat.serialize(moving(board, card: feedback, toColumn: 2, index: 1), info: info)
        let block = [
            "- Collect feedback from the beta testers",
            "    > Ask in the forum thread and on the mailing list.",
            "    > Summarise what people tripped over first.",
        ]
        let diff = lineDiff(fileLines(text), fileLines(output))
        #expect(diff.removed == block)
        #expect(diff.added == block)
        let lines = fileLines(output)
        let review = try #require(lines.firstIndex(of: "## Review"))
        #expect(
            Array(lines[review...(review + 6)]) == ["## Review", "", "- Update the man page", "    @ 2026-11-30"]
                + block)
        let reparsed = try BoardFormat.parse(output, file: "plan.md").board
        #expect(reparsed.columns.map(\.cards.count) == [2, 3, 2, 2])
        #expect(reparsed.columns[2].cards[1].descriptionLines == board.columns[0].cards[0].descriptionLines)
    }

    @Test func taskellTickingASubtaskChangesItsLineOnly() throws {
        let text = try Fixtures.text("taskell-release-plan.md")
        let (parsed, info) = try BoardFormat.parse(text, file: "plan.md")
        var board = parsed
        board.columns[1].cards[0].subtasks[2].done = true
        let diff = lineDiff(fileLines(text), fileLines(BoardFormat.serialize(board, info: info)))
        #expect(diff.removed == ["    * [ ] Map labels to tags"])
        #expect(diff.added == ["    * [x] Map labels to tags"])
    }

    // MARK: Obsidian

    static let gardenSettings = [
        "%% kanban:settings", "```",
        #"{"kanban-plugin":"board","lane-width":300,"show-checkboxes":true,"date-format":"YYYY-MM-DD"}"#,
        "```", "%%",
    ]

    @Test func obsidianFixtureLoadsWithFrontMatterArchiveAndSettings() throws {
        let bytes = try Fixtures.bytes("obsidian-garden.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "garden.md")
        #expect(info.dialect == .obsidian)
        #expect(info.frontmatter == ["---", "", "kanban-plugin: board", "tags: [home, garden]", "", "---"])
        #expect(info.preamble == [""])
        #expect(info.settings == Self.gardenSettings)
        #expect(
            info.archive == [
                "***", "", "## Archive", "", "- [x] Paint the fence @{2026-09-01}", "- [x] Harvest the apples", "", "",
            ])
        #expect(info.epilogue.isEmpty)
        #expect(
            info.layout
                == BoardLayout(
                    blankLinesAfterHeading: 1, blankLinesBetweenCards: 1,
                    blankLinesBetweenColumns: 1, blankLinesAfterColumns: 2))
        #expect(board.columns.map(\.title) == ["Ideas", "This week", "Done"])
        #expect(board.columns.map(\.wipLimit) == [nil, 2, nil])
        #expect(board.columns.map(\.cards.count) == [3, 2, 2])
        #expect(board.allIDs == (1...7).map { CardID(UInt64($0)) })

        let ideas = board.columns[0].cards
        #expect(ideas[0] == Card(id: CardID(1), title: "Plant garlic before the frost #garden", due: "2026-11-28"))
        #expect(ideas[0].tags == ["garden"])
        #expect(ideas[1] == Card(id: CardID(2), title: "Fix the shed door [[Shed]] #repair"))
        #expect(
            ideas[2]
                == Card(
                    id: CardID(3), title: "Read “The Overstory” #books",
                    extraLines: ["\tborrowed from Ana, give back by March"]))
        #expect(board.columns[1].cards[0] == Card(id: CardID(4), title: "Call the plumber #urgent", due: "2026-11-24"))

        let done = board.columns[2]
        #expect(done.extraLines == ["**Complete**", ""])
        #expect(done.marksCardsComplete && !board.columns[0].marksCardsComplete && !board.columns[1].marksCardsComplete)
        #expect(
            done.cards == [
                Card(id: CardID(6), title: "Clean the gutters", due: "2026-11-15", done: true),
                Card(id: CardID(7), title: "Order firewood #winter", done: true),
            ])
        // Archived cards stay in the archive text: they are not on the board.
        #expect(!board.columns.flatMap(\.cards).contains { $0.title.hasPrefix("Paint the fence") })
    }

    @Test func obsidianFixtureSavesBackByteForByte() throws {
        let bytes = try Fixtures.bytes("obsidian-garden.md")
        let (board, info) = try BoardFormat.parse(bytes, file: "garden.md")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
    }

    @Test func obsidianMoveIntoTheCompleteLaneLeavesArchiveAndSettingsAlone() throws {
        let text = try Fixtures.text("obsidian-garden.md")
        let (board, info) = try BoardFormat.parse(text, file: "garden.md")
        let rake = board.columns[1].cards[1]
        let output = BoardFormat.serialize(moving(board, card: rake.id, toColumn: 2, index: 2), info: info)
        let diff = lineDiff(fileLines(text), fileLines(output))
        #expect(diff.removed.sorted() == ["", "- [ ] Rake the leaves"])
        #expect(diff.added.sorted() == ["", "- [ ] Rake the leaves"])
        let lines = fileLines(output)
        let firewood = try #require(lines.firstIndex(of: "- [x] Order firewood #winter"))
        #expect(
            Array(lines[firewood...(firewood + 5)]) == [
                "- [x] Order firewood #winter", "", "- [ ] Rake the leaves", "", "", "***",
            ])
        let (_, again) = try BoardFormat.parse(output, file: "garden.md")
        #expect(
            again.archive == info.archive && again.settings == Self.gardenSettings
                && again.frontmatter == info.frontmatter)
    }

    @Test func obsidianCheckingACardChangesItsLineOnly() throws {
        let text = try Fixtures.text("obsidian-garden.md")
        let (parsed, info) = try BoardFormat.parse(text, file: "garden.md")
        var board = parsed
        board.columns[0].cards[1].done = true
        let diff = lineDiff(fileLines(text), fileLines(BoardFormat.serialize(board, info: info)))
        #expect(diff.removed == ["- [ ] Fix the shed door [[Shed]] #repair"])
        #expect(diff.added == ["- [x] Fix the shed door [[Shed]] #repair"])
    }
}
