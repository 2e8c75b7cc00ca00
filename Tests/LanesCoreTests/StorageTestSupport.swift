import Foundation
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore

/// A fresh folder under the system temp folder, removed by `remove()`.
struct ScratchFolder {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory().trimmingSuffix("/") + "/lanes-storage-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else { preconditionFailure("mkdtemp failed: \(POSIX.message(errno))") }
        path = made
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Names in the folder, sorted.
    func entries() -> [String] { POSIX.entries(of: path).sorted() }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Writes bytes in place with plain system calls, the way another program might.
func writeBehindTheBack(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "open \(path): \(POSIX.message(errno))")
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(n == bytes.count)
    close(fd)
}

func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func lstatOrNil(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
}

/// `count` bytes of Markdown-looking text that differ with `seed`.
func boardBytes(_ seed: Int, count: Int) -> [UInt8] {
    var text = "## Column \(seed)\n\n"
    var card = 0
    while text.utf8.count < count {
        text += "- Card \(card) of board \(seed)\n    > description line\n"
        card += 1
    }
    return Array(text.utf8.prefix(count))
}

/// Forks; the child runs `body`, which must not return (it is killed or calls `_exit`).
///
/// The child of a multithreaded process may only rely on what was set up before the
/// fork: the code it runs avoids Foundation and sticks to system calls.
func forkChild(_ body: () -> Void) -> pid_t {
    let pid = fork()
    precondition(pid >= 0, "fork: \(POSIX.message(errno))")
    if pid == 0 {
        body()
        _exit(0)
    }
    return pid
}

/// Reads one byte from a pipe; nil at end of file or after `guardSeconds` without data.
///
/// The guard only keeps a deadlocked child from hanging the test run.
func readByte(_ fd: Int32, guardSeconds: Int32 = 120) -> UInt8? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
        let ready = poll(&pfd, 1, guardSeconds * 1000)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { return nil }
        var byte: UInt8 = 0
        let n = read(fd, &byte, 1)
        if n < 0 && errno == EINTR { continue }
        return n == 1 ? byte : nil
    }
}

func killAndReap(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
}

func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    return (fds[0], fds[1])
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
