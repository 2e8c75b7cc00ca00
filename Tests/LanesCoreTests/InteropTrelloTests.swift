import Foundation
import Testing
import DragKit
@testable import LanesCore

/// A Trello "Export as JSON" written for these tests: arrays out of `pos` order, archived
/// lists and cards, two checklists on one card, labels with and without names, a soft limit.
private let sampleExport = """
    {
      "id": "board1",
      "name": "Sample",
      "labels": [
        {"id": "lab-urgent", "name": "Urgent fix", "color": "red"},
        {"id": "lab-green", "name": "", "color": "green"},
        {"id": "lab-odd", "name": "C++ & Swift!", "color": null}
      ],
      "lists": [
        {"id": "l-done", "name": "Done", "closed": false, "pos": 300},
        {"id": "l-old", "name": "Old ideas", "closed": true, "pos": 150},
        {"id": "l-todo", "name": "To Do", "closed": false, "pos": 100.5, "softLimit": "3"},
        {"id": "l-doing", "name": "Doing", "closed": false, "pos": 200, "softLimit": null}
      ],
      "cards": [
        {"id": "c3", "name": "Third", "idList": "l-todo", "pos": 3000, "closed": false, "desc": "",
         "due": null, "idLabels": [], "labels": []},
        {"id": "c1", "name": "First", "idList": "l-todo", "pos": 1000, "closed": false,
         "desc": "Line one\\nLine two\\r\\n\\nAfter a blank line\\n", "due": "2021-07-10T17:01:58.633Z",
         "idLabels": ["lab-urgent", "lab-green"],
         "labels": [{"id": "lab-urgent", "name": "Urgent fix", "color": "red"}, {"id": "lab-green", "name": "", "color": "green"}]},
        {"id": "c2", "name": "Archived card", "idList": "l-todo", "pos": 2000, "closed": true, "desc": "", "due": null},
        {"id": "c4", "name": "Working", "idList": "l-doing", "pos": 5, "closed": false, "desc": "",
         "due": "2024-02-29T00:00:00.000Z", "idLabels": ["lab-odd"]},
        {"id": "c5", "name": "Old card", "idList": "l-old", "pos": 1, "closed": false, "desc": "", "due": null},
        {"id": "c6", "name": "Shipped \\"v1\\" 🚀", "idList": "l-done", "pos": 1, "closed": false, "desc": "Done ✓", "due": null},
        {"id": "c7", "name": "Orphan", "idList": "l-missing", "pos": 1, "closed": false}
      ],
      "checklists": [
        {"id": "k2", "idCard": "c4", "name": "Later", "pos": 200, "checkItems": [
          {"id": "i4", "name": "Deploy", "state": "incomplete", "pos": 1}
        ]},
        {"id": "k1", "idCard": "c4", "name": "Steps", "pos": 100, "checkItems": [
          {"id": "i2", "name": "Write tests", "state": "incomplete", "pos": 20},
          {"id": "i1", "name": "Write code", "state": "complete", "pos": 10},
          {"id": "i3", "name": "Review", "state": "complete", "pos": 30}
        ]}
      ]
    }
    """

private func importSample(includeArchived: Bool = false) throws -> Board {
    try TrelloImport.board(
        from: Array(sampleExport.utf8), file: "sample.json",
        options: TrelloImport.Options(includeArchived: includeArchived))
}

private func importError(_ json: String) -> ParseError? {
    do {
        _ = try TrelloImport.board(from: Array(json.utf8), file: "bad.json")
        Issue.record("expected the import to fail")
        return nil
    } catch {
        return error
    }
}

@Suite("Interop: Trello import")
struct InteropTrelloTests {
    @Test func committedExportGivesOpenListsAndCardsInPosOrder() throws {
        let bytes = try Fixtures.bytes("trello-export-conference.json")
        let board = try TrelloImport.board(from: bytes, file: "trello-export-conference.json")
        #expect(
            board
                == Board(columns: [
                    Column(
                        title: "To do",
                        cards: [
                            Card(id: CardID(1), title: "Open the call for papers"),
                            Card(
                                id: CardID(2), title: "Book the venue #Blocker", due: "2027-02-15",
                                descriptionLines: [
                                    "Two rooms, one for talks and one for workshops.", "Ask about the projector.",
                                ],
                                subtasks: [
                                    Subtask("Get a quote", done: true), Subtask("Visit the rooms", done: true),
                                    Subtask("Sign the contract"),
                                ]),
                        ], wipLimit: 4),
                    Column(
                        title: "In progress",
                        cards: [
                            Card(
                                id: CardID(3), title: "Hotel block for speakers #Travel-plans #green",
                                due: "2027-01-31",
                                subtasks: [
                                    Subtask("Count the speakers", done: true), Subtask("Ask three hotels"),
                                    Subtask("Pay the deposit"),
                                ])
                        ]),
                    Column(
                        title: "Done",
                        cards: [
                            Card(
                                id: CardID(4), title: "Website: “Call for speakers” page", due: "2026-12-01",
                                descriptionLines: ["Live at /speakers ✓"])
                        ]),
                ]))
    }

    @Test func committedExportWithArchivedKeepsTheClosedListAndCard() throws {
        let bytes = try Fixtures.bytes("trello-export-conference.json")
        let board = try TrelloImport.board(
            from: bytes, file: "trello-export-conference.json",
            options: TrelloImport.Options(includeArchived: true))
        #expect(board.columns.map(\.title) == ["To do", "Parked", "In progress", "Done"])
        #expect(
            board.columns[0].cards.map(\.title) == [
                "Open the call for papers", "Order stickers", "Book the venue #Blocker",
            ])
        #expect(board.columns[0].cards[1].descriptionLines == ["Cancelled: no budget"])
        #expect(
            board.columns[1].cards == [Card(id: CardID(4), title: "Livestream", descriptionLines: ["Maybe next year"])])
        #expect(board.allIDs == (1...6).map { CardID(UInt64($0)) })
    }

    @Test func committedRESTListsKeepTheirOrder() throws {
        let bytes = try Fixtures.bytes("trello-rest-lists.json")
        let board = try TrelloImport.board(from: bytes, file: "trello-rest-lists.json")
        #expect(
            board
                == Board(columns: [
                    Column(
                        title: "Backlog",
                        cards: [
                            Card(
                                id: CardID(1), title: "Sketch the onboarding",
                                descriptionLines: ["Three screens at most"]),
                            Card(id: CardID(2), title: "Pick a font", due: "2027-03-01"),
                        ]),
                    Column(title: "Doing", cards: [Card(id: CardID(3), title: "Write the copy")]),
                    Column(title: "Shipped"),
                ]))
    }

    @Test func sampleExportMapsEveryField() throws {
        let board = try importSample()
        #expect(
            board
                == Board(columns: [
                    Column(
                        title: "To Do",
                        cards: [
                            Card(
                                id: CardID(1), title: "First #Urgent-fix #green", due: "2021-07-10",
                                descriptionLines: ["Line one", "Line two", "", "After a blank line"]),
                            Card(id: CardID(2), title: "Third"),
                        ], wipLimit: 3),
                    Column(
                        title: "Doing",
                        cards: [
                            Card(
                                id: CardID(3), title: "Working #C-Swift", due: "2024-02-29",
                                subtasks: [
                                    Subtask("Write code", done: true), Subtask("Write tests"),
                                    Subtask("Review", done: true), Subtask("Deploy"),
                                ])
                        ]),
                    Column(
                        title: "Done",
                        cards: [
                            Card(id: CardID(4), title: "Shipped \"v1\" 🚀", descriptionLines: ["Done ✓"])
                        ]),
                ]))
        #expect(board.columns[0].cards[0].tags == ["Urgent-fix", "green"])
    }

    @Test func includeArchivedBringsBackClosedListsAndCardsInPosOrder() throws {
        let board = try importSample(includeArchived: true)
        #expect(board.columns.map(\.title) == ["To Do", "Old ideas", "Doing", "Done"])
        #expect(board.columns[0].cards.map(\.title) == ["First #Urgent-fix #green", "Archived card", "Third"])
        #expect(board.columns[1].cards.map(\.title) == ["Old card"])
        #expect(board.cardCount == 6)  // the card of a missing list stays out
    }

    @Test func sampleWritesTaskellThatReadsBackTheSame() throws {
        let board = try importSample()
        let text = BoardFormat.serialize(board, as: .taskell)
        #expect(
            text == """
                ## To Do (3)

                - First #Urgent-fix #green
                    @ 2021-07-10
                    > Line one
                    > Line two
                    > 
                    > After a blank line
                - Third

                ## Doing

                - Working #C-Swift
                    @ 2024-02-29
                    * [x] Write code
                    * [ ] Write tests
                    * [x] Review
                    * [ ] Deploy

                ## Done

                - Shipped "v1" 🚀
                    > Done ✓

                """)
        let (again, info) = try BoardFormat.parse(text, file: "out.md")
        #expect(info.dialect == .taskell)
        #expect(again == board)
    }

    @Test func sampleWritesObsidianWithDueDatesAndIndentedBodies() throws {
        let board = try importSample()
        let text = BoardFormat.serialize(board, as: .obsidian)
        #expect(
            text.contains(
                "- [ ] First #Urgent-fix #green @{2021-07-10}\n    Line one\n    Line two\n    \n    After a blank line\n- [ ] Third\n"
            ))
        #expect(text.contains("- [ ] Working #C-Swift @{2024-02-29}\n    - [x] Write code\n    - [ ] Write tests\n"))
        let (again, info) = try BoardFormat.parse(text, file: "out.md")
        #expect(info.dialect == .obsidian)
        #expect(again.columns.map(\.title) == ["To Do", "Doing", "Done"])
        #expect(again.columns[0].wipLimit == 3)
        #expect(again.columns[0].cards[0].due == "2021-07-10")
        #expect(again.columns[0].cards[0].tags == ["Urgent-fix", "green"])
        let working = BoardExport.interpretedObsidianBody(again.columns[1].cards[0])
        #expect(working.subtasks == board.columns[1].cards[0].subtasks)
        #expect(
            BoardExport.interpretedObsidianBody(again.columns[0].cards[0]).descriptionLines
                == board.columns[0].cards[0].descriptionLines)
    }

    @Test func labelNamesBecomeTags() {
        #expect(TrelloImport.tag(forLabelNamed: "Urgent fix", color: "red") == "Urgent-fix")
        #expect(TrelloImport.tag(forLabelNamed: "  needs   review ", color: nil) == "needs-review")
        #expect(TrelloImport.tag(forLabelNamed: "", color: "yellow") == "yellow")
        #expect(TrelloImport.tag(forLabelNamed: "!!!", color: "sky") == "sky")
        #expect(TrelloImport.tag(forLabelNamed: "", color: nil) == nil)
        #expect(TrelloImport.tag(forLabelNamed: "größe/ä", color: nil) == "größe/ä")
    }

    @Test func dueDatesKeepTheDayTrelloWrote() {
        #expect(TrelloImport.day(fromISODate: "2021-07-10T17:01:58.633Z") == "2021-07-10")
        #expect(TrelloImport.day(fromISODate: "2021-07-10") == "2021-07-10")
        #expect(TrelloImport.day(fromISODate: "10/07/2021") == nil)
        #expect(TrelloImport.day(fromISODate: "2021-7-10") == nil)
    }

    @Test func malformedJSONNamesTheLine() throws {
        let e1 = try #require(importError("{\n  \"lists\": [\n    {\"id\": \"a\",, \"name\": \"x\"}\n  ]\n}"))
        #expect(e1.file == "bad.json" && e1.line == 3)
        #expect(e1.message.contains("expected a quoted member name"))
        let e2 = try #require(importError("{\n  \"lists\": [\n"))
        #expect(e2.line == 3 && e2.message.contains("expected a JSON value"))
        let e3 = try #require(importError("{\"lists\": [], \"cards\": []}\n\ntrailing"))
        #expect(e3.line == 3 && e3.message.contains("after the JSON value"))
        let e4 = try #require(importError("{\"name\": \"tab\tin string\"}"))
        #expect(e4.message.contains("control character"))
    }

    @Test func unexpectedShapesNameTheLine() throws {
        let noLists = try #require(importError("{\n  \"name\": \"board\"\n}"))
        #expect(noLists.line == 1 && noLists.message.contains("\"lists\""))
        let notObject = try #require(importError("\"just a string\""))
        #expect(notObject.message.contains("found a string"))
        let cardWithoutList = try #require(
            importError(
                """
                {"lists": [{"id": "l", "name": "L", "pos": 1}],
                 "cards": [
                   {"id": "c", "name": "Lost"}
                 ]}
                """))
        #expect(cardWithoutList.line == 3 && cardWithoutList.message == "card has no \"idList\"")
        let badDue = try #require(
            importError(
                """
                {"lists": [{"id": "l", "name": "L", "pos": 1}],
                 "cards": [{"id": "c", "idList": "l", "name": "When",
                   "due": "next week"}]}
                """))
        #expect(badDue.line == 3 && badDue.message.contains("\"due\" must be a real date in ISO 8601"))
        let badPos = try #require(
            importError("{\"lists\": [{\"id\": \"l\", \"name\": \"L\", \"pos\": true}], \"cards\": []}"))
        #expect(badPos.message.contains("\"pos\" must be a number"))
    }
}

@Suite("Interop: JSON reader and writer")
struct InteropJSONTests {
    @Test func readsEscapesNumbersAndNesting() throws {
        let node = try JSONReader.parse(
            Array(#"{"a": "x\n\"y\" \u00e9 \ud83d\ude80 \/", "n": -1.5e3, "b": [true, false, null], "a": 2}"#.utf8),
            file: "t.json")
        #expect(node["a"]?.number == 2)  // the last of a repeated key
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members[0].value.string == "x\n\"y\" é 🚀 /")
        #expect(node["n"]?.number == -1500)
        #expect(node["b"]?.array?.map(\.kindDescription) == ["a boolean", "a boolean", "null"])
    }

    @Test func refusesWhatJSONForbids() {
        for bad in ["01", "1.", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "\"\\x\"", "tru", "[", ""] {
            #expect(throws: ParseError.self, "\(bad)") { try JSONReader.parse(Array(bad.utf8), file: "t.json") }
        }
    }

    @Test func writerEscapesAndKeepsOrder() throws {
        let text = JSONWriter.write(
            .object([("z", .string("a\"b\\c\n\u{1}é")), ("a", .array([])), ("m", .object([])), ("n", .null)]))
        #expect(text == "{\n  \"z\": \"a\\\"b\\\\c\\n\\u0001é\",\n  \"a\": [],\n  \"m\": {},\n  \"n\": null\n}\n")
        let back = try JSONReader.parse(Array(text.utf8), file: "t.json")
        #expect(back["z"]?.string == "a\"b\\c\n\u{1}é")
    }
}
