#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking pipe a worker thread writes a byte to when it has something for the loop.
///
/// The read end joins the runner's epoll set; the loop drains it before taking the results.
/// Without a pipe (none could be made) both ends are -1: the loop still takes results on its
/// other wake-ups, only later.
final class WakePipe: Sendable {
    /// Readable when the worker has woken the loop since the last `drain()`.
    let descriptor: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        for fd in [descriptor, writeEnd] where fd >= 0 { close(fd) }
    }

    /// Wakes the loop (from any thread).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, so it turns readable again only at the next `wake()`.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}
