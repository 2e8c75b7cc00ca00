#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serialises the few milliseconds in which Lanes processes read, merge and replace one board file.
///
/// It is `flock(LOCK_EX)` on the file itself, so it follows the file's identity (device and
/// inode): two names of one hard-linked file take the same lock, and no lock file is created
/// (a read-only folder still works). A save renames a new inode over the name, so a waiter
/// that wakes up holding the old inode sees the name lead elsewhere and locks again. A missing
/// file (a new board) locks its folder instead. Only Lanes honours it; other programs' writes
/// are caught by `SafeFile`'s check just before the rename.
enum WriteLock {
    /// Runs `body` holding the lock on `path` (symlinks resolved by the caller), waiting up to `timeout` seconds for it.
    static func holding<T>(_ path: String, timeout: Double = 10, _ body: () throws -> T) throws -> T {
        let fd = try acquire(path, timeout: timeout)
        defer { close(fd) }
        return try body()
    }

    private static func acquire(_ path: String, timeout: Double) throws -> Int32 {
        let deadline = WriteLock.now() + timeout
        while true {
            var fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            var lockedFolder = false
            if fd < 0 && errno == ENOENT {
                fd = open(POSIX.directory(of: path), O_RDONLY | O_CLOEXEC | O_DIRECTORY)
                lockedFolder = true
            }
            guard fd >= 0 else {
                throw StorageError.writeFailed(path: path, reason: "cannot open it to lock it: \(POSIX.message(errno))")
            }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                guard code == EWOULDBLOCK, WriteLock.now() < deadline else {
                    close(fd)
                    throw StorageError.writeFailed(
                        path: path,
                        reason: code == EWOULDBLOCK
                            ? "another Lanes process kept it locked for over \(Int(timeout)) s"
                            : "cannot lock it: \(POSIX.message(code))")
                }
                usleep(2_000)
            }
            // Still the file the name leads to (or still no file)? Otherwise lock again.
            let current = POSIX.status(path)
            let same: Bool
            switch (current, POSIX.status(fd: fd)) {
            case (.success(let named), .success(let locked)) where !lockedFolder:
                same = named.st_dev == locked.st_dev && named.st_ino == locked.st_ino
            case (.failure(let e), _) where lockedFolder && e.code == ENOENT:
                same = true
            default:
                same = false
            }
            if same { return fd }
            close(fd)
            guard WriteLock.now() < deadline else {
                throw StorageError.writeFailed(
                    path: path, reason: "it keeps being replaced while Lanes tries to lock it")
            }
        }
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
