import DragKit
import SeededRandom
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Whole graphemes: widths as terminals draw them, cells that keep every code point.
@Suite struct GraphemeCellTests {
    static let zwj = "\u{1F469}\u{200D}\u{1F4BB}"  // 👩‍💻
    static let flag = "\u{1F1EF}\u{1F1F5}"  // 🇯🇵
    static let thumb = "\u{1F44D}\u{1F3FD}"  // 👍🏽

    @Test(arguments: [zwj, flag, thumb, "\u{2764}\u{FE0F}", "看"])
    func emojiClustersAreTwoCells(_ text: String) {
        #expect(TextWidth.width(of: Character(text)) == 2)
    }

    @Test func aLoneRegionalIndicatorIsOneCell() {
        #expect(TextWidth.width(of: Character("\u{1F1EF}")) == 1)
        #expect(TextWidth.width(of: "e\u{301}") == 1)
    }

    @Test(arguments: [zwj, flag, thumb])
    func theBufferKeepsTheWholeClusterInOneCell(_ emoji: String) {
        var buf = CellBuffer(width: 10, height: 1)
        let end = buf.write("a" + emoji + "b", x: 0, y: 0)
        #expect(end == 4)
        #expect(buf[0, 0].text == "a")
        #expect(buf[1, 0].text == emoji)
        #expect(buf[2, 0].isContinuation)
        #expect(buf[3, 0].text == "b")
        #expect(buf.text == "a" + emoji + "b")
        // Every code point goes to curses, with the app's width.
        let (scalars, width) = buf[1, 0].codePoints(max: 5)
        #expect(width == 2)
        #expect(scalars.map { UInt32(bitPattern: $0) } == emoji.unicodeScalars.map(\.value))
    }

    @Test func aClusterThatDoesNotFitIsNotHalfDrawn() {
        var buf = CellBuffer(width: 3, height: 1)
        let end = buf.write("ab" + Self.zwj, x: 0, y: 0)
        #expect(end == 2)
        #expect(buf.text == "ab")
        // Overwriting the right half of a cluster blanks its left half.
        var full = CellBuffer(width: 4, height: 1)
        full.write(Self.flag + "cd", x: 0, y: 0)
        full.write("x", x: 1, y: 0)
        #expect(full.text == " xcd")
    }

    @Test func clustersLongerThanACharHoldKeepTheirFirstCodePoint() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        let (scalars, width) = Cell(Character(family)).codePoints(max: 5)
        #expect(width == 2)
        #expect(scalars.map { UInt32(bitPattern: $0) } == [0x1F468])
    }
}

/// The card detail view and its keys.
@Suite struct CardDetailViewTests {
    static func board() -> Board {
        var b = sampleBoard([("To do", ["Report #docs", "b"]), ("Done", [])])
        b.columns[0].cards[0].descriptionLines = [
            String(repeating: "word ", count: 40) + "omega", "", "second paragraph",
        ]
        b.columns[0].cards[0].subtasks = [Subtask("one"), Subtask("two", done: true), Subtask("three")]
        b.columns[0].cards[0].due = "2026-03-31"
        return b
    }

    @Test func contentWrapsTheWholeDescriptionAndListsSubtasks() {
        let card = Self.board().columns[0].cards[0]
        let lines = CardDetailView.content(card: card, column: "To do", storesDoneMark: true, width: 30)
        #expect(lines.allSatisfy { TextWidth.width(of: $0.text) <= 30 })
        let text = lines.map(\.text).joined(separator: " ")
        #expect(text.contains("omega"))
        #expect(!text.contains("…"))
        #expect(lines.contains { $0.text == "Sub-tasks 1/3" })
        #expect(lines.filter { $0.subtask != nil }.map(\.text) == ["[ ] one", "[x] two", "[ ] three"])
        #expect(lines.contains { $0.text == "Due:      2026-03-31" })
        #expect(lines.contains { $0.text == "Tags:     #docs" })
    }

    @Test(arguments: [(80, 24), (60, 20)])
    func enterOpensSpaceTicksEscCloses(_ w: Int, _ h: Int) {
        var d = AppDriver(board: Self.board(), width: w, height: h)
        d.key(.enter)
        #expect(d.screen().contains("Description"))
        #expect(d.screen().contains(" Card "))
        d.key(.end)
        #expect(d.screen().contains("[ ] three"))
        d.key(.down); d.key(.down); d.key(.down)
        d.key(.char(" "))
        #expect(d.app.board.columns[0].cards[0].subtasks.map(\.done) == [false, true, true])
        #expect(d.app.status == "Ticked “three” (3 of 3)")
        // One undo step, from inside the detail.
        d.key(.char("u"))
        #expect(d.app.board.columns[0].cards[0].subtasks.map(\.done) == [false, true, false])
        d.key(.escape)
        #expect(!d.screen().contains(" Card "))
        #expect(d.app.board.columns[0].cards.count == 2)
    }

    @Test func aPromptFromTheDetailReturnsToIt() {
        var d = AppDriver(board: Self.board())
        d.key(.enter)
        d.key(.char("@"))
        d.key(.char("u"), [.ctrl])
        d.type("2026-02-30")
        d.key(.enter)
        #expect(d.app.status.hasPrefix("Not set: day 30 does not exist"))
        #expect(
            d.screen().contains("Due date (empty clears): 2026-02-30"),
            "the refused prompt stays open with what was typed")
        d.key(.escape)
        #expect(d.screen().contains(" Card "))
        #expect(d.app.board.columns[0].cards[0].due == "2026-03-31")
    }

    @Test func theHintFollowsTheKeymap() {
        var k = Keymap()
        k.unbind(KeyChord(name: "x")!)
        let hint = CardDetailView.hint(keymap: k, hasSubtasks: true)
        #expect(hint.contains("space tick"))
        #expect(!hint.contains("x done"))
    }
}

/// The help: wrapped, scrollable to its last row, every action reachable.
@Suite struct HelpViewTests {
    @Test func linesFitTheWidthAndNothingIsCut() {
        for width in [40, 74] {
            let lines = HelpView.lines(keymap: Keymap(), width: width)
            #expect(lines.allSatisfy { TextWidth.width(of: $0) <= width }, "width \(width)")
            let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
            for action in Action.allCases {
                #expect(text.contains(action.summary), "\(action) cut at width \(width)")
            }
        }
    }

    @Test func endShowsTheLastKeyAt80x24() {
        var d = AppDriver(board: sampleBoard(), width: 80, height: 24)
        // The last action of the table: off the first page, on the last.
        let last = Action.allCases.last!
        let row = "\(d.app.keymap.keys(for: last).first!.description.padding(toLength: 15))\(last.rawValue)"
        d.key(.char("?"))
        #expect(!d.screen().contains(last.rawValue))
        d.key(.end)
        let s = d.screen()
        #expect(s.contains(row))
        #expect(s.contains("· end"))
        d.key(.char("k"))
        #expect(d.screen().contains("↓ more"))
        d.key(.escape)
        #expect(!d.screen().contains("Keys ·"))
    }

    @Test func clickingHelpInTheTitleBarOpensIt() {
        var d = AppDriver(board: sampleBoard(), width: 80, height: 24)
        d.mouse(.press, 76, 0)
        d.mouse(.release, 76, 0)
        #expect(d.screen().contains("Keys ·"))
    }
}

/// Done and WIP marks, the compact view.
@Suite struct MarksAndDensityTests {
    @Test func doneCardsAreMarkedAndDimmed() {
        var b = sampleBoard([("A", ["open", "closed"])])
        b.columns[0].cards[1].done = true
        let d = AppDriver(board: b)
        var buf = CellBuffer(width: 80, height: 16)
        d.app.render(into: &buf, now: 0)
        #expect(buf.text.contains("✓ closed"))
        #expect(!buf.text.contains("✓ open"))
        let marks = (0..<16).flatMap { y in (0..<80).filter { buf[$0, y].text == "✓" }.map { ($0, y) } }
        #expect(marks.count == 1)
        if let (x, y) = marks.first {
            #expect(buf[x, y].style.dim && buf[x + 2, y].text == "c" && buf[x + 2, y].style.dim)
        }
        let open = (0..<16).flatMap { y in
            (0..<79).filter { buf[$0, y].text == "o" && buf[$0 + 1, y].text == "p" }.map { ($0, y) }
        }
        #expect(open.count == 1 && !buf[open[0].0, open[0].1].style.dim)
    }

    @Test func taskellSaysItCannotStoreADoneMarkAndRecordsNoUndoStep() {
        var d = AppDriver(board: Board(columns: sampleBoard().columns, capacity: .taskell))
        d.key(.char("x"))
        #expect(d.app.status.hasPrefix("Taskell files have no done mark"))
        #expect(d.app.revision == 0)
        #expect(!d.app.document.history.canUndo)
    }

    @Test func aColumnAtOrOverItsLimitIsMarkedAtRest() {
        var b = sampleBoard([("A", ["a"]), ("B", ["b0", "b1"]), ("C", ["c0", "c1"])])
        b.columns[1].wipLimit = 2
        b.columns[2].wipLimit = 1
        let d = AppDriver(board: b, width: 90)
        let header = d.screen().split(separator: "\n")[1]
        #expect(header.contains("B 2/2 ● full"))
        #expect(header.contains("C 2/1 ▲ over"))
        #expect(!header.contains("A 1 ●"))
    }

    @Test func compactViewShowsTwentyCardsAt80x24AndDragsTheSame() {
        let cards = (0..<30).map { String(format: "k%02d", $0) }
        var d = AppDriver(board: sampleBoard([("Long", cards), ("Side", ["s"])]), width: 80, height: 24)
        d.key(.char("z"))
        #expect(d.app.isCompact)
        let rows = d.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let shown = rows.filter { $0.range(of: #"k\d\d"#, options: .regularExpression) != nil }.count
        #expect(shown == 20)
        #expect(d.app.layout.columns[0].frameOfItem(at: 0).height == 1)
        // A drag from row 3 (k00) onto Side lands below its card.
        d.drag([(5, 3), (10, 4), (30, 5), (50, 5), (50, 4)])
        #expect(titles(d.app.board)[1] == ["s", "k00"])
        d.key(.char("z"))
        #expect(!d.app.isCompact)
    }

    @Test func theConfigFileSetsTheView() throws {
        var c = AppConfig()
        try c.apply(config: "set view compact\nbind n down\n", file: "cfg")
        #expect(c.compact)
        #expect(c.keymap.action(for: .char("n"), []) == .down)
        #expect(
            throws: ConfigError(
                file: "cfg", line: 1,
                message: "expected \"set view compact\" or \"set view cards\", found \"set view tiny\"")
        ) {
            try c.apply(config: "set view tiny\n", file: "cfg")
        }
    }
}

/// Status words that are fresh and true; paging that comes back.
@Suite struct FreshWordsTests {
    @Test func aSuccessClearsAnOldError() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("W")); d.type("many"); d.key(.enter)
        #expect(d.app.status == "A WIP limit is a whole number above 0")
        d.key(.char("u"), [.ctrl]); d.type("3"); d.key(.enter)
        #expect(d.app.status == "To do takes at most 3 cards")
        d.key(.char("W")); d.type("x"); d.key(.enter)
        d.key(.escape)
        d.key(.char("j"))
        #expect(!d.app.status.contains("whole number"))
    }

    @Test func theIdleHintNamesOnlyBoundKeys() throws {
        var k = Keymap()
        try k.apply(config: "unbind q\nunbind space\n", file: "cfg")
        let hint = BoardApp.idleHint(keymap: k, filter: "")
        #expect(!hint.contains("q quit"))
        #expect(hint.contains("ctrl-c quit"))
        #expect(!hint.contains("space to lift"))
        #expect(
            BoardApp.idleHint(keymap: Keymap(), filter: "")
                == "Drag with the mouse or space to lift · enter opens a card · ? help · q quit")
    }

    @Test func datesMustBeRealDates() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("@")); d.type("2026-13-45"); d.key(.enter)
        #expect(d.app.status == "Not set: month 13 does not exist in “2026-13-45” (months are 01–12)")
        #expect(d.app.board.columns[0].cards[0].due == nil)
        d.key(.char("u"), [.ctrl]); d.type("2024-02-29"); d.key(.enter)
        #expect(d.app.board.columns[0].cards[0].due == "2024-02-29")
    }

    @Test func columnNamesAreUniqueIgnoringCase() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("A")); d.type("DONE"); d.key(.enter)
        #expect(d.app.board.columns.count == 3)
        #expect(d.app.status == "Not added: “DONE” is the same name as the column “Done” (case is ignored)")
        d.key(.escape)
        d.key(.char("R")); d.key(.char("u"), [.ctrl]); d.type("to DO"); d.key(.enter)
        #expect(d.app.board.columns[0].title == "To do" || d.app.board.columns[0].title == "to DO")
        d.key(.char("R")); d.key(.char("u"), [.ctrl]); d.type("doing"); d.key(.enter)
        #expect(d.app.status.hasPrefix("Not renamed: “doing” is the same name as the column “Doing”"))
    }

    @Test func pageWordsGiveWayWhenTheDragIsOverAColumnAgain() {
        let cols = (0..<8).map { ("C\($0)", ["c\($0)"]) }
        var d = AppDriver(board: sampleBoard(cols), width: 80, height: 24)
        d.mouse(.press, 5, 4)
        d.mouse(.drag, 10, 4)
        d.key(.char("]"))
        #expect(d.app.status.hasPrefix("Page 2 of"))
        d.mouse(.drag, 30, 5)
        #expect(d.app.status.hasPrefix("Over C"), "\(d.app.status)")
        d.mouse(.release, 30, 5)
    }

    @Test func shrinkingAndGrowingBackGivesOnePage() {
        let cols = (0..<4).map { ("Col\($0)", ["c\($0)"]) }
        var d = AppDriver(board: sampleBoard(cols), width: 120, height: 40)
        #expect(d.app.layout.pageCount == 1)
        d.key(.char("l")); d.key(.char("l")); d.key(.char("l"))
        d.app.resize(Size(width: 30, height: 10))
        #expect(d.app.layout.pageCount > 1)
        d.app.resize(Size(width: 120, height: 40))
        #expect(d.app.layout.pageCount == 1)
        #expect(d.app.layout.columns.map(\.section) == [0, 1, 2, 3])
    }
}

@Suite struct CardDetailHintTests {
    @Test func theHintFitsItsWidthKeepingEscClose() {
        let full = CardDetailView.hint(keymap: Keymap(), hasSubtasks: true)
        #expect(full == "space tick · ↑↓ choose · e title · @ due · # tags · x done · E editor · esc close")
        let narrow = CardDetailView.hint(keymap: Keymap(), hasSubtasks: true, width: 52)
        #expect(TextWidth.width(of: narrow) <= 52)
        #expect(narrow.hasPrefix("space tick") && narrow.hasSuffix("esc close"))
    }
}

/// Random keys, clicks and resizes through the reading views never crash or draw outside the
/// frame, and every view can be left with esc.
@Suite struct ReadingRandomTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomSessionsThroughDetailHelpAndCompact(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var b = sampleBoard([("To do", (0..<12).map { "card \($0) 👩‍💻 🇯🇵" }), ("Doing", ["d"]), ("Done", [])])
        b.columns[0].cards[0].descriptionLines = ["a long description line that wraps", "", "more"]
        b.columns[0].cards[0].subtasks = (0..<8).map { Subtask("step \($0)") }
        b.columns[0].wipLimit = 3
        var d = AppDriver(board: b, width: 80, height: 24)
        let keys: [Key] = [
            .enter, .escape, .char("?"), .char("z"), .char("j"), .char("k"), .char(" "), .char("t"), .char("x"),
            .pageDown, .pageUp, .home, .end, .up, .down, .char("u"), .char("l"), .char("h"), .char("G"),
        ]
        for _ in 0..<1500 {
            switch random.next() % 10 {
            case 0..<7: d.key(keys[Int(random.next() % UInt64(keys.count))])
            case 7:
                let x = Int(random.next() % UInt64(d.app.size.width)),
                    y = Int(random.next() % UInt64(d.app.size.height))
                d.mouse(.press, x, y)
                d.mouse(.release, x, y)
            case 8: d.mouse(random.next() % 2 == 0 ? .wheelUp : .wheelDown, 10, 5, button: .none)
            default:
                d.app.resize(
                    Size(
                        width: [24, 30, 60, 80, 120][Int(random.next() % 5)],
                        height: [8, 10, 20, 24, 40][Int(random.next() % 5)]))
            }
            var buf = CellBuffer(width: 0, height: 0)
            d.app.render(into: &buf, now: d.now)
            #expect(buf.width == d.app.size.width && buf.height == d.app.size.height)
        }
        for _ in 0..<3 { d.key(.escape) }
        if case .normal = d.app.mode {} else { Issue.record("esc did not leave \(d.app.mode)") }
        #expect(d.app.board.cardCount == 13)
    }
}
