#if canImport(Glibc)
import Glibc
#endif

/// Signal plumbing for the terminal: a self-pipe for the signals the app handles,
/// and last-resort handlers that restore the terminal when the process crashes.
///
/// Everything a handler touches is a plain global set before the handler is
/// installed; handlers only call async-signal-safe functions (write, tcsetattr, signal, raise).
enum TerminalSignals {
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    nonisolated(unsafe) static var pipeRead: Int32 = -1
    nonisolated(unsafe) static var ttyFD: Int32 = -1
    nonisolated(unsafe) static var savedTermios = termios()
    nonisolated(unsafe) static var haveTermios = false
    /// What a crash writes to leave the terminal usable: mouse and paste modes off,
    /// the alternate screen left, attributes reset, the cursor shown.
    nonisolated(unsafe) static var restoreBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var restoreCount = 0

    static let restoreSequence = "\u{1b}[?2004l\u{1b}[?1004l\u{1b}[?1006l\u{1b}[?1002l\u{1b}[?1000l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l\r\n"

    /// Codes written into the pipe by the handlers.
    static let resize: UInt8 = 0x57, terminate: UInt8 = 0x54, cont: UInt8 = 0x43, stop: UInt8 = 0x5A

    static func install(ttyFD fd: Int32, termios saved: termios?) {
        ttyFD = fd
        if let saved {
            savedTermios = saved
            haveTermios = true
        }
        if restoreBytes == nil {
            let bytes = Array(restoreSequence.utf8)
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            p.initialize(from: bytes, count: bytes.count)
            restoreBytes = p
            restoreCount = bytes.count
        }
        if pipeRead < 0 {
            var fds: [Int32] = [-1, -1]
            if pipe(&fds) == 0 {
                for f in fds {
                    _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(f, F_SETFD, FD_CLOEXEC)
                }
                pipeRead = fds[0]
                pipeWrite = fds[1]
            }
        }
        signal(SIGWINCH) { _ in TerminalSignals.post(TerminalSignals.resize) }
        signal(SIGCONT) { _ in TerminalSignals.post(TerminalSignals.cont) }
        signal(SIGTSTP) { _ in TerminalSignals.post(TerminalSignals.stop) }
        for s in [SIGTERM, SIGHUP, SIGINT] {
            signal(s) { sig in TerminalSignals.post(TerminalSignals.terminate, UInt8(truncatingIfNeeded: sig)) }
        }
        for s in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT] {
            signal(s) { sig in
                TerminalSignals.restoreTerminal()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    /// Puts back the default actions (the terminal was restored).
    static func uninstall() {
        for s in [SIGWINCH, SIGCONT, SIGTSTP, SIGTERM, SIGHUP, SIGINT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT] {
            signal(s, SIG_DFL)
        }
        haveTermios = false
    }

    static func post(_ code: UInt8, _ extra: UInt8 = 0) {
        guard pipeWrite >= 0 else { return }
        var bytes: (UInt8, UInt8) = (code, extra)
        _ = withUnsafeBytes(of: &bytes) { write(pipeWrite, $0.baseAddress, 2) }
    }

    /// Async-signal-safe: leaves the terminal as the shell expects it.
    static func restoreTerminal() {
        guard ttyFD >= 0 else { return }
        if let p = restoreBytes { _ = write(ttyFD, p, restoreCount) }
        if haveTermios { _ = tcsetattr(ttyFD, TCSANOW, &savedTermios) }
    }

    /// Reads the signal codes posted since the last call.
    static func drain() -> [(code: UInt8, extra: UInt8)] {
        guard pipeRead >= 0 else { return [] }
        var out: [(UInt8, UInt8)] = []
        var buf = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(pipeRead, &buf, buf.count)
            if n <= 0 { break }
            var i = 0
            while i + 1 < n {
                out.append((buf[i], buf[i + 1]))
                i += 2
            }
        }
        return out
    }
}
