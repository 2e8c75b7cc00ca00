import Foundation
import LanesTerminal
#if canImport(Glibc)
    import Glibc
#endif

/// The real curses backend on a pseudo-terminal; counts the bytes each `present` writes.
///
/// A reader thread drains the master side (so curses never blocks on a full pty). After
/// each frame a sync marker (an OSC string curses never writes) goes straight to the slave;
/// the bytes before it are the frame's.
final class PTYCapture: @unchecked Sendable {
    let master: Int32
    let slave: Int32
    let terminal: CursesTerminal
    private let lock = NSLock()
    private var received: [UInt8] = []
    private var stopped = false
    private var thread: Thread?
    static let marker = Array("\u{1b}]7777;lanes-bench-sync\u{07}".utf8)

    init(width: Int, height: Int) throws {
        // posix_openpt/grantpt/unlockpt/ptsname by hand: Swift's Glibc module does not export them.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431) /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(master, UInt(0x8004_5430) /* TIOCGPTN */, &number) == 0
        else {
            throw BenchError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw BenchError("cannot open \(name)") }
        var ws = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
        // Raw line discipline: what curses writes arrives byte for byte.
        var t = termios()
        tcgetattr(slave, &t)
        cfmakeraw(&t)
        tcsetattr(slave, TCSANOW, &t)
        terminal = CursesTerminal(inputFD: slave, outputFD: slave, term: "xterm-256color")
        let t2 = Thread { [unowned self] in self.readLoop() }
        thread = t2
        t2.start()
    }

    private func readLoop() {
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, 50)
            lock.lock()
            let done = stopped
            lock.unlock()
            if done { return }
            if r <= 0 { continue }
            let n = read(master, &buf, buf.count)
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
            lock.lock()
            received.append(contentsOf: buf[0..<n])
            lock.unlock()
        }
    }

    /// The bytes of the last frame, kept when `keepLast` is set (for `--dump-frames`).
    var keepLast = false
    private(set) var lastFrame: [UInt8] = []

    /// Writes the marker to the slave and returns the bytes that arrived before it.
    func sync() -> Int {
        let m = Self.marker
        _ = m.withUnsafeBufferPointer { write(slave, $0.baseAddress, $0.count) }
        var waited = 0
        while true {
            lock.lock()
            if let at = find(m, in: received) {
                let count = at
                if keepLast { lastFrame = Array(received[0..<at]) }
                received.removeSubrange(0..<(at + m.count))
                lock.unlock()
                return count
            }
            lock.unlock()
            usleep(20)
            waited += 1
            if waited > 250_000 { fatalError("pty sync marker never arrived") }
        }
    }

    private func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var i = 0
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == needle[0] {
                var k = 1
                while k < needle.count && hay[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    func start() throws {
        try terminal.start()
        _ = sync()
    }

    /// Presents a frame; the bytes curses wrote for it.
    func present(_ buffer: CellBuffer) -> Int {
        terminal.present(buffer)
        return sync()
    }

    /// Presents a frame; the microseconds `present` took (diff, curses, the write to the pty;
    /// not the wait for the reader) and the bytes it wrote.
    func presentTimed(_ buffer: CellBuffer) -> (micros: Double, bytes: Int) {
        let t0 = nanos()
        terminal.present(buffer)
        let dt = us(nanos() - t0)
        return (dt, sync())
    }

    func close() {
        terminal.stop()
        lock.lock()
        stopped = true
        lock.unlock()
        while thread?.isFinished == false { usleep(1000) }
        Glibc.close(slave)
        Glibc.close(master)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
