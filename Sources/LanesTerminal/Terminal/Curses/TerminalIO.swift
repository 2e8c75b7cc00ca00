import DragKit
#if canImport(Glibc)
    import Glibc
#endif

/// The size of the terminal on standard output, in cells; 80×24 when it is no terminal.
public func terminalWindowSize() -> Size {
    guard isatty(STDOUT_FILENO) != 0, let size = TerminalIO.windowSize(STDOUT_FILENO), size.width > 0, size.height > 0
    else {
        return Size(width: 80, height: 24)
    }
    return size
}

/// Seconds on a monotonic clock.
public func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Plain POSIX I/O on the terminal's descriptors, beside curses rather than through it.
enum TerminalIO {
    /// Reads what is there, up to 64 KiB. End of file or an error means the terminal is gone.
    static func readAvailable(_ fd: Int32) -> [TerminalInput] {
        var buf = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = read(fd, &buf, buf.count)
            if n > 0 { return [.bytes(Array(buf[0..<n]))] }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN { return [] }
            return [.terminate(signal: SIGHUP)]
        }
    }

    /// Throws away what was typed on the terminal `fd` and not yet read; how many bytes that was
    /// (0 when `fd` is no terminal).
    static func discardTypeahead(_ fd: Int32) -> Int {
        guard isatty(fd) != 0 else { return 0 }
        var waiting: Int32 = 0
        if ioctl(fd, UInt(FIONREAD), &waiting) != 0 { waiting = 0 }
        tcflush(fd, TCIFLUSH)
        return Int(max(waiting, 0))
    }

    /// The window's size in cells, from the terminal driver.
    static func windowSize(_ fd: Int32) -> Size? {
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 else { return nil }
        return Size(width: Int(ws.ws_col), height: Int(ws.ws_row))
    }

    /// Writes all of `bytes` (retrying after signals); returns how many were written.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return offset
    }

    /// Curses needs a UTF-8 locale to write wide characters; the app always speaks UTF-8.
    static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        if codeset != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}

/// Why a `CursesTerminal` could not start.
public enum CursesTerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another `CursesTerminal` is running: curses has one screen per process here.
    case alreadyRunning
    /// The output file descriptor is not a terminal.
    case notATerminal
    /// `newterm` failed, usually because terminfo does not know the terminal type.
    case cannotInitialize(term: String?)

    public var description: String {
        switch self {
        case .alreadyRunning: return "the terminal is already in use by this process"
        case .notATerminal: return "standard output is not a terminal"
        case .cannotInitialize(let term?): return "curses could not start on the terminal type \"\(term)\" (TERM)"
        case .cannotInitialize(nil): return "curses could not start: TERM is not set"
        }
    }
}
