import CNcursesw
import DragKit
import Glibc

/// The terminal driven through ncursesw: the only code that talks to curses.
///
/// Curses is used for output only. Input is read as raw bytes from `inputFD` and decoded
/// by the app; mouse reporting is switched on with xterm's private modes written directly,
/// not with `mousemask`. Signals arrive through a self-pipe and are reported by `wait`.
public final class CursesTerminal: TerminalDevice {
    public let inputFD: Int32
    public let outputFD: Int32
    private let termName: String?

    /// Bytes sent to the terminal since creation: curses output plus our own mode sequences.
    public private(set) var bytesWritten = 0
    /// Whether `bytesWritten` includes curses' output (needs `/proc/thread-self/io`);
    /// without it only our own sequences are counted.
    public private(set) var countsCursesOutput = true

    private enum State { case stopped, running, suspended }
    private var state = State.stopped
    private var screen: OpaquePointer?
    private var outFile: UnsafeMutablePointer<FILE>?
    private var inFile: UnsafeMutablePointer<FILE>?
    private var savedTermios: termios?
    /// What is on screen; nil when it must be painted whole.
    private var shown: CellBuffer?
    /// The physical screen must be cleared before the next paint.
    private var needsClear = true
    /// Whether curses shows the cursor now (it starts hidden).
    private var cursorVisible = false
    private var pairs: [UInt16: Int16] = [:]
    private var nextPair: Int32 = 1
    private var colorsEnabled = false
    private var defaultColors = false
    private var pending: [TerminalInput] = []
    private var meter = ThreadWriteMeter()
    private var countingDepth = 0
    /// Whether the app asked for any-motion tracking (1003); written to the terminal while running.
    private var allMotion = false

    nonisolated(unsafe) private static var owner: ObjectIdentifier?

    /// Mouse button-event tracking with SGR coordinates, focus reports and bracketed paste.
    static let enableModes = "\u{1b}[?1000h\u{1b}[?1002h\u{1b}[?1006h\u{1b}[?1004h\u{1b}[?2004h"
    /// Any-motion tracking (1003) is off here too: it is on only while a drag is up.
    static let disableModes = "\u{1b}[?2004l\u{1b}[?1004l\u{1b}[?1006l\u{1b}[?1003l\u{1b}[?1002l\u{1b}[?1000l"
    /// Any-motion tracking, switched on while the pointer drags (see `trackAllMotion`).
    static let allMotionOn = "\u{1b}[?1003h"
    /// xterm and kitty keep one tracking mode, so 1003 off is all tracking off there: 1002 goes
    /// back on after it (where the modes are separate flags, as in tmux, 1002 was still on).
    static let allMotionOff = "\u{1b}[?1003l\u{1b}[?1002h"
    /// What a crash writes: modes off, attributes reset, cursor shown, normal screen.
    static let crashRestore = disableModes + "\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l\r\n"

    /// A terminal on the given descriptors; `term` overrides `$TERM` (tests pass "xterm-256color").
    public init(inputFD: Int32 = 0, outputFD: Int32 = 1, term: String? = nil) {
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.termName = term
    }

    deinit { stop() }

    // MARK: - Lifecycle

    public func start() throws {
        guard state == .stopped else { return }
        guard Self.owner == nil else { throw CursesTerminalError.alreadyRunning }
        guard isatty(outputFD) != 0 else { throw CursesTerminalError.notATerminal }
        TerminalIO.useUTF8Locale()

        var original = termios()
        savedTermios = tcgetattr(outputFD, &original) == 0 ? original : nil
        // Our handlers go in before newterm, which then leaves SIGINT, SIGTERM, SIGTSTP and SIGWINCH alone.
        TerminalSignals.install(ttyFD: outputFD, termios: savedTermios, restoreSequence: Array(Self.crashRestore.utf8))

        let outCopy = dup(outputFD)
        let inCopy = dup(inputFD)
        outFile = outCopy >= 0 ? fdopen(outCopy, "w") : nil
        inFile = inCopy >= 0 ? fdopen(inCopy, "r") : nil
        // Curses buffers its output and flushes it in whichever call comes next: count the whole setup.
        screen = counted { () -> OpaquePointer? in
            guard outFile != nil, inFile != nil else { return nil }
            let created =
                termName.map { name in name.withCString { newterm($0, outFile, inFile) } }
                ?? newterm(nil, outFile, inFile)
            guard let created else { return nil }
            set_term(created)
            raw()
            noecho()
            nonl()
            keypad(lanes_stdscr(), false)
            intrflush(lanes_stdscr(), false)
            scrollok(lanes_stdscr(), false)
            leaveok(lanes_stdscr(), true)
            // Curses must not poll our input for typeahead: it would cut updates short while the mouse moves.
            typeahead(-1)
            set_escdelay(25)
            colorsEnabled = has_colors()
            if colorsEnabled {
                start_color()
                defaultColors = use_default_colors() == OK
            }
            curs_set(0)
            return created
        }
        guard screen != nil else {
            closeFiles(outCopy: outCopy, inCopy: inCopy)
            TerminalSignals.uninstall()
            throw CursesTerminalError.cannotInitialize(term: termName ?? getenv("TERM").map { String(cString: $0) })
        }
        Self.owner = ObjectIdentifier(self)
        pairs = [:]
        nextPair = 1
        cursorVisible = false
        state = .running
        allMotion = false
        counted {
            _ = syncSize()
            invalidate()
            clearok(lanes_stdscr(), true)
            wrefresh(lanes_stdscr())
        }
        needsClear = false
        writeDirect(Self.enableModes)
    }

    /// Switches any-motion tracking (1003) on or off; kept across Ctrl-Z and an editor, and
    /// off whenever the terminal is handed back (`disableModes`).
    public func trackAllMotion(_ on: Bool) {
        guard on != allMotion else { return }
        allMotion = on
        if state == .running { writeDirect(on ? Self.allMotionOn : Self.allMotionOff) }
    }

    public func stop() {
        guard state != .stopped else { return }
        if state == .running { writeDirect(Self.disableModes) }
        TerminalSignals.setArmed(false)
        counted {
            if state == .running { endwin() }
            delscreen(screen)
            closeFiles(outCopy: -1, inCopy: -1)
        }
        screen = nil
        if var saved = savedTermios { _ = tcsetattr(outputFD, TCSANOW, &saved) }
        TerminalSignals.uninstall()
        meter.close()
        state = .stopped
        shown = nil
        pending = []
        Self.owner = nil
    }

    public var size: Size {
        if state != .stopped { return Size(width: Int(lanes_cols()), height: Int(lanes_lines())) }
        return TerminalIO.windowSize(outputFD) ?? Size(width: 80, height: 24)
    }

    // MARK: - Output

    public func present(_ buffer: CellBuffer) {
        guard state == .running else { return }
        let stdscr = lanes_stdscr()
        let runs: [CellRun]
        if let shown, shown.width == buffer.width, shown.height == buffer.height {
            runs = buffer.diff(from: shown)
        } else {
            werase(stdscr)
            runs = buffer.diff(from: CellBuffer(width: 0, height: 0))
        }
        if runs.isEmpty && !needsClear {
            if buffer.cursor != shown?.cursor {
                placeCursor(buffer.cursor)
                counted { wrefresh(stdscr) }
            }
            shown = buffer
            return
        }
        let rows = Int(lanes_lines()), cols = Int(lanes_cols())
        for run in runs where run.y < rows {
            for (i, cell) in run.cells.enumerated() {
                let x = run.x + i
                if x >= cols { break }
                if cell.isContinuation { continue }
                draw(cell, x: x, y: run.y, rows: rows, cols: min(cols, buffer.width))
            }
        }
        if needsClear { clearok(stdscr, true) }
        placeCursor(buffer.cursor)
        counted { wrefresh(stdscr) }
        needsClear = false
        shown = buffer
    }

    /// Parks the real cursor on `p` and shows it, or hides it for nil (or a point off screen).
    private func placeCursor(_ p: Point?) {
        let stdscr = lanes_stdscr()
        let visible = p.map { $0.x >= 0 && $0.y >= 0 && $0.x < Int(lanes_cols()) && $0.y < Int(lanes_lines()) } ?? false
        leaveok(stdscr, !visible)
        if let p, visible { wmove(stdscr, Int32(p.y), Int32(p.x)) }
        if visible != cursorVisible {
            counted { curs_set(visible ? 1 : 0) }
            cursorVisible = visible
        }
    }

    public func invalidate() {
        shown = nil
        needsClear = true
    }

    /// Puts one cell into curses, keeping curses' idea of character widths in line with ours.
    ///
    /// Curses measures with the C library's `wcwidth`; where that disagrees with `TextWidth`
    /// the cell is drawn so that curses still covers exactly the cells the buffer says.
    private func draw(_ cell: Cell, x: Int, y: Int, rows: Int, cols: Int) {
        var (scalars, width) = cell.codePoints(max: Int(lanes_ccharw_max()))
        let attrs = attributes(for: cell.style)
        let pair = colorPair(for: cell.style)
        if width == 2 && x + 1 >= cols { (scalars, width) = ([0x20], 1) }
        var cursesWidth = Int(lanes_wcwidth(scalars[0]))
        if cursesWidth < 1 || cursesWidth > width {
            scalars = [0xFFFD]
            cursesWidth = 1
        }
        // A flag (two regional indicators) is two cells to curses, one indicator each: the terminal
        // joins them into one flag two cells wide, or shows two letters; either way curses' cursor
        // and the terminal's stay together.
        if width == 2, cursesWidth == 1, scalars.count == 2, scalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0) }) {
            put([scalars[0]], x: x, y: y, attrs: attrs, pair: pair, rows: rows, span: 1)
            put([scalars[1]], x: x + 1, y: y, attrs: attrs, pair: pair, rows: rows, span: 1)
            return
        }
        // The whole grapheme goes into the cchar_t (ZWJ sequences, skin tones: see lanes_put_cell).
        put(scalars, x: x, y: y, attrs: attrs, pair: pair, rows: rows, span: cursesWidth)
        if width == 2 && cursesWidth == 1 {
            put([0x20], x: x + 1, y: y, attrs: attrs, pair: pair, rows: rows, span: 1)
        }
    }

    private func put(_ scalars: [wchar_t], x: Int, y: Int, attrs: attr_t, pair: Int16, rows: Int, span: Int) {
        // Adding into the bottom-right corner would move the cursor past the end of the screen;
        // inserting there does not.
        let insert: Int32 = (y == rows - 1 && x + span >= Int(lanes_cols())) ? 1 : 0
        if lanes_put_cell(Int32(y), Int32(x), scalars + [0], attrs, pair, insert) == ERR, insert == 0 {
            _ = lanes_put_cell(Int32(y), Int32(x), [0xFFFD, 0], attrs, pair, 0)
        }
    }

    private func attributes(for style: Style) -> attr_t {
        var attrs = lanes_a_normal()
        if style.bold { attrs |= lanes_a_bold() }
        if style.dim { attrs |= lanes_a_dim() }
        if style.reverse { attrs |= lanes_a_reverse() }
        if style.underline { attrs |= lanes_a_underline() }
        return attrs
    }

    /// The colour pair for a style's colours, allocated on first use; 0 when out of pairs.
    private func colorPair(for style: Style) -> Int16 {
        guard colorsEnabled, style.fg != .default || style.bg != .default else { return 0 }
        let key = UInt16(style.fg.rawValue) << 8 | UInt16(style.bg.rawValue)
        if let pair = pairs[key] { return pair }
        guard nextPair < lanes_color_pairs(), nextPair <= Int32(Int16.max) else { return 0 }
        let pair = Int16(nextPair)
        guard init_pair(pair, cursesColor(style.fg, foreground: true), cursesColor(style.bg, foreground: false)) == OK
        else { return 0 }
        nextPair += 1
        pairs[key] = pair
        return pair
    }

    private func cursesColor(_ color: Style.Color, foreground: Bool) -> Int16 {
        if color == .default {
            if defaultColors { return -1 }
            return foreground ? Int16(COLOR_WHITE) : Int16(COLOR_BLACK)
        }
        return Int16(color.rawValue) - 1
    }

    // MARK: - Input and signals

    public func wait(timeout: Double?, wakingOn extra: Int32?) -> [TerminalInput] {
        if !pending.isEmpty { return takeQueued() }
        let deadline = timeout.map { monotonicNow() + max(0, $0) }
        while true {
            var fds = [
                pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: TerminalSignals.wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            if let extra { fds.append(pollfd(fd: extra, events: Int16(POLLIN), revents: 0)) }
            var ms: Int32 = -1
            if let deadline {
                let left = deadline - monotonicNow()
                ms = left <= 0 ? 0 : Int32(min(left * 1000, Double(Int32.max - 1)).rounded(.up))
            }
            let ready = poll(&fds, nfds_t(fds.count), ms)
            if ready < 0 && errno != EINTR { return [] }
            var events = handleSignals()
            if ready > 0 && fds[0].revents != 0 {
                events += TerminalIO.readAvailable(inputFD)
            }
            events += takeQueued()
            if !events.isEmpty { return events }
            if ready == 0 || (fds.count > 2 && fds[2].revents != 0) { return [] }
            if let deadline, monotonicNow() >= deadline { return [] }
        }
    }

    private func takeQueued() -> [TerminalInput] {
        let queued = pending
        pending = []
        return queued
    }

    private func handleSignals() -> [TerminalInput] {
        let signals = TerminalSignals.takePending()
        guard !signals.isEmpty else { return [] }
        var events: [TerminalInput] = []
        if signals.contains(SIGTSTP) {
            suspendToShell()
        } else if signals.contains(SIGCONT), state == .running {
            // Stopped by something we could not catch (SIGSTOP): the shell may have changed
            // the terminal meanwhile, so set it up again.
            reenter()
            pending.append(.resumed)
        }
        if signals.contains(SIGWINCH), let newSize = syncSize() {
            events.append(.resized(newSize))
        }
        for sig in [SIGHUP, SIGTERM, SIGINT] where signals.contains(sig) {
            events.append(.terminate(signal: sig))
        }
        return events
    }

    /// Matches curses to the window's real size; returns the size if it changed.
    private func syncSize() -> Size? {
        guard state != .stopped, let real = TerminalIO.windowSize(outputFD), real.width > 0, real.height > 0 else {
            return nil
        }
        guard real.width != Int(lanes_cols()) || real.height != Int(lanes_lines()) else { return nil }
        counted { resizeterm(Int32(real.height), Int32(real.width)) }
        invalidate()
        return real
    }

    // MARK: - Giving the terminal away

    /// Stops the process as Ctrl-Z does in a shell, with the terminal restored meanwhile.
    ///
    /// With `raw()` Ctrl-Z arrives as byte 0x1A and the app calls this; a SIGTSTP sent
    /// from outside lands here too, via `wait`. On return the screen has been repainted
    /// from curses' copy and `wait` reports `.resumed` (and `.resized` if the window changed).
    /// Without job control (an orphaned process group: Lanes is the terminal's own process) nothing
    /// could continue us, so the terminal is not given away at all: no moment of cooked input.
    public func suspendToShell() {
        guard state == .running, TerminalSignals.hasJobControl() else { return }
        leave()
        TerminalSignals.stopProcess()
        TerminalSignals.discard(SIGCONT)
        reenter()
        pending.append(.resumed)
        if let newSize = syncSize() { pending.append(.resized(newSize)) }
    }

    public func discardTypeahead() -> Int {
        // Bytes already read but not yet handed out are typed input too.
        var queued = 0
        pending.removeAll { input in
            guard case .bytes(let b) = input else { return false }
            queued += b.count
            return true
        }
        return queued + TerminalIO.discardTypeahead(inputFD)
    }

    public func suspend(while body: () -> Void) {
        guard state == .running else {
            body()
            return
        }
        leave()
        TerminalSignals.withDefaultStop(body)
        // Like system(3): an interrupt typed at the other program was meant for it.
        TerminalSignals.discard(SIGINT)
        TerminalSignals.discard(SIGCONT)
        reenter()
        if let newSize = syncSize() { pending.append(.resized(newSize)) }
    }

    /// Hands the terminal back to the shell: modes off, normal screen, shell's termios.
    private func leave() {
        writeDirect(Self.disableModes)
        counted { endwin() }
        TerminalSignals.setArmed(false)
        state = .suspended
    }

    /// Takes the terminal back and repaints it from curses' copy of the screen.
    private func reenter() {
        state = .running
        counted {
            reset_prog_mode()
            clearok(lanes_curscr(), true)
            wrefresh(lanes_stdscr())
            curs_set(0)
        }
        cursorVisible = false
        writeDirect(Self.enableModes + (allMotion ? Self.allMotionOn : ""))
        TerminalSignals.setArmed(true)
    }

    /// Opens a pseudo-terminal of the given size, to run the device without a real terminal
    /// (tests, byte-count benchmarks): pass `slave` as both descriptors and read `master`.
    /// The caller closes both.
    public static func openPseudoTerminal(width: Int, height: Int) -> (master: Int32, slave: Int32)? {
        var master: Int32 = -1, slave: Int32 = -1
        guard lanes_open_pty(Int32(height), Int32(width), &master, &slave) == 0 else { return nil }
        return (master, slave)
    }

    // MARK: - Plumbing

    /// Runs curses calls and adds what they wrote to `bytesWritten`; nested calls are measured once.
    @discardableResult
    private func counted<T>(_ body: () -> T) -> T {
        countingDepth += 1
        defer { countingDepth -= 1 }
        guard countingDepth == 1 else { return body() }
        let before = meter.total()
        let result = body()
        if let before, let after = meter.total() {
            bytesWritten += after - before
        } else {
            countsCursesOutput = false
        }
        return result
    }

    /// Writes our own sequence straight to the terminal; curses has flushed by then.
    private func writeDirect(_ text: String) {
        bytesWritten += TerminalIO.writeAll(outputFD, Array(text.utf8))
    }

    private func closeFiles(outCopy: Int32, inCopy: Int32) {
        if let outFile { fclose(outFile) } else if outCopy >= 0 { _ = close(outCopy) }
        if let inFile { fclose(inFile) } else if inCopy >= 0 { _ = close(inCopy) }
        outFile = nil
        inFile = nil
    }
}

extension CursesTerminal {
    /// Whether terminfo's entry for `term` can place the cursor (`cup`); nil when it has no
    /// entry. Only before any `CursesTerminal` has started: it swaps curses' current terminal.
    public static func canAddressCursor(term: String, outputFD: Int32 = 1) -> Bool? {
        switch term.withCString({ lanes_terminfo_can_address_cursor($0, outputFD) }) {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }
}
