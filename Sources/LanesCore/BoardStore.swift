import DragKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A board file on disk: loads it, saves changes atomically, and never overwrites what someone else wrote.
///
/// The board's accept rules live in a sidecar (`AcceptRules.sidecarPath`), read and written
/// with the board: a board loads with its rules, and a save writes whichever of the two changed.
public final class BoardStore: @unchecked Sendable {
    public let path: String
    /// The accept rules file beside the board.
    public let rulesPath: String
    public private(set) var info: BoardFileInfo
    /// The board as the files hold it now (after the last load or save), rules included.
    public private(set) var saved: Board
    private var fingerprint: FileFingerprint?
    /// nil while there is no rules file.
    private var rulesFingerprint: FileFingerprint?
    private var lock: BoardLock?

    /// What `save` did when the file had changed on disk.
    public enum SaveOutcome: Equatable, Sendable {
        case unchanged
        case saved
        /// Both changed: ours went to `keptAt`, the file is untouched, and the disk's board is loaded.
        case conflict(keptAt: String, disk: Board)
    }

    private init(path: String, info: BoardFileInfo, saved: Board, fingerprint: FileFingerprint?,
                 rulesFingerprint: FileFingerprint?, lock: BoardLock?) {
        self.path = path
        rulesPath = AcceptRules.sidecarPath(forBoard: path)
        self.info = info
        self.saved = saved
        self.fingerprint = fingerprint
        self.rulesFingerprint = rulesFingerprint
        self.lock = lock
    }

    deinit { lock?.release() }

    /// Opens a board file, creating it from `starter` (Markdown) when missing. Takes the board's lock.
    /// The accept rules are read from the sidecar; a malformed one throws its `file:line:` error.
    public static func open(_ path: String, starter: String?, lock takeLock: Bool = true) throws -> (store: BoardStore, board: Board, created: Bool) {
        let lock = takeLock ? try BoardLock.acquire(path) : nil
        do {
            let (rules, rulesFP) = try AcceptRules.read(AcceptRules.sidecarPath(forBoard: path))
            // Read once: the read gives the fingerprint too (a missing file means a new board).
            let loaded: (bytes: [UInt8], fingerprint: FileFingerprint)
            do {
                loaded = try SafeFile.read(path)
            } catch StorageError.notFound {
                guard let starter else { throw StorageError.notFound(path: path) }
                var (board, info) = try BoardFormat.parse(starter, file: "starter board")
                let bytes = Array(BoardFormat.serialize(board, info: info).utf8)
                let fp = try SafeFile.writeAtomically(bytes, to: path, expecting: nil)
                board.acceptRules = rules
                return (BoardStore(path: path, info: info, saved: board, fingerprint: fp, rulesFingerprint: rulesFP, lock: lock),
                        board, true)
            }
            var (board, info) = try BoardFormat.parse(loaded.bytes, file: path)
            board.acceptRules = rules
            return (BoardStore(path: path, info: info, saved: board, fingerprint: loaded.fingerprint,
                               rulesFingerprint: rulesFP, lock: lock), board, false)
        } catch {
            lock?.release()
            throw error
        }
    }

    /// Reads a board and its accept rules without keeping a store (scripting commands).
    public static func load(_ path: String) throws -> (board: Board, info: BoardFileInfo) {
        let (bytes, _) = try SafeFile.read(path)
        var (board, info) = try BoardFormat.parse(bytes, file: path)
        board.acceptRules = try AcceptRules.read(AcceptRules.sidecarPath(forBoard: path)).rules
        return (board, info)
    }

    /// A cheap look (one stat, no read): whether the file's identity, size or mtime moved.
    /// Same-size edits with a restored mtime are caught by `changedOnDisk` before every save.
    public func looksChangedOnDisk() -> Bool {
        looksChanged(path, from: fingerprint, missingMeansChanged: true)
            || looksChanged(rulesPath, from: rulesFingerprint, missingMeansChanged: false)
    }

    private func looksChanged(_ file: String, from fp: FileFingerprint?, missingMeansChanged: Bool) -> Bool {
        var st = stat()
        guard stat(file, &st) == 0 else { return fp != nil || missingMeansChanged }
        guard let fp else { return true }
        return !FileFingerprint(status: st, content: []).sameMetadata(as: fp)
    }

    /// Whether the board file or the rules file on disk differs from what we last read or wrote.
    public func changedOnDisk() -> Bool {
        if let now = try? SafeFile.fingerprint(path), now != fingerprint { return true }
        guard let rules = try? SafeFile.fingerprint(rulesPath) else { return false }
        return rules != rulesFingerprint
    }

    /// Re-reads the board and its rules after they changed on disk.
    public func reload() throws -> Board {
        let (bytes, fp) = try SafeFile.read(path)
        var (board, info) = try BoardFormat.parse(bytes, file: path)
        let (rules, rulesFP) = try AcceptRules.read(rulesPath)
        board.acceptRules = rules
        self.info = info
        saved = board
        fingerprint = fp
        rulesFingerprint = rulesFP
        return board
    }

    /// Writes `board` if it differs from the file; never over a file someone else changed.
    ///
    /// `writeAtomically` checks the file against our fingerprint just before it replaces it;
    /// when it changed, the disk's board is loaded and, if we had changes too, ours is kept beside it.
    /// The rules are written the same way, to their sidecar, only when they changed; a rules file
    /// left with no rules and nothing a person wrote is deleted. When the sidecar changed on disk
    /// too, our rules go to `NAME.lanes-conflict-TIME.lanes` beside the board.
    public func save(_ board: Board) throws -> SaveOutcome {
        guard board != saved else { return .unchanged }
        var fileBoard = board
        fileBoard.acceptRules = saved.acceptRules
        if fileBoard != saved {
            let bytes = Array(BoardFormat.serialize(board, info: info).utf8)
            do {
                fingerprint = try SafeFile.writeAtomically(bytes, to: path, expecting: fingerprint)
                saved = fileBoard
            } catch StorageError.modifiedOnDisk {
                let disk = try reload()
                let kept = conflictPath(extension: nil)
                _ = try SafeFile.writeAtomically(bytes, to: kept, expecting: nil)
                return .conflict(keptAt: kept, disk: disk)
            }
        }
        if board.acceptRules != saved.acceptRules {
            let rules = board.acceptRules
            let bytes = Array(rules.serialized().utf8)
            do {
                if rules.isDisposable {
                    try removeRulesFile()
                } else {
                    rulesFingerprint = try SafeFile.writeAtomically(bytes, to: rulesPath, expecting: rulesFingerprint)
                }
                saved.acceptRules = rules
            } catch StorageError.modifiedOnDisk {
                let disk = try reload()
                let kept = conflictPath(extension: "lanes")
                _ = try SafeFile.writeAtomically(bytes, to: kept, expecting: nil)
                return .conflict(keptAt: kept, disk: disk)
            }
        }
        return .saved
    }

    /// Deletes the rules file, unless someone changed it since we read or wrote it.
    private func removeRulesFile() throws {
        guard let expected = rulesFingerprint else { return }
        guard try SafeFile.fingerprint(rulesPath) == expected else { throw StorageError.modifiedOnDisk(path: rulesPath) }
        if unlink(rulesPath) != 0 && errno != ENOENT {
            throw StorageError.writeFailed(path: rulesPath, reason: String(cString: strerror(errno)))
        }
        rulesFingerprint = nil
    }

    private func conflictPath(extension forced: String?) -> String {
        let url = URL(fileURLWithPath: path)
        let stamp = Int(Date().timeIntervalSince1970)
        let ext = forced.map { "." + $0 } ?? (url.pathExtension.isEmpty ? "" : "." + url.pathExtension)
        return url.deletingPathExtension().path + ".lanes-conflict-\(stamp)" + ext
    }
}
