import DragKit
import Foundation
import Testing
import SeededRandom
@testable import LanesCore

/// Random text made mostly of what breaks line-based files: every kind of line break, NUL,
/// other controls, combining marks after breaks, quotes and Markdown markers.
func nastyString(_ rng: inout SplitMix64, maxLength: Int = 24) -> String {
    let pieces: [String] = [
        "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\0", "\u{0B}", "\u{0C}", "\u{1B}", "\u{1B}]0;x\u{07}",
        "\u{9B}", "\t", " ", "  ", "a", "Z", "é", "日本", "👍🏽", "\u{301}", "\0\u{301}", "\r\u{301}", "\"", "\\", "#",
        "## ", "- ", "- [ ] ", "    > ", "    @ ", " @{2024-01-01}", "(3)", " (4)", "---", "%%", "***", "`",
        "**Complete**",
    ]
    let n = Int.random(in: 0...maxLength, using: &rng)
    var s = ""
    for _ in 0..<n { s += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
    return s
}

@Suite("Text rules: one rule at every door")
struct TextRulesTests {
    @Test func everyKindOfLineBreakBecomesOneSpaceAndNULsGo() {
        let (text, changes) = TextRules.oneLine("a\r\nb\rc\nd\u{85}e\u{2028}f\u{2029}g\0h\u{0B}i\u{0C}j")
        #expect(text == "a b c d e f gh\u{0B}i\u{0C}j")
        #expect(changes == TextRules.Changes(lineBreaks: 6, nulBytes: 1))
        #expect(changes.words == "6 line breaks became spaces and 1 NUL byte was removed")
        #expect(TextRules.oneLine("plain").changes.isEmpty)
        // A NUL or CR hidden inside one grapheme (followed by a combining mark) is still found.
        #expect(TextRules.oneLine("x\0\u{301}y").text == "x\u{301}y")
        #expect(TextRules.oneLine("x\r\u{301}y").text == "x \u{301}y")
    }

    @Test func problemNamesWhatAndWhere() {
        #expect(TextRules.problem(in: "fine") == nil)
        #expect(TextRules.problem(in: "ab\r\ncd")?.description == "a line break (CR LF) at character 3")
        #expect(
            TextRules.problem(in: "ab\u{2028}")?.description == "a line break (LINE SEPARATOR, U+2028) at character 3")
        #expect(TextRules.problem(in: "a\0")?.description == "a NUL byte at character 2")
        #expect(TextRules.problem(in: "x\u{85}")?.description == "a line break (NEL, U+0085) at character 2")
    }

    @Test func descriptionsSplitAtBreaks() {
        let (lines, changes) = TextRules.lines("one\r\ntwo\u{2028}three\0")
        #expect(lines == ["one", "two", "three"])
        #expect(changes.nulBytes == 1)
        let card = Card(
            id: CardID(1), title: "t\nu", due: "d\0", descriptionLines: ["a\u{2029}b"], subtasks: [Subtask("s\r")])
        let (clean, all) = TextRules.storable(card)
        #expect(
            clean.title == "t u" && clean.due == "d" && clean.descriptionLines == ["a", "b"]
                && clean.subtasks[0].title == "s ")
        #expect(all == TextRules.Changes(lineBreaks: 3, nulBytes: 1))
    }

    @Test func theWriterNeverWritesWhatTheParserRefuses() throws {
        // Put straight into the model, past every door: the writer's own guard still holds.
        var b = Board(columns: [
            Column(
                title: "c\0\r\n", cards: [Card(id: CardID(1), title: "x\0y\rz", descriptionLines: ["\n"])],
                extraLines: ["e\0"])
        ])
        b.acceptRules.setSources(["o\r\nther"], for: "c\0\r\n")
        for dialect in [BoardDialect.taskell, .obsidian] {
            let text = BoardFormat.serialize(b, as: dialect)
            let (back, _) = try BoardFormat.parse(text, file: "b.md")
            #expect(back.cardCount == 1)
            #expect(back.columns[0].cards[0].title.hasPrefix("x\u{2400}y z"))
        }
        _ = try AcceptRules.parse(Array(b.acceptRules.serialized().utf8), file: ".b.md.lanes")
    }

    /// The property: whatever string comes through a door, the board written reads back, with the
    /// same columns and cards (and, in taskell, the same titles: it has no inline syntax in a title).
    @Test func anyStringThroughAnyDoorReadsBack() throws {
        var rng = SplitMix64(seed: 0x17_17_17)
        for round in 0..<400 {
            let dialect: BoardDialect = round % 2 == 0 ? .taskell : .obsidian
            // Door: interactive text and imports (replace).
            let titles = (0..<3).map { _ in TextRules.oneLine(nastyString(&rng)).text }
            let column = TextRules.oneLine(nastyString(&rng)).text
            var board = Board(columns: [
                Column(
                    title: column,
                    cards: titles.enumerated().map { (k: Int, t: String) -> Card in
                        Card(
                            id: CardID(UInt64(k + 1)), title: t,
                            due: TextRules.oneLine(nastyString(&rng, maxLength: 4)).text,
                            descriptionLines: TextRules.lines(nastyString(&rng)).lines,
                            subtasks: [Subtask(TextRules.oneLine(nastyString(&rng)).text)])
                    }), Column(title: "Other"),
            ])
            // Door: the command line (refuse, or add).
            let argument = nastyString(&rng)
            do {
                _ = try BoardCommands.add(&board, column: "2", title: argument)
                #expect(TextRules.problem(in: argument) == nil)
            } catch {
                #expect(error.kind == .badInput)
            }
            board.acceptRules.setSources(["Other"], for: column)
            let text = BoardFormat.serialize(board, as: dialect)
            let back: Board
            do { back = try BoardFormat.parse(text, file: "b.md").board } catch {
                Issue.record("round \(round) (\(dialect)): \(error)\n\(text.debugDescription)")
                continue
            }
            #expect(back.columns.count == board.columns.count, "round \(round)")
            #expect(back.cardCount == board.cardCount, "round \(round)")
            if dialect == .taskell && !column.hasSuffix(")") {
                #expect(back.columns.map(\.title) == board.columns.map(\.title), "round \(round)")
                let backTitles: [String] = back.columns.flatMap { $0.cards.map(\.title) }
                let titlesWritten: [String] = board.columns.flatMap { $0.cards.map(\.title) }
                #expect(backTitles == titlesWritten, "round \(round)")
            }
            let sidecar = board.acceptRules.serialized()
            let rules: AcceptRules
            do { rules = try AcceptRules.parse(Array(sidecar.utf8), file: ".b.md.lanes") } catch {
                Issue.record("round \(round): \(error)\n\(sidecar.debugDescription)")
                continue
            }
            #expect(rules.sources(for: column) == ["Other"], "round \(round)")
        }
    }

    @Test func trelloNamesArePutOnOneLineWithWords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-textrules-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("t.json").path
        let json =
            #"{"lists": [{"id": "l", "name": "To\r\ndo", "pos": 1}], "cards": [{"id": "c", "idList": "l", "name": "evil\u0000card\u2028two", "pos": 1, "desc": "a\u2029b"}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: export))
        let out = folder.appendingPathComponent("b.md").path
        let summary = try BoardCommands.importTrello(
            from: export, to: out, dialect: .taskell, options: .init(), force: false)
        #expect(summary.contains("3 line breaks became spaces and 1 NUL byte was removed"))
        let (b, _) = try FileBoardStore.load(out)
        #expect(b.columns[0].title == "To do")
        #expect(b.columns[0].cards[0].title == "evilcard two")
        #expect(b.columns[0].cards[0].descriptionLines == ["a", "b"])
    }

    @Test func trelloDueMustBeARealDate() {
        #expect(TrelloImport.day(fromISODate: "2024-13-45T99:99:99Z") == nil)
        #expect(TrelloImport.day(fromISODate: "2024-02-30") == nil)
        #expect(TrelloImport.day(fromISODate: "2024-02-29T23:59:59.999Z") == "2024-02-29")
        #expect(TrelloImport.day(fromISODate: "2023-02-29") == nil)
        #expect(TrelloImport.day(fromISODate: "2024-01-31T24:00:00Z") == nil)
        #expect(TrelloImport.day(fromISODate: "2024-01-31T12:00:00+02:00") == "2024-01-31")
        #expect(TrelloImport.day(fromISODate: "2024-01-31Tjunk") == nil)
    }
}

@Suite("Terminal-safe output")
struct TerminalSafeTests {
    @Test func controlsBecomeVisible() {
        let evil = "a\u{1B}]0;pwned\u{07}b\u{1B}]52;c;aGk=\u{1B}\\c\u{1B}[2Jd\u{9B}31m\u{7F}\u{202E}e"
        let safe = TerminalSafe.escape(evil)
        #expect(safe == "a^[]0;pwned^Gb^[]52;c;aGk=^[\\c^[[2Jd\\u{9b}31m^?\\u{202e}e")
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(TerminalSafe.escape("col\ttitle\n") == "col\ttitle\n")
        #expect(TerminalSafe.escape("a\tb\nc", keepLayout: false) == "a^Ib^Jc")
        #expect(TerminalSafe.escape("plain 日本 👍🏽") == "plain 日本 👍🏽")
    }
}
