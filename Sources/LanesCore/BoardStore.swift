import DragKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A board file on disk: loads it, saves changes atomically, and never overwrites what someone else wrote.
public final class BoardStore: @unchecked Sendable {
    public let path: String
    public private(set) var info: BoardFileInfo
    /// The board as the file holds it now (after the last load or save).
    public private(set) var saved: Board
    private var fingerprint: FileFingerprint?
    private var lock: BoardLock?

    /// What `save` did when the file had changed on disk.
    public enum SaveOutcome: Equatable, Sendable {
        case unchanged
        case saved
        /// Both changed: ours went to `keptAt`, the file is untouched, and the disk's board is loaded.
        case conflict(keptAt: String, disk: Board)
    }

    private init(path: String, info: BoardFileInfo, saved: Board, fingerprint: FileFingerprint?, lock: BoardLock?) {
        self.path = path
        self.info = info
        self.saved = saved
        self.fingerprint = fingerprint
        self.lock = lock
    }

    deinit { lock?.release() }

    /// Opens a board file, creating it from `starter` (Markdown) when missing. Takes the board's lock.
    public static func open(_ path: String, starter: String?, lock takeLock: Bool = true) throws -> (store: BoardStore, board: Board, created: Bool) {
        let lock = takeLock ? try BoardLock.acquire(path) : nil
        do {
            // Read once: the read gives the fingerprint too (a missing file means a new board).
            let loaded: (bytes: [UInt8], fingerprint: FileFingerprint)
            do {
                loaded = try SafeFile.read(path)
            } catch StorageError.notFound {
                guard let starter else { throw StorageError.notFound(path: path) }
                let (board, info) = try BoardFormat.parse(starter, file: "starter board")
                let bytes = Array(BoardFormat.serialize(board, info: info).utf8)
                let fp = try SafeFile.writeAtomically(bytes, to: path, expecting: nil)
                return (BoardStore(path: path, info: info, saved: board, fingerprint: fp, lock: lock), board, true)
            }
            let (board, info) = try BoardFormat.parse(loaded.bytes, file: path)
            return (BoardStore(path: path, info: info, saved: board, fingerprint: loaded.fingerprint, lock: lock), board, false)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// Reads a board without keeping a store (scripting commands).
    public static func load(_ path: String) throws -> (board: Board, info: BoardFileInfo) {
        let (bytes, _) = try SafeFile.read(path)
        return try BoardFormat.parse(bytes, file: path)
    }

    /// A cheap look (one stat, no read): whether the file's identity, size or mtime moved.
    /// Same-size edits with a restored mtime are caught by `changedOnDisk` before every save.
    public func looksChangedOnDisk() -> Bool {
        guard let fp = fingerprint else { return true }
        var st = stat()
        guard stat(path, &st) == 0 else { return true }
        return UInt64(st.st_dev) != fp.device || UInt64(st.st_ino) != fp.inode || Int64(st.st_size) != fp.size
            || Int64(st.st_mtim.tv_sec) != fp.modificationSeconds || Int64(st.st_mtim.tv_nsec) != fp.modificationNanoseconds
    }

    /// Whether the file on disk differs from what we last read or wrote.
    public func changedOnDisk() -> Bool {
        guard let now = try? SafeFile.fingerprint(path) else { return false }
        return now != fingerprint
    }

    /// Re-reads the file after it changed on disk.
    public func reload() throws -> Board {
        let (bytes, fp) = try SafeFile.read(path)
        let (board, info) = try BoardFormat.parse(bytes, file: path)
        self.info = info
        saved = board
        fingerprint = fp
        return board
    }

    /// Writes `board` if it differs from the file; never over a file someone else changed.
    ///
    /// `writeAtomically` checks the file against our fingerprint just before it replaces it;
    /// when it changed, the disk's board is loaded and, if we had changes too, ours is kept beside it.
    public func save(_ board: Board) throws -> SaveOutcome {
        guard board != saved else { return .unchanged }
        let bytes = Array(BoardFormat.serialize(board, info: info).utf8)
        do {
            fingerprint = try SafeFile.writeAtomically(bytes, to: path, expecting: fingerprint)
            saved = board
            return .saved
        } catch StorageError.modifiedOnDisk {
            let disk = try reload()
            let kept = conflictPath()
            _ = try SafeFile.writeAtomically(bytes, to: kept, expecting: nil)
            return .conflict(keptAt: kept, disk: disk)
        }
    }

    private func conflictPath() -> String {
        let url = URL(fileURLWithPath: path)
        let stamp = Int(Date().timeIntervalSince1970)
        let ext = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        return url.deletingPathExtension().path + ".lanes-conflict-\(stamp)" + ext
    }
}
