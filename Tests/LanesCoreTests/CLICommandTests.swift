import Foundation
import Testing
import DragKit
@testable import LanesCore

private let board = """
    ## To do

    - Write docs
    - Write tests
    - Fix bug
    - 12

    ## Doing (2)

    - Review
    - write

    ## Done

    - Fix bug

    """

private func load(_ text: String = board) throws -> Board {
    try BoardFormat.parse(text, file: "b.md").board
}

private func titles(_ b: Board) -> [[String]] { b.columns.map { $0.cards.map(\.title) } }

private func commandError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> CommandError?
{
    do {
        try body()
        Issue.record("expected a CommandError", sourceLocation: sourceLocation)
        return nil
    } catch let error as CommandError {
        return error
    } catch {
        Issue.record("expected a CommandError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("CLI: finding cards and columns")
struct CLIQueryTests {
    @Test func numbersCountInFileOrder() throws {
        let b = try load()
        #expect(BoardQuery.path(ofNumber: 1, in: b) == ItemPath(section: 0, item: 0))
        #expect(BoardQuery.path(ofNumber: 5, in: b) == ItemPath(section: 1, item: 0))
        #expect(BoardQuery.path(ofNumber: 7, in: b) == ItemPath(section: 2, item: 0))
        #expect(BoardQuery.path(ofNumber: 8, in: b) == nil)
        #expect(BoardQuery.path(ofNumber: 0, in: b) == nil)
        for n in 1...7 { #expect(BoardQuery.number(of: BoardQuery.path(ofNumber: n, in: b)!, in: b) == n) }
    }

    @Test func exactTitleThenCaseThenPrefix() throws {
        let b = try load()
        #expect(try BoardQuery.card("Review", in: b) == ItemPath(section: 1, item: 0))
        #expect(try BoardQuery.card("review", in: b) == ItemPath(section: 1, item: 0))
        // "write" is an exact title, so it wins over the prefix matches "Write docs" and "Write tests".
        #expect(try BoardQuery.card("write", in: b) == ItemPath(section: 1, item: 1))
        // "Write" matches "write" ignoring case before any prefix.
        #expect(try BoardQuery.card("Write", in: b) == ItemPath(section: 1, item: 1))
        #expect(try BoardQuery.card("write t", in: b) == ItemPath(section: 0, item: 1))
        #expect(try BoardQuery.card("3", in: b) == ItemPath(section: 0, item: 2))
    }

    @Test func ambiguousAndMissingCards() throws {
        let b = try load()
        let twice = try #require(commandError { _ = try BoardQuery.card("Fix bug", in: b) })
        #expect(twice.kind == .badInput && twice.status == 2)
        #expect(
            twice.message
                == "\"Fix bug\" matches 2 cards: 3 \"Fix bug\" (in To do), 7 \"Fix bug\" (in Done); give the card's number or more of its title"
        )
        let prefix = try #require(commandError { _ = try BoardQuery.card("wri", in: b) })
        #expect(prefix.status == 2 && prefix.message.hasPrefix("\"wri\" matches 3 cards"))
        // Card number 12 does not exist, but a card is titled "12": that card.
        #expect(try BoardQuery.card("12", in: b) == ItemPath(section: 0, item: 3))
        // Card number 4 is the card titled "12"; asking for "4" finds it by number.
        #expect(try BoardQuery.card("4", in: b) == ItemPath(section: 0, item: 3))
        let missing = try #require(commandError { _ = try BoardQuery.card("Nothing", in: b) })
        #expect(missing.kind == .notFound && missing.status == 1)
        #expect(missing.message.contains("no card matches \"Nothing\""))
        #expect(try #require(commandError { _ = try BoardQuery.card("99", in: b) }).status == 1)
        #expect(try #require(commandError { _ = try BoardQuery.card("", in: b) }).status == 2)
    }

    @Test func numberThatIsAnotherCardsTitleIsAmbiguous() throws {
        let b = try load("## A\n\n- 2\n- Other\n")
        let e = try #require(commandError { _ = try BoardQuery.card("2", in: b) })
        #expect(e.status == 2 && e.message.contains("matches 2 cards"))
        #expect(try BoardQuery.card("1", in: b) == ItemPath(section: 0, item: 0))
    }

    @Test func columnsByNumberTitleOrPrefix() throws {
        let b = try load()
        #expect(try BoardQuery.column("Doing", in: b) == 1)
        #expect(try BoardQuery.column("done", in: b) == 2)
        #expect(try BoardQuery.column("3", in: b) == 2)
        #expect(try BoardQuery.column("to", in: b) == 0)
        let ambiguous = try #require(commandError { _ = try BoardQuery.column("do", in: b) })
        #expect(
            ambiguous.status == 2
                && ambiguous.message
                    == "\"do\" matches 2 columns: 2 \"Doing\", 3 \"Done\"; give the column's number or more of its title"
        )
        let missing = try #require(commandError { _ = try BoardQuery.column("Later", in: b) })
        #expect(
            missing.status == 1
                && missing.message
                    == "no column matches \"Later\"; the columns are \"To do\", \"Doing\", \"Done\"; lanes column add BOARD \"Later\" adds it"
        )
        // A number names a place: nothing to make.
        let past = try #require(commandError { _ = try BoardQuery.column("4", in: b) })
        #expect(past.status == 1 && !past.message.contains("column add"))
    }
}

@Suite("CLI: add and move")
struct CLIEditTests {
    @Test func addAppendsOrPrepends() throws {
        var b = try load()
        let end = try BoardCommands.add(&b, column: "to do", title: "  New one ")
        #expect(end == .init(number: 5, title: "New one", column: "To do", position: 5, changed: true))
        let top = try BoardCommands.add(&b, column: "3", title: "First", top: true)
        #expect(top == .init(number: 8, title: "First", column: "Done", position: 1, changed: true))
        #expect(
            titles(b) == [
                ["Write docs", "Write tests", "Fix bug", "12", "New one"], ["Review", "write"], ["First", "Fix bug"],
            ])
        #expect(Set(b.allIDs).count == b.cardCount)
    }

    @Test func addRefusesBadTitlesAndFullColumns() throws {
        var b = try load()
        let before = b
        #expect(try #require(commandError { _ = try BoardCommands.add(&b, column: "To do", title: "  ") }).status == 2)
        #expect(
            try #require(commandError { _ = try BoardCommands.add(&b, column: "To do", title: "a\nb") }).status == 2)
        let full = try #require(commandError { _ = try BoardCommands.add(&b, column: "Doing", title: "More") })
        #expect(full.status == 2 && full.message == "column \"Doing\" is full (WIP limit 2)")
        // The refusal rides along, so the command line can say that --force adds anyway.
        #expect(full.refused?.asked == .add && full.refused?.refusal.forceLifts == true)
        #expect(try #require(commandError { _ = try BoardCommands.add(&b, column: "Nowhere", title: "x") }).status == 1)
        #expect(b == before)
        _ = try BoardCommands.add(&b, column: "Doing", title: "More", force: true)
        #expect(b.columns[1].cards.count == 3)
    }

    @Test func moveToEndOrPosition() throws {
        var b = try load()
        let p = try BoardCommands.move(&b, card: "Review", to: "Done")
        #expect(p == .init(number: 7, title: "Review", column: "Done", position: 2, changed: true))
        #expect(titles(b)[2] == ["Fix bug", "Review"])
        _ = try BoardCommands.move(&b, card: "write t", to: "Done", position: 1)
        #expect(titles(b) == [["Write docs", "Fix bug", "12"], ["write"], ["Write tests", "Fix bug", "Review"]])
    }

    @Test func moveInsideAColumnCountsWithoutTheCard() throws {
        var b = try load()
        _ = try BoardCommands.move(&b, card: "1", to: "To do", position: 3)
        #expect(titles(b)[0] == ["Write tests", "Fix bug", "Write docs", "12"])
        _ = try BoardCommands.move(&b, card: "Write docs", to: "To do")
        #expect(titles(b)[0] == ["Write tests", "Fix bug", "12", "Write docs"])
        let same = try BoardCommands.move(&b, card: "Write docs", to: "To do", position: 4)
        #expect(!same.changed && same.position == 4)
        let badPosition = try #require(
            commandError { _ = try BoardCommands.move(&b, card: "Write docs", to: "To do", position: 5) })
        #expect(badPosition.status == 2 && badPosition.message == "position 5 is outside column \"To do\"; use 1 to 4")
        #expect(
            try #require(commandError { _ = try BoardCommands.move(&b, card: "Write docs", to: "Done", position: 0) })
                .status == 2)
    }

    @Test func moveRespectsWIPLimitsUnlessForced() throws {
        var b = try load()
        let ids = b.allIDs
        let full = try #require(commandError { _ = try BoardCommands.move(&b, card: "12", to: "Doing") })
        #expect(full.status == 2 && full.message.contains("is full (WIP limit 2)"))
        // Reordering inside a full column is fine.
        _ = try BoardCommands.move(&b, card: "write", to: "Doing", position: 1)
        #expect(titles(b)[1] == ["write", "Review"])
        _ = try BoardCommands.move(&b, card: "12", to: "Doing", force: true)
        #expect(titles(b)[1] == ["write", "Review", "12"])
        #expect(Set(b.allIDs) == Set(ids))
    }

    @Test func showNumbersCardsAndColumns() throws {
        let text = "## To do\n\n- One\n    @ 2024-01-31\n    > about\n    * [x] a\n    * [ ] b\n- Two\n\n## Empty (3)\n"
        let (b, info) = try BoardFormat.parse(text, file: "b.md")
        #expect(
            BoardCommands.show(b, info: info) == """
                Column 1: To do (2 cards)
                  1. One   due 2024-01-31   sub-tasks 1/2
                  2. Two

                Column 2: Empty (0 cards, limit 3)
                  (no cards)

                """)
        #expect(
            BoardCommands.show(b, info: info, details: true).contains(
                "  1. One   due 2024-01-31   sub-tasks 1/2\n       > about\n       [x] a\n       [ ] b\n  2. Two\n"))
        #expect(BoardCommands.columns(b) == "1\tTo do\t2\n2\tEmpty\t0/3\n")
        #expect(BoardCommands.printable("a\u{1B}[31mb\tc") == "a^[[31mb^Ic")
    }
}

@Suite("CLI: editing files")
struct CLIFileTests {
    @Test func editSavesInTheFilesOwnDialectAndStyle() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("o.md")
        let original =
            "---\nkanban-plugin: basic\n---\n\n## A\n\n- [ ] one\n\n- [x] two\n\n## B\n\n- [ ] three\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n"
        writeBehindTheBack(Array(original.utf8), to: path)
        _ = try BoardCommands.edit(path) { b in try BoardCommands.move(&b, card: "one", to: "B", position: 1) }
        let after = String(decoding: contents(of: path)!, as: UTF8.self)
        #expect(
            after
                == "---\nkanban-plugin: basic\n---\n\n## A\n\n- [x] two\n\n## B\n\n- [ ] one\n\n- [ ] three\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n"
        )
        #expect(folder.entries() == ["o.md"])  // no lock or temp files left behind
    }

    @Test func errorsLeaveTheFileUntouched() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("b.md")
        writeBehindTheBack(Array(board.utf8), to: path)
        #expect(throws: CommandError.self) {
            try BoardCommands.edit(path) { b in try BoardCommands.move(&b, card: "Fix bug", to: "Doing") }
        }
        #expect(contents(of: path) == Array(board.utf8))
        let broken = "## A\n- x\n  not a detail\n"
        writeBehindTheBack(Array(broken.utf8), to: path)
        do {
            _ = try BoardCommands.edit(path) { b in try BoardCommands.add(&b, column: "A", title: "y") }
            Issue.record("expected a parse error")
        } catch let error as ParseError {
            #expect(error.file == path && error.line == 3)
            #expect(error.description.hasPrefix("\(path):3: "))
        }
        #expect(contents(of: path) == Array(broken.utf8))
        #expect(folder.entries() == ["b.md"])
    }

    @Test func editRefusesAReadOnlyBoardAndAMissingFile() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("b.md")
        writeBehindTheBack(Array(board.utf8), to: path)
        chmod(path, 0o444)
        do {
            _ = try BoardCommands.edit(path) { b in try BoardCommands.add(&b, column: "To do", title: "y") }
            Issue.record("expected the read-only board to be refused")
        } catch let error as StorageError {
            #expect(error == .readOnly(path: path))
        }
        #expect(contents(of: path) == Array(board.utf8))
        #expect(folder.entries() == ["b.md"])
        do {
            _ = try BoardCommands.edit(folder.file("none.md")) { _ in 0 }
            Issue.record("expected not found")
        } catch let error as StorageError {
            #expect(error == .notFound(path: folder.file("none.md")))
        }
        #expect(folder.entries() == ["b.md"])
    }

    @Test func importTrelloRefusesToOverwriteUnlessForced() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let input = folder.file("t.json")
        let output = folder.file("out.md")
        writeBehindTheBack(
            Array(
                #"{"lists": [{"id": "l", "name": "L", "pos": 1}], "cards": [{"id": "c", "idList": "l", "name": "Hi", "pos": 1}]}"#
                    .utf8), to: input)
        let summary = try BoardCommands.importTrello(
            from: input, to: output, dialect: .taskell, options: .init(), force: false)
        #expect(summary == "Imported 1 list and 1 card into \(output) (taskell).")
        #expect(String(decoding: contents(of: output)!, as: UTF8.self) == "## L\n\n- Hi\n")
        writeBehindTheBack(Array("keep me".utf8), to: output)
        #expect(throws: StorageError.exists(path: output)) {
            try BoardCommands.importTrello(from: input, to: output, dialect: .obsidian, options: .init(), force: false)
        }
        #expect(contents(of: output) == Array("keep me".utf8))
        _ = try BoardCommands.importTrello(from: input, to: output, dialect: .obsidian, options: .init(), force: true)
        #expect(
            String(decoding: contents(of: output)!, as: UTF8.self).hasPrefix(
                "---\n\nkanban-plugin: board\n\n---\n\n## L\n\n- [ ] Hi\n"))
        #expect(folder.entries() == ["out.md", "t.json"])
    }
}
