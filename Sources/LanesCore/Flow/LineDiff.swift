#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a version's bytes: where each starts, its line feed included in it.
///
/// A version is split once; the next one takes the starts of the lines the two share at the top
/// and bottom from it (`following`) and scans only the bytes between.
struct ByteLines {
    let bytes: [UInt8]
    /// Where each line starts, then `bytes.count`.
    private(set) var starts: [Int]

    var count: Int { starts.count - 1 }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        starts = [0]
        ByteLines.scan(bytes, from: 0, to: bytes.count, into: &starts)
    }

    private init(bytes: [UInt8], starts: [Int]) {
        self.bytes = bytes
        self.starts = starts
    }

    /// Appends the start of each line after the first that begins in `from..<to` (a line ending there counts).
    private static func scan(_ bytes: [UInt8], from: Int, to: Int, into starts: inout [Int]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var at = from
            while at < to, let hit = memchr(base + at, 0x0A, to - at) {
                at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(at)
            }
        }
        if starts.last != to { starts.append(to) }
    }

    /// Line `k`'s bytes, its line feed included.
    @inline(__always) func range(_ k: Int) -> Range<Int> { starts[k]..<starts[k + 1] }

    @inline(__always) func length(_ k: Int) -> Int { starts[k + 1] - starts[k] }

    /// Whether line `k` starts with `prefix` (ASCII).
    @inline(__always) func line(_ k: Int, hasPrefix prefix: StaticString) -> Bool {
        let start = starts[k], n = prefix.utf8CodeUnitCount
        guard starts[k + 1] - start >= n else { return false }
        let p = prefix.utf8Start
        for i in 0..<n where bytes[start + i] != p[i] { return false }
        return true
    }

    /// Whether line `k` is empty or whitespace only.
    func isBlank(_ k: Int) -> Bool {
        for i in range(k) {
            let b = bytes[i]
            if b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return false }
        }
        return true
    }

    /// The lines of `next`, splitting only the bytes after the lines it shares with these at the
    /// top (`top` lines) and before those it shares at the bottom (`bottom` lines).
    func following(_ next: [UInt8], top: Int, bottom: Int) -> ByteLines {
        var s: [Int] = []
        s.reserveCapacity(starts.count + 8)
        s.append(contentsOf: starts[0...top])
        let shift = next.count - bytes.count
        let bottomStart = bottom == 0 ? next.count : starts[count - bottom] + shift
        ByteLines.scan(next, from: s.last!, to: bottomStart, into: &s)
        if bottom > 0 {
            for k in (count - bottom + 1)...count { s.append(starts[k] + shift) }
        }
        return ByteLines(bytes: next, starts: s)
    }

    /// A 64-bit hash of line `k`'s bytes (eight at a time).
    func hash(_ k: Int) -> UInt64 {
        let r = range(k)
        return bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(r.count)
            var i = r.lowerBound
            while i + 8 <= r.upperBound {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < r.upperBound {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            return h ^ (h >> 29)
        }
    }
}

/// Where two versions' lines differ: runs of old lines replaced by runs of new ones, top to bottom.
struct LineHunk: Equatable {
    var old: Range<Int>
    var new: Range<Int>
}

/// The lines two versions share, by Myers' greedy O((N+M)·D) algorithm on line hashes after the
/// common top and bottom are cut off (a move, an edit: D is 2 to 4 however large the board).
enum LineDiff {
    /// How many lines `a` shares with the bytes `y` at the top and at the bottom (byte-compared, 8 bytes at a time).
    static func commonEnds(_ a: ByteLines, _ y: [UInt8]) -> (top: Int, bottom: Int) {
        let x = a.bytes
        let limit = min(x.count, y.count)
        // First differing byte.
        let first = x.withUnsafeBytes { xa in
            y.withUnsafeBytes { ya in
                var i = 0
                while i + 8 <= limit
                    && xa.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        == ya.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                { i += 8 }
                while i < limit && xa[i] == ya[i] { i += 1 }
                return i
            }
        }
        // Lines of `a` wholly before it: the same lines in `y` (the same bytes, each ending in a line feed).
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if a.starts[mid] <= first { lo = mid } else { hi = mid - 1 }
        }
        // The last line of `a` without a line feed may go on in `y`.
        let top = lo == a.count && lo > 0 && x.last != 0x0A ? lo - 1 : lo
        let topEnd = a.starts[top]
        // Bytes equal from the end, not reaching into the shared top.
        let room = limit - topEnd
        let same = x.withUnsafeBytes { xa in
            y.withUnsafeBytes { ya in
                var n = 0
                while n + 8 <= room
                    && xa.loadUnaligned(fromByteOffset: x.count - n - 8, as: UInt64.self)
                        == ya.loadUnaligned(fromByteOffset: y.count - n - 8, as: UInt64.self)
                { n += 8 }
                while n < room && xa[x.count - n - 1] == ya[y.count - n - 1] { n += 1 }
                return n
            }
        }
        // Lines of `a` wholly within the shared tail whose start is a line start in `y` too.
        var bottom = 0
        while bottom < a.count - top {
            let k = a.count - 1 - bottom
            let tail = x.count - a.starts[k]
            guard tail <= same else { break }
            let at = y.count - tail
            guard tail < same || at == topEnd || (at > 0 && y[at - 1] == 0x0A) else { break }
            bottom += 1
        }
        return (top, bottom)
    }

    /// The hunks turning `a` into `b`, or nil when more than `limit` lines differ (the caller reads the version whole).
    /// `top` and `bottom`: the shared lines at the ends (`commonEnds`).
    static func hunks(_ a: ByteLines, _ b: ByteLines, top: Int, bottom: Int, limit: Int = 64) -> [LineHunk]? {
        let n = a.count - top - bottom, m = b.count - top - bottom
        if n == 0 && m == 0 { return [] }
        if n == 0 || m == 0 { return [LineHunk(old: top..<(top + n), new: top..<(top + m))] }
        let ha = (0..<n).map { a.hash(top + $0) }, hb = (0..<m).map { b.hash(top + $0) }
        // Myers: v[k + offset] = furthest x on diagonal k; one copy of v kept per d to walk back.
        let maxD = min(limit, n + m)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...maxD {
            trace.append(v)
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset]) {
                    x = v[k + 1 + offset]
                } else {
                    x = v[k - 1 + offset] + 1
                }
                var y = x - k
                while x < n && y < m && ha[x] == hb[y] { x += 1; y += 1 }
                v[k + offset] = x
                if x >= n && y >= m {
                    found = true
                    break outer
                }
                k += 2
            }
        }
        guard found else { return nil }
        // Walk back: each step d is one deletion or insertion, then a snake.
        var edits: [(x: Int, y: Int, delete: Bool)] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 1, by: -1) {
            let pv = trace[d]
            let k = x - y
            let down = k == -d || (k != d && pv[k - 1 + offset] < pv[k + 1 + offset])
            let pk = down ? k + 1 : k - 1
            let px = pv[pk + offset], py = px - pk
            // Snake back to the end of the edit.
            if down {
                edits.append((px, py, false))  // insertion of b[py]
            } else {
                edits.append((px, py, true))  // deletion of a[px]
            }
            x = px
            y = py
        }
        edits.reverse()
        // Runs of edits with no shared line between them make one hunk.
        var hunks: [LineHunk] = []
        for e in edits {
            let oldRange = e.delete ? (top + e.x)..<(top + e.x + 1) : (top + e.x)..<(top + e.x)
            let newRange = e.delete ? (top + e.y)..<(top + e.y) : (top + e.y)..<(top + e.y + 1)
            if var last = hunks.last, last.old.upperBound == oldRange.lowerBound,
                last.new.upperBound == newRange.lowerBound
            {
                last.old = last.old.lowerBound..<oldRange.upperBound
                last.new = last.new.lowerBound..<newRange.upperBound
                hunks[hunks.count - 1] = last
            } else {
                hunks.append(LineHunk(old: oldRange, new: newRange))
            }
        }
        return hunks
    }
}
