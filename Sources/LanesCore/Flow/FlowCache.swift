#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `GitHistory` computed up to a commit, kept in `.git/lanes-cache/` so the next run reads only newer commits.
///
/// A text file: a header naming the format, then `key value` lines, the events one a line, and the
/// last version's bytes. Titles and authors are escaped (`\\`, `\n`, `\r`, `\t`). A file that does
/// not read back exactly is ignored (the history is read again), never trusted in part; so is one
/// of another `version` (version 1 had no authors), which is also another file name.
struct FlowCache {
    static let version = 2
    static let header = "lanes-flow-cache \(version)"

    var path: String
    var tip: String
    var lastBytes: [UInt8]
    var lastBoard: Board
    var keys: [Int]
    var columns: [FlowColumn]
    var lastTime: FlowTime
    var nextCard: Int
    var nextColumn: Int
    var versions: Int
    var skipped: [SkippedVersion]
    var notes: [String]
    var events: [FlowEvent]

    static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x5C || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return s }
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    static func unescape<S: StringProtocol>(_ s: S) -> String {
        guard s.contains("\\") else { return String(s) }
        var out = ""
        var escaped = false
        for ch in s.unicodeScalars {
            if escaped {
                switch ch {
                case "n": out += "\n"
                case "r": out += "\r"
                case "t": out += "\t"
                default: out.unicodeScalars.append(ch)
                }
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    func serialized() -> [UInt8] {
        var t = FlowCache.header + "\n"
        t += "path\t\(FlowCache.escape(path))\n"
        t += "tip\t\(tip)\n"
        t += "time\t\(lastTime)\n"
        t += "next\t\(nextCard)\t\(nextColumn)\n"
        t += "versions\t\(versions)\n"
        t += "keys\t" + keys.map(String.init).joined(separator: " ") + "\n"
        for c in columns { t += "column\t\(c.key)\t\(FlowCache.escape(c.title))\n" }
        for s in skipped { t += "skipped\t\(s.name)\t\(s.time)\t\(FlowCache.escape(s.reason))\n" }
        for n in notes { t += "note\t\(FlowCache.escape(n))\n" }
        for e in events {
            switch e {
            case .columns(let time, let cols):
                t += "C\t\(time)\t\(cols.count)\n"
                for c in cols { t += "\(c.key)\t\(FlowCache.escape(c.title))\n" }
            case .card(let time, let card, let title, let column, let by):
                t += "K\t\(time)\t\(card)\t\(column.map(String.init) ?? "-")\t\(by.map(FlowCache.escape) ?? "")\t"
                t += FlowCache.escape(title) + "\n"
            }
        }
        t += "bytes\t\(lastBytes.count)\n"
        return Array(t.utf8) + lastBytes
    }

    /// Writes the cache atomically (a temporary file renamed over it); a failure only costs the next run time.
    func save(_ file: String) {
        let bytes = serialized()
        let temp = file + ".tmp\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { break }
            done += n
        }
        close(fd)
        if done == bytes.count { rename(temp, file) } else { unlink(temp) }
    }

    /// The cache at `file`, or nil when there is none or it does not read back exactly.
    static func load(_ file: String) -> FlowCache? {
        guard let bytes = try? SafeFile.read(file).bytes else { return nil }
        var lines = LineReader(bytes: bytes)
        guard lines.next() == header,
            let path = lines.field("path").map(unescape),
            let tip = lines.field("tip"),
            let time = lines.field("time").flatMap({ FlowTime($0) }),
            let next = lines.field("next")?.split(separator: "\t"), next.count == 2,
            let nextCard = Int(next[0]), let nextColumn = Int(next[1]),
            let versions = lines.field("versions").flatMap({ Int($0) }),
            let keyText = lines.field("keys")
        else { return nil }
        var keys: [Int] = []
        for k in keyText.split(separator: " ") {
            guard let v = Int(k) else { return nil }
            keys.append(v)
        }
        var columns: [FlowColumn] = [], skipped: [SkippedVersion] = [], notes: [String] = [], events: [FlowEvent] = []
        var lastBytes: [UInt8]?
        while let line = lines.next() {
            let f = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
            switch f[0] {
            case "column":
                guard f.count == 3, let k = Int(f[1]) else { return nil }
                columns.append(FlowColumn(key: k, title: unescape(f[2])))
            case "skipped":
                guard f.count >= 4, let t = FlowTime(f[2]) else { return nil }
                skipped.append(
                    SkippedVersion(name: String(f[1]), time: t, reason: unescape(f[3...].joined(separator: "\t"))))
            case "note":
                guard f.count >= 2 else { return nil }
                notes.append(unescape(f[1...].joined(separator: "\t")))
            case "C":
                guard f.count == 3, let t = FlowTime(f[1]), let n = Int(f[2]), n >= 0 else { return nil }
                var cols: [FlowColumn] = []
                for _ in 0..<n {
                    guard let l = lines.next() else { return nil }
                    let g = l.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                    guard g.count == 2, let k = Int(g[0]) else { return nil }
                    cols.append(FlowColumn(key: k, title: unescape(g[1])))
                }
                events.append(.columns(time: t, cols))
            case "K":
                guard f.count == 6, let t = FlowTime(f[1]), let card = Int(f[2]) else { return nil }
                let column = f[3] == "-" ? nil : Int(f[3])
                if column == nil && f[3] != "-" { return nil }
                // An author is `Name <email>`, never empty: empty is none.
                let by = f[4].isEmpty ? nil : unescape(f[4])
                events.append(.card(time: t, card: card, title: unescape(f[5]), column: column, by: by))
            case "bytes":
                guard f.count == 2, let n = Int(f[1]), lines.rest.count == n else { return nil }
                lastBytes = Array(lines.rest)
            default:
                return nil
            }
            if lastBytes != nil { break }
        }
        guard let lastBytes else { return nil }
        var board = Board()
        if !lastBytes.isEmpty {
            guard let parsed = try? BoardFormat.parse(lastBytes, file: "cache").board else { return nil }
            board = parsed
        }
        guard board.cardCount == keys.count, board.columns.count == columns.count else { return nil }
        return FlowCache(
            path: path, tip: tip, lastBytes: lastBytes, lastBoard: board, keys: keys, columns: columns,
            lastTime: time, nextCard: nextCard, nextColumn: nextColumn, versions: versions,
            skipped: skipped, notes: notes, events: events)
    }
}

/// Lines of a byte buffer, read one at a time; `rest` is what follows the last line read.
private struct LineReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func next() -> String? {
        guard offset < bytes.count, let end = bytes[offset...].firstIndex(of: 0x0A) else { return nil }
        defer { offset = end + 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// The value of a `name\tvalue` line; nil when the next line is another.
    mutating func field(_ name: String) -> String? {
        guard let line = next() else { return nil }
        let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == name else { return nil }
        return String(parts[1])
    }

    var rest: ArraySlice<UInt8> { bytes[offset...] }
}
