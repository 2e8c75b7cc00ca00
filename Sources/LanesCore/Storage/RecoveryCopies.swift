#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Lanes puts a board it could not save when it must end (SIGTERM, SIGHUP), and finds it again.
///
/// The folder is `$XDG_STATE_HOME/lanes/recovery` (default `~/.local/state/lanes/recovery`;
/// without a home, `/tmp/lanes-recovery-UID`), mode 700. An `index` file there maps each board
/// (its absolute path or URL) to its copies, so the next start of that board can say where
/// they are. Copies are never deleted by Lanes.
public struct RecoveryCopies: Sendable {
    public let folder: String

    public init(environment: [String: String]) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = state + "/lanes/recovery"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = home + "/.local/state/lanes/recovery"
        } else {
            folder = "/tmp/lanes-recovery-\(getuid())"
        }
    }

    /// A path for a copy of the board called `name` (not yet written).
    public func suggestedPath(for name: String, now: Int = Int(time(nil))) -> String {
        let base = POSIX.lastComponent(of: name)
        var safe = String(
            base.unicodeScalars.map {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_"
                    ? Character($0) : "_"
            })
        if safe.isEmpty || safe.allSatisfy({ $0 == "." }) { safe = "board" }
        if safe.count > 80 { safe = String(safe.prefix(80)) }
        var tm = tm()
        var t = time_t(now)
        localtime_r(&t, &tm)
        let stamp =
            four(Int(tm.tm_year) + 1900) + two(Int(tm.tm_mon) + 1) + two(Int(tm.tm_mday)) + "-"
            + two(Int(tm.tm_hour)) + two(Int(tm.tm_min)) + two(Int(tm.tm_sec))
        return folder + "/" + safe + "." + stamp + ".\(getpid())" + (safe.hasSuffix(".md") ? "" : ".md")
    }

    /// Writes `text` as a new copy for `board` and records it in the index; the copy's path.
    public func write(_ text: String, for board: String) throws -> String {
        try makeFolder()
        var path = suggestedPath(for: board)
        var n = 1
        while POSIX.exists(path) {  // never over an earlier copy
            n += 1
            path = suggestedPath(for: board).replacingSuffix(".md", with: "-\(n).md")
        }
        try SafeFile.writeAtomically(Array(text.utf8), to: path, expecting: nil)
        // A name that would break the index's lines is not recorded; the caller still says where the copy went.
        if !board.contains("\t") && !board.contains("\n") {
            var index = readIndex()
            index.append((board, path))
            try writeIndex(index)
        }
        return path
    }

    /// Copies recorded for `board` that still exist; forgets them from the index (said once).
    public func takeCopies(for board: String) -> [String] {
        let index = readIndex()
        let mine = index.filter { $0.board == board && POSIX.exists($0.copy) }.map(\.copy)
        if !mine.isEmpty || index.contains(where: { $0.board == board }) {
            try? writeIndex(index.filter { $0.board != board })
        }
        return mine
    }

    /// Makes the recovery folder (mode 700) when `path` is a file directly in it and it is missing:
    /// "save a copy" suggests a path there before any copy was ever written.
    public func prepareFolder(for path: String) throws {
        guard path.hasPrefix(folder + "/"), !path.dropFirst(folder.count + 1).contains("/") else { return }
        try makeFolder()
    }

    private var indexPath: String { folder + "/index" }

    private func makeFolder() throws {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StorageError.writeFailed(
                    path: folder, reason: "cannot create the folder \(path): \(POSIX.message(errno))")
            }
        }
    }

    private func readIndex() -> [(board: String, copy: String)] {
        guard let (bytes, _) = try? SafeFile.read(indexPath) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    private func writeIndex(_ entries: [(board: String, copy: String)]) throws {
        let text = entries.map { "\($0.board)\t\($0.copy)\n" }.joined()
        try SafeFile.writeAtomically(Array(text.utf8), to: indexPath, expecting: nil)
    }

    private func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private func four(_ n: Int) -> String { String(repeating: "0", count: max(0, 4 - "\(n)".count)) + "\(n)" }
}

private extension String {

    func replacingSuffix(_ suffix: String, with new: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + new : self + new
    }
}

extension POSIX {
    static func exists(_ path: String) -> Bool {
        if case .success = linkStatus(path) { return true }
        return false
    }
}
