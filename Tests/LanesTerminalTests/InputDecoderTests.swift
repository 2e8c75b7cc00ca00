import DragKit
import SeededRandom
import Testing

import LanesTerminal

// MARK: - Helpers

private let esc: UInt8 = 0x1B

/// The UTF-8 bytes of `text`.
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func key(_ key: Key, _ modifiers: Modifiers = []) -> InputEvent { .key(key, modifiers) }
private func char(_ c: Character, _ modifiers: Modifiers = []) -> InputEvent { .key(.char(c), modifiers) }
private func mouse(
    _ kind: MouseEvent.Kind, _ button: MouseEvent.Button, _ x: Int, _ y: Int, _ modifiers: Modifiers = []
) -> InputEvent {
    .mouse(MouseEvent(kind, button, x: x, y: y, modifiers: modifiers))
}

/// X10 report: ESC [ M, then code + 32 and 1-based coordinates + 32, as raw bytes.
private func x10(_ code: Int, _ x: Int, _ y: Int) -> [UInt8] {
    [esc, 0x5B, 0x4D, UInt8(code + 32), UInt8(truncatingIfNeeded: x + 33), UInt8(truncatingIfNeeded: y + 33)]
}

/// SGR report with 0-based coordinates.
private func sgr(_ code: Int, _ x: Int, _ y: Int, release: Bool = false) -> [UInt8] {
    bytes("\u{1B}[<\(code);\(x + 1);\(y + 1)\(release ? "m" : "M")")
}

/// urxvt report with 0-based coordinates.
private func urxvt(_ code: Int, _ x: Int, _ y: Int) -> [UInt8] {
    bytes("\u{1B}[\(code + 32);\(x + 1);\(y + 1)M")
}

/// Decodes `input` in one read, then flushes whatever is left as if the timeout passed.
private func decodeAll(_ input: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    return decoder.feed(input, now: 0) + decoder.flush(now: .infinity)
}

/// One table row: bytes that must decode at once (no timeout) to exactly `expected`.
struct DecodeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let expected: [InputEvent]

    init(_ name: String, _ input: [UInt8], _ expected: [InputEvent]) {
        self.name = name
        self.input = input
        self.expected = expected
    }

    init(_ name: String, _ text: String, _ expected: [InputEvent]) {
        self.init(name, bytes(text), expected)
    }

    var testDescription: String { name }
}

/// Checks a row: complete sequences come out from `feed` alone and leave nothing pending.
private func check(_ row: DecodeCase) {
    var decoder = InputDecoder()
    let events = decoder.feed(row.input, now: 0)
    #expect(events == row.expected, "\(row.name)")
    #expect(decoder.deadline == nil, "\(row.name): nothing should be pending")
}

// MARK: - Text and control keys

@Suite struct InputDecoderTests {
    static let textCases: [DecodeCase] = [
        DecodeCase("ASCII", "aZ5 ~", [char("a"), char("Z"), char("5"), char(" "), char("~")]),
        DecodeCase("two-byte", "é", [char("é")]),
        DecodeCase("CJK", "中文", [char("中"), char("文")]),
        DecodeCase("emoji", "😀x", [char("😀"), char("x")]),
        DecodeCase("mixed", "aé中😀", [char("a"), char("é"), char("中"), char("😀")]),
    ]

    @Test(arguments: textCases) func text(_ row: DecodeCase) { check(row) }

    static let controlCases: [DecodeCase] = [
        DecodeCase("CR is Enter", [0x0D], [key(.enter)]),
        DecodeCase("LF is Enter", [0x0A], [key(.enter)]),
        DecodeCase("CR LF is two Enters", [0x0D, 0x0A], [key(.enter), key(.enter)]),
        DecodeCase("Tab", [0x09], [key(.tab)]),
        DecodeCase("DEL is Backspace", [0x7F], [key(.backspace)]),
        DecodeCase("BS is Backspace", [0x08], [key(.backspace)]),
        DecodeCase("Ctrl-A", [0x01], [char("a", .ctrl)]),
        DecodeCase("Ctrl-R", [0x12], [char("r", .ctrl)]),
        DecodeCase("Ctrl-Z", [0x1A], [char("z", .ctrl)]),
        DecodeCase("Ctrl-Space", [0x00], [char(" ", .ctrl)]),
        DecodeCase("Ctrl-backslash", [0x1C], [char("\\", .ctrl)]),
        DecodeCase("Ctrl-underscore", [0x1F], [char("_", .ctrl)]),
        DecodeCase("Alt-a", [esc, 0x61], [char("a", .alt)]),
        DecodeCase("Alt-Shift-A", [esc, 0x41], [char("A", .alt)]),
        DecodeCase("Ctrl-Alt-R", [esc, 0x12], [char("r", [.ctrl, .alt])]),
        DecodeCase("Alt-Backspace", [esc, 0x7F], [key(.backspace, .alt)]),
        DecodeCase("Alt-Enter", [esc, 0x0D], [key(.enter, .alt)]),
        DecodeCase("Alt-é", [esc] + bytes("é"), [char("é", .alt)]),
        DecodeCase("Esc Esc then key: the first is a plain Esc", [esc, esc, 0x61], [key(.escape), char("a", .alt)]),
    ]

    @Test(arguments: controlCases) func controlKeys(_ row: DecodeCase) { check(row) }

    // MARK: - CSI and SS3 keys

    static let keyCases: [DecodeCase] = [
        DecodeCase("CSI up", "\u{1B}[A", [key(.up)]),
        DecodeCase("CSI down", "\u{1B}[B", [key(.down)]),
        DecodeCase("CSI right", "\u{1B}[C", [key(.right)]),
        DecodeCase("CSI left", "\u{1B}[D", [key(.left)]),
        DecodeCase("SS3 up", "\u{1B}OA", [key(.up)]),
        DecodeCase("SS3 down", "\u{1B}OB", [key(.down)]),
        DecodeCase("SS3 right", "\u{1B}OC", [key(.right)]),
        DecodeCase("SS3 left", "\u{1B}OD", [key(.left)]),
        DecodeCase("CSI H", "\u{1B}[H", [key(.home)]),
        DecodeCase("CSI F", "\u{1B}[F", [key(.end)]),
        DecodeCase("CSI 1~", "\u{1B}[1~", [key(.home)]),
        DecodeCase("CSI 4~", "\u{1B}[4~", [key(.end)]),
        DecodeCase("CSI 7~", "\u{1B}[7~", [key(.home)]),
        DecodeCase("CSI 8~", "\u{1B}[8~", [key(.end)]),
        DecodeCase("SS3 H", "\u{1B}OH", [key(.home)]),
        DecodeCase("SS3 F", "\u{1B}OF", [key(.end)]),
        DecodeCase("Insert", "\u{1B}[2~", [key(.insert)]),
        DecodeCase("Delete", "\u{1B}[3~", [key(.delete)]),
        DecodeCase("PgUp", "\u{1B}[5~", [key(.pageUp)]),
        DecodeCase("PgDn", "\u{1B}[6~", [key(.pageDown)]),
        DecodeCase("SS3 F1", "\u{1B}OP", [key(.function(1))]),
        DecodeCase("SS3 F2", "\u{1B}OQ", [key(.function(2))]),
        DecodeCase("SS3 F3", "\u{1B}OR", [key(.function(3))]),
        DecodeCase("SS3 F4", "\u{1B}OS", [key(.function(4))]),
        DecodeCase("CSI 11~ F1", "\u{1B}[11~", [key(.function(1))]),
        DecodeCase("CSI 12~ F2", "\u{1B}[12~", [key(.function(2))]),
        DecodeCase("CSI 13~ F3", "\u{1B}[13~", [key(.function(3))]),
        DecodeCase("CSI 14~ F4", "\u{1B}[14~", [key(.function(4))]),
        DecodeCase("F5", "\u{1B}[15~", [key(.function(5))]),
        DecodeCase("F6", "\u{1B}[17~", [key(.function(6))]),
        DecodeCase("F7", "\u{1B}[18~", [key(.function(7))]),
        DecodeCase("F8", "\u{1B}[19~", [key(.function(8))]),
        DecodeCase("F9", "\u{1B}[20~", [key(.function(9))]),
        DecodeCase("F10", "\u{1B}[21~", [key(.function(10))]),
        DecodeCase("F11", "\u{1B}[23~", [key(.function(11))]),
        DecodeCase("F12", "\u{1B}[24~", [key(.function(12))]),
        DecodeCase("Linux console F1", "\u{1B}[[A", [key(.function(1))]),
        DecodeCase("Linux console F5", "\u{1B}[[E", [key(.function(5))]),
        DecodeCase("Shift-Up", "\u{1B}[1;2A", [key(.up, .shift)]),
        DecodeCase("Alt-Up", "\u{1B}[1;3A", [key(.up, .alt)]),
        DecodeCase("Shift-Alt-Up", "\u{1B}[1;4A", [key(.up, [.shift, .alt])]),
        DecodeCase("Ctrl-Up", "\u{1B}[1;5A", [key(.up, .ctrl)]),
        DecodeCase("Ctrl-Shift-Left", "\u{1B}[1;6D", [key(.left, [.ctrl, .shift])]),
        DecodeCase("Ctrl-Alt-Right", "\u{1B}[1;7C", [key(.right, [.ctrl, .alt])]),
        DecodeCase("Ctrl-Shift-Alt-Down", "\u{1B}[1;8B", [key(.down, [.ctrl, .shift, .alt])]),
        DecodeCase("Meta-Up counts as Alt", "\u{1B}[1;9A", [key(.up, .alt)]),
        DecodeCase("Ctrl-End", "\u{1B}[1;5F", [key(.end, .ctrl)]),
        DecodeCase("Ctrl-Delete", "\u{1B}[3;5~", [key(.delete, .ctrl)]),
        DecodeCase("Shift-PgDn", "\u{1B}[6;2~", [key(.pageDown, .shift)]),
        DecodeCase("Ctrl-F1 (CSI 1;5P)", "\u{1B}[1;5P", [key(.function(1), .ctrl)]),
        DecodeCase("Shift-F5", "\u{1B}[15;2~", [key(.function(5), .shift)]),
        DecodeCase("SS3 with modifier", "\u{1B}O5A", [key(.up, .ctrl)]),
        DecodeCase("Shift-Tab", "\u{1B}[Z", [key(.tab, .shift)]),
        DecodeCase("keypad Enter", "\u{1B}OM", [key(.enter)]),
        DecodeCase("keypad 7", "\u{1B}Ow", [char("7")]),
        DecodeCase("CSI u Ctrl-Enter", "\u{1B}[13;5u", [key(.enter, .ctrl)]),
        DecodeCase("modifyOtherKeys Ctrl-Shift-a", "\u{1B}[27;6;65~", [char("A", [.ctrl, .shift])]),
        DecodeCase("focus in", "\u{1B}[I", [.focusIn]),
        DecodeCase("focus out", "\u{1B}[O", [.focusOut]),
        DecodeCase("keys back to back", "\u{1B}[A\u{1B}OBx\u{1B}[5~", [key(.up), key(.down), char("x"), key(.pageUp)]),
    ]

    @Test(arguments: keyCases) func keys(_ row: DecodeCase) { check(row) }

    static let unknownCases: [DecodeCase] = [
        DecodeCase("device attributes reply", "\u{1B}[?62;22cx", [char("x")]),
        DecodeCase("status reply", "\u{1B}[0nx", [char("x")]),
        DecodeCase("cursor report (row 12)", "\u{1B}[12;40Rx", [char("x")]),
        DecodeCase("unassigned tilde key", "\u{1B}[99~x", [char("x")]),
        DecodeCase("intermediate byte", "\u{1B}[1$xy", [char("y")]),
        DecodeCase("unknown final", "\u{1B}[5;5;5;5;5;5;5jx", [char("x")]),
        DecodeCase("colon subparameters", "\u{1B}[97:65;2ux", [char("a", .shift), char("x")]),
        DecodeCase("stray paste end", "\u{1B}[201~x", [char("x")]),
        DecodeCase("unknown SS3", "\u{1B}O~x", [char("x")]),
        DecodeCase("SGR with too few parameters", "\u{1B}[<0;5Mx", [char("x")]),
        DecodeCase("extra mouse buttons", "\u{1B}[<128;5;5Mx", [char("x")]),
        DecodeCase(
            "CSI cut off by a new sequence", "\u{1B}[1;5\u{1B}[Bx", [key(.down), char("x")]),
        DecodeCase("ESC [ then a control byte", [esc, 0x5B, 0x0D], [char("[", .alt), key(.enter)]),
    ]

    @Test(arguments: unknownCases) func unknownSequencesAreConsumedWhole(_ row: DecodeCase) { check(row) }

    // MARK: - Invalid UTF-8

    static let invalidUTF8Cases: [DecodeCase] = [
        DecodeCase("invalid lead byte", [0x61, 0xFF, 0x62], [char("a"), char("\u{FFFD}"), char("b")]),
        DecodeCase("lone continuation", [0x80, 0x62], [char("\u{FFFD}"), char("b")]),
        DecodeCase("overlong", [0xC0, 0x80], [char("\u{FFFD}"), char("\u{FFFD}")]),
        DecodeCase("truncated then ASCII", [0xE4, 0xB8, 0x61], [char("\u{FFFD}"), char("a")]),
        DecodeCase("truncated then ESC sequence", [0xE4, esc, 0x5B, 0x41], [char("\u{FFFD}"), key(.up)]),
        DecodeCase("surrogate", [0xED, 0xA0, 0x80], Array(repeating: char("\u{FFFD}"), count: 3)),
        DecodeCase("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], Array(repeating: char("\u{FFFD}"), count: 4)),
        DecodeCase("F5 lead", [0xF5, 0x41], [char("\u{FFFD}"), char("A")]),
        DecodeCase("largest scalar", [0xF4, 0x8F, 0xBF, 0xBF], [char("\u{10FFFF}")]),
    ]

    @Test(arguments: invalidUTF8Cases) func invalidUTF8(_ row: DecodeCase) { check(row) }

    @Test func utf8SplitAcrossReads() {
        let emoji = bytes("😀")
        var decoder = InputDecoder()
        for (index, byte) in emoji.enumerated() {
            let events = decoder.feed([byte], now: 0)
            if index < emoji.count - 1 {
                #expect(events.isEmpty)
                #expect(decoder.deadline == 0.025)
            } else {
                #expect(events == [char("😀")])
                #expect(decoder.deadline == nil)
            }
        }
    }

    @Test func truncatedUTF8IsReplacedAtTheDeadline() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x61, 0xE4, 0xB8], now: 1) == [char("a")])
        #expect(decoder.flush(now: 1.01).isEmpty)
        #expect(decoder.flush(now: 1.03) == [char("\u{FFFD}")])
        #expect(decoder.feed([0x62], now: 1.04) == [char("b")])
    }

    // MARK: - Escape timing

    @Test func loneEscapeWaitsForTheDeadline() {
        var decoder = InputDecoder(escapeTimeout: 0.025)
        #expect(decoder.deadline == nil)
        #expect(decoder.feed([esc], now: 10).isEmpty)
        #expect(decoder.deadline == 10.025)
        #expect(decoder.flush(now: 10.01).isEmpty, "flushing early must not split a sequence")
        #expect(decoder.flush(now: 10.025) == [key(.escape)])
        #expect(decoder.deadline == nil)
        #expect(decoder.flush(now: 11).isEmpty)
    }

    @Test func escapeThenKeyWithinTheTimeoutIsAlt() {
        var decoder = InputDecoder()
        #expect(decoder.feed([esc], now: 0).isEmpty)
        #expect(decoder.feed([0x61], now: 0.01) == [char("a", .alt)])
        #expect(decoder.deadline == nil)
    }

    @Test func escapeThenKeyAfterFlushIsTwoKeys() {
        var decoder = InputDecoder()
        #expect(decoder.feed([esc], now: 0).isEmpty)
        #expect(decoder.flush(now: 0.03) == [key(.escape)])
        #expect(decoder.feed([0x61], now: 0.2) == [char("a")])
    }

    @Test func lateBytesFlushTheStaleEscapeFirst() {
        // The caller did not flush, but the next read comes after the deadline.
        var decoder = InputDecoder()
        #expect(decoder.feed([esc], now: 0).isEmpty)
        #expect(decoder.feed([0x61], now: 0.5) == [key(.escape), char("a")])
        #expect(decoder.feed([esc], now: 1).isEmpty)
        #expect(decoder.feed(bytes("[A"), now: 1.5) == [key(.escape), char("["), char("A")])
    }

    @Test func escapeFollowedByArrowInOneRead() {
        // Esc pressed, then Up, both in one read: the second ESC starts a sequence.
        #expect(decodeAll(bytes("\u{1B}\u{1B}[A")) == [key(.escape), key(.up)])
    }

    @Test func unfinishedSequencesFlushAsLiteralKeys() {
        #expect(decodeAll([esc, 0x5B]) == [char("[", .alt)])
        #expect(decodeAll([esc, 0x4F]) == [char("O", .alt)])
        #expect(decodeAll(bytes("\u{1B}[1;5")) == [char("[", .alt), char("1"), char(";"), char("5")])
        #expect(decodeAll([esc, 0xC3]) == [char("\u{FFFD}", .alt)])
    }

    @Test func startedSequencesWaitLonger() {
        var decoder = InputDecoder(escapeTimeout: 0.025, sequenceTimeout: 0.25)
        #expect(decoder.feed(bytes("\u{1B}["), now: 0).isEmpty)
        #expect(decoder.deadline == 0.025)
        #expect(decoder.feed(bytes("<0;5"), now: 0.01).isEmpty)
        #expect(decoder.deadline == 0.26)
        #expect(decoder.flush(now: 0.1).isEmpty)
        #expect(decoder.feed(bytes(";7M"), now: 0.2) == [mouse(.press, .left, 4, 6)])
        #expect(decoder.deadline == nil)
    }

    // MARK: - Bracketed paste

    @Test func pasteInOneRead() {
        let input = bytes("a\u{1B}[200~Hello, 世界\r\nline 2\u{1B}[201~b")
        #expect(decodeAll(input) == [char("a"), .paste("Hello, 世界\r\nline 2"), char("b")])
    }

    @Test func pasteKeepsEscapesAndNearTerminators() {
        let text = "x\u{1B}y\u{1B}[20z\u{1B}[200~\u{1B}[A"
        #expect(decodeAll(bytes("\u{1B}[200~" + text + "\u{1B}[201~")) == [.paste(text)])
    }

    @Test func emptyPaste() {
        #expect(decodeAll(bytes("\u{1B}[200~\u{1B}[201~")) == [.paste("")])
    }

    @Test func pasteAcrossReadsAtEverySplit() {
        let input = bytes("\u{1B}[200~päste\u{1B}[201~\u{1B}[B")
        for split in 0...input.count {
            var decoder = InputDecoder()
            let events = decoder.feed(input[..<split], now: 0) + decoder.feed(input[split...], now: 0)
            #expect(events == [.paste("päste"), key(.down)], "split at \(split)")
        }
    }

    @Test func unterminatedPasteIsDeliveredAfterItsTimeout() {
        var decoder = InputDecoder(pasteTimeout: 1)
        #expect(decoder.feed(bytes("\u{1B}[200~abc\u{1B}[20"), now: 0).isEmpty)
        #expect(decoder.deadline == 1)
        #expect(decoder.feed(bytes("d"), now: 0.5).isEmpty)
        #expect(decoder.deadline == 1.5)
        #expect(decoder.flush(now: 1.5) == [.paste("abc\u{1B}[20d")])
        #expect(decoder.feed(bytes("e"), now: 2) == [char("e")])
    }

    // MARK: - Mouse

    static let sgrCases: [DecodeCase] = [
        DecodeCase("left press", "\u{1B}[<0;1;1M", [mouse(.press, .left, 0, 0)]),
        DecodeCase("left release", "\u{1B}[<0;10;5m", [mouse(.release, .left, 9, 4)]),
        DecodeCase("middle press", "\u{1B}[<1;3;4M", [mouse(.press, .middle, 2, 3)]),
        DecodeCase("right press", "\u{1B}[<2;3;4M", [mouse(.press, .right, 2, 3)]),
        DecodeCase("right release", "\u{1B}[<2;3;4m", [mouse(.release, .right, 2, 3)]),
        DecodeCase("left drag", "\u{1B}[<32;7;8M", [mouse(.drag, .left, 6, 7)]),
        DecodeCase("right drag", "\u{1B}[<34;7;8M", [mouse(.drag, .right, 6, 7)]),
        DecodeCase("motion", "\u{1B}[<35;7;8M", [mouse(.motion, .none, 6, 7)]),
        DecodeCase("wheel up", "\u{1B}[<64;2;2M", [mouse(.wheelUp, .none, 1, 1)]),
        DecodeCase("wheel down", "\u{1B}[<65;2;2M", [mouse(.wheelDown, .none, 1, 1)]),
        DecodeCase("wheel left", "\u{1B}[<66;2;2M", [mouse(.wheelLeft, .none, 1, 1)]),
        DecodeCase("wheel right", "\u{1B}[<67;2;2M", [mouse(.wheelRight, .none, 1, 1)]),
        DecodeCase("shift press", "\u{1B}[<4;1;1M", [mouse(.press, .left, 0, 0, .shift)]),
        DecodeCase("alt press", "\u{1B}[<8;1;1M", [mouse(.press, .left, 0, 0, .alt)]),
        DecodeCase("ctrl press", "\u{1B}[<16;1;1M", [mouse(.press, .left, 0, 0, .ctrl)]),
        DecodeCase("ctrl-shift drag", "\u{1B}[<52;2;3M", [mouse(.drag, .left, 1, 2, [.ctrl, .shift])]),
        DecodeCase("ctrl wheel down", "\u{1B}[<81;2;3M", [mouse(.wheelDown, .none, 1, 2, .ctrl)]),
        DecodeCase("column 300", "\u{1B}[<0;300;2M", [mouse(.press, .left, 299, 1)]),
        DecodeCase("coordinates 224 and 1000", "\u{1B}[<32;225;1000M", [mouse(.drag, .left, 224, 999)]),
        DecodeCase("zero coordinate clamps", "\u{1B}[<0;0;0M", [mouse(.press, .left, 0, 0)]),
    ]

    @Test(arguments: sgrCases) func sgrMouse(_ row: DecodeCase) { check(row) }

    static let x10Cases: [DecodeCase] = [
        DecodeCase("left press", x10(0, 0, 0), [mouse(.press, .left, 0, 0)]),
        DecodeCase("right press", x10(2, 4, 5), [mouse(.press, .right, 4, 5)]),
        DecodeCase("release without a press", x10(3, 4, 5), [mouse(.release, .none, 4, 5)]),
        DecodeCase(
            "release reports the pressed button", x10(2, 4, 5) + x10(3, 6, 7),
            [mouse(.press, .right, 4, 5), mouse(.release, .right, 6, 7)]),
        DecodeCase("left drag", x10(32, 10, 11), [mouse(.drag, .left, 10, 11)]),
        DecodeCase("motion", x10(35, 10, 11), [mouse(.motion, .none, 10, 11)]),
        DecodeCase(
            "buttonless drag while held", x10(1, 1, 1) + x10(35, 2, 2) + x10(3, 3, 3),
            [mouse(.press, .middle, 1, 1), mouse(.drag, .middle, 2, 2), mouse(.release, .middle, 3, 3)]),
        DecodeCase("wheel up", x10(64, 3, 3), [mouse(.wheelUp, .none, 3, 3)]),
        DecodeCase("wheel down", x10(65, 3, 3), [mouse(.wheelDown, .none, 3, 3)]),
        DecodeCase("ctrl-alt press", x10(24, 3, 3), [mouse(.press, .left, 3, 3, [.ctrl, .alt])]),
        DecodeCase(
            "column 100 is a raw byte, not UTF-8", x10(0, 100, 2) + bytes("é"),
            [mouse(.press, .left, 100, 2), char("é")]),
        DecodeCase(
            "bytes that look like UTF-8", [esc, 0x5B, 0x4D, 0x20, 0xC3, 0xA9],
            [mouse(.press, .left, 0xC3 - 33, 0xA9 - 33)]),
        DecodeCase("largest byte", [esc, 0x5B, 0x4D, 0x20, 0xFF, 0xFF], [mouse(.press, .left, 222, 222)]),
        DecodeCase("wrapped coordinate", x10(0, 230, 1), [mouse(.press, .left, 230, 1)]),
        DecodeCase("zero byte coordinate", [esc, 0x5B, 0x4D, 0x20, 0x00, 0x21], [mouse(.press, .left, 223, 0)]),
        DecodeCase("ESC byte as coordinate", [esc, 0x5B, 0x4D, 0x20, esc, 0x5B], [mouse(.press, .left, 250, 58)]),
        DecodeCase("invalid code byte is dropped", [esc, 0x5B, 0x4D, 0x05, 0x21, 0x21, 0x61], [char("a")]),
    ]

    @Test(arguments: x10Cases) func x10Mouse(_ row: DecodeCase) { check(row) }

    static let urxvtCases: [DecodeCase] = [
        DecodeCase("left press", "\u{1B}[32;10;5M", [mouse(.press, .left, 9, 4)]),
        DecodeCase(
            "release reports the pressed button", "\u{1B}[34;10;5M\u{1B}[35;11;5M",
            [mouse(.press, .right, 9, 4), mouse(.release, .right, 10, 4)]),
        DecodeCase("left drag", "\u{1B}[64;300;5M", [mouse(.drag, .left, 299, 4)]),
        DecodeCase("wheel down", "\u{1B}[97;1;1M", [mouse(.wheelDown, .none, 0, 0)]),
    ]

    @Test(arguments: urxvtCases) func urxvtMouse(_ row: DecodeCase) { check(row) }

    @Test func sameDragInAllThreeEncodings() {
        // Press at (5,5), drag through three cells, release at (8,6).
        let path = [(6, 5), (7, 6), (8, 6)]
        let expected =
            [mouse(.press, .left, 5, 5)]
            + path.map { mouse(.drag, .left, $0.0, $0.1) }
            + [mouse(.release, .left, 8, 6)]
        let sgrBytes = sgr(0, 5, 5) + path.flatMap { sgr(32, $0.0, $0.1) } + sgr(0, 8, 6, release: true)
        let x10Bytes = x10(0, 5, 5) + path.flatMap { x10(32, $0.0, $0.1) } + x10(3, 8, 6)
        let urxvtBytes = urxvt(0, 5, 5) + path.flatMap { urxvt(32, $0.0, $0.1) } + urxvt(3, 8, 6)
        #expect(decodeAll(sgrBytes) == expected)
        #expect(decodeAll(x10Bytes) == expected)
        #expect(decodeAll(urxvtBytes) == expected)
    }

    @Test(arguments: ["sgr", "x10", "urxvt"]) func wholeDragInOneRead(_ encoding: String) {
        let encode: (Int, Int, Int) -> [UInt8] =
            switch encoding {
            case "sgr": { sgr($0, $1, $2) }
            case "x10": { x10($0, $1, $2) }
            default: { urxvt($0, $1, $2) }
            }
        var input = encode(0, 10, 3)
        var expected = [mouse(.press, .left, 10, 3)]
        for step in 1...200 {
            input += encode(32, 10 + step % 150, 3 + step % 40)
            expected.append(mouse(.drag, .left, 10 + step % 150, 3 + step % 40))
        }
        input += encoding == "sgr" ? sgr(0, 40, 9, release: true) : encode(3, 40, 9)
        expected.append(mouse(.release, .left, 40, 9))

        var decoder = InputDecoder()
        let events = decoder.feed(input, now: 0)
        #expect(events.count == 202)
        #expect(events == expected)
        #expect(decoder.deadline == nil)
    }

    @Test func keysAndMouseMixedInOneRead() {
        let input =
            bytes("a") + sgr(0, 1, 1) + bytes("\u{1B}[1;5A") + x10(32, 2, 2) + bytes("中")
            + urxvt(3, 3, 3) + bytes("\u{1B}[I\r")
        #expect(
            decodeAll(input) == [
                char("a"), mouse(.press, .left, 1, 1), key(.up, .ctrl), mouse(.drag, .left, 2, 2), char("中"),
                mouse(.release, .left, 3, 3), .focusIn, key(.enter),
            ])
    }

    @Test func inputThatIsNotContiguous() {
        // A sequence without contiguous storage takes the buffering path.
        let input = bytes("x\u{1B}[<0;5;6M\u{1B}")
        var decoder = InputDecoder()
        let lazy = input.lazy.map { $0 }
        #expect(decoder.feed(lazy, now: 0) == [char("x"), mouse(.press, .left, 4, 5)])
        #expect(decoder.deadline != nil)
        #expect(decoder.feed(bytes("b").lazy.map { $0 }, now: 0) == [char("b", .alt)])
    }

    @Test func emptyReadsChangeNothing() {
        var decoder = InputDecoder()
        #expect(decoder.feed([UInt8](), now: 0).isEmpty)
        #expect(decoder.deadline == nil)
        #expect(decoder.feed([esc], now: 1).isEmpty)
        #expect(decoder.feed([UInt8](), now: 1.02).isEmpty)
        #expect(decoder.deadline == 1.025, "an empty read does not extend the deadline")
    }

    // MARK: - Split anywhere

    @Test func everySplitDecodesLikeOneRead() {
        for seed in UInt64(1)...150 {
            var random = SplitMix64(seed: seed)
            let (input, expected) = randomStream(&random)
            let whole = decodeAll(input)
            #expect(whole == expected, "seed \(seed): one read")
            if whole != expected { continue }

            for split in 0...input.count {
                var decoder = InputDecoder()
                let events =
                    decoder.feed(input[..<split], now: 0) + decoder.feed(input[split...], now: 0)
                    + decoder.flush(now: .infinity)
                #expect(events == expected, "seed \(seed): split at \(split)")
                if events != expected { break }
            }
            for attempt in 0..<20 {
                var decoder = InputDecoder()
                var events: [InputEvent] = []
                var start = 0
                while start < input.count {
                    let end = min(input.count, start + Int(random.next() % 9))
                    events += decoder.feed(input[start..<end], now: 0)
                    start = end
                }
                events += decoder.flush(now: .infinity)
                #expect(events == expected, "seed \(seed): random chunks, attempt \(attempt)")
            }
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            for byte in input { events += decoder.feed(CollectionOfOne(byte), now: 0) }
            events += decoder.flush(now: .infinity)
            #expect(events == expected, "seed \(seed): byte by byte")
        }
    }

    // MARK: - Volume (speed is measured by `make bench`, not here)

    @Test(arguments: ["x10", "sgr"]) func decodesManyMouseReportsInOneRead(_ encoding: String) {
        let encode: (Int, Int, Int) -> [UInt8] = encoding == "x10" ? { x10($0, $1, $2) } : { sgr($0, $1, $2) }
        var input: [UInt8] = []
        input.reserveCapacity(1_500_000)
        input += encode(0, 1, 1)
        for index in 0..<99_998 { input += encode(32, index % 200, index % 60) }
        input += encoding == "x10" ? x10(3, 5, 5) : sgr(0, 5, 5, release: true)
        var decoder = InputDecoder()
        let events = decoder.feed(input, now: 0)
        #expect(events.count == 100_000)
        #expect(events[50_000] == mouse(.drag, .left, 49_999 % 200, 49_999 % 60))
        #expect(events.last == mouse(.release, .left, 5, 5))
    }
}

// MARK: - Random streams

/// xterm's modifier parameter for a set of modifiers.
private func modifierParameter(_ modifiers: Modifiers) -> Int {
    1 + (modifiers.contains(.shift) ? 1 : 0) + (modifiers.contains(.alt) ? 2 : 0) + (modifiers.contains(.ctrl) ? 4 : 0)
}

private func randomModifiers(_ random: inout SplitMix64) -> Modifiers {
    Modifiers(rawValue: UInt8(random.next() % 8))
}

/// A random mix of keys, pastes, focus changes and mouse gestures in random encodings, with the events it must decode to.
private func randomStream(_ random: inout SplitMix64) -> ([UInt8], [InputEvent]) {
    var input: [UInt8] = []
    var expected: [InputEvent] = []
    func add(_ b: [UInt8], _ e: InputEvent...) {
        input += b
        expected += e
    }
    let texts: [Character] = ["a", "Z", "5", " ", "~", "é", "ß", "中", "界", "😀", "🎉"]
    let navigation: [(Key, UInt8)] = [
        (.up, 0x41), (.down, 0x42), (.right, 0x43), (.left, 0x44), (.home, 0x48), (.end, 0x46),
    ]
    let tilde: [(Key, Int)] = [
        (.insert, 2), (.delete, 3), (.pageUp, 5), (.pageDown, 6), (.function(5), 15), (.function(8), 19),
        (.function(12), 24),
    ]
    let ctrlLetters = Array("abcdefgklnopqrstuvwxyz")
    let pastes = ["", "hello", "two\rlines", "中文 text", "a\u{1B}b", "x\u{1B}[20y", "\u{1B}[200~"]

    for _ in 0..<Int.random(in: 5...30, using: &random) {
        switch random.next() % 13 {
        case 0:
            let c = texts.randomElement(using: &random)!
            add(bytes(String(c)), char(c))
        case 1:
            let letter = ctrlLetters.randomElement(using: &random)!
            add([letter.asciiValue! - 0x60], char(letter, .ctrl))
        case 2:
            let (bytes, event) = [([UInt8(0x0D)], key(.enter)), ([0x09], key(.tab)), ([0x7F], key(.backspace))]
                .randomElement(using: &random)!
            add(bytes, event)
        case 3:
            let letter = Array("abxyz").randomElement(using: &random)!
            add([esc, letter.asciiValue!], char(letter, .alt))
        case 4:
            let (k, final) = navigation.randomElement(using: &random)!
            let modifiers = randomModifiers(&random)
            if modifiers.isEmpty {
                add(random.next() % 2 == 0 ? [esc, 0x5B, final] : [esc, 0x4F, final], key(k))
            } else {
                add(bytes("\u{1B}[1;\(modifierParameter(modifiers))") + [final], key(k, modifiers))
            }
        case 5:
            let (k, number) = tilde.randomElement(using: &random)!
            let modifiers = randomModifiers(&random)
            let parameter = modifiers.isEmpty ? "" : ";\(modifierParameter(modifiers))"
            add(bytes("\u{1B}[\(number)\(parameter)~"), key(k, modifiers))
        case 6:
            let n = Int(random.next() % 4)
            let modifiers = randomModifiers(&random)
            let final = UInt8(0x50 + n)
            if modifiers.isEmpty {
                add([esc, 0x4F, final], key(.function(n + 1)))
            } else {
                add(bytes("\u{1B}[1;\(modifierParameter(modifiers))") + [final], key(.function(n + 1), modifiers))
            }
        case 7:
            add(bytes("\u{1B}[Z"), key(.tab, .shift))
        case 8:
            random.next() % 2 == 0 ? add(bytes("\u{1B}[I"), .focusIn) : add(bytes("\u{1B}[O"), .focusOut)
        case 9:
            let text = pastes.randomElement(using: &random)!
            add(bytes("\u{1B}[200~" + text + "\u{1B}[201~"), .paste(text))
        case 10, 11:
            randomGesture(&random, into: &input, &expected)
        default:
            // Wheel or buttonless motion, in any encoding.
            let (code, kind): (Int, MouseEvent.Kind) = [(64, .wheelUp), (65, .wheelDown), (35, .motion)]
                .randomElement(using: &random)!
            let (encoded, x, y) = randomMouseReport(&random, code: code)
            add(encoded, mouse(kind, .none, x, y))
        }
    }
    if random.next() % 3 == 0 { add([esc], key(.escape)) }
    return (input, expected)
}

/// A press, some drags and a release of one button, each report in a random encoding.
private func randomGesture(_ random: inout SplitMix64, into input: inout [UInt8], _ expected: inout [InputEvent]) {
    let button: MouseEvent.Button = [.left, .middle, .right].randomElement(using: &random)!
    let buttonCode = button == .left ? 0 : button == .middle ? 1 : 2
    func report(_ kind: MouseEvent.Kind) {
        let modifiers = randomModifiers(&random)
        var code = kind == .drag ? buttonCode + 32 : buttonCode
        if modifiers.contains(.shift) { code += 4 }
        if modifiers.contains(.alt) { code += 8 }
        if modifiers.contains(.ctrl) { code += 16 }
        let (encoded, x, y) = randomMouseReport(&random, code: code, release: kind == .release)
        input += encoded
        expected.append(mouse(kind, button, x, y, modifiers))
    }
    report(.press)
    for _ in 0..<Int(random.next() % 6) { report(.drag) }
    report(.release)
}

/// One report of `code` at a random place in a random encoding; X10 and urxvt releases use code 3.
private func randomMouseReport(_ random: inout SplitMix64, code: Int, release: Bool = false) -> ([UInt8], Int, Int) {
    let legacyCode = release ? (code & ~3) | 3 : code
    switch random.next() % 3 {
    case 0:
        let x = Int(random.next() % 400), y = Int(random.next() % 300)
        return (sgr(code, x, y, release: release), x, y)
    case 1:
        let x = Int(random.next() % 223), y = Int(random.next() % 223)
        return (x10(legacyCode, x, y), x, y)
    default:
        let x = Int(random.next() % 400), y = Int(random.next() % 300)
        return (urxvt(legacyCode, x, y), x, y)
    }
}
