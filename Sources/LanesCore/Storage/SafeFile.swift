#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and atomically replacing whole files, byte for byte.
///
/// Uses system calls only (no Foundation), so it is safe to call in a forked child.
public enum SafeFile {
    /// Reads the whole file (following symlinks) and its fingerprint.
    public static func read(_ path: String) throws -> (bytes: [UInt8], fingerprint: FileFingerprint) {
        switch snapshot(path) {
        case .success(let result): return result
        case .failure(let error):
            if error.code == ENOENT { throw StorageError.notFound(path: path) }
            throw StorageError.unreadable(path: path, reason: reason(error))
        }
    }

    /// The file's current fingerprint; nil when missing. Reads the file in pieces to hash it.
    public static func fingerprint(_ path: String) throws -> FileFingerprint? {
        switch snapshot(path, keepingBytes: false) {
        case .success(let result): return result.fingerprint
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw StorageError.unreadable(path: path, reason: reason(error))
        }
    }

    private static func reason(_ error: Errno) -> String {
        error.code == EAGAIN ? "it kept changing while it was being read" : error.message
    }

    /// Replaces the file's bytes all at once, or throws and leaves the file as it was.
    ///
    /// Writes a temp file `.<name>.lanes-tmp-<pid>-<random>` in the folder of the real
    /// file (a symlink stays a link; its target is replaced), fsyncs it, renames it over
    /// the target and fsyncs the folder. Mode is kept, and owner and group when permitted.
    /// After a successful save, temp files of processes that no longer exist are deleted.
    ///
    /// `expecting` is checked before writing and again just before the rename; a change
    /// by another program between that check and the rename goes unnoticed (Lanes processes
    /// hold a `WriteLock` around it). With `expecting` nil the file is replaced unseen.
    /// A failing fsync of the folder is ignored: the rename has happened by then and
    /// the new bytes are on disk, so reporting "unchanged" would be false.
    /// A target with several hard links is written in place instead (see `overwriteInPlace`),
    /// so every name keeps seeing the board. A target without any write permission bit is
    /// refused (`readOnly`). Extended attributes and ACLs are not carried over.
    ///
    /// `besideOnly`: the file must stay in its own folder: a symlink whose target is in another
    /// folder is refused in words and nothing is written (a board's settings sidecar,
    /// which a cloned repository could aim at any file of the user's).
    ///
    /// `beforeReplacing` gets the file's fingerprint-to-be just before the rename (after an
    /// in-place write, just after it), with the target's real path: a `WriterNote` is put there.
    @discardableResult
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, expecting: FileFingerprint?, besideOnly: Bool = false,
        beforeReplacing: ((String, FileFingerprint) -> Void)? = nil
    ) throws -> FileFingerprint {
        let target: String
        switch POSIX.resolveFinalLinks(path) {
        case .success(let resolved): target = resolved
        case .failure(let error): throw StorageError.writeFailed(path: path, reason: error.message)
        }
        if besideOnly, target != path, !POSIX.sameFolder(POSIX.directory(of: path), POSIX.directory(of: target)) {
            throw StorageError.writeFailed(
                path: path,
                reason: "it is a link to \(target), outside its folder; Lanes writes a board's own files only beside it"
            )
        }
        let name = POSIX.lastComponent(of: target)
        guard !name.isEmpty else {
            throw StorageError.writeFailed(path: path, reason: "the path names a folder, not a file")
        }
        let folder = POSIX.directory(of: target)

        // A cheap look first (metadata only), so a file that visibly changed is not written
        // beside for nothing; the full check, bytes included, comes just before the rename.
        if let expecting { try checkMetadata(target, matches: expecting, reportingAs: path) }

        var original: stat?
        switch POSIX.status(target) {
        case .success(let st):
            guard POSIX.isRegular(st) else {
                throw StorageError.writeFailed(path: path, reason: "it is not a regular file")
            }
            // Permission bits, not access(2): root may write anything, but a 0444 board says "leave me".
            if st.st_mode & 0o222 == 0 { throw StorageError.readOnly(path: path) }
            original = st
        case .failure(let error) where error.code == ENOENT:
            original = nil
        case .failure(let error):
            throw StorageError.writeFailed(path: path, reason: error.message)
        }

        let (fd, tempPath) = try createTemp(in: folder, for: name, newFile: original == nil, reportingAs: path)
        var fdOpen = true
        var committed = false
        defer {
            if fdOpen { close(fd) }
            if !committed { unlink(tempPath) }
        }
        func fail(_ step: String, _ code: Int32) -> StorageError {
            .writeFailed(path: path, reason: step.isEmpty ? POSIX.message(code) : "\(step): \(POSIX.message(code))")
        }

        // Write everything, in chunks so a full disk shows up as a short write then ENOSPC.
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, chunkSize)
            let written: Int
            switch inject(.write(offset: offset), tempPath) {
            case .fail(let code)?: written = -1; errno = code
            case .shortWrite?: written = 0
            case nil: written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, chunk) }
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw fail("", errno)
            }
            if written == 0 {
                throw StorageError.writeFailed(
                    path: path, reason: "the disk accepted only \(offset) of \(bytes.count) bytes")
            }
            offset += written
        }

        if let original {
            // Owner first: chown may clear set-user-ID bits that chmod then restores.
            if fchown(fd, original.st_uid, original.st_gid) != 0 {
                _ = fchown(fd, uid_t.max, original.st_gid)  // not permitted: keep at least the group if we can
            }
            if fchmod(fd, original.st_mode & 0o7777) != 0 { throw fail("setting the file mode", errno) }
        }

        if case .fail(let code)? = inject(.syncFile, tempPath) { throw fail("", code) }
        while fsync(fd) != 0 {
            if errno != EINTR { throw fail("", errno) }
        }
        let written: stat
        switch POSIX.status(fd: fd) {
        case .success(let st): written = st
        case .failure(let error): throw fail("", error.code)
        }
        fdOpen = false
        if close(fd) != 0 && errno != EINTR { throw fail("", errno) }

        if case .fail(let code)? = inject(.rename, tempPath) { throw fail("", code) }
        if let expecting { try check(target, matches: expecting, reportingAs: path) }
        if let original, original.st_nlink > 1 {
            // Renaming would split the hard links: write in place instead. The complete new
            // content is already synced beside it, kept under a name no cleanup removes
            // (`.NAME.lanes-saving`, a journal), so a crash during the in-place write leaves the
            // whole new board next to the torn one, and the next read finishes the save from it
            // (`finishInterruptedSave`) before anything reads the board.
            let keptPath = POSIX.sidecar(of: target, suffix: ".lanes-saving")
            // link, not rename: a journal a dead save left is never replaced unread.
            if link(tempPath, keptPath) != 0 {
                if errno == EEXIST {
                    throw StorageError.writeFailed(
                        path: path,
                        reason:
                            "an interrupted save left \(POSIX.lastComponent(of: keptPath)) beside it; open the board (or lanes show it) to finish that save first"
                    )
                }
                throw fail("", errno)
            }
            unlink(tempPath)
            committed = true
            syncFolder(folder)  // the journal's name is on disk before the first byte is overwritten
            let result = try overwriteInPlace(target, with: bytes, reportingAs: path)
            beforeReplacing?(target, result)
            if case .fail(let code)? = inject(.removeJournal, keptPath) { throw fail("", code) }
            unlink(keptPath)
            removeStaleTemps(in: folder, for: name)
            return result
        }
        let result = FileFingerprint(status: written, content: bytes)
        beforeReplacing?(target, result)
        if rename(tempPath, target) != 0 { throw fail("", errno) }
        committed = true

        if inject(.syncFolder, tempPath) == nil { syncFolder(folder) }
        removeStaleTemps(in: folder, for: name)
        return result
    }

    // MARK: - Interrupted in-place saves

    /// Finishes a save that was writing `path` in place when its process died, from the journal
    /// `.NAME.lanes-saving` it left beside the file; the words that say so, nil when there was none.
    ///
    /// Called before a board is read. The journal exists only while a save holds the `WriteLock`
    /// (between its rename and the end of the in-place write), so holding the lock and still
    /// finding it means its writer died: the board may be new bytes followed by old ones, which
    /// would read as a valid board. The journal is complete (synced before the first byte was
    /// overwritten), so the save is written again from it, in place, and then the journal goes.
    /// The file as it was found is first kept beside it (`.NAME.lanes-interrupted`, never over an
    /// earlier one) unless it already equals the journal, so nothing is deleted unread. `lockHeld`:
    /// the caller holds the board's `WriteLock` already.
    public static func finishInterruptedSave(of path: String, lockHeld: Bool = false) throws -> String? {
        guard case .success(let target) = POSIX.resolveFinalLinks(path) else { return nil }
        let journal = POSIX.sidecar(of: target, suffix: ".lanes-saving")
        guard case .success = POSIX.linkStatus(journal) else { return nil }  // the usual case: one lstat
        if !lockHeld { return try WriteLock.holding(target) { try finishInterruptedSave(of: path, lockHeld: true) } }
        guard case .success(let journalStatus) = POSIX.linkStatus(journal) else { return nil }  // its writer finished
        let name = POSIX.lastComponent(of: target)
        let journalName = POSIX.lastComponent(of: journal)
        guard POSIX.isRegular(journalStatus) else {
            throw StorageError.unreadable(
                path: path, reason: "\(journalName) beside it is not a regular file; move it away and try again")
        }
        let saved: [UInt8]
        do { saved = try read(journal).bytes } catch {
            throw StorageError.unreadable(
                path: path,
                reason:
                    "a save of it was interrupted and its journal \(journalName) cannot be read (\(error)); it is kept")
        }
        let found: [UInt8]
        do { found = try read(target).bytes } catch StorageError.notFound { found = [] }
        if found == saved {
            // The save had written everything; only the journal's removal was missing.
            unlink(journal)
            removeStaleTemps(in: POSIX.directory(of: target), for: name)
            return nil
        }
        var kept = POSIX.sidecar(of: target, suffix: ".lanes-interrupted")
        var n = 1
        while case .success = POSIX.linkStatus(kept) {
            n += 1
            kept = POSIX.sidecar(of: target, suffix: ".lanes-interrupted-\(n)")
        }
        try writeAtomically(found, to: kept, expecting: nil)
        var linked = false
        if case .success(let st) = POSIX.status(target) { linked = st.st_nlink > 1 }
        if linked {
            _ = try overwriteInPlace(target, with: saved, reportingAs: path)
        } else {
            // No longer hard-linked (or gone): an ordinary atomic save gives the same bytes.
            try writeAtomically(saved, to: target, expecting: nil)
        }
        unlink(journal)
        removeStaleTemps(in: POSIX.directory(of: target), for: name)
        return
            "A save of \(path) was interrupted (its process ended while writing it in place); Lanes finished it from \(journalName). The file as it was found is kept in \(POSIX.lastComponent(of: kept))."
    }

    // MARK: - Test hooks

    /// A step of `writeAtomically` where a test can make it fail.
    enum Step: Sendable, Equatable {
        /// Before each `write(2)` of the temp file; `offset` bytes are already written.
        case write(offset: Int)
        case syncFile
        /// Before the last `expecting` check and the rename.
        case rename
        case syncFolder
        /// Writing in place (a hard-linked file): before each `pwrite(2)` at `offset`, before the
        /// `ftruncate(2)`, before the `fsync(2)`, and before the journal `.NAME.lanes-saving` is deleted.
        case writeInPlace(offset: Int)
        case truncateInPlace
        case syncInPlace
        case removeJournal
    }

    enum Fault: Sendable, Equatable {
        /// The step fails with this error number.
        case fail(Int32)
        /// A `write(2)` returns 0 (for other steps the same as no fault).
        case shortWrite
    }

    /// Called before each step with the temp file's path; a non-nil answer injects that fault.
    ///
    /// Task-local so tests running in parallel cannot see each other's faults.
    @TaskLocal static var faultInjector: (@Sendable (Step, String) -> Fault?)? = nil

    /// Bytes per `write(2)`.
    static let chunkSize = 64 * 1024

    private static func inject(_ step: Step, _ tempPath: String) -> Fault? {
        faultInjector?(step, tempPath)
    }

    // MARK: - Pieces

    /// Writes `bytes` over the file's own inode (keeping its hard links), truncates and syncs it.
    private static func overwriteInPlace(_ target: String, with bytes: [UInt8], reportingAs path: String) throws
        -> FileFingerprint
    {
        let fd = open(target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            throw StorageError.writeFailed(path: path, reason: "writing in place: \(POSIX.message(errno))")
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n: Int
            if case .fail(let code)? = inject(.writeInPlace(offset: offset), target) {
                n = -1
                errno = code
            } else {
                n = bytes.withUnsafeBytes {
                    pwrite(fd, $0.baseAddress! + offset, min(chunkSize, $0.count - offset), off_t(offset))
                }
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw StorageError.writeFailed(
                    path: path,
                    reason:
                        "writing in place: \(n < 0 ? POSIX.message(errno) : "the disk took no more bytes"); the whole new board is in \(POSIX.sidecar(of: target, suffix: ".lanes-saving"))"
                )
            }
            offset += n
        }
        if case .fail(let code)? = inject(.truncateInPlace, target) {
            throw StorageError.writeFailed(path: path, reason: "truncating: \(POSIX.message(code))")
        }
        guard ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw StorageError.writeFailed(path: path, reason: "truncating: \(POSIX.message(errno))")
        }
        if case .fail(let code)? = inject(.syncInPlace, target) {
            throw StorageError.writeFailed(path: path, reason: POSIX.message(code))
        }
        while fsync(fd) != 0 {
            if errno != EINTR { throw StorageError.writeFailed(path: path, reason: POSIX.message(errno)) }
        }
        guard case .success(let st) = POSIX.status(fd: fd) else {
            throw StorageError.writeFailed(path: path, reason: POSIX.message(errno))
        }
        return FileFingerprint(status: st, content: bytes)
    }

    /// The file's bytes and fingerprint, read consistently: retried while the file changes under us.
    /// Without `keepingBytes` the file is hashed in pieces and `bytes` is empty (a check costs no memory).
    private static func snapshot(_ path: String, keepingBytes: Bool = true) -> Result<
        (bytes: [UInt8], fingerprint: FileFingerprint), Errno
    > {
        // O_NONBLOCK so opening a FIFO by mistake cannot hang; it does nothing for regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        defer { close(fd) }
        for _ in 0..<8 {
            guard case .success(let before) = POSIX.status(fd: fd) else { return .failure(Errno(errno)) }
            guard POSIX.isRegular(before) else {
                return .failure(Errno((before.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL))
            }
            var bytes: [UInt8] = []
            let hash: UInt64, count: Int
            if keepingBytes {
                switch POSIX.readAll(fd, sizeHint: Int(before.st_size)) {
                case .success(let read): bytes = read; hash = ContentHasher.hash(read); count = read.count
                case .failure(let error): return .failure(error)
                }
            } else {
                switch ContentHasher.hash(fileDescriptor: fd) {
                case .success(let r): (hash, count) = r
                case .failure(let error): return .failure(error)
                }
            }
            guard case .success(let after) = POSIX.status(fd: fd) else { return .failure(Errno(errno)) }
            let stable = FileFingerprint(status: before, content: []).sameMetadata(
                as: FileFingerprint(status: after, content: []))
            if stable && Int64(count) == Int64(after.st_size) {
                return .success((bytes, FileFingerprint(status: after, contentHash: hash)))
            }
        }
        return .failure(Errno(EAGAIN))
    }

    private static func checkMetadata(_ target: String, matches expected: FileFingerprint, reportingAs path: String)
        throws
    {
        switch POSIX.status(target) {
        case .success(let st):
            if !FileFingerprint(status: st, content: []).sameMetadata(as: expected) {
                throw StorageError.modifiedOnDisk(path: path)
            }
        case .failure(let error) where error.code == ENOENT:
            throw StorageError.modifiedOnDisk(path: path)
        case .failure(let error):
            throw StorageError.writeFailed(path: path, reason: "cannot check it for changes: \(reason(error))")
        }
    }

    private static func check(_ target: String, matches expected: FileFingerprint, reportingAs path: String) throws {
        switch snapshot(target, keepingBytes: false) {
        case .success(let current):
            if current.fingerprint != expected { throw StorageError.modifiedOnDisk(path: path) }
        case .failure(let error) where error.code == ENOENT:
            throw StorageError.modifiedOnDisk(path: path)
        case .failure(let error):
            throw StorageError.writeFailed(path: path, reason: "cannot check it for changes: \(reason(error))")
        }
    }

    static func tempPrefix(for name: String) -> String {
        // Keep the temp name within NAME_MAX (255 bytes) for long board names.
        var shortened = name
        while shortened.utf8.count > 180 { shortened.unicodeScalars.removeLast() }
        return "." + shortened + ".lanes-tmp-"
    }

    private static func createTemp(
        in folder: String, for name: String, newFile: Bool,
        reportingAs path: String
    ) throws -> (Int32, String) {
        // A new board gets 0666 minus the umask like any new file; a replacement starts
        // private and receives the original's mode once written.
        let mode: mode_t = newFile ? 0o666 : 0o600
        for _ in 0..<100 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
            let tempPath = POSIX.join(folder, tempPrefix(for: name) + "\(getpid())-\(suffix)")
            let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 { return (fd, tempPath) }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            throw StorageError.writeFailed(
                path: path, reason: "cannot create a temporary file in \(folder): \(POSIX.message(code))")
        }
        throw StorageError.writeFailed(path: path, reason: "cannot find a free temporary file name in \(folder)")
    }

    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        while fsync(fd) != 0 && errno == EINTR {}
        close(fd)
    }

    /// Deletes temp files of this target whose writing process no longer exists.
    private static func removeStaleTemps(in folder: String, for name: String) {
        let prefix = tempPrefix(for: name)
        for entry in POSIX.entries(of: folder) where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]),
                pid > 0, pid != getpid(), !POSIX.processExists(pid)
            else { continue }
            unlink(POSIX.join(folder, entry))
        }
    }
}
