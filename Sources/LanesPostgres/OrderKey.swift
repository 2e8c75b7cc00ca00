/// Sort keys for cards and columns: strings in base 62 (`0-9A-Za-z`, ordered as bytes) read as
/// fractions, so a key fits between any two others and a move rewrites one row.
///
/// A key never ends in `0`, so there is always room before it; keys grow by about one character
/// per six insertions at the same place, and stay short under scattered moves.
public enum OrderKey {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let base = 62

    /// A key strictly between `a` and `b` in the order the database sorts keys (bytes; nil: no
    /// bound on that side), or nil when none fits. Keys Lanes wrote always leave room; keys a
    /// member wrote by hand may not (two equal keys, a key one `0` longer than its neighbour's,
    /// a byte outside the digits): then the caller gives the column fresh keys.
    public static func between(_ a: String?, _ b: String?) -> String? {
        // Ours: digits, no trailing `0` (so bytes and fractions order them alike), in order.
        if let da = a == nil ? [] : decode(a!), !endsInZero(a) {
            guard let b else { return encode(midpoint(da[...], nil)) }
            if let db = decode(b), !endsInZero(b), compare(da, db) < 0 { return encode(midpoint(da[...], db[...])) }
        }
        return bytesBetween(Array((a ?? "").utf8), b.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A key of digits strictly between `a` and `b` as bytes, for keys that are not fractions of ours.
    private static func bytesBetween(_ a: [UInt8], _ b: [UInt8]?) -> [UInt8]? {
        let middle = digits[base / 2]
        guard let b else { return a + [middle] }
        guard a.lexicographicallyPrecedes(b) else { return nil }  // equal, or the wrong way round
        var n = 0
        while n < a.count, a[n] == b[n] { n += 1 }
        // They differ at n: anything after `a` stays below `b`.
        if n < a.count { return a + [middle] }
        // `a` is the start of `b`: a digit below b's next byte ("0" and a middle digit when only
        // "0" is below it), or "0" when more follows a "0"; nothing when a "0" ends `b` or a byte
        // below every digit comes next.
        let next = b[n]
        if next > digits[0] {
            if let below = digits.last(where: { $0 < next }), below > digits[0] { return a + [below] }
            return a + [digits[0], middle]
        }
        if next == digits[0], b.count > n + 1 { return a + [digits[0]] }
        return nil
    }

    private static func endsInZero(_ key: String?) -> Bool { key?.utf8.last == digits[0] }

    /// `count` increasing keys of one width, evenly spread (a column written in one go).
    public static func spread(_ count: Int) -> [String] {
        var width = 1
        var capacity = base
        while capacity <= count { width += 1; capacity *= base }
        let step = capacity / (count + 1)
        return (0..<count).map { i in
            var v = (i + 1) * step
            var out = [UInt8](repeating: digits[0], count: width)
            for p in stride(from: width - 1, through: 0, by: -1) {
                out[p] = digits[v % base]
                v /= base
            }
            // A middle digit at the end keeps the rule "never ends in 0" and leaves room on both sides.
            return String(decoding: out + [digits[base / 2]], as: UTF8.self)
        }
    }

    private static func midpoint(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>?) -> [Int] {
        if let b {
            var n = 0
            while n < b.count, digit(a, n) == b[b.startIndex + n] { n += 1 }
            if n > 0 {
                return Array(b.prefix(n)) + midpoint(a.dropFirst(n), b.dropFirst(n))
            }
        }
        let lo = a.first ?? 0
        let hi = b?.first ?? base
        if hi - lo > 1 { return [(lo + hi) / 2] }
        if let b, b.count > 1 { return [b[b.startIndex]] }
        return [lo] + midpoint(a.dropFirst(), nil)
    }

    private static func digit(_ a: ArraySlice<Int>, _ n: Int) -> Int {
        n < a.count ? a[a.startIndex + n] : 0
    }

    private static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// The key's digits, or nil when a byte is not one (a key written by hand).
    private static func decode(_ s: String) -> [Int]? {
        var out: [Int] = []
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(Int(c - UInt8(ascii: "0")))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(Int(c - UInt8(ascii: "A")) + 10)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): out.append(Int(c - UInt8(ascii: "a")) + 36)
            default: return nil
            }
        }
        return out
    }

    private static func encode(_ d: [Int]) -> String {
        String(decoding: d.map { digits[$0] }, as: UTF8.self)
    }
}
