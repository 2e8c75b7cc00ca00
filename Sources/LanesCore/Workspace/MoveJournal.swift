#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder of intent records of cross-board moves in flight, one file per move.
///
/// `$LANES_STATE_DIR`, else `$XDG_STATE_HOME/lanes/moves`, else `~/.local/state/lanes/moves`;
/// created with mode 0700 (a record holds card text). A record is `MOVEID.move`: its first line
/// the `MoveRecord`, then one line per phase reached (`inserted`, `withdrawing`). The process
/// that moves holds `flock(LOCK_EX)` on the record from before it has its name until it is
/// removed, so recovery leaves a live move alone and takes over a dead one's at once.
public struct MoveJournal: Sendable {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    /// The journal of this user, from the environment.
    public static func standard() -> MoveJournal {
        func env(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let dir = env("LANES_STATE_DIR") { return MoveJournal(folder: dir) }
        let state = env("XDG_STATE_HOME") ?? ((env("HOME") ?? "/tmp") + "/.local/state")
        return MoveJournal(folder: state + "/lanes/moves")
    }

    /// Phase marks, each on its own line after the record.
    enum Mark: String {
        /// The target board holds the cards (its commit returned).
        case inserted
        /// The source kept an edited card: the copies in the target are being taken out again.
        case withdrawing
    }

    /// A record being written or finished, with its lock.
    final class Handle {
        let path: String
        private(set) var fd: Int32

        init(path: String, fd: Int32) {
            self.path = path
            self.fd = fd
        }

        /// Adds a phase mark and syncs it.
        func mark(_ mark: Mark, entries: [Int] = []) throws {
            let words = [mark.rawValue] + entries.map { String($0) }
            let line = Array((words.joined(separator: " ") + "\n").utf8)
            var done = 0
            while done < line.count {
                let n = line.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + done, $0.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw StorageError.writeFailed(path: path, reason: POSIX.message(errno)) }
                done += n
            }
            while fsync(fd) != 0 {
                if errno != EINTR { throw StorageError.writeFailed(path: path, reason: POSIX.message(errno)) }
            }
        }

        /// Removes the record (the move is over) and syncs the folder.
        func clear() throws {
            if unlink(path) != 0 && errno != ENOENT {
                throw StorageError.writeFailed(
                    path: path, reason: "cannot remove the finished move record: \(POSIX.message(errno))")
            }
            MoveJournal.syncFolder(POSIX.directory(of: path))
            release()
        }

        /// Lets go of the lock, leaving the record for recovery.
        func release() {
            if fd >= 0 { close(fd) }
            fd = -1
        }

        deinit { release() }
    }

    /// Creates the folder (mode 0700) when missing.
    func ensureFolder() throws {
        var path = ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
            path += (path.isEmpty && part.isEmpty) ? "/" : (path.hasSuffix("/") || path.isEmpty ? "" : "/") + part
            if path == "/" || part.isEmpty { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StorageError.writeFailed(
                    path: path, reason: "cannot create the folder for move records: \(POSIX.message(errno))")
            }
        }
        chmod(folder, 0o700)
    }

    /// Writes `record` durably (temp file synced, renamed, folder synced), locked from before it has its name.
    func write(_ record: MoveRecord) throws -> Handle {
        try ensureFolder()
        let path = POSIX.join(folder, record.id + ".move")
        let temp = POSIX.join(folder, ".\(record.id).move-writing")
        let handle = try lockedTemp(temp)
        let fd = handle.fd
        do {
            let bytes = Array(record.serialized().utf8)
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + done, $0.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw StorageError.writeFailed(path: temp, reason: POSIX.message(errno)) }
                done += n
            }
            while fsync(fd) != 0 {
                if errno != EINTR { throw StorageError.writeFailed(path: temp, reason: POSIX.message(errno)) }
            }
            guard rename(temp, path) == 0 else {
                throw StorageError.writeFailed(path: path, reason: POSIX.message(errno))
            }
        } catch {
            unlink(temp)
            throw error
        }
        MoveJournal.syncFolder(folder)
        return Handle(path: path, fd: handle.takeFD())
    }

    /// Creates `temp` and locks it, still under that name: recovery may take a temp file in the moment
    /// between its creation and its lock (it looks like a dead writer's) and remove it; then a new one is made.
    private func lockedTemp(_ temp: String) throws -> Handle {
        for _ in 0..<100 {
            let fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw StorageError.writeFailed(path: temp, reason: POSIX.message(errno)) }
            let handle = Handle(path: temp, fd: fd)
            while flock(fd, LOCK_EX) != 0 {
                if errno != EINTR { throw StorageError.writeFailed(path: temp, reason: POSIX.message(errno)) }
            }
            if case .success(let named) = POSIX.status(temp), case .success(let locked) = POSIX.status(fd: fd),
                named.st_ino == locked.st_ino, named.st_dev == locked.st_dev
            {
                return handle
            }
        }
        throw StorageError.writeFailed(path: temp, reason: "another process kept removing the new move record")
    }

    /// A record found in the folder, locked (its mover is gone), with its marks.
    struct Pending {
        var handle: Handle
        var record: MoveRecord
        var marks: Set<Mark>
        /// The entries whose copies leave the target again, when the `withdrawing` mark was written.
        var withdrawing: [Int]?
    }

    /// Every record no live process holds, locked for the caller; torn temp files of dead writers removed.
    /// Records that cannot be read are reported in `unreadable` (and left in place).
    func takePending() -> (pending: [Pending], unreadable: [String]) {
        var pending: [Pending] = []
        var unreadable: [String] = []
        for name in POSIX.entries(of: folder).sorted() {
            let path = POSIX.join(folder, name)
            let isTemp = name.hasPrefix(".") && name.hasSuffix(".move-writing")
            guard name.hasSuffix(".move") || isTemp else { continue }
            let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { close(fd); continue }  // a live move
            // Still the file of that name (a finished move may have removed it meanwhile)?
            guard case .success(let named) = POSIX.status(path), case .success(let locked) = POSIX.status(fd: fd),
                named.st_ino == locked.st_ino, named.st_dev == locked.st_dev
            else { close(fd); continue }
            if isTemp {
                // Its writer died before the record had its name: no board was touched.
                unlink(path)
                close(fd)
                continue
            }
            let handle = Handle(path: path, fd: fd)
            guard case .success(let bytes) = POSIX.readAll(fd, sizeHint: 4096) else {
                unreadable.append(path); continue
            }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            guard let first = lines.first, let record = try? MoveRecord.parse(String(first), file: path) else {
                unreadable.append(path)
                continue
            }
            var marks = Set<Mark>()
            var withdrawing: [Int]?
            for line in lines.dropFirst() {
                let words = line.split(separator: " ")
                guard let word = words.first, let mark = Mark(rawValue: String(word)) else { continue }
                marks.insert(mark)
                if mark == .withdrawing { withdrawing = words.dropFirst().compactMap { Int($0) } }
            }
            lseek(fd, 0, SEEK_END)
            pending.append(Pending(handle: handle, record: record, marks: marks, withdrawing: withdrawing))
        }
        return (pending, unreadable)
    }

    /// Locks held on boards for the length of a move or a recovery; let go when this is released.
    final class BoardLocks {
        private var fds: [Int32]
        init(_ fds: [Int32]) { self.fds = fds }
        deinit { for fd in fds { close(fd) } }
    }

    /// Waits for, then holds, this user's move lock on each board (in key order, so two movers never deadlock):
    /// two moves of one card at once would otherwise both insert it. A lock file per board key, in the folder.
    func lockBoards(_ keys: [String]) throws -> BoardLocks {
        try ensureFolder()
        var fds: [Int32] = []
        for key in Set(keys).sorted() {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            fnvFold(key, into: &h)
            let path = POSIX.join(folder, ".board-\(String(h, radix: 16)).lock")
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                for f in fds { close(f) }; throw StorageError.writeFailed(path: path, reason: POSIX.message(errno))
            }
            while flock(fd, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                for f in fds { close(f) }
                throw StorageError.writeFailed(path: path, reason: "cannot lock it: \(POSIX.message(code))")
            }
            fds.append(fd)
        }
        return BoardLocks(fds)
    }

    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// A new move id: time and process, unique on this machine.
    static func newID() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return "\(ts.tv_sec)-\(ts.tv_nsec)-\(getpid())"
    }
}

extension MoveJournal.Handle {
    /// Hands the descriptor (and its lock) to a new handle.
    fileprivate func takeFD() -> Int32 {
        let d = fd
        fd = -1
        return d
    }
}

/// `write(2)`, named apart from `MoveJournal.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
