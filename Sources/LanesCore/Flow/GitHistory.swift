#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A board file's history read from its git repository: every commit that changed it, oldest
/// first, along the first-parent line of HEAD (a merge brings a branch's changes at the merge).
///
/// Two git processes read the whole history, however long: `git log --follow --raw` lists the
/// commits, their authors and blob ids (following renames), `git cat-file --batch` streams the blobs.
/// A commit's card events name its author (`FlowEvent.card`'s `by`); uncommitted changes name nobody. What was
/// computed is cached in the repository (`.git/lanes-cache/`), so the next run reads only new
/// commits. Uncommitted changes to the file count as one more version, at the file's modification time.
public enum GitHistory {
    /// Where the board is in git, found by `locate`.
    struct Place {
        var top: String
        var gitDir: String
        var path: String
        var shallow: Bool
        var head: String
    }

    /// The history of the board file at `file`. `useCache: false` ignores and leaves the cache;
    /// `splice: false` parses and matches every version whole (what the splice must agree with).
    public static func read(board file: String, useCache: Bool = true, splice: Bool = true) throws -> FlowHistory {
        let current = try SafeFile.read(file).bytes
        // Not a board: the caller hears the parse error (file:line), before any git work.
        let currentBoard = try BoardFormat.parse(current, file: file).board
        let place = try locate(file)
        var history = FlowHistory(source: "git: \(place.path) in \(place.top)")
        let cachePath = useCache ? cacheFile(place) : nil
        var chain = VersionChain()
        var events: [FlowEvent] = []
        var lastBytes: [UInt8]?
        var tipTime: FlowTime = .min
        var range = "HEAD"
        if let cachePath, let cached = FlowCache.load(cachePath), cached.path == place.path,
            cached.tip == place.head || (try? onFirstParentLine(cached.tip, of: place)) == true
        {
            chain = VersionChain(
                last: cached.lastBoard, keys: cached.keys, columns: cached.columns, time: cached.lastTime,
                nextCard: cached.nextCard, nextColumn: cached.nextColumn)
            events = cached.events
            history.versions = cached.versions
            history.skipped = cached.skipped
            history.notes = cached.notes
            lastBytes = cached.lastBytes
            tipTime = cached.lastTime
            range = cached.tip == place.head ? "" : cached.tip + "..HEAD"
        }
        if !range.isEmpty {
            let commits = try listCommits(place, range: range)
            if commits.isEmpty && events.isEmpty && range == "HEAD" {
                throw NoHistory(
                    "\(file) has no history yet: it was never committed to its git repository (\(place.top)). "
                        + "Commit it (git add \(file) && git commit); each commit from then on is a version the metrics read."
                )
            }
            try readVersions(
                commits, place: place, chain: &chain, history: &history, lastBytes: &lastBytes, splicing: splice)
            events += chain.takeEvents()
            if let cachePath {
                FlowCache(
                    path: place.path, tip: place.head, lastBytes: lastBytes ?? [], lastBoard: chain.lastBoard,
                    keys: chain.lastKeys, columns: chain.lastColumns, lastTime: chain.lastTime,
                    nextCard: chain.counters.card, nextColumn: chain.counters.column, versions: history.versions,
                    skipped: history.skipped, notes: history.notes, events: events
                ).save(cachePath)
            }
            tipTime = chain.lastTime
        }
        if events.isEmpty && history.versions == 0 {
            throw NoHistory(
                "\(file) has no history yet: no commit of \(place.top) changed it. Commit it; each commit from then on is a version the metrics read."
            )
        }
        if place.shallow, let first = events.first?.time {
            history.notes.insert(
                "the repository is a shallow clone: its history starts at \(FlowDate.iso(first)); "
                    + "cards on the board then count from that moment (git fetch --unshallow gives the whole history)",
                at: 0)
        }
        // Uncommitted changes: one more version, at the file's modification time.
        if lastBytes.map({ $0 != current }) ?? true {
            var st = stat()
            let mtime = stat(file, &st) == 0 ? FlowTime(st.st_mtim.tv_sec) : tipTime
            let at = max(mtime, tipTime)
            chain.author = nil
            chain.add(currentBoard, at: at)
            events += chain.takeEvents()
            history.versions += 1
            history.notes.append(
                "uncommitted changes to \(POSIX.lastComponent(of: file)) count as a version at its last modification, \(FlowDate.iso(at))"
            )
        }
        if chain.earlierDated > 0 {
            history.notes.append(
                "\(chain.earlierDated) commit(s) dated before the commit before them were taken at that commit's time")
        }
        history.events = events
        history.wholeMatches = chain.wholeMatches
        history.lastBoard = chain.lastBoard
        history.lastKeys = chain.lastKeys
        return history
    }

    // MARK: Finding the repository

    static func git(_ place: Place?, _ args: [String], in folder: String? = nil) throws(NoHistory) -> (
        output: String, status: Int32, error: String
    ) {
        var full = ["git"]
        if let top = place?.top ?? folder { full += ["-C", top] }
        return try Subprocess.run(full + ["-c", "core.quotepath=off"] + args)
    }

    static func locate(_ file: String) throws -> Place {
        let resolved = (try? POSIX.resolveFinalLinks(file).get()) ?? file
        let folder = POSIX.directory(of: resolved)
        guard let realFolder = realPath(folder) else { throw StorageError.notFound(path: file) }
        let realFile = POSIX.join(realFolder, POSIX.lastComponent(of: resolved))
        let probe = try git(
            nil, ["rev-parse", "--show-toplevel", "--absolute-git-dir", "--is-shallow-repository"], in: realFolder)
        guard probe.status == 0 else {
            if probe.error.contains("not a git repository") {
                throw NoHistory(
                    "\(file) is not in a git repository, so it has no history to read. "
                        + "Keep the board in git (git init; git add \(POSIX.lastComponent(of: file)); git commit) and commit its changes: each commit is a version the metrics read."
                )
            }
            throw NoHistory("git cannot read the repository of \(file): \(probe.error)")
        }
        let lines = probe.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3 else { throw NoHistory("git rev-parse answered unexpectedly: \(probe.output)") }
        let top = realPath(lines[0]) ?? lines[0]
        var path = String(realFile.dropFirst(top.count))
        while path.hasPrefix("/") { path.removeFirst() }
        let head = try git(nil, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], in: top)
        guard head.status == 0 else {
            throw NoHistory(
                "\(file) has no history yet: its git repository (\(top)) has no commit. "
                    + "Commit the board (git add \(path) && git commit); each commit from then on is a version the metrics read."
            )
        }
        return Place(top: top, gitDir: lines[1], path: path, shallow: lines[2] == "true", head: head.output)
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether `commit` is on HEAD's first-parent line (so the history up to it is a prefix of HEAD's).
    static func onFirstParentLine(_ commit: String, of place: Place) throws -> Bool {
        let r = try git(place, ["rev-list", "--first-parent", "--parents", commit + "..HEAD"])
        guard r.status == 0 else { return false }
        guard let oldest = r.output.split(separator: "\n").last else { return commit == place.head }
        let fields = oldest.split(separator: " ")
        return fields.count > 1 && fields[1] == commit
    }

    // MARK: Commits and blobs

    struct Commit {
        var hash: String
        var time: FlowTime
        /// `Name <email>` after the repository's .mailmap (`%aN <%aE>`).
        var author: String
        /// nil: the file is absent in this commit (deleted).
        var blob: String?
        var path: String
        var renamedFrom: String?
    }

    /// The commits in `range` that changed the board, oldest first (one `git log` process).
    static func listCommits(_ place: Place, range: String) throws -> [Commit] {
        let p = try Subprocess([
            "git", "-C", place.top, "-c", "core.quotepath=off", "-c", "log.showSignature=false",
            "log", "--first-parent", "--follow", "-M", "--no-abbrev", "--raw", "-z", "--no-color",
            "--no-ext-diff", "--no-textconv", "--format=%x01%H %ct %aN <%aE>", range, "--", place.path,
        ])
        var commits: [Commit] = []
        while let byte = p.peek() {
            if byte == 0x0A { _ = p.read(count: 1); continue }
            guard byte == 0x01 else {
                _ = p.read(until: 0x01)
                continue
            }
            _ = p.read(count: 1)
            guard let header = p.read(until: 0) else { break }
            let fields = String(decoding: header, as: UTF8.self).split(
                separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let time = FlowTime(fields[1]) else { continue }
            var commit = Commit(
                hash: String(fields[0]), time: time, author: String(fields[2]), blob: nil, path: place.path)
            var sawEntry = false
            while let next = p.peek(), next == 0x0A || next == UInt8(ascii: ":") {
                if next == 0x0A { _ = p.read(count: 1); continue }
                guard let raw = p.read(until: 0) else { break }
                let parts = String(decoding: raw.dropFirst(), as: UTF8.self).split(separator: " ")
                guard parts.count >= 5 else { continue }
                let status = parts[4]
                let newBlob = String(parts[3])
                let first = p.read(until: 0).map { String(decoding: $0, as: UTF8.self) } ?? ""
                var path = first
                if status.hasPrefix("R") || status.hasPrefix("C") {
                    path = p.read(until: 0).map { String(decoding: $0, as: UTF8.self) } ?? first
                    if status.hasPrefix("R") { commit.renamedFrom = first }
                }
                commit.path = path
                commit.blob = status.hasPrefix("D") || newBlob.allSatisfy({ $0 == "0" }) ? nil : newBlob
                sawEntry = true
            }
            if sawEntry { commits.append(commit) }
        }
        let (status, error) = p.finish()
        guard status == 0 else { throw NoHistory("git log failed for \(place.path): \(error)") }
        return commits.reversed()
    }

    /// Reads each commit's version (one `git cat-file --batch` process) and adds it to the chain.
    static func readVersions(
        _ commits: [Commit], place: Place, chain: inout VersionChain, history: inout FlowHistory,
        lastBytes: inout [UInt8]?, splicing: Bool = true
    ) throws {
        guard !commits.isEmpty else { return }
        var template = Array("/tmp/lanes-blobs-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw NoHistory("cannot create a temporary file: \(POSIX.message(errno))") }
        let listPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(listPath) }
        var list: [UInt8] = []
        for c in commits { if let b = c.blob { list += Array(b.utf8); list.append(0x0A) } }
        let wrote = list.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard wrote == list.count else { throw NoHistory("cannot write a temporary file: \(POSIX.message(errno))") }
        let p = try Subprocess(["git", "-C", place.top, "cat-file", "--batch"], input: listPath)
        var lastBlob: String? = lastBytes == nil ? nil : "(cached)"
        var splice =
            splicing ? lastBytes.flatMap { $0.isEmpty ? nil : VersionSplice(bytes: $0, board: chain.lastBoard) } : nil
        for c in commits {
            history.versions += 1
            chain.author = c.author
            if let from = c.renamedFrom {
                history.notes.append(
                    "followed the rename of \(from) to \(c.path) in commit \(c.hash.prefix(10)) (\(FlowDate.iso(c.time)))"
                )
            }
            guard let blob = c.blob else {
                if lastBlob != nil { chain.add(nil, at: c.time) }
                lastBlob = nil
                lastBytes = []
                splice = nil
                continue
            }
            guard let header = p.read(until: 0x0A) else {
                throw NoHistory("git cat-file ended early reading \(place.path)")
            }
            let fields = String(decoding: header, as: UTF8.self).split(separator: " ")
            guard fields.count == 3, fields[1] == "blob", let size = Int(fields[2]), let bytes = p.read(count: size)
            else {
                history.skipped.append(
                    SkippedVersion(name: c.hash, time: c.time, reason: "its version of \(c.path) is not in this clone"))
                continue
            }
            _ = p.read(count: 1)
            if blob == lastBlob { continue }
            lastBlob = blob
            if let known = lastBytes, known.count == bytes.count,
                known.isEmpty
                    || known.withUnsafeBytes({ k in
                        bytes.withUnsafeBytes { memcmp(k.baseAddress!, $0.baseAddress!, k.count) == 0 }
                    })
            {
                continue
            }
            let content = Array(bytes)
            // Most versions differ from the last in a few cards: only those are parsed and matched.
            if let step = splice?.next(content) {
                chain.add(step.board, removed: step.removed, added: step.added, at: c.time)
                lastBytes = content
                continue
            }
            do {
                let board = try BoardFormat.parse(content, file: "\(c.path) at \(c.hash.prefix(10))").board
                chain.add(board, at: c.time)
                lastBytes = content
                splice = splicing ? VersionSplice(bytes: content, board: board) : nil
            } catch {
                history.skipped.append(SkippedVersion(name: c.hash, time: c.time, reason: "\(error)"))
            }
        }
        let (status, error) = p.finish()
        guard status == 0 else { throw NoHistory("git cat-file failed for \(place.path): \(error)") }
    }

    // MARK: Cache

    static func cacheFile(_ place: Place) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        fnvFold(place.path, into: &h)
        let folder = POSIX.join(place.gitDir, "lanes-cache")
        mkdir(folder, 0o755)
        return POSIX.join(folder, "flow-" + String(h, radix: 16) + ".v\(FlowCache.version)")
    }
}
