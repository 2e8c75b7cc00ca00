import Testing
@testable import LanesCore

@Suite struct DueDateTests {
    @Test(arguments: ["2026-03-31", "2024-02-29", "2000-02-29", "2026-12-01 09:30", "2025/6/30"])
    func realDatesParse(_ text: String) throws {
        _ = try DueDate(parsing: text)
    }

    @Test(arguments: [
        ("2026-13-45", "month 13 does not exist in “2026-13-45” (months are 01–12)"),
        ("2026-02-29", "day 29 does not exist in “2026-02-29” (February 2026 has 28 days)"),
        ("1900-02-29", "day 29 does not exist in “1900-02-29” (February 1900 has 28 days)"),
        ("2026-04-31", "day 31 does not exist in “2026-04-31” (April 2026 has 30 days)"),
        ("tomorrow", "“tomorrow” is not a date: write YYYY-MM-DD (e.g. 2026-03-31)"),
        ("2026-1-5", "“2026-1-5” is not a date: write YYYY-MM-DD (e.g. 2026-03-31)"),
        ("2026-01-05 25:00", "“25:00” is not a time: write HH:MM from 00:00 to 23:59"),
    ])
    func impossibleDatesAreRefusedWithWords(_ text: String, _ words: String) {
        #expect(throws: DueDateError(words)) { try DueDate(parsing: text) }
    }
}

@Suite struct ColumnNameTests {
    static func board() -> Board {
        Board(columns: [Column(title: "To do"), Column(title: "Doing")])
    }

    @Test func addingAnExistingNameIsRefusedIgnoringCase() throws {
        var b = Self.board()
        #expect(throws: ColumnNameError(title: "DOING", existing: "Doing")) { try b.addColumn(titled: "DOING", at: 2) }
        #expect(b.columns.count == 2)
        try b.addColumn(titled: "Done", at: 2)
        #expect(b.columns.map(\.title) == ["To do", "Doing", "Done"])
    }

    @Test func aColumnMayReCaseItsOwnNameButNotTakeAnother() throws {
        var b = Self.board()
        try b.renameColumn(at: 0, toUnique: "TO DO")
        #expect(b.columns[0].title == "TO DO")
        #expect(throws: ColumnNameError(title: "doing", existing: "Doing")) {
            try b.renameColumn(at: 0, toUnique: "doing")
        }
        #expect(b.columns[0].title == "TO DO")
    }

    @Test func importedDuplicatesAreNumbered() {
        var b = Board(columns: [
            Column(title: "Done"), Column(title: "done"), Column(title: "Done 2"), Column(title: "DONE"),
        ])
        b.makeColumnTitlesUnique()
        #expect(b.columns.map(\.title) == ["Done", "done 2", "Done 2 2", "DONE 3"])
    }
}
