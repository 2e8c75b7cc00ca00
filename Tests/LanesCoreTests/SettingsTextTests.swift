import Testing
@testable import LanesCore

/// The settings file's text (`.<name>.lanes`): accept rules, swimlanes and flow columns in one
/// value, read and written without touching a file (`SettingsSidecar` does the file).
@Suite struct SettingsTextTests {
    static let text = """
        # ours
        accept "Done" from "Review"  # the only way in
        swimlanes "backend" "frontend"

        flow started "Doing" done "Done"  # counted from here
        """ + "\n"

    @Test func allThreeSettingsReadBackAndWriteTheSameBytes() throws {
        let settings = try AcceptRules.parse(Array(Self.text.utf8), file: ".b.md.lanes")
        #expect(settings.rules == [AcceptRule(column: "Done", sources: ["Review"])])
        #expect(settings.swimlanes?.tags == ["backend", "frontend"])
        #expect(settings.flow == FlowColumns(started: "Doing", done: "Done"))
        #expect(settings.serialized() == Self.text)
    }

    @Test func changingOneSettingRewritesOnlyItsLine() throws {
        var settings = try AcceptRules.parse(Array(Self.text.utf8), file: ".b.md.lanes")
        settings.flow = FlowColumns(done: "Shipped")
        settings.setSources(["Review", "Doing"], for: "Done")
        #expect(
            settings.serialized() == """
                # ours
                accept "Done" from "Review" "Doing"  # the only way in
                swimlanes "backend" "frontend"

                flow done "Shipped"  # counted from here
                """ + "\n")
    }

    @Test func aSecondLineOfOneSettingIsRefusedWithItsLine() throws {
        let error = try #require(
            #expect(throws: ParseError.self) {
                try AcceptRules.parse(Array((Self.text + "flow done \"Done\"\n").utf8), file: ".b.md.lanes")
            })
        #expect(error.file == ".b.md.lanes" && error.line == 6)
        #expect(error.message == "a second flow line (the first is on line 5); keep one")
    }
}
