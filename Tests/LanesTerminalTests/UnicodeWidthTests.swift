import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Widths from Unicode's own data (scripts/gen-widths), checked on that version's grapheme-break
/// test data, and a corpus of zero-width, combining, emoji and wide text that must never paint a
/// cell outside its card, its card view or its prompt (#25 point 5).
@Suite struct UnicodeWidthTests {
    /// GraphemeBreakTest of the table's version, as scripts/gen-widths copies it: clusters of code points.
    static let breakCases: [[[UInt32]]] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/GraphemeBreakTest.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            line.split(separator: "/").map { $0.split(separator: " ").map { UInt32($0, radix: 16)! } }
        }
    }()

    static func string(_ scalars: [UInt32]) -> String {
        var s = ""
        s.unicodeScalars.append(contentsOf: scalars.map { Unicode.Scalar($0)! })
        return s
    }

    /// Zero-width characters alone and among text, emoji ZWJ sequences, flags, keycaps, wide CJK.
    static let corpus: [String] = [
        "\u{200D}", "\u{200B}", "\u{0301}", "\u{FE0F}", "\u{FE0E}", "\u{200C}", "\u{2060}", "\u{FEFF}", "\u{E0100}",
        "a\u{200B}b zwsp", "x\u{200D}y zwj", "\u{0301}lone mark", "\u{0301}\u{0301}\u{0301}\u{0301}\u{0301}",
        "\u{200D}\u{200D}\u{200D}\u{200D}", "\u{FE0F}\u{FE0F}\u{FE0F}", "e\u{0301}\u{0302}\u{0303}\u{0304} stacked",
        "snow \u{2603}\u{FE0E} text", "snow \u{2603}\u{FE0F} emoji", "a\u{FE0F} selector on a letter",
        "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} z", "\u{1F469}\u{200D}\u{1F4BB}\u{200D}",
        "\u{200D}\u{1F469}", "tone \u{1F44D}\u{1F3FD} \u{1F3FD}",
        "flag \u{1F1EB}\u{1F1F7} \u{1F1EF}\u{1F1F5}\u{1F1FA} z",
        "\u{1F1E6}", "keycap 1\u{FE0F}\u{20E3} #\u{FE0F}\u{20E3} *\u{20E3}",
        "rainbow \u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
        "cjk 看板看板看板看板看板看板看板看板看板看板看板看板看板看板看板看板 z", "ｆｕｌｌｗｉｄｔｈ", "한국어 \u{1100}\u{1161}\u{11A8}",
        "\u{1160}\u{11A8}\u{D7B0}", "bidi \u{202E}evil\u{202C} \u{200F}\u{200E}\u{061C}", "soft\u{00AD}hyphen",
        "\u{0600}\u{0661} arabic number sign", "tag \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        String(repeating: "\u{1F600}\u{200D}", count: 30), String(repeating: "a\u{0300}\u{200B}", count: 60),
        String(repeating: "看\u{200D}", count: 40),
    ]

    @Test func theTableNamesItsUnicodeVersionAndTheTestDataIsThatVersions() throws {
        #expect(TextWidth.unicodeVersion == "15.0.0")
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/GraphemeBreakTest.txt")
        let head = try String(contentsOf: url, encoding: .utf8).prefix(200)
        #expect(head.contains("GraphemeBreakTest-\(TextWidth.unicodeVersion).txt"))
        #expect(Self.breakCases.count > 600)
    }

    /// Cells are graphemes (Swift's `Character`): they must be that version's clusters. The one
    /// case where Swift's own tables split otherwise (U+2701 ✁, Extended_Pictographic in 15.0, is
    /// not joined by a ZWJ) is named: its cells are "✁" and "✁", the ZWJ dropped on the way to the
    /// terminal, so the screen and the buffer still agree.
    @Test func charactersAreTheUnicodeGraphemeClusters() {
        var wrong: [String] = []
        for clusters in Self.breakCases {
            let s = Self.string(clusters.flatMap { $0 })
            let got = s.map { $0.unicodeScalars.map(\.value) }
            if got != clusters { wrong.append("\(clusters) → \(got)") }
        }
        #expect(
            wrong == ["[[9985, 8205, 9985]] → [[9985, 8205], [9985]]"],
            "\(wrong.count) of \(Self.breakCases.count): \(wrong.prefix(5))")
        #expect(TextWidth.terminalScalars(of: Character("\u{2701}\u{200D}")).map(\.value) == [0x2701])
    }

    /// Every test string written into a field of a row changes no cell outside the field, and
    /// takes exactly the cells its graphemes measure (safe pieces for controls).
    @Test func everyBreakTestStringStaysInItsField() {
        for clusters in Self.breakCases + Self.corpus.map({ [$0.unicodeScalars.map(\.value)] }) {
            let s = Self.string(clusters.flatMap { $0 })
            for ch in s { #expect((0...2).contains(TextWidth.width(of: ch))) }
            var buf = CellBuffer(width: 40, height: 1)
            buf.fill(x: 0, y: 0, width: 40, height: 1, with: "#")
            let end = buf.write(s, x: 5, y: 0, maxX: 25)
            #expect(end <= 25)
            for x in 0..<40 where x < 5 || x >= 25 {
                #expect(buf[x, 0].text == "#", "\(clusters) painted cell \(x)")
            }
            // Each grapheme takes its safe pieces' cells (a control shown as ^M takes 2), up to the field's end.
            let cells = s.reduce(0) { $0 + CellBuffer.safePieces($1).reduce(0) { $0 + TextWidth.width(of: $1) } }
            #expect(end - 5 == min(cells, 20) || (cells > 20 && end - 5 >= 19), "\(clusters)")
            // What goes to the terminal has the same width to us: a cell never loses its base.
            for x in 5..<end where !buf[x, 0].isContinuation {
                let (scalars, width) = buf[x, 0].codePoints(max: 5)
                #expect(!scalars.isEmpty && (1...2).contains(width))
            }
        }
    }

    @Test func strayInvisiblesNeverReachTheTerminal() {
        let stray: Set<UInt32> = [0x200B, 0x200C, 0x2060, 0xFEFF, 0x200E, 0x200F, 0x061C]
        for s in Self.corpus {
            // A grapheme of no width is never placed in a cell: nothing of it reaches the terminal.
            for ch in s where TextWidth.width(of: ch) > 0 {
                let out = TextWidth.terminalScalars(of: ch).map(\.value)
                #expect(out.allSatisfy { !stray.contains($0) } || out.count == 1, "\(s.unicodeScalars.map(\.value))")
                for (i, v) in out.enumerated() where v == 0x200D {
                    // A ZWJ only between pictographs (an emoji ZWJ sequence).
                    #expect(i > 0 && i + 1 < out.count, "\(out)")
                    #expect(UnicodeWidths.contains(UnicodeWidths.pictographic, out[i + 1]), "\(out)")
                }
                if out.count > 1, out.contains(0xFE0F) || out.contains(0xFE0E) {
                    let base = out[(out.firstIndex { $0 == 0xFE0F || $0 == 0xFE0E }!) - 1]
                    #expect(UnicodeWidths.contains(UnicodeWidths.emoji, base), "\(out)")
                }
            }
        }
        #expect(TextWidth.terminalScalars(of: Character("x\u{200D}")).map(\.value) == [0x78])
        #expect(TextWidth.terminalScalars(of: Character("\u{1F469}\u{200D}\u{1F4BB}")).count == 3)
        #expect(TextWidth.terminalScalars(of: Character("1\u{FE0F}\u{20E3}")).map(\.value) == [0x31, 0xFE0F, 0x20E3])
    }

    @Test func widthsOfTheCorpusAsTerminalsDrawThem() {
        #expect(TextWidth.width(of: "\u{200D}") == 0)
        #expect(TextWidth.width(of: "\u{200B}") == 0)
        #expect(TextWidth.width(of: "\u{FE0F}") == 0)
        #expect(TextWidth.width(of: "a\u{FE0F}") == 1)  // a selector widens only an emoji
        #expect(TextWidth.width(of: "\u{2603}\u{FE0F}") == 2)
        #expect(TextWidth.width(of: "1\u{FE0F}\u{20E3}") == 2)
        #expect(TextWidth.width(of: "\u{1F1EB}\u{1F1F7}") == 2)
        #expect(TextWidth.width(of: "看板") == 4)
        #expect(TextWidth.width(of: "soft\u{00AD}") == 5)
        #expect(TextWidth.width(of: "\u{1100}\u{1161}\u{11A8}") == 2)
        #expect(TextWidth.width(of: "─│╭") == 3)
    }

    /// A board whose cards hold the corpus: every card keeps its border where its frame says,
    /// in the board, in the card view and with the title in the edit prompt.
    @Test(arguments: [100, 61, 44])
    func noCorpusStringPaintsOutsideItsCardItsCardViewOrItsPrompt(width: Int) {
        var next: UInt64 = 1
        let cards = Self.corpus.map { s -> Card in
            defer { next += 1 }
            return Card(id: CardID(next), title: s, descriptionLines: [s, "more " + s], subtasks: [Subtask(s)])
        }
        let board = Board(columns: [
            Column(title: "Zero \u{200D}\u{0301}width", cards: Array(cards.prefix(20))),
            Column(title: "看板 \u{1F1EB}\u{1F1F7}", cards: Array(cards.dropFirst(20))),
        ])
        let d = AppDriver(board: board, width: width, height: 200)
        var buf = CellBuffer(width: width, height: 200)
        d.app.render(into: &buf, now: d.now)
        for column in d.app.layout.columns {
            for i in 0..<column.itemCount {
                let f = column.frameOfItem(at: i)
                guard f.minY >= column.viewport.minY, f.maxY <= column.viewport.maxY else { continue }
                for y in (f.minY + 1)..<(f.maxY - 1) {
                    #expect(
                        buf[f.minX, y].text == "│" && buf[f.maxX - 1, y].text == "│",
                        "card \(i) of column \(column.section), row \(y), width \(width)\n\(buf.text)")
                }
                #expect(buf[f.minX, f.minY].text == "╭" || buf[f.minX, f.minY].text == "┏", "\(buf.text)")
                #expect(["╯", "┛"].contains(buf[f.maxX - 1, f.maxY - 1].text), "\(buf.text)")
            }
        }
        // The card view of each card: its box's borders are whole on every row.
        for k in 0..<board.cardCount {
            var v = AppDriver(board: board, width: width, height: 40)
            for _ in 0..<(k % 20) { v.key(.char("j")) }
            if k >= 20 { v.key(.char("l")) }
            v.key(.enter)
            var b = CellBuffer(width: width, height: 40)
            v.app.render(into: &b, now: v.now)
            let box = CardDetailView.box(v.app.size)
            for y in (box.minY + 1)..<(box.maxY - 1) {
                #expect(b[box.minX, y].text == "│" && b[box.maxX - 1, y].text == "│", "card \(k), row \(y)\n\(b.text)")
            }
            // And its title in the edit prompt: the last row only, the cursor on it.
            var p = AppDriver(board: board, width: width, height: 40)
            for _ in 0..<(k % 20) { p.key(.char("j")) }
            if k >= 20 { p.key(.char("l")) }
            var before = CellBuffer(width: width, height: 40)
            p.app.render(into: &before, now: p.now)
            p.key(.char("e"))
            var after = CellBuffer(width: width, height: 40)
            p.app.render(into: &after, now: p.now)
            for y in 0..<38 {
                for x in 0..<width { #expect(after[x, y] == before[x, y], "card \(k): the prompt painted row \(y)") }
            }
            if let c = after.cursor { #expect(c.y == 39 && c.x < width) }
        }
    }
}
