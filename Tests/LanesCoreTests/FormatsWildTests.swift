import Foundation
import TestSupport
import Testing
import DragKit
@testable import LanesCore

/// Shapes of Obsidian Kanban boards seen in public notes (docs/FORMATS.md): each opens, keeps
/// every byte, and takes edits that touch only their own lines.
@Suite("Formats: boards from the wild")
struct FormatsWildTests {
    static let head = "---\nkanban-plugin: board\n---\n\n"

    /// Opens, and saves back byte for byte.
    func opens(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Board, BoardFileInfo) {
        let (board, info) = try parseOK(text, sourceLocation: sourceLocation)
        #expect(BoardFormat.serialize(board, info: info) == text, "round trip", sourceLocation: sourceLocation)
        return (board, info)
    }

    static let settingsVariants: [(String, String, Bool)] = [
        (
            "a blank line between the marker and the fence",
            "## A\n\n- [ ] a\n\n\n%% kanban:settings\n\n```\n{\"kanban-plugin\":\"board\"}\n```\n\n%%\n", true
        ),
        ("a bare marker at the end", "## A\n\n- [ ] a\n\n%% kanban:settings\n", false),
        ("a bare marker with no line ending", "## A\n\n- [ ] a\n\n%% kanban:settings", false),
        ("a block never closed", "## A\n\n- [ ] a\n\n%% kanban:settings\n```\n{}\n```\n", false),
        ("no opening fence", "## A\n\n%% kanban:settings\n{}\n%%\n", false),
        ("no closing fence", "## A\n\n%% kanban:settings\n```\n{}\n%%\n", false),
        ("an empty fenced block", "## A\n\n- [ ] \n\n%% kanban:settings\n## Archive\n\n```\n```\n\n%%\n", false),
        (
            "settings and archive repeated",
            "## A\n\n- [ ] a\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"board\"}\n```\n%%\n***\n\n## Archive\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"board\"}\n```\n%%\n***\n\n## Archive\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"board\"}\n```\n%%\n",
            true
        ),
        (
            "pretty-printed JSON",
            "## A\n\n- [ ] a\n\n%% kanban:settings\n```\n{\n  \"kanban-plugin\": \"board\",\n  \"lane-width\": 300\n}\n```\n%%\n",
            true
        ),
        ("a lane heading after the archive", "## A\n\n***\n\n## Archive\n\n- [ ] old\n\n## B\n", true),
    ]

    @Test(arguments: settingsVariants.indices)
    func settingsVariantsOpenAndAreKeptByteForByte(_ k: Int) throws {
        let (name, body, readable) = Self.settingsVariants[k]
        let (board, info) = try opens(Self.head + body)
        #expect(board.columns.first?.title == "A", "\(name)")
        if readable {
            #expect(info.readingNotes.isEmpty, "\(name): \(info.readingNotes)")
        } else {
            // The status names the line and says the block is kept.
            let note = try #require(info.readingNotes.first, "\(name)")
            #expect(note.hasPrefix("board.md:") && note.contains("kept as written"), "\(name): \(note)")
        }
        // An edit leaves the tail alone.
        var edited = board
        edited.columns[0].cards.append(Card(id: CardID.fresh(), title: "new"))
        let text = BoardFormat.serialize(edited, info: info)
        let original = Self.head + body
        let start = original.range(of: "%% kanban:settings")?.lowerBound ?? original.range(of: "***")!.lowerBound
        let tail = original[start...]
        #expect(text.hasSuffix(tail), "\(name)")
    }

    /// The plugin makes a lane of every heading but the archive's (`astToUnhydratedBoard`), also
    /// after the settings block: so does Lanes, keeping the settings where they stand.
    @Test func aHeadingAfterTheSettingsIsALane() throws {
        let text = Self.head + "## A\n\n- [ ] a\n\n%% kanban:settings\n```\n{}\n```\n%%\n\n## B\n\n- [ ] b\n"
        let (board, info) = try opens(text)
        #expect(board.columns.map(\.title) == ["A", "B"])
        #expect(board.columns.map { $0.cards.map(\.title) } == [["a"], ["b"]])
        #expect(info.readingNotes.isEmpty)
        // A card added to A lands in A's list, above the settings; one added to B under B.
        var edited = board
        edited.columns[0].cards.append(Card(id: CardID.fresh(), title: "a2"))
        edited.columns[1].cards.append(Card(id: CardID.fresh(), title: "b2"))
        #expect(
            BoardFormat.serialize(edited, info: info) == Self.head
                + "## A\n\n- [ ] a\n- [ ] a2\n\n%% kanban:settings\n```\n{}\n```\n%%\n\n## B\n\n- [ ] b\n- [ ] b2\n")
        // A lane after the archive's list is a lane too; the archive heading is not.
        let archived = Self.head + "## A\n\n- [ ] a\n\n***\n\n## Archive\n\n- [x] old\n\n## Later\n\n- [ ] l\n"
        let (b2, i2) = try opens(archived)
        #expect(b2.columns.map(\.title) == ["A", "Later"])
        #expect(b2.columns.map { $0.cards.map(\.title) } == [["a"], ["l"]])
        #expect(BoardFormat.serialize(b2, info: i2) == archived)
    }

    /// A card added where a settings line follows a card directly (Markdown reads that line as the
    /// card's) gets a blank line; the card that was there keeps its place.
    @Test func aCardNeverLandsDirectlyAboveSettingsFollowedByALane() throws {
        let text = Self.head + "## A\n\n- [ ] a\n%% kanban:settings\n```\n{}\n```\n%%\n\n## B\n"
        let (board, info) = try opens(text)
        #expect(board.columns.map(\.title) == ["A", "B"])
        #expect(BoardFormat.serialize(board, info: info) == text)
        var edited = board
        edited.columns[0].cards.append(Card(id: CardID.fresh(), title: "a2"))
        #expect(
            BoardFormat.serialize(edited, info: info) == Self.head
                + "## A\n\n- [ ] a\n- [ ] a2\n\n%% kanban:settings\n```\n{}\n```\n%%\n\n## B\n")
    }

    /// An unindented block that can interrupt a paragraph (an HTML comment, a fence, a quote, a
    /// thematic break), a paragraph after a blank line, or a list item of another bullet ends the
    /// Markdown list under a card: the plugin reads only a lane's first list (`getNextOfType`), so
    /// the cards after it are not shown; Lanes keeps those lines with the lane, says so, and adds
    /// cards to the list the plugin reads.
    @Test(arguments: [
        "<!-- task-id: 42 -->", "```\ncode\n```", "> a quote", "***", "\nA note", "* [ ] other bullet",
        "1. [ ] ordered",
    ])
    func anUnindentedBlockUnderACardEndsTheLanesList(_ block: String) throws {
        let text = Self.head + "## A\n\n- [ ] one\n\(block)\n- [ ] hidden\n\n## B\n\n- [ ] two\n"
        let (board, info) = try opens(text)
        #expect(board.columns.map { $0.cards.map(\.title) } == [["one"], ["two"]], "\(block)")
        #expect(board.columns[0].cards[0].extraLines.isEmpty, "\(block)")
        let note = try #require(info.readingNotes.first)
        #expect(
            note.hasPrefix("board.md:\(block.hasPrefix("\n") ? 9 : 8): lane “A”: its list of cards ends here"),
            "\(note)")
        #expect(BoardFormat.serialize(board, info: info) == text)
        var edited = board
        edited.columns[0].cards.append(Card(id: CardID.fresh(), title: "new"))
        #expect(
            BoardFormat.serialize(edited, info: info) == Self.head
                + "## A\n\n- [ ] one\n- [ ] new\n\(block)\n- [ ] hidden\n\n## B\n\n- [ ] two\n")
        // Moving the shown card away leaves the kept lines in place.
        edited = moving(board, card: board.columns[0].cards[0].id, toColumn: 1, index: 1)
        #expect(
            BoardFormat.serialize(edited, info: info) == Self.head
                + "## A\n\n\(block)\n- [ ] hidden\n\n## B\n\n- [ ] two\n- [ ] one\n")
    }

    /// What continues a card in Markdown stays the card's: indented lines, and an unindented line
    /// right under its paragraph that starts no other block (a lazy continuation line).
    @Test func lazyAndIndentedLinesStayWithTheirCard() throws {
        let text =
            Self.head + "## A\n\n- [ ] one\nlazy text\n  <!-- indented -->\n- [ ] two\n\n    after a blank, indented\n"
        let (board, info) = try opens(text)
        #expect(
            board.columns[0].cards.map(\.extraLines) == [
                ["lazy text", "  <!-- indented -->"], ["", "    after a blank, indented"],
            ])
        #expect(info.readingNotes.isEmpty)
    }

    @Test(arguments: 1...6)
    func lanesUnderHeadingsOfAnyLevel(_ level: Int) throws {
        let hashes = String(repeating: "#", count: level)
        let text = Self.head + "\(hashes) Todo\n\n- [ ] one\n- [ ] two\n\n\(hashes) Done\n\n- [x] three\n"
        let (b0, info) = try opens(text)
        var board = b0
        #expect(board.columns.map(\.title) == ["Todo", "Done"])
        #expect(board.columns.map(\.cards.count) == [2, 1])
        // `lanes add` finds the column, and the card lands under it.
        _ = try BoardCommands.add(&board, column: "Done", title: "four")
        let after = BoardFormat.serialize(board, info: info)
        #expect(after == text + "- [ ] four\n")
        // A new column takes the file's heading level.
        board.columns.append(Column(title: "Later"))
        #expect(BoardFormat.serialize(board, info: info).contains("\n\(hashes) Later"))
    }

    @Test func mixedHeadingLevelsKeepTheirOwn() throws {
        let text = Self.head + "# Big\n\n- [ ] a\n\n### Small\n\n- [ ] b\n\n## Mid\n"
        let (b0, info) = try opens(text)
        var board = b0
        board.columns[1].title = "Smaller"
        // As the file store writes it: the info follows the renamed column.
        #expect(
            BoardFormat.serialize(board, info: info.following(b0, to: board))
                == text.replacingOccurrences(of: "### Small", with: "### Smaller"))
    }

    @Test func anAddUsesTheLanesBulletAndCheckStyle() throws {
        let text =
            Self.head
            + "## Stars\n\n* [ ] a\n* [ ] b\n\n## Plus\n\n+ c\n\n## Numbered\n\n1. [ ] d\n2. [ ] e\n\n## Empty\n"
        let (b0, info) = try opens(text)
        var board = b0
        for column in ["Stars", "Plus", "Numbered", "Empty"] {
            _ = try BoardCommands.add(&board, column: column, title: "new")
        }
        let lines = fileLines(BoardFormat.serialize(board, info: info))
        #expect(lines.contains("* [ ] new"))
        #expect(lines.contains("+ new"))
        #expect(lines.contains("1. [ ] new"))
        // An empty lane takes the file's first card's style.
        #expect(lines.last == "* [ ] new")
        #expect(!lines.contains("- [ ] new"))
    }

    @Test func aCRLFFileGetsCRLFLines() throws {
        let text = "---\r\nkanban-plugin: board\r\n---\r\n\r\n## A\r\n\r\n* [ ] a\r\n"
        let (b0, info) = try opens(text)
        var board = b0
        _ = try BoardCommands.add(&board, column: "A", title: "b")
        #expect(BoardFormat.serialize(board, info: info) == text + "* [ ] b\r\n")
    }

    @Test(arguments: ["- [ ] ", "* [ ] ", "+ [X] ", "1. [/] ", "3) [x] ", "- [-] "])
    func togglingDoneChangesOneCharacter(_ marker: String) throws {
        let text = Self.head + "## A\n\n\(marker)task\n\ttail line\n"
        let (b0, info) = try opens(text)
        var board = b0
        board.columns[0].cards[0].done.toggle()
        let after = BoardFormat.serialize(board, info: info)
        let a = Array(text.utf8), b = Array(after.utf8)
        #expect(a.count == b.count)
        #expect(zip(a, b).filter { $0 != $1 }.count == 1, "\(after)")
        board.columns[0].cards[0].done.toggle()
        let back = BoardFormat.serialize(board, info: info)
        #expect(zip(a, Array(back.utf8)).filter { $0 != $1 }.count <= 1)
    }

    @Test func aCardMovedLastNeverJoinsTheSettingsLine() throws {
        let text = Self.head + "## A\n\n- [ ] a\n- [ ] b\n\n## B\n\n- [ ] c\n%% kanban:settings\n```\n{}\n```\n%%\n"
        let (b0, info) = try opens(text)
        var board = b0
        let a = board.columns[0].cards[0]
        board = moving(board, card: a.id, toColumn: 1, index: 1)
        let after = BoardFormat.serialize(board, info: info)
        #expect(
            after == Self.head + "## A\n\n- [ ] b\n\n## B\n\n- [ ] c\n- [ ] a\n\n%% kanban:settings\n```\n{}\n```\n%%\n"
        )
    }

    @Test func movingTheLastCardOfALaneLeavesTheSeparators() throws {
        let text =
            Self.head
            + "## A\n\n- [ ] a\n\n- [ ] b\n\tnote of b\n\n\n## B\n\n- [ ] c\n\n\n%% kanban:settings\n```\n{}\n```\n%%\n"
        let (b0, info) = try opens(text)
        var board = b0
        let b = board.columns[0].cards[1]
        board = moving(board, card: b.id, toColumn: 1, index: 0)
        let after = BoardFormat.serialize(board, info: info)
        #expect(
            after == Self.head
                + "## A\n\n- [ ] a\n\n\n## B\n\n- [ ] b\n\tnote of b\n\n- [ ] c\n\n\n%% kanban:settings\n```\n{}\n```\n%%\n"
        )
    }

    @Test func extraLinesOfEveryShapeStayWithTheirCard() throws {
        let text =
            Self.head + """
                ## Doing

                - [x] Minimal Demo
                \t#blog
                \t<!-- task-id: 42 -->
                \t- [ ] a tab-indented sub-task
                \t\t- [x] nested deeper
                    an indented note
                  > a quote under the card
                - [ ] Next ^abc123
                  ```
                  code in a card
                  ```

                """
        let (b0, info) = try opens(text)
        var board = b0
        let first = board.columns[0].cards[0]
        #expect(first.done && first.title == "Minimal Demo")
        #expect(
            first.extraLines == [
                "\t#blog", "\t<!-- task-id: 42 -->", "\t- [ ] a tab-indented sub-task",
                "\t\t- [x] nested deeper", "    an indented note", "  > a quote under the card",
            ])
        #expect(board.columns[0].cards[1].extraLines == ["  ```", "  code in a card", "  ```"])
        // Moved, they travel with it.
        board.columns.append(Column(title: "Done"))
        board = moving(board, card: first.id, toColumn: 1, index: 0)
        let moved = BoardFormat.serialize(board, info: info)
        #expect(
            moved.hasSuffix(
                "## Done\n\n- [x] Minimal Demo\n\t#blog\n\t<!-- task-id: 42 -->\n\t- [ ] a tab-indented sub-task\n\t\t- [x] nested deeper\n    an indented note\n  > a quote under the card\n"
            ))
    }

    @Test func aFrontmatterWithMoreKeysAndNoBlankLines() throws {
        let text =
            "---\ntags: [a, b]\nkanban-plugin: basic\ncssclasses: wide\n---\n## A\n- [ ] x\n- [ ] y @{2025-01-01} @@{10:00} [owner:: ana]\n"
        let (board, _) = try opens(text)
        #expect(board.columns[0].cards.map(\.title) == ["x", "y @{2025-01-01} @@{10:00} [owner:: ana]"])
    }

    @Test func thematicBreaksInALaneAreNotCards() throws {
        let text = Self.head + "## A\n\n- [ ] a\n\n* * *\n\n- - -\n"
        let (board, _) = try opens(text)
        #expect(board.columns[0].cards.map(\.title) == ["a"])
    }

    @Test func aHundredThousandSubListLinesParseInLinearTime() throws {
        // Quadratic appends took tens of seconds here; linear takes well under one. Judged by how the
        // time grows, not by a time (how fast is `make bench`'s to say): ten times the lines take about
        // ten times as long when linear and a hundred times when quadratic; each figure is the fastest
        // of three runs, in the thread's own CPU time, so a busy machine does not decide (wall time
        // once measured 46x for 10x the lines with five processes on two cores).
        func parseTime(_ lines: Int) throws -> Double {
            var text = Self.head + "## A\n\n- [ ] big\n"
            for k in 0..<lines { text += "\t- [ ] step \(k)\n" }
            return try (0..<3).map { _ in try ThreadCPU.seconds { _ = try parseOK(text) } }.min()!
        }
        let small = try parseTime(10_000)
        let large = try parseTime(100_000)
        #expect(large / small < 40, "10,000 lines: \(small), 100,000 lines: \(large)")
    }
}

/// Every Markdown board among the fixtures (ours, and the real files of `../shared/fixtures` when present).
enum AllBoardFixtures {
    static func files() throws -> [(name: String, bytes: [UInt8])] {
        var out: [(String, [UInt8])] = []
        var dirs = [Fixtures.directory()]
        if SharedFixtures.available { dirs.append(SharedFixtures.directory()) }
        for dir in dirs {
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                $0.hasSuffix(".md") && $0 != "README.md"
            }.sorted()
            for name in names { out.append((name, try Fixtures.bytes(name, in: dir))) }
        }
        return out
    }
}

@Suite("Formats: every fixture")
struct FormatsEveryFixtureTests {
    @Test func everyFixtureOpensAndSavesBackByteForByte() throws {
        let files = try AllBoardFixtures.files()
        #expect(files.count >= 4)
        for (name, bytes) in files {
            let (board, info) = try BoardFormat.parse(bytes, file: name)
            #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes, "\(name)")
        }
    }

    /// Where Markdown ends a lane's list, and lanes after the settings: what the plugin shows.
    @Test func theListsMarkdownEndsFixture() throws {
        let (board, info) = try BoardFormat.parse(try Fixtures.bytes("obsidian-lists-markdown-ends.md"), file: "l.md")
        #expect(board.columns.map(\.title) == ["Inbox", "Doing", "Waiting", "Someday"])
        #expect(
            board.columns.map { $0.cards.map(\.title) } == [
                ["Sort the mail", "Pay the rent", "Indented by one space, still a card"],
                ["Star list", "Star done"], ["First", "Second"],
                ["A lane after the settings, as a hand edit leaves it"],
            ])
        #expect(board.columns[0].cards[0].extraLines == ["lazy continuation of the mail card"])
        #expect(board.columns[0].cards[1].extraLines == ["\t<!-- task-id: 91 -->"])
        #expect(info.readingNotes.count == 3)
        #expect(info.readingNotes.map { $0.prefix(5) } == ["l.md:", "l.md:", "l.md:"])
    }

    @Test func theWildShapesFixture() throws {
        let (board, info) = try BoardFormat.parse(try Fixtures.bytes("obsidian-wild-shapes.md"), file: "w.md")
        #expect(board.columns.map(\.title) == ["🔥 Hot", "Waiting", "Done"])
        // The unindented comment under the second card ends the lane's list (the plugin shows two cards).
        #expect(board.columns.map(\.cards.count) == [2, 2, 1])
        #expect(board.columns[0].wipLimit == 3)
        #expect(
            board.columns[0].cards[0].extraLines == ["\t#sales", "\t- [ ] find the number", "\t- [x] write the pitch"])
        #expect(board.columns[0].cards[1].done)
        #expect(board.columns[1].cards.map(\.done) == [false, true])
        #expect(board.columns[2].marksCardsComplete)
        #expect(
            info.readingNotes == [
                "w.md:16: lane “🔥 Hot”: its list of cards ends here (Markdown ends a list at an unindented line that does not continue a card); the lines up to the next lane are kept as written, not shown as cards, as Obsidian Kanban reads the file"
            ])
        let (damaged, dInfo) = try BoardFormat.parse(
            try Fixtures.bytes("obsidian-damaged-settings-crlf.md"), file: "d.md")
        // `## Archive` after the settings line (no thematic break before it) is a lane to the plugin.
        #expect(damaged.columns.map(\.title) == ["Todo", "Archive"])
        #expect(damaged.columns.map(\.cards.count) == [2, 0])
        #expect(dInfo.lineEnding == .crlf)
        #expect(dInfo.readingNotes.first?.hasPrefix("d.md:") == true)
    }
}
