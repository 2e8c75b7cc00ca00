import DragKit
import Foundation
import Testing
@testable import LanesCore

private func parse(_ text: String, file: String = ".b.md.lanes") throws -> AcceptRules {
    try AcceptRules.parse(Array(text.utf8), file: file)
}

private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    do {
        _ = try parse(text)
        Issue.record("expected a parse error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return "\(error)"
    }
}

/// To do · Review · Doing · Done, one card each, with `rules`.
private func board(_ rules: String = "", limits: [Int?] = [nil, nil, nil, nil]) throws -> Board {
    var b = try BoardFormat.parse(
        "## To do\n\n- t\n\n## Review\n\n- r\n\n## Doing\n\n- d\n\n## Done\n\n- x\n", file: "b.md"
    ).board
    for (i, l) in limits.enumerated() { b.columns[i].wipLimit = l }
    b.acceptRules = try parse(rules)
    return b
}

@Suite("Accept rules: the file format")
struct AcceptRulesFormatTests {
    @Test func parsesQuotedAndBareNamesCommentsAndBlankLines() throws {
        let text = """
            # Review is the only way into Done.

            accept "Done" from "Review"
              accept Doing from "To do" Review   # two ways in
            accept "Say \\"hi\\"" from "back\\\\slash" "#1"

            """
        let rules = try parse(text)
        #expect(
            rules.rules == [
                AcceptRule(column: "Done", sources: ["Review"]),
                AcceptRule(column: "Doing", sources: ["To do", "Review"]),
                AcceptRule(column: "Say \"hi\"", sources: ["back\\slash", "#1"]),
            ])
        #expect(rules.sources(for: "Doing") == ["To do", "Review"])
        #expect(rules.sources(for: "To do") == nil)
        // Comments, blank lines and a rule's trailing comment are kept; rules are written canonically.
        #expect(
            rules.serialized() == """
                # Review is the only way into Done.

                accept "Done" from "Review"
                accept "Doing" from "To do" "Review"   # two ways in
                accept "Say \\"hi\\"" from "back\\\\slash" "#1"

                """)
    }

    @Test func roundTripsAnyTitle() throws {
        let names = [
            "Done", "To do", "a \"quoted\" one", "back\\slash\\", "#hash", "comma, inside", "naïve 日本", "tab\there",
            "esc\u{1B}[31m",
            // A quote or a backslash with a combining mark after it: still one to escape.
            "\"\u{301}lead", "trail\\\u{301}", "日\"本\\",
        ]
        var rules = AcceptRules()
        for (i, n) in names.enumerated() { rules.setSources([names[(i + 1) % names.count], "Done"], for: n) }
        let text = rules.serialized()
        #expect(text.hasPrefix(AcceptRules.header + "\n"))
        let again = try parse(text)
        #expect(again == rules)
        #expect(again.serialized() == text)
    }

    @Test func crlfAndByteOrderMarkAreRead() throws {
        let rules = try AcceptRules.parse(
            [0xEF, 0xBB, 0xBF] + Array("accept Done from Review\r\n# c\r\n".utf8), file: "f")
        #expect(rules.rules == [AcceptRule(column: "Done", sources: ["Review"])])
    }

    @Test func errorsNameTheFileAndLine() {
        #expect(
            parseError("# ok\nallow \"Done\" from \"Review\"\n")
                == ".b.md.lanes:2: expected accept \"COLUMN\" from \"COLUMN\" …, found \"allow \"Done\" from \"Review\"\""
        )
        #expect(parseError("accept\n") == ".b.md.lanes:1: expected the column's name after accept, found \"accept\"")
        #expect(
            parseError("\naccept \"Done\" \"Review\"\n")
                == ".b.md.lanes:2: expected from after accept \"Done\", found \"accept \"Done\" \"Review\"\"")
        #expect(
            parseError("accept Done from   # nothing\n")
                == ".b.md.lanes:1: accept \"Done\" from no column: name at least one after from, or remove the line")
        #expect(
            parseError("accept \"Done from Review\n") == ".b.md.lanes:1: a quoted name is not closed (a \" is missing)")
        #expect(
            parseError("accept \"Do\\ne\" from Review\n")
                == ".b.md.lanes:1: only \\\" and \\\\ may follow a backslash in a quoted name")
        #expect(
            parseError("accept \"Done\"x from Review\n")
                == ".b.md.lanes:1: expected a space after the quoted name \"Done\"")
        #expect(
            parseError("accept Done from Re#view\n") == ".b.md.lanes:1: a name with # must be written in double quotes")
        #expect(
            parseError("accept Done from Review\n\naccept Done from Doing\n")
                == ".b.md.lanes:3: a second rule for \"Done\" (the first is on line 1); put all its columns on one line"
        )
        #expect(
            parseError("accept Done from Review\naccept Doing from \u{0}x\n")
                == ".b.md.lanes:2: NUL byte at byte 19 of the line")
    }

    @Test func invalidUTF8IsAnError() {
        #expect(throws: ParseError(file: "f", line: 2, message: "invalid UTF-8 (byte 0xFF at byte 18 of the line)")) {
            try AcceptRules.parse(Array("# fine\naccept Done from ".utf8) + [0xFF, 0x0A], file: "f")
        }
    }

    @Test func settingKeepsLinesAndRemovingLeavesADisposableFile() throws {
        var rules = try parse("# mine\naccept Done from Review # why\n")
        rules.setSources(["Review", "Doing", "Review"], for: "Done")
        rules.setSources(["To do"], for: "Doing")
        #expect(
            rules.serialized()
                == "# mine\naccept \"Done\" from \"Review\" \"Doing\" # why\naccept \"Doing\" from \"To do\"\n")
        rules.setSources(nil, for: "Done")
        rules.setSources([], for: "Doing")
        #expect(rules.isEmpty)
        #expect(!rules.isDisposable, "a person's comment is worth keeping")
        var fresh = AcceptRules()
        fresh.setSources(["Review"], for: "Done")
        #expect(!fresh.isDisposable)
        fresh.setSources(nil, for: "Done")
        #expect(fresh.isEmpty && fresh.isDisposable)
    }
}

extension Board {
    /// Whether the rules let a card from `source` into `target` (always inside one column).
    fileprivate func rulesAllow(into target: Int, from source: Int) -> Bool {
        target == source || allowedSources(of: target).map { $0.contains(source) } ?? true
    }

    /// Whether the door lets a card from `source` into `target`: WIP limit and accept rule both.
    fileprivate func canMove(into target: Int, from source: Int) -> Bool {
        moveRefusal(into: target, from: [source]) == nil
    }
}

@Suite("Accept rules: the board under its rules")
struct AcceptRulesBoardTests {
    @Test func onlyListedSourcesAreAllowedAndInsideAColumnAlways() throws {
        let b = try board("accept Done from Review Doing\n")
        #expect(b.allowedSources(of: 3) == [1, 2])
        #expect(b.allowedSources(of: 2) == nil)
        #expect(!b.rulesAllow(into: 3, from: 0))
        #expect(b.rulesAllow(into: 3, from: 1))
        #expect(b.rulesAllow(into: 3, from: 3))
        #expect(b.rulesAllow(into: 0, from: 3))
        #expect(
            b.moveRefusal(into: 3, from: [0])?.words
                == "column \"Done\" accepts cards only from \"Review\" or \"Doing\", not from \"To do\"")
        #expect(b.moveRefusal(into: 3, from: [2]) == nil)
    }

    @Test func rulesAndWIPLimitsMustBothAllow() throws {
        let b = try board("accept Done from Review\n", limits: [nil, nil, 1, 1])
        #expect(!b.canMove(into: 3, from: 1), "Done is full")
        #expect(!b.canMove(into: 3, from: 0), "refused and full")
        #expect(!b.canMove(into: 2, from: 0), "Doing is full")
        #expect(b.canMove(into: 3, from: 3), "inside a column always")
        var roomy = b
        roomy.columns[3].wipLimit = 2
        #expect(roomy.canMove(into: 3, from: 1))
        #expect(!roomy.canMove(into: 3, from: 0))
        #expect(roomy.canMove(into: 1, from: 0))
    }

    @Test func namesOfNoColumnMatchNothingAndAreReported() throws {
        let b = try board("accept Done from Reviw\naccept Archive from Done\n")
        #expect(b.allowedSources(of: 3) == [])
        #expect(
            b.moveRefusal(into: 3, from: [1])?.words
                == "column \"Done\" accepts cards only from \"Reviw\" (no such column), not from \"Review\"")
        #expect(b.unknownRuleColumns == ["Reviw", "Archive"])
        // A rule for a column that does not exist changes nothing.
        #expect(b.allowedSources(of: 0) == nil)
    }

    @Test func renamingAColumnRenamesItInTheRules() throws {
        var b = try board("accept Done from Review Doing\naccept Review from Doing\n")
        b.renameColumn(at: 1, to: "QA")
        #expect(
            b.acceptRules.rules == [
                AcceptRule(column: "Done", sources: ["QA", "Doing"]),
                AcceptRule(column: "QA", sources: ["Doing"]),
            ])
        b.renameColumn(at: 3, to: "Shipped")
        #expect(b.acceptRules.sources(for: "Shipped") == ["QA", "Doing"])
        #expect(b.rulesAllow(into: 3, from: 1) && !b.rulesAllow(into: 3, from: 0))
    }

    @Test func renamingOntoARuledTitleMergesTheRules() throws {
        var rules = try parse("accept A from X\naccept B from Y X\n")
        rules.renameColumn("B", to: "A")
        #expect(rules.rules == [AcceptRule(column: "A", sources: ["X", "Y"])])
    }

    @Test func aTitleSharedByTwoColumnsKeepsItsRulesWhenOneIsRenamedOrDeleted() throws {
        var b = try board("accept Done from Review\n")
        b.columns.append(Column(title: "Review"))
        b.renameColumn(at: 1, to: "QA")
        #expect(b.acceptRules.sources(for: "Done") == ["Review"], "the other Review still has the title")
        #expect(b.allowedSources(of: 3) == [4])
        // Deleting the last column called Review takes it out of the rule, which goes.
        #expect(b.removeColumn(at: 4) == ["Done"])
        #expect(b.acceptRules.isEmpty)
        var c = try board("accept Done from Review\n")
        c.columns.append(Column(title: "Review"))
        #expect(c.removeColumn(at: 1) == [])
        #expect(c.acceptRules.sources(for: "Done") == ["Review"])
    }

    @Test func deletingAColumnRemovesItFromTheRules() throws {
        var b = try board(
            "# keep me\naccept Done from Review Doing\naccept Doing from Review\naccept Review from To\\ do\n")
        let opened = b.removeColumn(at: 1)
        #expect(opened == ["Doing"])
        #expect(b.columns.map(\.title) == ["To do", "Doing", "Done"])
        #expect(b.acceptRules.serialized() == "# keep me\naccept \"Done\" from \"Doing\"\n")
        #expect(b.allowedSources(of: 2) == [1])
        #expect(b.allowedSources(of: 1) == nil)
    }
}

@Suite("Accept rules: the sidecar file")
struct AcceptRulesStorageTests {
    let boardText = "## To do\n\n- t\n\n## Review\n\n- r\n\n## Done\n"

    @Test func theStoreReadsAndWritesTheSidecarBesideTheBoard() throws {
        let dir = ScratchFolder()
        defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(boardText.utf8), to: path)
        writeBehindTheBack(Array("# why\naccept Done from Review\n".utf8), to: dir.file(".b.md.lanes"))
        var stored: (store: FileBoardStore, board: Board, created: Bool)? = try FileBoardStore.open(path, starter: nil)
        var b = stored!.board
        #expect(stored!.store.rulesPath == dir.file(".b.md.lanes"))
        #expect(b.acceptRules.sources(for: "Done") == ["Review"])
        let boardBefore = lstatOrNil(path)!

        // Only the rules changed: the board file is not rewritten.
        let base = b
        b.acceptRules.setSources(["Review", "To do"], for: "Done")
        #expect(try stored!.store.commit(base: base, ours: b).board == b)
        #expect(
            contents(of: dir.file(".b.md.lanes")) == Array("# why\naccept \"Done\" from \"Review\" \"To do\"\n".utf8))
        #expect(lstatOrNil(path)!.st_ino == boardBefore.st_ino)
        #expect(contents(of: path) == Array(boardText.utf8))
        let rulesBefore = lstatOrNil(dir.file(".b.md.lanes"))!
        #expect(try stored!.store.commit(base: b, ours: b).board == b)
        #expect(lstatOrNil(dir.file(".b.md.lanes"))!.st_ino == rulesBefore.st_ino, "nothing to store: nothing written")

        // No lock file is ever made; the store leaves only the board and its rules.
        stored = nil
        #expect(dir.entries() == [".b.md.lanes", "b.md"])
        #expect(try FileBoardStore.load(path).board.acceptRules == b.acceptRules)
    }

    @Test func aRulesFileLanesCreatedIsDeletedWhenItsLastRuleGoes() throws {
        let dir = ScratchFolder()
        defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(boardText.utf8), to: path)
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        var b = board
        b.acceptRules.setSources(["Review"], for: "Done")
        #expect(try store.commit(base: board, ours: b).board == b)
        #expect(
            String(decoding: contents(of: dir.file(".b.md.lanes"))!, as: UTF8.self)
                == AcceptRules.header + "\naccept \"Done\" from \"Review\"\n")
        let withRule = b
        b.acceptRules.setSources(nil, for: "Done")
        #expect(try store.commit(base: withRule, ours: b).board == b)
        #expect(contents(of: dir.file(".b.md.lanes")) == nil)
        #expect(contents(of: path) == Array(boardText.utf8))
    }

    @Test func aMalformedRulesFileStopsTheOpenWithFileAndLine() throws {
        let dir = ScratchFolder()
        defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(boardText.utf8), to: path)
        writeBehindTheBack(Array("accept Done from Review\naccept Done\n".utf8), to: dir.file(".b.md.lanes"))
        #expect(
            throws: ParseError(
                file: dir.file(".b.md.lanes"), line: 2,
                message: "expected from after accept \"Done\", found \"accept Done\"")
        ) {
            _ = try FileBoardStore.open(path, starter: nil)
        }
        #expect(throws: ParseError.self) { _ = try FileBoardStore.load(path) }
        // The failed open released its lock and touched nothing.
        #expect(dir.entries() == [".b.md.lanes", "b.md"])
    }

    @Test func aSymlinkedBoardUsesTheRulesBesideItsRealFile() throws {
        let dir = ScratchFolder()
        defer { dir.remove() }
        mkdir(dir.file("real"), 0o755)
        writeBehindTheBack(Array(boardText.utf8), to: dir.file("real/b.md"))
        writeBehindTheBack(Array("accept Done from Review\n".utf8), to: dir.file("real/.b.md.lanes"))
        symlink("real/b.md", dir.file("link.md"))
        #expect(SettingsSidecar.path(forBoard: dir.file("link.md")) == dir.file("real/.b.md.lanes"))
        #expect(try FileBoardStore.load(dir.file("link.md")).board.acceptRules.sources(for: "Done") == ["Review"])
    }

    @Test func rulesEditedOnDiskAreSeenAndReloaded() throws {
        let dir = ScratchFolder()
        defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(boardText.utf8), to: path)
        let (store, _, _) = try FileBoardStore.open(path, starter: nil)
        #expect(!store.looksChangedOnDisk())
        #expect(try store.refresh() == nil)
        writeBehindTheBack(Array("accept Review from Done\n".utf8), to: dir.file(".b.md.lanes"))
        #expect(store.looksChangedOnDisk())
        #expect(try store.refresh()?.acceptRules.sources(for: "Review") == ["Done"])
        #expect(!store.looksChangedOnDisk())
        #expect(try store.refresh() == nil)
    }
}

@Suite("Accept rules: scripting commands")
struct AcceptRulesCommandTests {
    @Test func moveRefusesWhatTheRulesForbidUnlessForced() throws {
        var b = try board("accept Done from Review\n")
        let refused = try #require(
            #expect(throws: CommandError.self) { _ = try BoardCommands.move(&b, card: "t", to: "Done") })
        #expect(refused.message == "column \"Done\" accepts cards only from \"Review\", not from \"To do\"")
        #expect(refused.refused?.asked == .move && refused.refused?.refusal.reason == .acceptRule)
        #expect(b.columns[3].cards.map(\.title) == ["x"])
        #expect(try BoardCommands.move(&b, card: "r", to: "Done").changed)
        #expect(try BoardCommands.move(&b, card: "t", to: "Done", force: true).changed)
        // Inside the column and out of it are not the rule's business.
        #expect(try BoardCommands.move(&b, card: "t", to: "Done", position: 1).changed)
        #expect(try BoardCommands.move(&b, card: "t", to: "To do").changed)
    }

    @Test func rulesListAndSet() throws {
        var b = try board()
        #expect(BoardCommands.rules(b) == "# no accept rules: every column accepts cards from every column\n")
        #expect(
            try BoardCommands.setRule(&b, column: "done", from: ["Rev", "3"])
                == "\"Done\" accepts cards only from \"Review\" or \"Doing\".")
        b.acceptRules.setSources(["Gone"], for: "Archive")
        #expect(
            BoardCommands.rules(b) == """
                accept "Done" from "Review" "Doing"
                accept "Archive" from "Gone"
                # "Archive" is no column of this board: it matches nothing
                # "Gone" is no column of this board: it matches nothing

                """)
        #expect(try BoardCommands.setRule(&b, column: "4", from: []) == "\"Done\" accepts cards from every column.")
        #expect(b.acceptRules.sources(for: "Done") == nil)
        #expect(throws: CommandError.self) { try BoardCommands.setRule(&b, column: "Done", from: ["Nope"]) }
        let own = try #require(
            #expect(throws: CommandError.self) { try BoardCommands.setRule(&b, column: "Done", from: ["Done"]) })
        #expect(own.message == "a column always takes its own cards; name another column to accept from")
        #expect(own.refused?.asked == .acceptRule && own.refused?.refusal.reason == .name)
    }
}
