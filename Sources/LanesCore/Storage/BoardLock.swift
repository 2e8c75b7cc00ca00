#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An advisory lock so two lanes processes never edit one board.
///
/// The lock is `flock(LOCK_EX)` on a sidecar file `.<name>.lanes-lock` next to the
/// board's real file (symlinks resolved), holding the owner's PID as text. Not on the
/// board itself: every save renames a new inode over it, which would drop the lock.
/// `flock` belongs to the open file description, so a second `acquire` of the same
/// board fails even inside one process, and the kernel releases the lock when the
/// holder dies. The descriptor is close-on-exec but a forked child shares the lock.
/// `release` deletes the sidecar; `acquire` re-checks after locking that the name still
/// leads to the file it locked, so deleting cannot let two processes in.
/// Only Lanes honours the lock: other editors are caught by `SafeFile`'s fingerprints.
public final class BoardLock: @unchecked Sendable {
    /// The board path as given to `acquire`.
    public let path: String
    /// The sidecar file that is locked.
    public let lockFilePath: String
    private let mutex = NSLock()
    private var fd: Int32   // -1 once released; guarded by `mutex`

    private init(path: String, lockFilePath: String, fd: Int32) {
        self.path = path
        self.lockFilePath = lockFilePath
        self.fd = fd
    }

    deinit { release() }

    /// Locks the board for this process; throws `.locked(path:byPID:)` if held by another process.
    public static func acquire(_ path: String) throws -> BoardLock {
        let target: String
        switch POSIX.resolveFinalLinks(path) {
        case .success(let resolved): target = resolved
        case .failure(let error): throw StorageError.unreadable(path: path, reason: error.message)
        }
        let name = POSIX.lastComponent(of: target)
        guard !name.isEmpty else { throw StorageError.unreadable(path: path, reason: "the path names a folder, not a file") }
        let lockPath = POSIX.sidecar(of: target, suffix: ".lanes-lock")

        for _ in 0..<100 {
            var writable = true
            var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd < 0 && errno == EACCES {
                // Another user's sidecar we may not write: locking needs only a read descriptor.
                fd = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                writable = false
            }
            guard fd >= 0 else {
                throw StorageError.writeFailed(path: path, reason: "cannot create the lock file \(lockPath): \(POSIX.message(errno))")
            }
            afterOpeningLockFile?(lockPath)
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                let holder = code == EWOULDBLOCK ? POSIX.readPID(fd) : nil
                close(fd)
                if code == EWOULDBLOCK { throw StorageError.locked(path: path, byPID: holder) }
                throw StorageError.writeFailed(path: path, reason: "cannot lock \(lockPath): \(POSIX.message(code))")
            }
            // The holder before us may have deleted the sidecar between our open and flock.
            guard sameFile(fd, lockPath) else {
                close(fd)
                continue
            }
            if writable {
                let text = Array("\(getpid())\n".utf8)
                _ = ftruncate(fd, 0)
                _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
            }
            return BoardLock(path: path, lockFilePath: lockPath, fd: fd)
        }
        throw StorageError.writeFailed(path: path, reason: "the lock file \(lockPath) keeps being replaced")
    }

    /// Unlocks and deletes the sidecar; does nothing the second time.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard fd >= 0 else { return }
        // Delete while still holding the lock, and only our own file.
        if BoardLock.sameFile(fd, lockFilePath) { unlink(lockFilePath) }
        close(fd)
        fd = -1
    }

    /// Test hook run between opening the sidecar and locking it.
    @TaskLocal static var afterOpeningLockFile: (@Sendable (String) -> Void)? = nil

    private static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        guard case .success(let open) = POSIX.status(fd: fd),
              case .success(let named) = POSIX.linkStatus(path) else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}
