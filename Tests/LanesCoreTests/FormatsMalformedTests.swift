import Testing
import DragKit
@testable import LanesCore

/// One broken file and the exact error it must give.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let line: Int
    let message: String

    init(_ name: String, _ text: String, line: Int, _ message: String) {
        self.init(name, Array(text.utf8), line: line, message)
    }

    init(_ name: String, _ bytes: [UInt8], line: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.message = message
    }

    var testDescription: String { name }
}

private let obsidianHead = "---\n\nkanban-plugin: basic\n\n---\n\n"  // lines 1-6
private let megabyte = String(repeating: "x", count: 1 << 20)
private let sixtyX = String(repeating: "x", count: 60)

private let generic = ####"expected "## " column heading, "- " card or an indented card detail; "####
private let detailKinds =
    ####"expected a card detail: "    @ " due date, "    > " description or "    * [ ] "/"    * [x] " sub-task; "####

let malformedCorpus: [MalformedCase] = [
    // Structure, taskell.
    MalformedCase(
        "card before any column", "- Task\n## A\n", line: 1,
        ####"card before any column; expected a "## " column heading first; found "- Task""####),
    MalformedCase(
        "detail before any column", "    > text\n", line: 1,
        ####"card detail before any column; expected a "## " column heading first; found "    > text""####),
    MalformedCase(
        "prose before any column", "\n\nHello\n## A\n", line: 3,
        ####"expected "## " column heading; found "Hello""####),
    MalformedCase(
        "level-one heading", "# Board\n\n## A\n", line: 1,
        ####"expected "## " column heading; found "# Board""####),
    MalformedCase(
        "indented heading", "  ## A\n", line: 1,
        ####"expected "## " column heading; found "  ## A""####),
    MalformedCase(
        "level-three heading in a column", "## A\n\n- a\n### Sub\n", line: 4,
        generic + ####"found "### Sub""####),
    MalformedCase("heading without a space", "## A\n\n##B\n", line: 3, generic + ####"found "##B""####),
    MalformedCase("dash without a space", "## A\n\n-Task\n", line: 3, generic + ####"found "-Task""####),
    MalformedCase("star list item", "## A\n\n* Task\n", line: 3, generic + ####"found "* Task""####),
    MalformedCase(
        "detail with no card", "## A\n\n    > orphan\n", line: 3,
        ####"card detail with no card above it; expected a "- " card first; found "    > orphan""####),
    MalformedCase(
        "due after description", "## A\n- a\n    > d\n    @ 2024-01-01\n", line: 4,
        ####"due date after the description or sub-tasks; taskell expects "    @ " right after the card line; found "    @ 2024-01-01""####
    ),
    MalformedCase(
        "second due date", "## A\n- a\n    @ 2024-01-01\n    @ 2024-02-01\n", line: 4,
        ####"second due date for one card; found "    @ 2024-02-01""####),
    MalformedCase(
        "description after sub-task", "## A\n- a\n    * [ ] s\n    > d\n", line: 4,
        ####"description after sub-tasks; taskell expects "    > " lines before "    * " sub-tasks; found "    > d""####
    ),
    MalformedCase(
        "nested list detail", "## A\n- a\n    - nested\n", line: 3, detailKinds + ####"found "    - nested""####),
    MalformedCase(
        "upper-case sub-task check", "## A\n- a\n    * [X] s\n", line: 3, detailKinds + ####"found "    * [X] s""####),
    MalformedCase(
        "sub-task without a space", "## A\n- a\n    * [x]done\n", line: 3, detailKinds + ####"found "    * [x]done""####
    ),
    MalformedCase("description marker alone", "## A\n- a\n    >\n", line: 3, detailKinds + ####"found "    >""####),
    MalformedCase(
        "two-space indentation", "## A\n- a\n  > d\n", line: 3,
        ####"expected 4-space indentation for a card detail; found "  > d""####),
    MalformedCase(
        "tab where spaces are expected", "## A\n- a\n\t> d\n", line: 3,
        "tab indentation; taskell indents card details with 4 spaces; found \"\t> d\""),
    MalformedCase(
        "whitespace-only line", "## A\n- a\n   \n", line: 3,
        "line holds only whitespace; expected an empty line or content"),
    MalformedCase(
        "blank line between cards", "## A\n\n- a\n\n- b\n", line: 5,
        ####"after a blank line only a "## " column heading may follow; taskell allows no blank lines between cards or their details; found "- b""####
    ),
    MalformedCase(
        "blank line inside a card", "## A\n- a\n\n    > d\n", line: 4,
        ####"after a blank line only a "## " column heading may follow; taskell allows no blank lines between cards or their details; found "    > d""####
    ),
    MalformedCase(
        "frontmatter without kanban-plugin", "---\ntitle: x\n---\n## A\n", line: 1,
        ####"YAML frontmatter without a "kanban-plugin:" key; expected an Obsidian Kanban board, or a taskell board starting with a "## " column heading"####
    ),
    MalformedCase(
        "a second byte order mark", "\u{FEFF}\u{FEFF}## A\n", line: 1,
        "expected \"## \" column heading; found \"\u{FEFF}## A\""),
    MalformedCase("huge garbage line", "## A\n\n" + megabyte + "\n", line: 3, generic + "found \"\(sixtyX)…\""),

    // Bytes and line endings (checked for both dialects).
    MalformedCase(
        "invalid UTF-8", [UInt8]("## A\n- caf".utf8) + [0xC3] + [UInt8]("\n".utf8), line: 2,
        "invalid UTF-8 (byte 0xC3 at byte 6 of the line)"),
    MalformedCase(
        "truncated UTF-8 at the end", [UInt8]("## A\n- caf".utf8) + [0xE2, 0x82], line: 2,
        "invalid UTF-8 (byte 0xE2 at byte 6 of the line)"),
    MalformedCase(
        "overlong UTF-8", [UInt8]("## A\n- ".utf8) + [0xC0, 0xAF], line: 2,
        "invalid UTF-8 (byte 0xC0 at byte 3 of the line)"),
    MalformedCase(
        "UTF-8 surrogate", [UInt8]("## A\n- ".utf8) + [0xED, 0xA0, 0x80], line: 2,
        "invalid UTF-8 (byte 0xED at byte 3 of the line)"),
    MalformedCase(
        "Latin-1 file", [UInt8]("## Caf".utf8) + [0xE9, 0x0A], line: 1,
        "invalid UTF-8 (byte 0xE9 at byte 7 of the line)"),
    MalformedCase(
        "NUL byte", [UInt8]("## A\n- a".utf8) + [0x00] + [UInt8]("b\n".utf8), line: 2,
        "NUL byte at byte 4 of the line"),
    MalformedCase("lone carriage return", "## A\r- a\n", line: 1, "carriage return (CR) inside a line at byte 5"),
    MalformedCase(
        "CRLF then LF", "## A\r\n\r\n- a\n- b\r\n", line: 3,
        "line ends with LF but the file's first line ends with CRLF; mixed line endings"),
    MalformedCase(
        "LF then CRLF", "## A\n\n- a\r\n", line: 3,
        "line ends with CRLF but the file's first line ends with LF; mixed line endings"),
    MalformedCase(
        "structural error before bad bytes is reported first", [UInt8]("- a\n## ".utf8) + [0xFF, 0x0A], line: 1,
        ####"card before any column; expected a "## " column heading first; found "- a""####),
    MalformedCase(
        "bad bytes before a structural error are reported first",
        [UInt8]("## A\n- ".utf8) + [0xFF] + [UInt8]("\n  x\n".utf8), line: 2,
        "invalid UTF-8 (byte 0xFF at byte 3 of the line)"),

    // Obsidian Kanban.
    MalformedCase(
        "truncated frontmatter", "---\nkanban-plugin: basic\n\n## A\n\n- [ ] a\n", line: 1,
        ####"frontmatter is never closed; expected a "---" line after it"####),
    MalformedCase(
        "bad bytes inside frontmatter",
        [UInt8]("---\ntitle: ".utf8) + [0xFF] + [UInt8]("\nkanban-plugin: basic\n---\n".utf8), line: 2,
        "invalid UTF-8 (byte 0xFF at byte 8 of the line)"),
    MalformedCase(
        "NUL byte in an Obsidian card", [UInt8]((obsidianHead + "## A\n\n- [ ] a").utf8) + [0] + [0x0A], line: 9,
        "NUL byte at byte 8 of the line"),
    MalformedCase(
        "mixed line endings in Obsidian", "---\r\nkanban-plugin: basic\r\n---\r\n\r\n## A\n", line: 5,
        "line ends with LF but the file's first line ends with CRLF; mixed line endings"),
]

@Suite("Formats: malformed files")
struct FormatsMalformedTests {
    @Test("corpus size") func corpusIsLarge() {
        #expect(malformedCorpus.count >= 30)
    }

    @Test(arguments: malformedCorpus)
    func reportsFileLineAndMessage(_ sample: MalformedCase) throws {
        let error = try #require(parseError(sample.bytes, file: "board.md"))
        #expect(error == ParseError(file: "board.md", line: sample.line, message: sample.message))
        #expect(error.description == "board.md:\(sample.line): \(sample.message)")
    }

    @Test func descriptionIsFileColonLineColonMessage() {
        let error = ParseError(file: "boards/work.md", line: 7, message: "expected something")
        #expect(error.description == "boards/work.md:7: expected something")
        #expect("\(error)" == "boards/work.md:7: expected something")
    }

    @Test func theFileNameIsOnlyForMessages() throws {
        let error = try #require(parseError("- a\n", file: "/tmp/x/看板.md"))
        #expect(error.description.hasPrefix("/tmp/x/看板.md:1: card before any column"))
    }

    @Test func parsingAStringReportsTheSameErrors() {
        do {
            _ = try BoardFormat.parse("## A\n- a\n  > d\n", file: "s.md")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description == ####"s.md:3: expected 4-space indentation for a card detail; found "  > d""####)
        }
    }
}

@Suite struct FormatsControlCharacterTests {
    @Test func escapeAndBellInTitlesAreKeptByteForByte() throws {
        let text =
            "## A \u{1B}[2J\n\n- evil \u{1B}[31mred\u{1B}[0m \u{07} title\n    > desc \u{1B}]0;pwned\u{07}\n- b\n"
        let (board, info) = try BoardFormat.parse(Array(text.utf8), file: "evil.md")
        #expect(board.columns[0].title == "A \u{1B}[2J")
        #expect(board.columns[0].cards[0].title == "evil \u{1B}[31mred\u{1B}[0m \u{07} title")
        #expect(BoardFormat.serialize(board, info: info) == text)
    }
}
