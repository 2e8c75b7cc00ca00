import Testing
import DragKit
@testable import LanesCore

@Suite("Formats: taskell dialect")
struct FormatsTaskellTests {
    static let sample = """
        ## To Do (3)

        - Write the parser
            @ 2024-01-31 12:00 UTC
            > First line of the description.
            > 
            > Third line, after an empty one.
            * [ ] Headings
            * [x] Cards
        - 中文标题 #tag

        ## Done

        - Ship it

        """

    @Test func parsesEveryPartOfACard() throws {
        let (board, info) = try parseOK(Self.sample)
        #expect(info.dialect == .taskell)
        #expect(
            board
                == Board(columns: [
                    Column(
                        title: "To Do",
                        cards: [
                            Card(
                                id: CardID(1), title: "Write the parser", due: "2024-01-31 12:00 UTC",
                                descriptionLines: [
                                    "First line of the description.", "", "Third line, after an empty one.",
                                ],
                                subtasks: [Subtask("Headings"), Subtask("Cards", done: true)]),
                            Card(id: CardID(2), title: "中文标题 #tag"),
                        ], wipLimit: 3),
                    Column(title: "Done", cards: [Card(id: CardID(3), title: "Ship it")]),
                ]))
        #expect(board.columns[0].cards[1].tags == ["tag"])
        #expect(BoardFormat.serialize(board, info: info) == Self.sample)
    }

    @Test func aFreshBoardIsWrittenInTaskellsStyle() {
        var board = Board()
        board.columns = [Column(title: "Backlog (old)"), Column(title: "Doing", wipLimit: 2), Column(title: "Empty")]
        board.columns[0].cards = [
            Card(
                id: CardID.fresh(), title: "One", due: "2025-02-03",
                descriptionLines: ["why"], subtasks: [Subtask("step", done: true)])
        ]
        board.columns[1].cards = [Card(id: CardID.fresh(), title: "Two"), Card(id: CardID.fresh(), title: "Three")]
        #expect(
            BoardFormat.serialize(board, as: .taskell) == """
                ## Backlog (old)

                - One
                    @ 2025-02-03
                    > why
                    * [x] step

                ## Doing (2)

                - Two
                - Three

                ## Empty


                """)
    }

    @Test func wipLimitOnlyForAPositiveNumberAfterASpace() throws {
        let headings = [
            "A (3)", "A (0)", "A (03)", "A(3)", "A (x)", "A (1234567890)", "(4)", " (5)", "A (3) ", "A ((2)",
        ]
        let text = headings.map { "## \($0)\n" }.joined(separator: "\n")
        let (board, info) = try parseOK(text)
        #expect(
            board.columns.map(\.title) == [
                "A", "A (0)", "A (03)", "A(3)", "A (x)", "A (1234567890)", "(4)", "", "A (3) ", "A ((2)",
            ])
        #expect(board.columns.map(\.wipLimit) == [3, nil, nil, nil, nil, nil, nil, 5, nil, nil])
        #expect(BoardFormat.serialize(board, info: info) == text)
    }

    @Test func oddButValidFilesRoundTrip() throws {
        let samples: [String] = [
            "",  // an empty board
            "\n\n",  // only blank lines
            "## A\n- no final newline",  // taskell reads the last line without one
            "## A\n- a\n## B\n- b\n",  // no blank lines at all
            "\n\n## A\n\n\n- a\n\n\n\n## B\n\n",  // extra blank lines around headings
            "## A\n\n## B\n\n- b\n\n## C\n\n",  // empty columns first and last
            "## \n\n- \n",  // empty column and card titles
            "## A\n\n- [ ] not a checkbox in taskell\n- tab\tinside\n- trailing spaces   \n",
            "## A\n\n- a\n    > \n    > \n",  // empty description lines
            "## A\n\n- a\n    * [ ] \n",  // an empty sub-task
            "## A\n\n- \u{FEFF}zero width no-break space inside\n- emoji 🧑‍💻 and 한국어\n",
            "## A\n\n- a\n\n\n",  // blank lines at the end
            "## A\n\n- del \u{7F} character\n",
        ]
        for text in samples {
            let (board, info) = try parseOK(text)
            #expect(BoardFormat.serialize(board, info: info) == text, "\(text.debugDescription)")
        }
    }

    @Test func emptyFileIsAnEmptyBoard() throws {
        let (board, info) = try parseOK("")
        #expect(board.columns.isEmpty)
        #expect(info.dialect == .taskell)
        #expect(!info.endsWithNewline)
    }

    @Test func crlfIsKeptOnSave() throws {
        let text = "## A\r\n\r\n- a\r\n    > d\r\n- b\r\n\r\n## B\r\n\r\n"
        let (board, info) = try parseOK(text)
        #expect(info.lineEnding == .crlf)
        #expect(board.columns[0].cards.map(\.title) == ["a", "b"])
        #expect(board.columns[0].cards[0].descriptionLines == ["d"])
        #expect(BoardFormat.serialize(board, info: info) == text)
        var moved = board
        moved.columns[1].cards.append(Card(id: CardID(9), title: "c"))
        #expect(
            BoardFormat.serialize(moved, info: info) == "## A\r\n\r\n- a\r\n    > d\r\n- b\r\n\r\n## B\r\n\r\n- c\r\n")
    }

    @Test func byteOrderMarkIsKeptOnSave() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("## A\n\n- a\n".utf8)
        let (board, info) = try BoardFormat.parse(bytes, file: "bom.md")
        #expect(info.hasByteOrderMark)
        #expect(board.columns[0].title == "A")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
    }

    @Test func aMegabyteTitleIsFine() throws {
        let title = String(repeating: "長", count: 350_000)  // 1,050,000 bytes
        let text = "## A\n\n- \(title)\n"
        let (board, info) = try parseOK(text)
        #expect(board.columns[0].cards[0].title == title)
        #expect(BoardFormat.serialize(board, info: info) == text)
    }

    @Test func irregularSpacingIsKeptAndNewCardsUseTheUsualOne() throws {
        let text = "## A\n- a\n\n\n\n## B\n\n\n\n## C\n\n- c\n\n"
        let (parsed, info) = try parseOK(text)
        var board = parsed
        #expect(
            info.layout
                == BoardLayout(
                    blankLinesAfterHeading: 0, blankLinesBetweenCards: 0,
                    blankLinesBetweenColumns: 3, blankLinesAfterColumns: 1))
        #expect(BoardFormat.serialize(board, info: info) == text)
        // B had three blank lines: none after its heading (the usual), three before C.
        board.columns[1].cards.append(Card(id: CardID(10), title: "new"))
        #expect(BoardFormat.serialize(board, info: info) == "## A\n- a\n\n\n\n## B\n- new\n\n\n\n## C\n\n- c\n\n")
    }

    @Test func anAddedColumnFollowsTheFilesStyle() throws {
        let text = try Fixtures.text("taskell-release-plan.md")
        let (parsed, info) = try BoardFormat.parse(text, file: "roadmap.md")
        var board = parsed
        board.columns.append(Column(title: "Later", cards: [Card(id: CardID.fresh(), title: "New card")]))
        let output = BoardFormat.serialize(board, info: info)
        #expect(output == text + "\n## Later\n\n- New card\n")
    }

    @Test func lineBreaksInValuesCannotSplitLines() throws {
        let board = Board(columns: [
            Column(
                title: "A\nB",
                cards: [
                    Card(id: CardID(1), title: "one\r\ntwo", descriptionLines: ["x\ny"], subtasks: [Subtask("s\rt")])
                ])
        ])
        let text = BoardFormat.serialize(board, as: .taskell)
        #expect(text == "## A B\n\n- one two\n    > x y\n    * [ ] s t\n")
        #expect(try BoardFormat.parse(text, file: "b.md").board.cardCount == 1)
    }

    @Test func taskellHasNoDoneFlagOrExtraLines() {
        let board = Board(columns: [
            Column(
                title: "A",
                cards: [
                    Card(id: CardID(1), title: "t", done: true, extraLines: ["  obsidian continuation"])
                ], extraLines: ["**Complete**"])
        ])
        #expect(BoardFormat.serialize(board, as: .taskell) == "## A\n\n- t\n")
    }

    @Test func cardsGetFreshIDsInFileOrder() throws {
        let (board, _) = try parseOK("## A\n- x\n- y\n## B\n- z\n")
        #expect(board.allIDs == [CardID(1), CardID(2), CardID(3)])
        #expect(board.columns.flatMap(\.cards).map(\.title) == ["x", "y", "z"])
    }
}
