import Glibc

/// Reads how many bytes the calling thread has written so far, from the kernel's
/// per-thread I/O accounting (`wchar` in `/proc/thread-self/io`).
///
/// ncurses 6.4 writes its output buffer with `write(2)` on the stream's file descriptor,
/// bypassing stdio, so a counting `fopencookie` stream gets nothing; measuring the
/// difference around each curses call is exact as long as the thread writes nothing else
/// in between. Unavailable without procfs: `total()` then returns nil.
struct ThreadWriteMeter {
    private var fd: Int32 = -1
    private var thread: pthread_t = 0
    private var failed = false

    /// The `wchar` count of the calling thread, or nil if it cannot be read.
    mutating func total() -> Int? {
        guard !failed else { return nil }
        let me = pthread_self()
        if fd < 0 || thread != me {
            close()
            fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { failed = true; return nil }
            thread = me
        }
        var buf = [UInt8](repeating: 0, count: 256)
        let n = pread(fd, &buf, buf.count, 0)
        guard n > 0, let value = Self.parseWchar(buf[0..<n]) else { failed = true; close(); return nil }
        return value
    }

    mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// The number after `wchar:` in the text of an io accounting file.
    static func parseWchar(_ bytes: ArraySlice<UInt8>) -> Int? {
        let key = Array("wchar:".utf8)
        var i = bytes.startIndex
        while i + key.count <= bytes.endIndex {
            if bytes[i..<(i + key.count)].elementsEqual(key),
                i == bytes.startIndex || bytes[i - 1] == UInt8(ascii: "\n")
            {
                var j = i + key.count
                while j < bytes.endIndex, bytes[j] == UInt8(ascii: " ") { j += 1 }
                var value = 0
                var digits = 0
                while j < bytes.endIndex, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") {
                    value = value * 10 + Int(bytes[j] - UInt8(ascii: "0"))
                    digits += 1
                    j += 1
                }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }
}
