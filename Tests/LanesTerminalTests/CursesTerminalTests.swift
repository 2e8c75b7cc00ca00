import DragKit
import Glibc
import Testing
@testable import LanesTerminal

/// A pseudo-terminal: the device writes to the slave side, the test reads the master side.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init(width: Int = 40, height: Int = 10) throws {
        guard let pair = CursesTerminal.openPseudoTerminal(width: width, height: height) else { throw PTYError.open }
        master = pair.master
        slave = pair.slave
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        // No output processing, so what the device writes is what the master reads.
        var t = termios()
        tcgetattr(slave, &t)
        t.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave, TCSANOW, &t)
    }

    deinit {
        close(slave)
        close(master)
    }

    enum PTYError: Error { case open }

    func resize(width: Int, height: Int) {
        var ws = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
    }

    /// Everything written to the slave so far and not yet read.
    func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(master, &buf, buf.count)
            if n > 0 { out += buf[0..<n] } else { break }
        }
        return out
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    var termiosState: [UInt8] {
        var t = termios()
        tcgetattr(slave, &t)
        return withUnsafeBytes(of: t.c_iflag) { Array($0) } + withUnsafeBytes(of: t.c_oflag) { Array($0) }
            + withUnsafeBytes(of: t.c_cflag) { Array($0) } + withUnsafeBytes(of: t.c_lflag) { Array($0) }
            + withUnsafeBytes(of: t.c_cc) { Array($0) }
    }

    var isRaw: Bool {
        var t = termios()
        tcgetattr(slave, &t)
        return t.c_lflag & tcflag_t(ICANON | ECHO) == 0
    }
}

extension Array where Element == UInt8 {
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for i in 0...(count - needle.count) where self[i..<(i + needle.count)].elementsEqual(needle) { return true }
        return false
    }

    func firstIndex(of text: String) -> Int? {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return nil }
        for i in 0...(count - needle.count) where self[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}

@Suite(.serialized)
struct CursesTerminalTests {
    private func started(_ pty: PseudoTerminal) throws -> CursesTerminal {
        let terminal = CursesTerminal(inputFD: pty.slave, outputFD: pty.slave, term: "xterm-256color")
        try terminal.start()
        return terminal
    }

    private func board(_ lines: [String], width: Int = 40, height: Int = 10) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        for (y, line) in lines.enumerated() { buffer.write(line, x: 0, y: y) }
        return buffer
    }

    @Test func startEnablesMouseAndStopDisablesIt() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        let opening = pty.drain()
        #expect(opening.contains("\u{1b}[?1049h"))
        #expect(opening.contains("\u{1b}[?1000h"))
        #expect(opening.contains("\u{1b}[?1002h"))
        #expect(opening.contains("\u{1b}[?1006h"))
        #expect(opening.contains("\u{1b}[?2004h"))
        #expect(opening.contains("\u{1b}[?25l"))
        // Mouse reporting comes after curses has set up the screen.
        #expect(opening.firstIndex(of: "\u{1b}[?1002h")! > opening.firstIndex(of: "\u{1b}[?1049h")!)
        #expect(!opening.contains("\u{1b}[?1000l"))

        terminal.stop()
        let closing = pty.drain()
        #expect(closing.contains("\u{1b}[?1000l"))
        #expect(closing.contains("\u{1b}[?1002l"))
        #expect(closing.contains("\u{1b}[?1006l"))
        #expect(closing.contains("\u{1b}[?2004l"))
        #expect(closing.contains("\u{1b}[?1049l"))
        // Modes go off while still on the alternate screen.
        #expect(closing.firstIndex(of: "\u{1b}[?1002l")! < closing.firstIndex(of: "\u{1b}[?1049l")!)

        terminal.stop()
        #expect(pty.drain().isEmpty)
    }

    @Test func stopRestoresTermios() throws {
        let pty = try PseudoTerminal()
        let before = pty.termiosState
        #expect(!pty.isRaw)
        let terminal = try started(pty)
        #expect(pty.isRaw)
        #expect(pty.termiosState != before)
        terminal.stop()
        #expect(pty.termiosState == before)
    }

    @Test func sizeComesFromTheWindow() throws {
        let pty = try PseudoTerminal(width: 37, height: 9)
        let terminal = try started(pty)
        defer { terminal.stop() }
        #expect(terminal.size == Size(width: 37, height: 9))
    }

    @Test func wideCharactersAreWritten() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        _ = pty.drain()
        terminal.present(board(["看板 Lanes", "日本語テキスト"]))
        let out = pty.drain()
        #expect(out.contains("看板"))
        #expect(out.contains("日本語テキスト"))
        #expect(out.contains("Lanes"))
    }

    @Test func presentingTheSameBufferTwiceWritesNothing() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        let buffer = board(["To do", "Doing", "Done ✓"])
        terminal.present(buffer)
        #expect(!pty.drain().isEmpty)
        let counted = terminal.bytesWritten
        terminal.present(buffer)
        #expect(pty.drain().isEmpty)
        #expect(terminal.bytesWritten == counted)
    }

    @Test func oneChangedCellWritesAFewBytes() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        var buffer = board(["To do", "Doing", "Done"])
        terminal.present(buffer)
        _ = pty.drain()
        buffer[20, 5] = Cell("X", style: Style(fg: .red))
        terminal.present(buffer)
        let out = pty.drain()
        #expect(out.contains("X"))
        // Cursor move, colour on, the character, colour off: well under a line's worth.
        #expect(out.count <= 24)
    }

    @Test func theCursorIsParkedWhereTheBufferSaysAndShown() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        var buffer = board(["To do", "Doing", "Done"])
        buffer.cursor = Point(x: 7, y: 3)
        terminal.present(buffer)
        var out = pty.drain()
        #expect(out.contains("\u{1b}[?25h"), "shown (cnorm)")
        #expect(out.contains("\u{1b}[4;8H") || out.contains("\u{1b}[4;8f"), "moved to row 4, column 8 last")
        // Only the cursor moves: a few bytes, no redraw.
        buffer.cursor = Point(x: 2, y: 6)
        terminal.present(buffer)
        out = pty.drain()
        #expect(!out.isEmpty && out.count <= 12)
        #expect(!out.contains("?25"))
        // None: hidden again.
        buffer.cursor = nil
        terminal.present(buffer)
        #expect(pty.drain().contains("\u{1b}[?25l"))
    }

    @Test func controlCharactersInCellsNeverReachTheTerminal() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        _ = pty.drain()
        var buffer = CellBuffer(width: 40, height: 10)
        let texts = ["A", "\u{1b}", "[", "2", "J", "\u{7}", "\u{9b}", "\u{7f}", "e\u{1b}", "B"]
        for (x, text) in texts.enumerated() { buffer[x, 2] = Cell(text) }
        terminal.present(buffer)
        let out = pty.drain()
        #expect(out.contains("A\u{FFFD}[2J\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}B"))
        #expect(!out.contains("\u{1b}[2J"))
        let scalars = String(decoding: out, as: UTF8.self).unicodeScalars
        #expect(!scalars.contains("\u{7}"))
        #expect(!scalars.contains("\u{7f}"))
        #expect(!scalars.contains { $0.value >= 0x80 && $0.value < 0xA0 })
    }

    @Test func bytesWrittenMatchesWhatTheTerminalReceived() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        var received = pty.drain().count
        var buffer = board(["one", "two"])
        terminal.present(buffer)
        received += pty.drain().count
        buffer.write("three", x: 3, y: 4, style: Style(fg: .green, bold: true))
        terminal.present(buffer)
        received += pty.drain().count
        terminal.stop()
        received += pty.drain().count
        try #require(terminal.countsCursesOutput)
        #expect(terminal.bytesWritten == received)
    }

    @Test func bottomRightCornerIsDrawn() throws {
        let pty = try PseudoTerminal(width: 20, height: 5)
        let terminal = try started(pty)
        defer { terminal.stop() }
        _ = pty.drain()
        var buffer = CellBuffer(width: 20, height: 5)
        buffer.write("corner", x: 14, y: 4)
        terminal.present(buffer)
        #expect(pty.drain().contains("corne"))
        buffer.write("Q", x: 19, y: 4)
        terminal.present(buffer)
        #expect(pty.drain().contains("Q"))
    }

    @Test func invalidateRepaintsEverything() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        let buffer = board(["Backlog", "Review"])
        terminal.present(buffer)
        _ = pty.drain()
        terminal.invalidate()
        terminal.present(buffer)
        let out = pty.drain()
        #expect(out.contains("Backlog"))
        #expect(out.contains("Review"))
        #expect(out.contains("\u{1b}[2J"))
    }

    @Test func waitReturnsTypedBytes() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        #expect(terminal.wait(timeout: 0).isEmpty)
        pty.type("ab\u{3}\u{1b}[<0;5;7M")
        #expect(terminal.wait(timeout: 5) == [.bytes(Array("ab\u{3}\u{1b}[<0;5;7M".utf8))])
        #expect(terminal.wait(timeout: 0).isEmpty)
    }

    @Test func waitReportsResize() throws {
        let pty = try PseudoTerminal(width: 40, height: 10)
        let terminal = try started(pty)
        defer { terminal.stop() }
        pty.resize(width: 50, height: 12)
        kill(getpid(), SIGWINCH)
        #expect(terminal.wait(timeout: 5) == [.resized(Size(width: 50, height: 12))])
        #expect(terminal.size == Size(width: 50, height: 12))
        _ = pty.drain()
        terminal.present(board(["wider"], width: 50, height: 12))
        let out = pty.drain()
        #expect(out.contains("wider"))
        #expect(out.contains("\u{1b}[2J"))
    }

    @Test func waitReportsTerminationSignals() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        // To the process, not this thread: the test runner's threads block signals.
        kill(getpid(), SIGTERM)
        #expect(terminal.wait(timeout: 5) == [.terminate(signal: SIGTERM)])
        kill(getpid(), SIGHUP)
        #expect(terminal.wait(timeout: 5) == [.terminate(signal: SIGHUP)])
    }

    /// Issue #31: any-motion tracking (1003) only while asked for; turning it off puts 1002 back
    /// (xterm keeps one tracking mode, so 1003l alone would stop all reports); it is off when the
    /// terminal is handed over and on again after, and off at the end.
    @Test func anyMotionTrackingFollowsTheDragAndNeverOutlivesLanes() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        #expect(!pty.drain().contains("\u{1b}[?1003h"))
        terminal.trackAllMotion(true)
        #expect(pty.drain() == Array("\u{1b}[?1003h".utf8))
        terminal.trackAllMotion(true)
        #expect(pty.drain().isEmpty, "asked again: nothing written")
        terminal.suspend {
            #expect(pty.drain().contains("\u{1b}[?1003l"))
        }
        #expect(pty.drain().contains("\u{1b}[?1003h"), "back from the editor mid-drag: on again")
        terminal.trackAllMotion(false)
        #expect(pty.drain() == Array("\u{1b}[?1003l\u{1b}[?1002h".utf8))
        terminal.trackAllMotion(true)
        _ = pty.drain()
        terminal.stop()
        let closing = pty.drain()
        #expect(closing.contains("\u{1b}[?1003l"))
        #expect(closing.firstIndex(of: "\u{1b}[?1003l")! < closing.firstIndex(of: "\u{1b}[?1049l")!)
        #expect(CursesTerminal.crashRestore.contains("\u{1b}[?1003l"))
    }

    @Test func suspendHandsTheTerminalOverAndTakesItBack() throws {
        let pty = try PseudoTerminal()
        let before = pty.termiosState
        let terminal = try started(pty)
        defer { terminal.stop() }
        terminal.present(board(["Kept across the editor"]))
        _ = pty.drain()
        var ran = false
        terminal.suspend {
            ran = true
            #expect(pty.termiosState == before)
            let handedOver = pty.drain()
            #expect(handedOver.contains("\u{1b}[?1002l"))
            #expect(handedOver.contains("\u{1b}[?1049l"))
        }
        #expect(ran)
        #expect(pty.isRaw)
        let back = pty.drain()
        #expect(back.contains("\u{1b}[?1049h"))
        #expect(back.contains("\u{1b}[?1002h"))
        #expect(back.contains("\u{1b}[?25l"))
        #expect(back.contains("Kept across the editor"))
    }

    @Test func secondTerminalCannotStartWhileOneRuns() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        let other = CursesTerminal(inputFD: pty.slave, outputFD: pty.slave, term: "xterm-256color")
        #expect(throws: CursesTerminalError.alreadyRunning) { try other.start() }
    }

    @Test func continuedAfterAStopRepaintsAndReportsResumed() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        terminal.present(board(["Still here"]))
        _ = pty.drain()
        // What a shell sends on `fg` after an uncatchable SIGSTOP.
        kill(getpid(), SIGCONT)
        #expect(terminal.wait(timeout: 5) == [.resumed])
        let out = pty.drain()
        #expect(out.contains("\u{1b}[?1002h"))
        #expect(out.contains("Still here"))
    }

    @Test func colorsAndAttributesBecomeSGR() throws {
        let pty = try PseudoTerminal()
        let terminal = try started(pty)
        defer { terminal.stop() }
        _ = pty.drain()
        var buffer = CellBuffer(width: 40, height: 10)
        buffer.write("red", x: 0, y: 0, style: Style(fg: .red))
        buffer.write("onblue", x: 0, y: 1, style: Style(bg: .blue, reverse: true))
        terminal.present(buffer)
        let out = String(decoding: pty.drain(), as: UTF8.self)
        #expect(out.contains("31m") || out.contains("38;5;1m"))
        #expect(out.contains("44m") || out.contains("48;5;4m"))
        #expect(out.contains("\u{1b}[7m") || out.contains(";7m"))
    }

    @Test func aWideCharacterThatDoesNotFitIsNotDrawn() throws {
        let pty = try PseudoTerminal(width: 20, height: 5)
        let terminal = try started(pty)
        defer { terminal.stop() }
        _ = pty.drain()
        var buffer = CellBuffer(width: 20, height: 5)
        buffer.write("edge", x: 15, y: 0)
        buffer[19, 0] = Cell("看")
        buffer[0, 2] = Cell("\u{301}")
        terminal.present(buffer)
        let out = pty.drain()
        #expect(out.contains("edge"))
        #expect(!out.contains("看"))
        #expect(!out.contains("\u{301}"))
    }

    @Test func wcharParsing() {
        let text = Array("rchar: 10\nwchar: 4321\nsyscr: 3\n".utf8)
        #expect(ThreadWriteMeter.parseWchar(text[...]) == 4321)
        #expect(ThreadWriteMeter.parseWchar(Array("rchar: 1\n".utf8)[...]) == nil)
    }
}
