import CNcursesw
import DragKit
#if canImport(Glibc)
import Glibc
#endif

/// The terminal through ncursesw: the only code that talks to curses.
///
/// Curses draws; input is read raw from the terminal and decoded in Swift.
/// Mouse modes 1000/1002/1006 and bracketed paste are switched on here (and
/// again after Ctrl-Z or an editor), and off on every way out.
public final class CursesTerminal: TerminalDevice {
    let inputFD: Int32
    let outputFD: Int32
    let termName: String?
    private var screen: OpaquePointer?
    private var outFile: UnsafeMutablePointer<FILE>?
    private var inFile: UnsafeMutablePointer<FILE>?
    private var shown: CellBuffer?
    private var pairs: [Int: Int16] = [:]
    private var hasColors = false
    private var running = false
    private var savedTermios = termios()

    static let enableModes = "\u{1b}[?1000h\u{1b}[?1002h\u{1b}[?1006h\u{1b}[?2004h"
    static let disableModes = "\u{1b}[?2004l\u{1b}[?1006l\u{1b}[?1002l\u{1b}[?1000l"

    /// A terminal on the given descriptors (the controlling terminal by default); `term` overrides `$TERM`.
    public init(inputFD: Int32 = 0, outputFD: Int32 = 1, term: String? = nil) {
        self.inputFD = inputFD
        self.outputFD = outputFD
        self.termName = term
    }

    deinit { stop() }

    public func start() throws {
        guard !running else { return }
        setlocale(LC_ALL, "")
        let haveTermios = tcgetattr(inputFD, &savedTermios) == 0
        TerminalSignals.install(ttyFD: outputFD, termios: haveTermios ? savedTermios : nil)
        atexit { TerminalSignals.restoreTerminal() }
        outFile = fdopen(dup(outputFD), "w")
        if let outFile { setvbuf(outFile, nil, _IOFBF, 1 << 16) }
        inFile = fdopen(dup(inputFD), "r")
        guard let outFile, let inFile else { throw TerminalError.cannotOpen }
        let name = termName ?? getenv("TERM").map { String(cString: $0) } ?? "xterm-256color"
        screen = name.withCString { newterm($0, outFile, inFile) }
        guard screen != nil else {
            TerminalSignals.uninstall()
            throw TerminalError.unknownTerminal(name)
        }
        set_term(screen)
        raw()
        noecho()
        nonl()
        keypad(lanes_stdscr(), false)
        set_escdelay(25)
        curs_set(0)
        leaveok(lanes_stdscr(), true)
        if has_colors() {
            start_color()
            use_default_colors()
            hasColors = true
        }
        running = true
        writeRaw(Self.enableModes)
        shown = nil
    }

    public func stop() {
        guard running else { return }
        running = false
        writeRaw(Self.disableModes)
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        if let outFile { fclose(outFile) }
        if let inFile { fclose(inFile) }
        outFile = nil
        inFile = nil
        writeRaw("\u{1b}[?25h")
        _ = tcsetattr(inputFD, TCSANOW, &savedTermios)
        TerminalSignals.uninstall()
    }

    public var size: Size {
        var ws = winsize()
        if ioctl(outputFD, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return Size(width: Int(ws.ws_col), height: Int(ws.ws_row))
        }
        return Size(width: Int(lanes_cols()), height: Int(lanes_lines()))
    }

    public func invalidate() {
        shown = nil
        if running { clearok(lanes_stdscr(), true) }
    }

    public func present(_ buffer: CellBuffer) {
        guard running else { return }
        if Int(lanes_cols()) != buffer.width || Int(lanes_lines()) != buffer.height {
            resizeterm(Int32(buffer.height), Int32(buffer.width))
            shown = nil
        }
        let runs: [CellRun]
        if let old = shown, old.width == buffer.width, old.height == buffer.height {
            runs = buffer.diff(from: old)
        } else {
            runs = (0..<buffer.height).map { y in
                CellRun(x: 0, y: y, cells: (0..<buffer.width).map { buffer[$0, y] })
            }
        }
        for run in runs {
            var x = run.x
            for cell in run.cells {
                defer { x += 1 }
                if cell.isContinuation { continue }
                put(cell, x: x, y: run.y)
            }
        }
        wnoutrefresh(lanes_stdscr())
        doupdate()
        shown = buffer
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        var wcs: [wchar_t] = []
        for s in cell.text.unicodeScalars.prefix(4) {
            let v = s.value
            // Never hand curses a control character, whatever reached the buffer.
            wcs.append(v < 0x20 || (v >= 0x7F && v < 0xA0) ? wchar_t(0xFFFD) : wchar_t(v))
        }
        if wcs.isEmpty { wcs = [wchar_t(32)] }
        wcs.append(0)
        var attrs = lanes_a_normal()
        let st = cell.style
        if st.bold { attrs |= lanes_a_bold() }
        if st.dim { attrs |= lanes_a_dim() }
        if st.reverse { attrs |= lanes_a_reverse() }
        if st.underline { attrs |= lanes_a_underline() }
        let pair = colorPair(st.fg, st.bg)
        _ = lanes_put_cell(Int32(y), Int32(x), wcs, attrs, pair)
    }

    private func colorPair(_ fg: Style.Color, _ bg: Style.Color) -> Int16 {
        guard hasColors, fg != .default || bg != .default else { return 0 }
        let key = Int(fg.rawValue) * 16 + Int(bg.rawValue)
        if let p = pairs[key] { return p }
        let n = Int16(pairs.count + 1)
        guard Int32(n) < lanes_color_pairs() else { return 0 }
        init_pair(n, Int16(fg.rawValue) - 1, Int16(bg.rawValue) - 1)
        pairs[key] = n
        return n
    }

    public func wait(timeout: Double?) -> [TerminalInput] {
        var fds = [pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: TerminalSignals.pipeRead, events: Int16(POLLIN), revents: 0)]
        let ms = timeout.map { Int32(max(0, min($0 * 1000, 86_400_000)).rounded(.up)) } ?? -1
        let n = poll(&fds, 2, ms)
        var out: [TerminalInput] = []
        if n <= 0 { return out }
        for (code, extra) in TerminalSignals.drain() {
            switch code {
            case TerminalSignals.resize:
                let s = size
                resizeterm(Int32(s.height), Int32(s.width))
                shown = nil
                out.append(.resized(s))
            case TerminalSignals.terminate:
                out.append(.terminate(signal: Int32(extra)))
            case TerminalSignals.cont:
                if running {
                    writeRaw(Self.enableModes)
                    invalidate()
                }
                out.append(.resumed)
            case TerminalSignals.stop:
                suspend { _ = kill(getpid(), SIGSTOP) }
                out.append(.resumed)
            default:
                break
            }
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var bytes: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            let got = read(inputFD, &buf, buf.count)
            if got > 0 {
                bytes += buf[0..<got]
            } else if got == 0 {
                // The terminal went away: treat as a hang-up.
                out.append(.terminate(signal: SIGHUP))
            }
            if !bytes.isEmpty { out.append(.bytes(bytes)) }
        }
        return out
    }

    public func suspend(while body: () -> Void) {
        guard running else { body(); return }
        writeRaw(Self.disableModes)
        def_prog_mode()
        endwin()
        writeRaw("\u{1b}[?25h")
        body()
        reset_prog_mode()
        curs_set(0)
        writeRaw(Self.enableModes)
        invalidate()
        refresh()
    }

    /// Writes bytes straight to the terminal after whatever curses has buffered.
    private func writeRaw(_ s: String) {
        if let outFile { fflush(outFile) }
        let bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBufferPointer { write(outputFD, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR { continue }; break }
            off += n
        }
    }
}

/// Why the terminal could not be set up.
public enum TerminalError: Error, CustomStringConvertible {
    case cannotOpen
    case unknownTerminal(String)

    public var description: String {
        switch self {
        case .cannotOpen: "cannot open the terminal"
        case .unknownTerminal(let t): "unknown terminal type \"\(t)\" (set TERM, e.g. TERM=xterm-256color)"
        }
    }
}
