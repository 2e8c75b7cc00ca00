import DragKit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A board file on disk as a `BoardStore`: every save merges with what others wrote meanwhile.
///
/// Any number of Lanes processes (and other programs) may have the board open; there is no
/// session lock. A commit holds a `WriteLock` on the file for the read–merge–write, reads the
/// file only if its metadata moved, folds what others wrote into the board it last knew
/// (`known`), merges our change on top and replaces the file atomically, writing the lines
/// of what changed and keeping the rest byte for byte (the disk's own layout is used). A
/// program that writes between our read and our rename is caught by `SafeFile`'s check and
/// the merge runs again. The accept rules sidecar is read and written the same way.
public final class FileBoardStore: BoardStore, WriterNaming {
    public let path: String
    /// The accept rules file beside the board.
    public let rulesPath: String
    public var displayName: String { path }
    public private(set) var info: BoardFileInfo
    /// The board as the files held it after the last load, commit or refresh, in our identities.
    public private(set) var known: Board
    private var fingerprint: FileFingerprint? {
        didSet { fingerprintBirth = fingerprint.flatMap { FileBirth.of(path, describedBy: $0) } }
    }
    /// The birth time of the file `fingerprint` describes, where the file system keeps one.
    private var fingerprintBirth: FileBirth?
    /// nil while there is no rules file.
    private var rulesFingerprint: FileFingerprint?
    private let watcher: FileWatcher?
    /// The text of the cards as last written, by chunk: a save formats only what changed.
    let textCache = CardTextCache()
    /// The note each save of this store leaves beside the board (`lanes mcp` sets it per change); nil: none.
    public var writerNote: WriterNote?
    /// Who wrote what the last `refresh` or `commit` took in from the file, when a `WriterNote` names that very file.
    public private(set) var lastChangeWriter: String?

    private init(
        path: String, info: BoardFileInfo, known: Board, fingerprint: FileFingerprint?,
        rulesFingerprint: FileFingerprint?
    ) {
        self.path = path
        rulesPath = SettingsSidecar.path(forBoard: path)
        self.info = info
        self.known = known
        self.fingerprint = fingerprint
        self.rulesFingerprint = rulesFingerprint
        fingerprintBirth = fingerprint.flatMap { FileBirth.of(path, describedBy: $0) }
        watcher = FileWatcher(files: [path, rulesPath])
    }

    /// Opens a board file, creating it from `starter` (Markdown) when missing.
    /// A malformed board or rules file throws its `file:line:` error.
    public static func open(_ path: String, starter: String?) throws -> (
        store: FileBoardStore, board: Board, created: Bool
    ) {
        let (rules, rulesFP) = try SettingsSidecar.read(SettingsSidecar.path(forBoard: path))
        try SafeFile.finishInterruptedSaveNoting(path)
        try settle(path)
        let loaded: (bytes: [UInt8], fingerprint: FileFingerprint)
        do {
            loaded = try SafeFile.read(path)
        } catch StorageError.notFound {
            guard let starter else { throw StorageError.notFound(path: path) }
            var (board, info) = try BoardFormat.parse(starter, file: "starter board")
            let bytes = Array(BoardFormat.serialize(board, info: info).utf8)
            let fp = try SafeFile.writeAtomically(bytes, to: path, expecting: nil)
            board.acceptRules = rules
            return (
                FileBoardStore(path: path, info: info, known: board, fingerprint: fp, rulesFingerprint: rulesFP), board,
                true
            )
        }
        let (store, board) = try Reading(
            path: path, bytes: loaded.bytes, fingerprint: loaded.fingerprint, rules: rules,
            rulesFingerprint: rulesFP
        ).finish()
        return (store, board, false)
    }

    /// A board file read but not yet parsed: a `BoardPreview` of it for the first screen, then
    /// `finish()` (on any thread, once, after any preview) parses it whole into the store, as `open`
    /// does, and lets the bytes go. The store reads nothing again: what it knows is these bytes,
    /// so a change made meanwhile is another writer's.
    public final class Reading: @unchecked Sendable {
        public let path: String
        /// Emptied by `finish` (41 MB for a million cards: not kept for the session by whoever holds this).
        private var bytes: [UInt8]
        let fingerprint: FileFingerprint
        let rules: AcceptRules
        let rulesFingerprint: FileFingerprint?
        /// The board file's size in bytes.
        public let size: Int

        init(
            path: String, bytes: [UInt8], fingerprint: FileFingerprint, rules: AcceptRules,
            rulesFingerprint: FileFingerprint?
        ) {
            self.path = path
            self.bytes = bytes
            self.fingerprint = fingerprint
            self.rules = rules
            self.rulesFingerprint = rulesFingerprint
            size = bytes.count
        }

        /// The board's accept rules and swimlanes (from the sidecar).
        public var acceptRules: AcceptRules { rules }

        /// Reads an existing board file and its rules; nil when the file is missing (then `open` creates it).
        public static func start(_ path: String) throws -> Reading? {
            let (rules, rulesFP) = try SettingsSidecar.read(SettingsSidecar.path(forBoard: path))
            try SafeFile.finishInterruptedSaveNoting(path)
            try settle(path)
            do {
                let loaded = try SafeFile.read(path)
                return Reading(
                    path: path, bytes: loaded.bytes, fingerprint: loaded.fingerprint, rules: rules,
                    rulesFingerprint: rulesFP)
            } catch StorageError.notFound {
                return nil
            }
        }

        /// The first `firstCards` cards of each column and every column's count; nil when the file's
        /// shape needs the whole parse (see `BoardPreview`).
        public func preview(firstCards: Int) -> BoardPreview? {
            guard var p = BoardPreview.read(bytes, file: path, firstCards: firstCards) else { return nil }
            p.board.acceptRules = rules
            return p
        }

        /// The whole board and its store; a malformed file throws its `file:line:` error.
        public func finish() throws -> (store: FileBoardStore, board: Board) {
            let bytes = self.bytes
            self.bytes = []
            var (board, info) = try BoardFormat.parse(bytes, file: path)
            board.acceptRules = rules
            return (
                FileBoardStore(
                    path: path, info: info, known: board, fingerprint: fingerprint, rulesFingerprint: rulesFingerprint),
                board
            )
        }
    }

    /// A store for `path` that has read nothing yet: `load()` reads the board (commands that change it).
    public static func unread(_ path: String) -> FileBoardStore {
        FileBoardStore(
            path: path, info: BoardFileInfo(dialect: .taskell), known: Board(), fingerprint: nil, rulesFingerprint: nil)
    }

    /// Writes `board` as a new board file (and its rules beside it), atomically, under the write lock.
    /// An existing file is refused (`StorageError.exists`) unless `replace` (then it is replaced, as a
    /// copy or import does).
    public static func write(_ board: Board, info: BoardFileInfo, to path: String, replace: Bool) throws {
        try WriteLock.holding((try? POSIX.resolveFinalLinks(path).get()) ?? path) {
            let current = try SafeFile.fingerprint(path)
            if current != nil && !replace {
                throw StorageError.exists(path: path)
            }
            try SafeFile.writeAtomically(
                Array(BoardFormat.serialize(board, info: info).utf8), to: path, expecting: current)
            let rulesPath = SettingsSidecar.path(forBoard: path)
            let rulesFP = try SafeFile.fingerprint(rulesPath)
            if !board.acceptRules.isDisposable {
                try SafeFile.writeAtomically(
                    Array(board.acceptRules.serialized().utf8), to: rulesPath, expecting: rulesFP, besideOnly: true)
            } else if rulesFP != nil, unlink(rulesPath) != 0, errno != ENOENT {
                throw StorageError.writeFailed(path: rulesPath, reason: POSIX.message(errno))
            }
        }
    }

    /// Reads a board and its accept rules without keeping a store (read-only commands).
    public static func load(_ path: String) throws -> (board: Board, info: BoardFileInfo) {
        try SafeFile.finishInterruptedSaveNoting(path)
        try settle(path)
        let (bytes, _) = try SafeFile.read(path)
        var (board, info) = try BoardFormat.parse(bytes, file: path)
        board.acceptRules = try SettingsSidecar.read(SettingsSidecar.path(forBoard: path)).rules
        return (board, info)
    }

    /// Whether the board file has no write permission bit (Lanes then shows it and never writes it).
    public var isReadOnly: Bool {
        guard case .success(let st) = POSIX.status(path) else { return false }
        return st.st_mode & 0o222 == 0
    }

    // MARK: BoardStore

    public func load() throws -> Board {
        let disk = try readDisk()
        guard let board = disk.board, let fp = disk.fingerprint else { throw StorageError.notFound(path: path) }
        known = board
        info = disk.info
        fingerprint = fp
        rulesFingerprint = disk.rulesFingerprint
        return board
    }

    public var changeDescriptor: Int32? { watcher?.descriptor }

    public func refresh() throws -> Board? {
        // Events only wake the caller (our own saves make some); the stat decides.
        watcher?.drain()
        guard looksChangedOnDisk() else { return nil }
        let disk: Disk
        do {
            disk = try readDisk()
        } catch StorageError.stillBeingWritten {
            return nil  // another program is writing it in place: the board on screen stays until it is done
        }
        guard let adopted = adopt(disk) else {
            // Same bytes (touched, or rewritten identically): remember the new metadata only.
            fingerprint = disk.fingerprint ?? fingerprint
            rulesFingerprint = disk.rulesFingerprint
            return nil
        }
        known = adopted.board
        info = adopted.info
        fingerprint = disk.fingerprint ?? fingerprint
        rulesFingerprint = disk.rulesFingerprint
        lastChangeWriter = writer(of: disk)
        return adopted.board
    }

    public func commit(base: Board, ours: Board) throws -> CommitOutcome {
        let target = (try? POSIX.resolveFinalLinks(path).get()) ?? path
        return try WriteLock.holding(target) { try mergeAndWrite(base: base, ours: ours) }
    }

    /// The read–merge–write of `commit`, under the write lock.
    private func mergeAndWrite(base: Board, ours: Board) throws -> CommitOutcome {
        var mustRead = false
        lastChangeWriter = nil
        // A save another process left half done is finished first (the board it leaves is what we merge with).
        if let words = try SafeFile.finishInterruptedSave(of: path, lockHeld: true) {
            StorageNotes.add(words)
            mustRead = true
        }
        for _ in 0..<8 {
            // What the files hold now, in our identities.
            var theirs = known
            var theirsInfo = info
            var incoming = 0
            var diskFP = fingerprint
            var diskRulesFP = rulesFingerprint
            var fileMissing = false
            if mustRead || looksChangedOnDisk() {
                let disk = try readDisk(lockHeld: true)
                diskFP = disk.fingerprint
                diskRulesFP = disk.rulesFingerprint
                fileMissing = disk.board == nil
                if let adopted = adopt(disk) {
                    theirs = adopted.board
                    theirsInfo = adopted.info
                    incoming = adopted.incoming
                    lastChangeWriter = writer(of: disk)
                }
            }
            var result = ours
            var conflicts: [BoardConflict] = []
            if base == ours {
                result = theirs
            } else if base != theirs {
                let merged = BoardMerge.merge(base: base, ours: ours, theirs: theirs)
                result = merged.board
                conflicts = merged.conflicts
            }
            do {
                var newFP = diskFP
                var newRulesFP = diskRulesFP
                // Column spacing is kept by column: follow renames and moves from theirs to the result.
                let writtenInfo = theirsInfo.following(theirs, to: result)
                if fileMissing || !Self.sameFile(result, theirs) {
                    let bytes = Array(BoardFormat.serialize(result, info: writtenInfo, cache: textCache).utf8)
                    if let why = BoardFormat.changedReading(bytes, board: result, info: writtenInfo) {
                        // Saved, the file would say something else than the board: refused, the file as it was.
                        throw StorageError.writeFailed(
                            path: path,
                            reason:
                                "written, \(why), so Obsidian and Lanes would show other cards than the board has; undo the change, or move the lines after that lane's list"
                        )
                    }
                    let note = writerNote
                    newFP = try SafeFile.writeAtomically(
                        bytes, to: path, expecting: fileMissing ? nil : diskFP,
                        beforeReplacing: note.map { n in { target, fp in n.put(beside: target, for: fp) } })
                }
                if result.acceptRules != theirs.acceptRules {
                    newRulesFP = try writeRules(result.acceptRules, expecting: diskRulesFP)
                }
                known = result
                info = writtenInfo
                fingerprint = newFP
                rulesFingerprint = newRulesFP
                return CommitOutcome(
                    board: result, conflicts: conflicts, incomingChanges: incoming,
                    incomingWriter: incoming > 0 ? lastChangeWriter : nil)
            } catch StorageError.modifiedOnDisk {
                // Another program wrote between our read and our rename: read and merge again.
                mustRead = true
                continue
            }
        }
        throw StorageError.writeFailed(path: path, reason: "it kept changing while Lanes merged and saved it")
    }

    // MARK: Pieces

    /// The words of the note beside the board when it names the file as `disk` read it.
    private func writer(of disk: Disk) -> String? {
        guard let fp = disk.fingerprint else { return nil }
        let target = (try? POSIX.resolveFinalLinks(path).get()) ?? path
        return WriterNote.find(beside: target, for: fp)?.words
    }

    /// A cheap look (stat only, no read): whether the board's or the rules file's identity, size or mtime moved.
    public func looksChangedOnDisk() -> Bool {
        looksChanged(path, from: fingerprint, missingMeansChanged: true)
            || looksChanged(rulesPath, from: rulesFingerprint, missingMeansChanged: false)
    }

    private func looksChanged(_ file: String, from fp: FileFingerprint?, missingMeansChanged: Bool) -> Bool {
        guard case .success(let st) = POSIX.status(file) else { return fp != nil || missingMeansChanged }
        guard let fp else { return true }
        return !FileFingerprint(status: st, content: []).sameMetadata(as: fp)
    }

    private struct Disk {
        /// nil when the board file is missing (deleted by someone).
        var board: Board?
        var info: BoardFileInfo
        var fingerprint: FileFingerprint?
        var rulesFingerprint: FileFingerprint?
        var rules: AcceptRules
    }

    /// How long a board file must have been left alone before it is read: an editor that
    /// truncates the file and writes it again in place leaves it empty or half-written for a moment.
    static let defaultQuietPeriod = 0.1
    /// This store's quiet period (`defaultQuietPeriod`). Tests whose writers never leave a file half
    /// written (one thread, whole writes) set 0: the file's age is the file system's clock, which no
    /// test can drive, and where the file system keeps no birth time a file replaced by rename that
    /// got the inode number just freed reads as written in place and would cost each read up to this long.
    var quietPeriod = FileBoardStore.defaultQuietPeriod
    /// How long a read waits for a file that keeps being written before reading it anyway.
    static let settleLimit = 3.0

    /// Reads both files as they are now; a malformed one throws its `file:line:` error.
    ///
    /// A board file that was changed less than `quietPeriod` ago is waited for (another program
    /// may be writing it in place), and after parsing, the file is checked again: when it changed
    /// while it was read and parsed, it is read again, so a partial file is never taken for the board.
    private func readDisk(lockHeld: Bool = false) throws -> Disk {
        let (rules, rulesFP) = try SettingsSidecar.read(rulesPath)
        try SafeFile.finishInterruptedSaveNoting(path, lockHeld: lockHeld)
        let deadline = Self.now() + Self.settleLimit
        while true {
            if Self.openForWriting(path) {
                // Another program has it open for writing (truncated, not yet written back): what it
                // holds now is not a board. Wait until it lets go (the next look retries after the limit).
                guard Self.now() < deadline else { throw StorageError.stillBeingWritten(path: path) }
                usleep(20_000)
                continue
            }
            if case .success(let st) = POSIX.status(path), writtenInPlace(st) {
                let age = Self.now() - Self.modified(st)
                if age >= 0 && age < quietPeriod {
                    // Never read what may be half-written: give up for now (the next look retries).
                    guard Self.now() < deadline else { throw StorageError.stillBeingWritten(path: path) }
                    usleep(useconds_t((quietPeriod - age) * 1e6) + 1000)
                    continue
                }
            }
            do {
                let (bytes, fp) = try SafeFile.read(path)
                let parsed: (board: Board, info: BoardFileInfo)
                do {
                    parsed = try BoardFormat.parse(bytes, file: path)
                } catch {
                    if changedSince(fp) {
                        guard Self.now() < deadline else { throw StorageError.stillBeingWritten(path: path) }
                        continue
                    }
                    throw error
                }
                if changedSince(fp) {
                    guard Self.now() < deadline else { throw StorageError.stillBeingWritten(path: path) }
                    continue
                }
                var board = parsed.board
                board.acceptRules = rules
                return Disk(board: board, info: parsed.info, fingerprint: fp, rulesFingerprint: rulesFP, rules: rules)
            } catch StorageError.notFound {
                return Disk(board: nil, info: info, fingerprint: nil, rulesFingerprint: rulesFP, rules: rules)
            }
        }
    }

    /// Whether another process has the file open for writing: a read lease (`F_SETLEASE`,
    /// `F_RDLCK`) is refused exactly then (EAGAIN), and is let go at once. Where leases are not
    /// allowed (a file of another user without CAP_LEASE, NFS), false: the quiet period is all.
    /// No owner is set on the descriptor (`F_SETOWN`), so a writer opening it meanwhile sends no
    /// signal; it waits only until the lease is released, microseconds later.
    static func openForWriting(_ path: String) -> Bool {
        #if os(Linux)
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            let setLease: Int32 = 1024  // F_SETLEASE
            if fcntl(fd, setLease, Int32(F_RDLCK)) == 0 {
                _ = fcntl(fd, setLease, Int32(F_UNLCK))
                return false
            }
            return errno == EAGAIN
        #else
            return false
        #endif
    }

    /// Waits until no other program has the board file open for writing (up to `settleLimit`);
    /// throws `stillBeingWritten` when one still has. Before a board is opened or read whole.
    static func settle(_ path: String) throws {
        let deadline = now() + settleLimit
        while openForWriting(path) {
            guard now() < deadline else { throw StorageError.stillBeingWritten(path: path) }
            usleep(20_000)
        }
    }

    /// Whether the board file's metadata moved from `fp`, or it was changed within the quiet period.
    private func changedSince(_ fp: FileFingerprint) -> Bool {
        if Self.openForWriting(path) { return true }
        guard case .success(let st) = POSIX.status(path) else { return true }
        if !FileFingerprint(status: st, content: []).sameMetadata(as: fp) { return true }
        guard writtenInPlace(st) else { return false }
        let age = Self.now() - Self.modified(st)
        return age >= 0 && age < quietPeriod
    }

    /// Whether the file is the one last read or written (same device and inode, and birth time
    /// where the file system keeps one): changed in place, so possibly still being written. A file
    /// replaced by a rename (how Lanes and most tools save) is complete the moment it appears, even
    /// when it got the inode number of the one it replaced (`FileBirth`).
    func writtenInPlace(_ st: stat) -> Bool {
        guard let fp = fingerprint else { return false }
        let now = FileFingerprint(status: st, content: [])
        guard now.device == fp.device && now.inode == fp.inode else { return false }
        return FileBirth.isSameFile(path, inode: fp.inode, as: fingerprintBirth)
    }

    private static func modified(_ st: stat) -> Double {
        let fp = FileFingerprint(status: st, content: [])
        return Double(fp.modificationSeconds) + Double(fp.modificationNanoseconds) / 1e9
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// What the disk holds, folded into our identities; nil when it holds what we know.
    private func adopt(_ disk: Disk) -> (board: Board, info: BoardFileInfo, incoming: Int)? {
        guard var parsed = disk.board else {
            // The file was deleted: keep what we know (the next commit writes it again).
            if disk.rules == known.acceptRules { return nil }
            var board = known
            board.acceptRules = disk.rules
            return (board, info, 0)
        }
        parsed.acceptRules = disk.rules
        if disk.fingerprint?.contentHash == fingerprint?.contentHash && disk.rules == known.acceptRules { return nil }
        let merged = BoardMerge.merge(base: known, ours: known, theirs: parsed, matching: (.identity, .content))
        if merged.board == known { return nil }
        return (merged.board, disk.info.remapped(through: merged, theirs: parsed), merged.incomingChanges)
    }

    /// Writes the rules sidecar, or deletes it when it would hold nothing a person wrote.
    private func writeRules(_ rules: AcceptRules, expecting expected: FileFingerprint?) throws -> FileFingerprint? {
        if rules.isDisposable {
            guard let expected else { return nil }
            guard try SafeFile.fingerprint(rulesPath) == expected else {
                throw StorageError.modifiedOnDisk(path: rulesPath)
            }
            if unlink(rulesPath) != 0 && errno != ENOENT {
                throw StorageError.writeFailed(path: rulesPath, reason: POSIX.message(errno))
            }
            return nil
        }
        return try SafeFile.writeAtomically(
            Array(rules.serialized().utf8), to: rulesPath, expecting: expected, besideOnly: true)
    }

    /// Whether two boards give the same board file (the rules live in the sidecar).
    private static func sameFile(_ a: Board, _ b: Board) -> Bool {
        var a = a
        a.acceptRules = b.acceptRules
        return a == b
    }
}
